from transformers import TrainingArguments

# PyTorch FSDP, FULL_SHARD (ZeRO-3's sharding), the model in bf16 (no MixedPrecision, 16-bit optimizer states), limit_all_gathers.
# Load the model in bf16 (from_pretrained(..., torch_dtype=torch.bfloat16)): parameters, gradients and AdamW's states stay 16-bit, as planned.
args = TrainingArguments(
    output_dir="output",
    fsdp="full_shard auto_wrap",
    fsdp_config={
        "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"],
        "activation_checkpointing": True,
        "version": 1,
        "backward_prefetch": "backward_pre",
        "forward_prefetch": False,
        "use_orig_params": False,
        "sync_module_states": True,
        "limit_all_gathers": True,
        "cpu_ram_efficient_loading": True,
        "state_dict_type": "SHARDED_STATE_DICT",
    },
    # Micro steps but the last run under no_sync: each GPU keeps the whole unsharded gradient between them, as
    # planned; accelerator_config={"gradient_accumulation_kwargs": {"sync_each_batch": True}} trades it for a
    # reduce-scatter a micro step (plan it with --sync-each-batch on).
    per_device_train_batch_size=1,
    gradient_accumulation_steps=32,  # x 2 GPUs = 64 sequences per step
    learning_rate=0.0002,
    weight_decay=0,
    adam_beta1=0.9,
    adam_beta2=0.999,
    adam_epsilon=1e-08,
    max_grad_norm=0.3,
    bf16=False,
    fp16=False,
    gradient_checkpointing=False,  # FSDP's activation_checkpointing above recomputes
    optim="adamw_torch_fused",
)
