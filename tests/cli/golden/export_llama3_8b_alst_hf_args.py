from accelerate.utils import DeepSpeedSequenceParallelConfig, ParallelismConfig
from transformers import TrainingArguments

# DeepSpeed-Ulysses sequence parallelism 8 (ALST): 1 data-parallel group of 8 GPUs, each group one sequence split 8 ways.
# Requires deepspeed>=0.18.2 accelerate>=1.12 transformers>=5.0 (TRL's SFTTrainer: trl>=0.18.0).
parallelism_config = ParallelismConfig(
    sp_backend="deepspeed",
    sp_size=8,
    dp_shard_size=1,  # dp_replicate 1 x dp_shard 1 x sp 8 = 8 processes
    sp_handler=DeepSpeedSequenceParallelConfig(
        sp_seq_length_is_variable=True,
        sp_attn_implementation="flash_attention_2",
    ),
)
# "Sequences must also be padded to a multiple of sp_size" (Transformers' deepspeed_alst.md): give the collator
# pad_to_multiple_of=8 (DataCollatorForLanguageModeling(tokenizer, mlm=False, pad_to_multiple_of=8)), or TRL's SFTConfig pad_to_multiple_of=8.

# Outside this file:
#   TiledMLP (planned) is not in Transformers ("TiledMLP and activation checkpoint offloading, which aren't available in
#     Transformers", its deepspeed_alst.md): monkey-patch the model's MLP forward to run
#     deepspeed.runtime.sequence_parallel.ulysses_sp.TiledMLP.apply (DeepSpeed's ALST tutorial, "Tiled MLP computation":
#     modeling_llama.LlamaMLP.forward = tiled_mlp_forward_common), or train with ArcticTraining (tiled_mlp_compute: true).
#   Activation checkpoint offload (planned: the checkpointed layer inputs wait in host memory) is not in Transformers either:
#     run each step's forward and backward inside one
#     deepspeed.runtime.activation_checkpointing.offload_activations.get_checkpoint_hidden_states_offloading_ctx_manager()
#     (non-reentrant checkpointing, DeepSpeed's ALST tutorial), or train with ArcticTraining (activation_checkpoint_cpu_offload:
#     true). The ds_config's activation_checkpointing.cpu_checkpointing reaches deepspeed.checkpointing models only.
#   Before launching: export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (planned; DeepSpeed's ALST tutorial).
#     Keep that name despite PyTorch 2.9's deprecation warning: 2.9.1 ignores expandable_segments under
#     PYTORCH_ALLOC_CONF for CUDA (pytorch/pytorch#183387).

# The values transformers copies into the "auto" fields of ds_config_hf.json.
# "auto" reduce_bucket_size becomes hidden_size^2 (the planner sized 2e+08): replace it with an integer to keep the planned buffers.
# At stage 3 "auto" stage3_prefetch_bucket_size becomes 0.9 x hidden_size^2 and stage3_param_persistence_threshold 10 x hidden_size (the planner sized 5e+07 and 100000): replace them with integers to keep the planned sizes.
args = TrainingArguments(
    output_dir="output",
    deepspeed="ds_config_hf.json",
    parallelism_config=parallelism_config,
    per_device_train_batch_size=1,
    gradient_accumulation_steps=64,  # x 1 data-parallel group (8 GPUs / SP 8) = 64 sequences per step
    learning_rate=2e-05,
    weight_decay=0.1,
    adam_beta1=0.9,
    adam_beta2=0.95,
    adam_epsilon=1e-08,
    max_grad_norm=1,
    bf16=True,
    fp16=False,
    gradient_checkpointing=True,
    gradient_checkpointing_kwargs={"use_reentrant": False},
    use_liger_kernel=True,  # Liger's fused linear cross-entropy: the full logits are never made
)
