#!/bin/sh
# How the frozen 0.1.0 sessions in tests/data/sessions were made, as a script that makes them
# again into a NEW directory, for checking (diff -r against tests/data/sessions), never for
# replacing them: the point of those files is that they stay what 0.1.0 wrote.
#
#   tests/data/sessions/tools/make_frozen_sessions.sh /tmp/frozen-check
#   diff -r -x tools -x README.md -x from-a-newer-version.zplan /tmp/frozen-check tests/data/sessions
#
# It checks out zero-planner 0.1.0 (commit a3d65db) in a temporary worktree, builds its command
# line (no GUI), builds scenario_dump_0.1.0.cpp against that release's core library, and for each
# session writes:
#   v0.1.0-NAME.zplan          the session, written by 0.1.0 (its `session` command, its writer,
#                              or a docs/sessions file of the 0.1.0 tree, which 0.1.0 wrote)
#   v0.1.0-NAME.estimate.json  0.1.0's `estimate --session v0.1.0-NAME.zplan --json`
#   v0.1.0-NAME.scenario.json  every Scenario member 0.1.0 read from the session
# Set ZP010_SRC and ZP010_BUILD to reuse a checkout and build of a3d65db.
set -eu
OUT=${1:?usage: make_frozen_sessions.sh NEW_DIRECTORY}
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
    echo "make_frozen_sessions.sh: $OUT is not empty; the frozen sessions are never regenerated in place" >&2
    exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(git -C "$HERE" rev-parse --show-toplevel)
RELEASE=a3d65db91012efea0b8ca61fa4645fadcb4384aa
WORK=$(mktemp -d)
SRC=${ZP010_SRC:-}
BUILD=${ZP010_BUILD:-}
if [ -z "$SRC" ]; then
    SRC=$WORK/src
    git -C "$REPO" worktree add --detach "$SRC" "$RELEASE"
    trap 'git -C "$REPO" worktree remove --force "$SRC"; rm -rf "$WORK"' EXIT
else
    trap 'rm -rf "$WORK"' EXIT
fi
test "$(git -C "$SRC" rev-parse HEAD)" = "$RELEASE"
if [ -z "$BUILD" ]; then
    BUILD=$WORK/build
    cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DZP_BUILD_GUI=OFF -DZP_BUILD_BENCHMARKS=OFF
    cmake --build "$BUILD" -j2 --target zero-planner
fi
ZP=$BUILD/app/zero-planner
test "$("$ZP" --version)" = "zero-planner 0.1.0"
DUMP=$WORK/scenario_dump_0.1.0
g++ -std=c++20 -O1 -I"$SRC" "$HERE/scenario_dump_0.1.0.cpp" "$BUILD/core/libzero_core.a" -lyaml-cpp -o "$DUMP"

mkdir -p "$OUT"
cd "$OUT"
oracles() {
    "$ZP" estimate --session "v0.1.0-$1.zplan" --json > "v0.1.0-$1.estimate.json"
    "$DUMP" dump "v0.1.0-$1.zplan" > "v0.1.0-$1.scenario.json"
}
from_docs() {  # docs/sessions/NAME.zplan as the 0.1.0 tree has it (0.1.0's `session` command wrote those)
    git -C "$SRC" show "$RELEASE:docs/sessions/$1.zplan" > "v0.1.0-$1.zplan"
    oracles "$1"
}
session() {  # 0.1.0's `session` command with the given options
    name=$1
    shift
    "$ZP" session "$@" -o "v0.1.0-$name.zplan"
    oracles "$name"
}

from_docs first-plan           # the defaults: llama-2-7b on a DGX A100, stage 2, automatic batch
from_docs oom-after            # A100 40GB, stage 1 with CPU optimizer offload, fixed micro batch, global 256
from_docs where-bytes-go       # fixed micro batch and recompute policy
session 70b-infinity --model llama-2-70b --gpus 16 --gpus-per-node 8 --cpu-ram 1024 --nvme 15000 --stage 3 \
    --offload-optimizer nvme --offload-param nvme --optimizer adam --precision fp16 --checkpointing full --global-batch 128
session mixtral-cpu-offload --model mixtral-8x7b --gpus 32 --gpu h100-80gb --stage 3 --offload-optimizer cpu \
    --offload-param cpu --optimizer lamb --checkpointing selective --micro-batch 2 --cpu-ram 2048
session gpt2-xl-paper-fp32 --model gpt2-xl --gpus 4 --gpus-per-node 4 --gpu v100-32gb --precision fp32 \
    --optimizer sgd-momentum --convention paper --stage 1 --headroom 0.1 --mfu 0.3 --cuda-context 2 --fragmentation 0.2
session custom-gpu-13b --params 13B --gpus 8 --gpu-mem 48 --intra-bw 64 --pcie-bw 16 --inter-bw 200 --nvme-bw 10 \
    --optimizer lion --stage 2 --offload-optimizer cpu --overlap-comm off --reduce-bucket-size 5e8 \
    --allgather-bucket-size 5e8 --flash-attention off --cpu-checkpointing on --checkpointing full --zero-init off
session t5-adagrad --model t5-3b --gpus 2 --gpus-per-node 2 --gpu rtx-4090 --optimizer adagrad --stage 3 --seq 512 \
    --global-batch 32 --micro-batch 4
session bloom-sgd-ds-config --model bloom-176b --cluster dgx-h100 --gpus 384 --ds-config "$HERE/ds_config_bloom_sgd.json"
"$DUMP" every-field > v0.1.0-every-field.zplan  # 0.1.0's writer; every stored field away from its default
oracles every-field
echo "wrote $(ls | wc -l) files to $OUT"
