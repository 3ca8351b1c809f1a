import torch
from transformers import AutoModelForCausalLM, BitsAndBytesConfig
from peft import LoraConfig, get_peft_model

MODEL = "meta-llama/Llama-2-70b-hf"  # its Hugging Face repository (or a local path)

bnb_config = BitsAndBytesConfig(
    load_in_4bit=True,
    bnb_4bit_quant_type="nf4",
    bnb_4bit_use_double_quant=True,
    bnb_4bit_compute_dtype=torch.bfloat16,
    bnb_4bit_quant_storage=torch.bfloat16,  # ZeRO-3 partitions the packed weights as this dtype: the model's torch_dtype
)
model = AutoModelForCausalLM.from_pretrained(MODEL, quantization_config=bnb_config, torch_dtype=torch.bfloat16)

lora_config = LoraConfig(
    r=64,
    lora_alpha=8,
    lora_dropout=0,
    target_modules="all-linear",
    task_type="CAUSAL_LM",
)
model = get_peft_model(model, lora_config)

# The planner counts:
# trainable params: 828,375,040 || all params: 69,805,023,232 || trainable%: 1.1867
model.print_trainable_parameters()
