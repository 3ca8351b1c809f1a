#!/usr/bin/env bash
# Megatron-DeepSpeed: tensor 8 x pipeline 1 x data 4 on 32 GPUs (4 nodes x 8).
# Fine-tune: pretrain_gpt.py starts from random weights. Convert the Hugging Face checkpoint first (Megatron-DeepSpeed's tools/hf2megads_weight_converter.py, at these tensor and pipeline sizes; examples_deepspeed/finetune_hf_llama) and add --load <converted checkpoint> --finetune.
# RoPE: Megatron-DeepSpeed's theta is 10000 unless --rotary-position-embeddings-theta gives the model's rope_theta (its config.json: Llama 2's is 10000, Llama 3's 500000; Llama 3.1's rope_scaling has no Megatron-DeepSpeed flag).
set -euo pipefail

: "${DATA_PATH:?set DATA_PATH to the dataset prefix tools/preprocess_data.py wrote (its .bin and .idx)}"
: "${TOKENIZER:?set TOKENIZER to the model's Hugging Face directory or hub id (HFTokenizer)}"
TRAIN_ITERS=${TRAIN_ITERS:-3814698}  # the plan's 1,000,000,000,000 tokens at 64 x 4096 tokens a step; set it for your dataset

export CUDA_DEVICE_MAX_CONNECTIONS=1
grep -qx 'CUDA_DEVICE_MAX_CONNECTIONS=1' .deepspeed_env 2>/dev/null || echo 'CUDA_DEVICE_MAX_CONNECTIONS=1' >> .deepspeed_env

# One line per node: host name and GPU slots (DeepSpeed's hostfile format). Edit the names.
cat > hostfile <<'HOSTS'
node-0 slots=8
node-1 slots=8
node-2 slots=8
node-3 slots=8
HOSTS

deepspeed --hostfile hostfile --num_nodes 4 --num_gpus 8 pretrain_gpt.py \
  --tensor-model-parallel-size 8 \
  --pipeline-model-parallel-size 1 \
  --no-pipeline-parallel \
  --sequence-parallel \
  --num-layers 80 \
  --hidden-size 8192 \
  --ffn-hidden-size 28672 \
  --num-attention-heads 64 \
  --num-key-value-heads 8 \
  --swiglu \
  --normalization rmsnorm \
  --untie-embeddings-and-output-weights \
  --use-rotary-position-embeddings \
  --disable-bias-linear \
  --seq-length 4096 \
  --max-position-embeddings 4096 \
  --micro-batch-size 2 \
  --global-batch-size 64 \
  --bf16 \
  --use-flash-attn-v2 \
  --lr 2e-05 \
  --weight-decay 0.1 \
  --adam-beta1 0.9 \
  --adam-beta2 0.95 \
  --adam-eps 1e-08 \
  --train-iters "$TRAIN_ITERS" \
  --data-path "$DATA_PATH" \
  --tokenizer-type HFTokenizer \
  --tokenizer-model "$TOKENIZER" \
  --zero-stage 3 \
  --deepspeed --deepspeed_config ds_config.json
