#!/usr/bin/env bash
# Megatron-DeepSpeed: tensor 2 x pipeline 2 x data 8 on 32 GPUs (4 nodes x 8).
# Experts: DeepSpeed-MoE with ep_size 8 (a model-code argument, not a ds_config key: --moe-expert-parallel-size below).
# Note: the plan sends each activation whole from every tensor rank between pipeline stages (a mixture: GPTModelPipe asserts DeepSpeed's pipe and grad partitioning off); its ds_config sets pipeline.pipe_partitioned and grad_partitioned to false, which DeepSpeed reads from v0.12.3 (earlier releases slice it whatever the config says).
# Fine-tune: pretrain_gpt.py starts from random weights. Convert the Hugging Face checkpoint first (Megatron-DeepSpeed's tools/hf2megads_weight_converter.py, at these tensor and pipeline sizes; examples_deepspeed/finetune_hf_llama) and add --load <converted checkpoint> --finetune.
# RoPE: Megatron-DeepSpeed's theta is 10000 unless --rotary-position-embeddings-theta gives the model's rope_theta (its config.json: Llama 2's is 10000, Llama 3's 500000; Llama 3.1's rope_scaling has no Megatron-DeepSpeed flag).
set -euo pipefail

: "${DATA_PATH:?set DATA_PATH to the dataset prefix tools/preprocess_data.py wrote (its .bin and .idx)}"
: "${TOKENIZER:?set TOKENIZER to the model's Hugging Face directory or hub id (HFTokenizer)}"
TRAIN_ITERS=${TRAIN_ITERS:-3814698}  # the plan's 1,000,000,000,000 tokens at 64 x 4096 tokens a step; set it for your dataset

# One line per node: host name and GPU slots (DeepSpeed's hostfile format). Edit the names.
cat > hostfile <<'HOSTS'
node-0 slots=8
node-1 slots=8
node-2 slots=8
node-3 slots=8
HOSTS

deepspeed --hostfile hostfile --num_nodes 4 --num_gpus 8 pretrain_gpt.py \
  --tensor-model-parallel-size 2 \
  --pipeline-model-parallel-size 2 \
  --num-experts 8 \
  --expert-interval 1 \
  --topk 2 \
  --moe-expert-parallel-size 8 \
  --moe-train-capacity-factor 1 \
  --moe-min-capacity 4 \
  --create-moe-param-group \
  --num-layers 32 \
  --hidden-size 4096 \
  --ffn-hidden-size 14336 \
  --num-attention-heads 32 \
  --num-key-value-heads 8 \
  --swiglu \
  --normalization rmsnorm \
  --untie-embeddings-and-output-weights \
  --use-rotary-position-embeddings \
  --disable-bias-linear \
  --seq-length 4096 \
  --max-position-embeddings 4096 \
  --micro-batch-size 1 \
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
  --zero-stage 1 \
  --deepspeed --deepspeed_config ds_config.json
