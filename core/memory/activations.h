#pragma once
// Activation memory per GPU (Korthikanti et al., arXiv 2205.05198, Sec. 4 and Table 2),
// generalised to any MLP width, gated MLPs, grouped-query attention, MoE routing and flash attention.
#include "core/model/scenario.h"

namespace zp {

// One transformer layer's stored activations in bytes for s tokens x b sequences, tensors of
// `element_bytes` (the paper's 2: 16-bit training; 4 in fp32 training, where autograd saves fp32
// tensors) and 1-byte dropout masks. Split as the paper does (Sec. 4.1).
struct LayerActivationBytes {
    double attention = 0;  // everything in the attention block except the a*s^2 score tensors
    double scores = 0;     // softmax output, dropout mask and dropout output: 5*a*s^2*b
    double mlp = 0;
    double norms = 0;
    double total() const { return attention + scores + mlp + norms; }
};

// How tensor parallelism splits a layer's activations (Korthikanti et al. Sec. 4.2, Table 2):
// t ranks; with Megatron's sequence parallelism the norms' and dropouts' tensors are split too.
// DeepSpeed-Ulysses (`ulysses` ranks) splits the sequence: each rank keeps s/u tokens' worth of
// every tensor and a/u heads' worth of the s x s scores (activations.cpp shows the algebra).
struct TensorSplit {
    std::int64_t tensor = 1;
    bool sequence_parallel = false;
    // Expert parallelism (core/model/experts.h routed_slots_per_token): the capacity-padded expert
    // rows per token of DeepSpeed's MoE layer; 0 = experts_per_token (the model's own dropless MoE).
    double routed_slots_per_token = 0;
    std::int64_t ulysses = 1;
};

LayerActivationBytes layer_activation_bytes(const ModelSpec& m, std::int64_t seq, std::int64_t micro_batch, double element_bytes = 2.0,
                                            const TensorSplit& split = {});

// The same layer with frozen weights (LoRA's base, or a frozen block of full training): a
// frozen Linear keeps no input for a weight gradient (autograd saves a matmul's input only when
// the weight requires grad), so the inputs of q/k/v, the output projection, the MLP's up/gate
// and its down projection are not kept; what backward needs for the input gradients (Q, K, V,
// the MLP's pre-activations, the norms' inputs) still is. Each adapter adds what it keeps: its
// input (once per distinct input with lora_dropout 0, PEFT's nn.Identity; with dropout, each
// adapter's dropout output and its 1-byte mask) and lora_A's r-wide output.
LayerActivationBytes frozen_layer_activation_bytes(const ModelSpec& m, std::int64_t seq, std::int64_t micro_batch, const FineTune& f,
                                                   double element_bytes = 2.0, const TensorSplit& split = {});

// One layer's MLP under ALST's TiledMLP (Training::tiled_mlp) for `tokens` tokens on this rank:
// its input, kept for backward, and the inner tensors of one shard of about `hidden` tokens.
double tiled_mlp_bytes(const ModelSpec& m, double tokens, double element_bytes, const TensorSplit& split = {});

struct ActivationBytes {
    double per_layer_stored = 0;         // what each layer keeps for backward under the chosen recompute
    double recompute_working = 0;        // full recompute: one layer's activations rebuilt during backward
    double whole_layer = 0;              // one layer's activations with nothing recomputed (flash attention: no scores)
    double gradient_working = 0;         // what backward through one layer adds on top of them (its activations' gradients)
    double embedding_and_logits = 0;     // final norm/head inputs and the logits (16-bit + fp32 for the loss; fp32 only in fp32 training)
    double micro_batches_in_flight = 1;  // pipeline stage (Parallelism::pipeline_rank): micro batches forwarded before its first backward
    double gpu_bytes = 0;                // total on the GPU
    double cpu_bytes_per_gpu = 0;        // cpu_checkpointing: the kept checkpoints live in host memory
    // fp8_gemms: one layer's Linear parameters that run in FP8 on this rank (a t-th under tensor
    // parallelism), whose FP8 copies te.Linear saves for backward (the step timeline prices them
    // with the GPU's bytes per parameter, fp8_weight_copy_bytes_per_param).
    double fp8_weight_params_per_layer = 0;
    // fp8_gemms: the LM head's parameters on this rank when it runs in FP8 too (Accelerate's
    // convert_model turns lm_head into te.Linear as well, accelerate utils/transformer_engine.py):
    // its FP8 copy is saved from the head's forward to its backward, through the loss.
    double fp8_head_weight_params = 0;
};

// `f`: the fine-tuning method; LoRA's layers are frozen layers with adapters, and in full training
// the frozen first layers keep what a frozen layer keeps, or nothing when the embedding is frozen
// too (no gradient flows into them). per_layer_stored is then the average over the layers.
// `par`: tensor, sequence and pipeline parallelism; the bytes are the most loaded rank's (the first
// pipeline stage's when there is more than one).
ActivationBytes activation_bytes(const ModelSpec& m, const Training& t, const FineTune& f = {}, const Parallelism& par = {});

}  // namespace zp
