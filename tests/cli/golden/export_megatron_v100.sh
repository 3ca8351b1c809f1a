#!/usr/bin/env bash
# Megatron-DeepSpeed: tensor 1 x pipeline 1 x data 8 on 8 GPUs (1 node x 8).
# No --use-flash-attn-v2: FlashAttention-2 needs an Ampere or newer GPU, so Megatron-DeepSpeed runs its own attention here, which keeps the s x s scores the plan's flash attention does not (plan with --flash-attention off).
# Fine-tune: pretrain_gpt.py starts from random weights. Convert the Hugging Face checkpoint first (Megatron-DeepSpeed's tools/hf2megads_weight_converter.py, at these tensor and pipeline sizes; examples_deepspeed/finetune_hf_llama) and add --load <converted checkpoint> --finetune.
# RoPE: Megatron-DeepSpeed's theta is 10000 unless --rotary-position-embeddings-theta gives the model's rope_theta (its config.json: Llama 2's is 10000, Llama 3's 500000; Llama 3.1's rope_scaling has no Megatron-DeepSpeed flag).
set -euo pipefail

: "${DATA_PATH:?set DATA_PATH to the dataset prefix tools/preprocess_data.py wrote (its .bin and .idx)}"
: "${TOKENIZER:?set TOKENIZER to the model's Hugging Face directory or hub id (HFTokenizer)}"
TRAIN_ITERS=${TRAIN_ITERS:-3814698}  # the plan's 1,000,000,000,000 tokens at 64 x 4096 tokens a step; set it for your dataset

deepspeed --num_gpus 8 pretrain_gpt.py \
  --tensor-model-parallel-size 1 \
  --pipeline-model-parallel-size 1 \
  --no-pipeline-parallel \
  --num-layers 32 \
  --hidden-size 4096 \
  --ffn-hidden-size 11008 \
  --num-attention-heads 32 \
  --swiglu \
  --normalization rmsnorm \
  --untie-embeddings-and-output-weights \
  --use-rotary-position-embeddings \
  --disable-bias-linear \
  --seq-length 4096 \
  --max-position-embeddings 4096 \
  --micro-batch-size 1 \
  --global-batch-size 64 \
  --fp16 \
  --lr 2e-05 \
  --weight-decay 0.1 \
  --adam-beta1 0.9 \
  --adam-beta2 0.95 \
  --adam-eps 1e-08 \
  --cpu-optimizer \
  --train-iters "$TRAIN_ITERS" \
  --data-path "$DATA_PATH" \
  --tokenizer-type HFTokenizer \
  --tokenizer-model "$TOKENIZER" \
  --zero-stage 3 \
  --deepspeed --deepspeed_config ds_config.json
