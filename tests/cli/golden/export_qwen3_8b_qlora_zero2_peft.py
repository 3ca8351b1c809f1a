import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig
from peft import LoraConfig, get_peft_model
from accelerate import PartialState

MODEL = "Qwen/Qwen3-8B"  # its Hugging Face repository (or a local path)

bnb_config = BitsAndBytesConfig(
    load_in_4bit=True,
    bnb_4bit_quant_type="nf4",
    bnb_4bit_use_double_quant=True,
    bnb_4bit_compute_dtype=torch.bfloat16,
    bnb_4bit_quant_storage=torch.uint8,
)
model = AutoModelForCausalLM.from_pretrained(MODEL, quantization_config=bnb_config, torch_dtype=torch.bfloat16, device_map={"": PartialState().local_process_index})  # each rank quantizes onto its own GPU

lora_config = LoraConfig(
    r=64,
    lora_alpha=16,
    lora_dropout=0,
    target_modules="all-linear",
    task_type="CAUSAL_LM",
)
model = get_peft_model(model, lora_config)

# The planner counts:
# trainable params: 174,587,904 || all params: 8,365,323,264 || trainable%: 2.0870
model.print_trainable_parameters()
