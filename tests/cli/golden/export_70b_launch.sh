#!/usr/bin/env bash
# Launch the planned run: 32 GPUs (4 nodes x 8).
set -euo pipefail

# One line per node: host name and GPU slots (DeepSpeed's hostfile format). Edit the names.
cat > hostfile <<'HOSTS'
node-0 slots=8
node-1 slots=8
node-2 slots=8
node-3 slots=8
HOSTS

deepspeed --hostfile hostfile --num_nodes 4 --num_gpus 8 train.py --deepspeed ds_config.json

# Or with Accelerate (zero-planner export --format accelerate -o accelerate_config.yaml):
# accelerate launch --config_file accelerate_config.yaml train.py
