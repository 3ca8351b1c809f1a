from transformers import TrainingArguments

# The values transformers copies into the "auto" fields of ds_config_hf.json.
# "auto" reduce_bucket_size becomes hidden_size^2 (the planner sized 2e+08): replace it with an integer to keep the planned buffers.
# At stage 3 "auto" stage3_prefetch_bucket_size becomes 0.9 x hidden_size^2 and stage3_param_persistence_threshold 10 x hidden_size (the planner sized 5e+07 and 100000): replace them with integers to keep the planned sizes.
args = TrainingArguments(
    output_dir="output",
    deepspeed="ds_config_hf.json",
    per_device_train_batch_size=2,
    gradient_accumulation_steps=1,  # x 32 GPUs = 64 sequences per step
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
)
