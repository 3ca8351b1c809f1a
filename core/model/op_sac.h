#pragma once
// PyTorch's op-level selective activation checkpointing as torchtitan applies it to every
// transformer block (Checkpointing::SelectiveOp; torchtitan/distributed/activation_checkpoint.py
// _apply_op_sac, its configs' `--activation_checkpoint.mode selective
// --activation_checkpoint.selective_ac_option op`). Under torch.utils.checkpoint's
// create_selective_checkpoint_contexts the block saves the outputs of the ops on its save list
// (aten.mm, the scaled-dot-product attention kernels, tensor parallelism's reduce-scatters) except
// every second mm, counted in the order the forward calls them ("meta[mm_count_key] % 2 == 0":
// the 2nd, 4th, 6th are recomputed), and recomputes everything else in backward: the norms, the
// rotary embedding, the activation function and those matmuls. The block's input is kept as the
// checkpoint's input. Flash attention's output and its log-sum-exp are saved, so attention is not
// recomputed. Its models' linear layers have no biases: an nn.Linear with one runs aten.addmm,
// which the policy neither saves nor counts (scenario.cpp validate_op_sac refuses such a model).
#include "core/model/model_spec.h"

#include <array>

namespace zp {

// One matmul of a transformer block, per token: its input and output widths.
struct BlockMatmul {
    double in = 0, out = 0;
};
struct BlockMatmuls {
    std::array<BlockMatmul, 7> mm{};
    int count = 0;
};
// A dense decoder block's matmuls in the order its forward calls them: q, k and v (one fused
// q/k/v projection where the model has one), the attention output; then the MLP's gate and up
// (one fused gate_up, or the ungated MLP's first projection) and its down projection. The order of
// torchtitan's Llama block (wq, wk, wv, wo; w1, w3, w2) and of transformers' decoders.
BlockMatmuls block_matmuls(const ModelSpec& m);

// Whether op-level SAC saves the output of the block's i-th matmul (0-based): the odd-numbered
// ones, counting from one.
constexpr bool op_sac_saves(int i) { return i % 2 == 0; }

// The block's matmuls op-level SAC re-runs in backward (those it does not save), in order.
BlockMatmuls op_sac_recomputed(const ModelSpec& m);

// Elements per token a block keeps under op-level SAC, 16-bit unless noted: its input, the saved
// matmuls' outputs and the attention output; plus the attention's fp32 log-sum-exp, one per
// head and token (flash-attn's softmax_lse), given apart as `lse_fp32`.
struct OpSacKept {
    double elements = 0;
    double lse_fp32 = 0;
};
OpSacKept op_sac_kept_per_token(const ModelSpec& m);

}  // namespace zp
