#include "core/time/compute_time.h"

#include "core/model/logits.h"
#include "core/model/op_sac.h"

#include "core/memory/model_states.h"
#include "core/model/trainable_params.h"
#include "core/presets/gpu_presets.h"

#include <algorithm>

namespace zp {
namespace {

using namespace compute_model;

// Share of the datasheet HBM bandwidth a streaming kernel reaches (BabelStream/STREAM-like
// copies reach 80-90% on V100, A100 and H100: Deakin et al., "BabelStream" results). Assumed.
constexpr double kHbmEfficiency = 0.85;

struct Rates {
    double flops_per_s;        // achieved GEMM rate
    double bytes_per_s;        // achieved HBM rate
    double flash_flops_per_s;  // achieved flash attention rate (causal FLOPs counted as half)
};

double gemm_seconds(double M, double K, double N, double elem_bytes, const Rates& r) {
    const double flops = 2 * M * K * N;
    const double bytes = elem_bytes * (M * K + K * N + M * N);
    return std::max(flops / r.flops_per_s, bytes / r.bytes_per_s);
}

// QK^T and AV of this rank's heads, forward and backward: `pair_dims` = b s^2 q / (t u), the
// query-key pairs times the query width; `scores` = b heads s^2 / (t u), the score matrix.
struct AttentionSeconds {
    double forward = 0, backward = 0;
};
AttentionSeconds attention_seconds(const ModelSpec& m, const Training& t, double pair_dims, double scores, const Rates& r) {
    const double flops_f = 4 * pair_dims;
    if (t.flash_attention) {
        // A causal mask lets flash attention skip the blocks above the diagonal: half the QK^T and
        // AV work of a decoder's self-attention (FlashAttention-2, Dao 2023, Sec. 3.1.1 "Causal
        // masking"; its Fig. 5 counts causal FLOPs as half). Without flash attention the whole
        // score matrix is computed and then masked.
        // Sliding-window and chunked layers skip more (model_spec.h attention_pair_share).
        const double causal_share =
            m.encoder_decoder ? 1.0 : kCausalAttentionShare * attention_pair_share(m, static_cast<double>(t.seq_len));
        const double f = causal_share * flops_f / r.flash_flops_per_s;
        return {f, 2.5 * f};  // FlashAttention-2 Sec. 3.1.2: backward recomputes S and P, 5 matmuls to forward's 2
    }
    // The batched GEMMs on heads whose width is not a whole number of 16-byte vectors run cuBLAS's
    // narrow-load kernels (kUnalignedHeadGemmShare); flash attention pads such a head instead.
    const double head_bytes = bytes_per_element(t.precision) * static_cast<double>(head_width(m));
    const double gemm_rate = r.flops_per_s * (head_gemms_aligned(head_bytes) ? 1.0 : kUnalignedHeadGemmShare);
    const bool fused = t.attention_softmax == AttentionSoftmax::Fused;
    return {flops_f / gemm_rate + scores * (fused ? kScoreBytesForward : kScoreBytesForwardUnfused) / r.bytes_per_s,
            2 * flops_f / gemm_rate + scores * (fused ? kScoreBytesBackward : kScoreBytesBackwardUnfused) / r.bytes_per_s};
}

// Fine-tuning, one layer's forward: the share of the layers' GEMMs whose weights get gradients;
// the LoRA adapters' GEMMs (a routed expert's on its share of the tokens); QLoRA's dequantisation.
struct FineTuneLayer {
    double weight_grad_share = 1.0, adapter_f = 0, dequant_f = 0, kernels_f = 0;
};
FineTuneLayer finetune_layer(const ModelSpec& m, const FineTune& f, double T, double tp, double elem, const Rates& r) {
    FineTuneLayer out;
    const double L = static_cast<double>(m.layers);
    if (f.adapters()) out.weight_grad_share = 0.0;
    else if (L > 0) out.weight_grad_share = 1.0 - static_cast<double>(std::clamp<std::int64_t>(f.freeze_layers, 0, m.layers)) / L;
    if (!f.adapters() || L <= 0) return out;
    const double rank = static_cast<double>(f.lora_rank);
    for (const LinearModule& mod : adapted_modules(m, f)) {
        if (mod.role == LinearRole::Head) continue;
        const double per_layer = static_cast<double>(mod.count) / L;
        const double tokens = T * mod.token_share;
        const double in = static_cast<double>(mod.in), o = static_cast<double>(mod.out) / tp;
        out.adapter_f += per_layer * (gemm_seconds(tokens, in, rank, elem, r) + gemm_seconds(tokens, rank, o, elem, r));
        out.kernels_f += per_layer * (kKernelsPerAdapterForward + (f.lora_dropout > 0 ? 1.0 : 0.0));
    }
    if (f.method == FineTuneMethod::Qlora) {
        const double weight_in = quantized_weight_bytes(f);
        for (const LinearModule& mod : linear_modules(m)) {
            if (!bnb_quantizes(mod)) continue;
            const double per_layer = static_cast<double>(mod.count) / L;
            out.dequant_f +=
                per_layer * static_cast<double>(mod.in) * static_cast<double>(mod.out) / tp * (weight_in + elem) / r.bytes_per_s;
            out.kernels_f += per_layer;
        }
    }
    return out;
}

// FP8 matmuls (Training::fp8_gemms), one layer: te.Linear quantizes its input in forward (read 2
// bytes, write the rowwise and the columnwise FP8 copies), its weight (the same: Accelerate passes
// no is_first_microbatch, so every forward casts it again) and in backward its output gradient
// (E5M2, both layouts): TE pytorch/module/linear.py at d0067d0. Memory-bound passes, of
// fp8_cast_bytes_per_element each (MXFP8 writes its block scales too).
// The LM head, converted too when both its dimensions divide by 16 (runs_in_fp8), casts once per
// micro step: head_forward / head_backward, outside the layers (not recomputed).
struct Fp8Casts {
    double forward = 0, backward = 0, head_forward = 0, head_backward = 0;
};
Fp8Casts fp8_casts(const ModelSpec& m, double T, double tp, const Rates& r, Fp8Scaling scaling) {
    Fp8Casts out;
    const double cast_bytes = fp8_cast_bytes_per_element(scaling);
    const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    for (const LinearModule& l : linear_modules(m)) {
        const bool head = head_linear_in_fp8(l);
        if (!head && !layer_linear_in_fp8(l)) continue;
        const double per_layer = head ? 1.0 : static_cast<double>(l.count) / L;
        const double tokens = T * l.token_share, in = static_cast<double>(l.in), o = static_cast<double>(l.out);
        // A column-parallel layer's input is whole and its output a t-th; a row-parallel one's the
        // reverse; the head is vocabulary-parallel (column).
        const bool row_parallel = l.role == LinearRole::AttentionOutput || l.role == LinearRole::MlpOutput;
        const double in_r = row_parallel ? in / tp : in, out_r = row_parallel ? o : o / tp;
        const double forward = per_layer * cast_bytes * (tokens * in_r + in * o / tp) / r.bytes_per_s;
        const double backward = per_layer * cast_bytes * tokens * out_r / r.bytes_per_s;
        (head ? out.head_forward : out.forward) += forward;
        (head ? out.head_backward : out.backward) += backward;
    }
    return out;
}
}  // namespace

namespace {
// What transformers' gelu_new adds to a layer over one fused activation kernel (compute_time.h
// kGeluNew*), on `ffn_elements` = this rank's tokens x its share of the MLP width.
struct ActivationExtra {
    double forward = 0, backward = 0, kernels_forward = 0, kernels_backward = 0;
};
ActivationExtra activation_extra(const ModelSpec& m, double elem, double ffn_elements, const Rates& r) {
    if (m.activation != MlpActivation::GeluNew) return {};
    const double pass = elem * ffn_elements / r.bytes_per_s;
    return {kGeluNewExtraPassesForward * pass, kGeluNewExtraPassesBackward * pass, kGeluNewExtraKernelsForward,
            kGeluNewExtraKernelsBackward};
}

// The GPU optimizer's memory-bound update. bitsandbytes' 8-bit moments move a byte (and a block's
// absmax) each way instead of four (F.optimizer_update_8bit_blockwise); paged ones are resident at
// the step when the card has room.
GpuOptimizerRate gpu_optimizer_rate(const Training& t, double bytes_per_second) {
    const MomentBytes moments = optimizer_moment_bytes(t);
    const double moment_bytes_saved = optimizer_moment_bytes_per_param(t.optimizer) - moments.allocated - moments.paged;
    return {kGpuAdamBytesPerParam - 2 * moment_bytes_saved, bytes_per_second};
}

// The loss's passes over `logits` (this rank's tokens x vocabulary): six a logit of its width, 24
// bytes with the fp32 up-cast, 12 without in 16 bits; transformers before 4.46 (LossKernel::Shifted)
// writes and reads one more copy, the shifted logits, in the same width (16 bits where the model's
// forward up-casts nothing: logits.h); a third of them in the forward (log-softmax), the rest in the
// backward (its and nll_loss's gradients). flash-attn's fused cross-entropy (LossKernel::Xentropy;
// csrc/xentropy/xentropy_kernel.cu, apex's: cunn_SoftMaxXEntropyForward reads each row twice, for
// its max and sum and then its exponentials' sum; cunn_SoftMaxXEntropyBackward reads it once more
// and writes the gradient): four passes of the logits' dtype, 8 bytes in 16 bits, half of them in
// each direction.
// After the backward, each of the loop's metrics over the logits (Training::logit_metrics) passes
// over them again, `metric_bytes` a logit (core/model/logits.h metric_traffic_bytes_per_logit): in
// the total, apart from the backward.
struct LossSeconds {
    double total = 0, forward = 0, backward = 0, metrics = 0;
};
LossSeconds loss_seconds(const ModelSpec& m, const Training& t, double logits, double metric_bytes, const Rates& r) {
    const double metrics = returns_logits(t) ? static_cast<double>(t.logit_metrics) * logits * metric_bytes / r.bytes_per_s : 0.0;
    if (t.loss_kernel == LossKernel::Xentropy) {
        const double loss = logits * 4.0 * bytes_per_element(t.precision) / r.bytes_per_s;
        return {loss + metrics, loss / 2, loss / 2, metrics};
    }
    const double width = loss_upcasts(m, t) ? 4.0 : bytes_per_element(t.precision);  // a logit as the loss reads it
    const double loss = logits * (6.0 * width + (t.loss_kernel == LossKernel::Shifted ? 2.0 * width : 0.0)) / r.bytes_per_s;
    return {loss + metrics, loss / 3, 2 * loss / 3, metrics};
}

double streaming_bytes_per_second(const GpuTimeTraits& traits) { return traits.hbm_gbytes_per_s * 1e9 * kHbmEfficiency; }

// Matmuls at `peak_tflops` times the generation's FITTED GEMM efficiency (GpuTimeTraits, scaled by
// Assumptions::gemm_efficiency_scale), flash attention at its own (times
// Assumptions::flash_attention_scale), memory-bound passes at the streaming bandwidth.
Rates rates_at(double peak_tflops, const GpuTimeTraits& traits, double gemm_efficiency_scale, double flash_attention_scale) {
    return {peak_tflops * 1e12 * traits.gemm_efficiency * gemm_efficiency_scale, streaming_bytes_per_second(traits),
            peak_tflops * 1e12 * traits.flash_attention_efficiency * flash_attention_scale};
}
}  // namespace

double streaming_bytes_per_second(const GpuSpec& gpu) { return streaming_bytes_per_second(gpu_time_traits(gpu)); }

GpuOptimizerRate gpu_optimizer_rate(const Training& t, const GpuSpec& gpu) {
    return gpu_optimizer_rate(t, streaming_bytes_per_second(gpu));
}

void add_gpu_optimizer(ComputeTime& c, double optimizer_seconds) {
    c.optimizer_seconds = optimizer_seconds;
    c.memory_seconds += optimizer_seconds;
    c.total_seconds += optimizer_seconds;
}

double gemm_peak_tflops(Precision p, const GpuSpec& gpu, const GpuTimeTraits& traits) {
    // fp32: PyTorch leaves TF32 off for matmuls (torch.backends.cuda.matmul.allow_tf32, False
    // since 1.12; neither DeepSpeed nor the Trainer turns it on unless asked, TrainingArguments.tf32),
    // so they run on the FP32 units. bf16 on a part without bf16 tensor cores (Volta) runs there too.
    if (p == Precision::Fp32 || (p == Precision::Bf16 && !traits.bf16_tensor_cores)) return traits.fp32_tflops;
    return gpu.peak_tflops_16bit;
}

namespace {

// What backward runs again of one layer: its time (at least its launches), its GPU time, and the
// matmuls' part of that; under early stop, the matmul and element-wise time full recompute does not
// run again (the block's last linear and the residual add after it).
struct LayerRecompute {
    double seconds = 0, gpu_seconds = 0, gemm_seconds = 0;
    double gemm_skipped_seconds = 0, elementwise_skipped_seconds = 0;
};

// One layer's forward as the recompute policies re-run it: the whole pass (at least its launches)
// and its GPU time, its attention, its element-wise passes, its launches alone, and its MLP.
struct LayerForward {
    double seconds = 0, gpu_seconds = 0, attention = 0, elementwise = 0, launches = 0, mlp = 0;
    double host_seconds = 0;  // its launches with the engine's forward hooks
    // What comes after the block's last saved tensor: its last linear (the MLP's down projection)
    // and the residual add over its output.
    double last_linear_seconds = 0, last_residual_seconds = 0;
};

// What backward runs again of one layer (Training::checkpointing): full recompute its forward;
// selective its attention core; op-level SAC (core/model/op_sac.h; data parallelism only,
// validate) every second matmul and the element-wise passes, not attention (its output is kept),
// and launch-bound where the layer is, as it launches nearly every kernel of it. TiledMLP
// recomputes each shard's forward in its backward (ulysses_sp.py TiledMLP.backward: "the forward
// occurs twice each iteration", thrice with activation checkpointing): the MLP once more.
// `skips_last_linear` (core/model/scenario.h recompute_skips_last_linear): full recompute stops
// before the block's down projection and the residual add after it.
// `linear(K, N, fp8)`: a matmul over the layer's tokens; `by16(in, out)`: compute_time's.
template <typename Linear, typename By16>
LayerRecompute layer_recompute(const ModelSpec& m, const Training& t, bool skips_last_linear, const LayerForward& f, const Linear& linear,
                               const By16& by16) {
    LayerRecompute rc;
    if (t.checkpointing == Checkpointing::Full) rc = {f.seconds, f.gpu_seconds, 0.0};
    if (skips_last_linear) {
        rc.gemm_skipped_seconds = f.last_linear_seconds;
        rc.elementwise_skipped_seconds = f.last_residual_seconds;
        rc.gpu_seconds = f.gpu_seconds - f.last_linear_seconds - f.last_residual_seconds;
        rc.seconds = std::max(rc.gpu_seconds, f.host_seconds);
    }
    if (t.checkpointing == Checkpointing::Selective) rc = {f.attention, f.attention, 0.0};
    if (t.checkpointing == Checkpointing::SelectiveOp) {
        const BlockMatmuls mms = op_sac_recomputed(m);
        for (int i = 0; i < mms.count; ++i) {
            const BlockMatmul& mm = mms.mm[static_cast<std::size_t>(i)];
            rc.gemm_seconds += linear(mm.in, mm.out, by16(static_cast<std::int64_t>(mm.in), static_cast<std::int64_t>(mm.out)));
        }
        rc.gpu_seconds = rc.gemm_seconds + f.elementwise;
        rc.seconds = std::max(rc.gpu_seconds, f.launches);
    }
    if (t.tiled_mlp) {
        rc.seconds += f.mlp;
        rc.gpu_seconds += f.mlp;
    }
    return rc;
}

}  // namespace

ComputeTime compute_time(const ModelSpec& m, const Training& t, const GpuSpec& gpu, std::int64_t gas, double optimizer_params, double scale,
                         const LayerHooks& hooks, const FineTune& f, double routed_slots_per_token, const RankShare& share,
                         double gemm_efficiency_scale, double flash_attention_scale, bool recompute_early_stop,
                         double metric_bytes_per_logit) {
    const GpuTimeTraits traits = gpu_time_traits(gpu);
    const double elem = bytes_per_element(t.precision);
    const Rates r = rates_at(gemm_peak_tflops(t.precision, gpu, traits), traits, gemm_efficiency_scale, flash_attention_scale);

    const double b = static_cast<double>(t.micro_batch);
    const double s = static_cast<double>(t.seq_len);
    const double tp = std::max(share.tensor, 1.0), u = std::max(share.ulysses, 1.0);
    const double T = b * s / u;  // tokens through this rank's linears
    // The hidden-width elementwise passes: whole on every tensor-parallel rank unless Megatron's
    // sequence parallelism splits their tokens (RankShare).
    const double T_hidden = share.sequence_parallel ? T / tp : T;
    const double h = static_cast<double>(m.hidden);
    const double heads = static_cast<double>(std::max<std::int64_t>(m.heads, 1));
    const double dh = m.head_dim > 0 ? static_cast<double>(m.head_dim) : h / heads;
    const double q = heads * dh;
    const double kv = static_cast<double>(m.kv_heads > 0 ? m.kv_heads : m.heads) * dh;
    // The routed (and shared) experts' width a token passes through.
    const double ffn = routed_slots_per_token > 0 ? mlp_width_per_token(m, routed_slots_per_token) : mlp_width_per_token(m);

    // FP8 matmuls (Training::fp8_gemms): a converted linear's GEMMs (forward, dgrad, wgrad) take
    // 1-byte operands at the GPU's FP8 peak with the 16-bit GEMM efficiency: a peak-ratio estimate,
    // not a measurement. A dimension that does not divide by 16 keeps the linear in 16 bits.
    const Rates r8 = t.fp8_gemms ? rates_at(gpu.peak_tflops_fp8, traits, gemm_efficiency_scale, flash_attention_scale) : r;
    const auto linear = [&](double M, double K, double N, bool dims_fit) {
        const bool fp8 = t.fp8_gemms && dims_fit;
        return gemm_seconds(M, K, N, fp8 ? 1.0 : elem, fp8 ? r8 : r);
    };
    // Which of the layer's linears Accelerate converts (linear_modules.h runs_in_fp8), by the model's
    // own sizes (an expert's width for a mixture); decided only with FP8 on: off the slider path.
    const std::int64_t head_dim = head_width(m);
    const std::int64_t q_width = m.heads * head_dim, kv_width = (m.kv_heads > 0 ? m.kv_heads : m.heads) * head_dim;
    const std::int64_t mlp_width = m.experts > 1 ? expert_ffn(m) : m.ffn;
    const bool layers_fp8 = t.fp8_gemms && layers_convert_to_te(m);
    const auto by16 = [&](std::int64_t in, std::int64_t out) { return layers_fp8 && runs_in_fp8(in, out); };

    // One layer, forward. Fused experts (gpt-oss, Llama-4) are not nn.Linear: their GEMMs stay
    // 16-bit, and Llama-4's shared expert (nn.Linear) is counted with them.
    const bool mlp_fp8 = !experts_are_fused_parameters(m);
    const double down_gemm_f = linear(T, ffn / tp, h, mlp_fp8 && by16(mlp_width, m.hidden));
    const double mlp_gemm_f = linear(T, h, ffn * (m.gated_mlp ? 2.0 : 1.0) / tp, mlp_fp8 && by16(m.hidden, mlp_width)) + down_gemm_f;
    const double gemm_f = linear(T, h, (q + 2 * kv) / tp, by16(m.hidden, q_width) && by16(m.hidden, kv_width)) +
                          linear(T, q / tp, h, by16(q_width, m.hidden)) + mlp_gemm_f;
    const AttentionSeconds attn = attention_seconds(m, t, b * s * s * q / (tp * u), b * heads * s * s / (tp * u), r);
    const double attn_f = attn.forward, attn_b = attn.backward;
    const double ffn_passes = m.gated_mlp ? kFfnPassesGated : kFfnPasses;
    const double elem_f =
        elem *
        (kHiddenPassesReplicated * T_hidden * h + (kHiddenPasses - kHiddenPassesReplicated) * T * h / tp + ffn_passes * T * ffn / tp) /
        r.bytes_per_s;

    double kernels_f = t.flash_attention ? kKernelsPerLayerForwardFlash : kKernelsPerLayerForwardEager;
    const double L = static_cast<double>(m.layers);
    const ActivationExtra act = activation_extra(m, elem, T * ffn / tp, r);
    const double act_f = act.forward, act_b = act.backward;

    const FineTuneLayer ft = finetune_layer(m, f, T, tp, elem, r);
    const double weight_grad_share = ft.weight_grad_share, adapter_f = ft.adapter_f, dequant_f = ft.dequant_f;
    kernels_f += ft.kernels_f;
    const double kernels_b = 2 * kernels_f + act.kernels_backward;
    kernels_f += act.kernels_forward;
    // FP8 matmuls: casting each converted linear's input, weight and output gradient.
    const Fp8Casts casts = t.fp8_gemms ? fp8_casts(m, T, tp, r, t.fp8_scaling) : Fp8Casts{};
    const double gpu_f = gemm_f + attn_f + elem_f + act_f + adapter_f + dequant_f + casts.forward;
    // Backward: the input gradients (1x), the weight gradients of trained weights, 2x the adapters, a dequantisation.
    const double gpu_b = (1.0 + weight_grad_share) * gemm_f + attn_b + 2 * elem_f + act_b + 2 * adapter_f + dequant_f + casts.backward;
    const double layer_f = std::max(gpu_f, kernels_f * hooks.host_seconds_per_kernel + hooks.forward_seconds);
    const double layer_b = std::max(gpu_b, kernels_b * hooks.host_seconds_per_kernel + hooks.backward_seconds);
    const double mlp_elem_f = elem * ffn_passes * T * ffn / tp / r.bytes_per_s;
    const bool skips_last_linear = recompute_skips_last_linear(m, t, f, recompute_early_stop);
    const LayerRecompute rc = layer_recompute(
        m, t, skips_last_linear,
        {layer_f, gpu_f, attn_f, elem_f + act_f + dequant_f + casts.forward, kernels_f * hooks.host_seconds_per_kernel,
         mlp_gemm_f + mlp_elem_f + act_f, kernels_f * hooks.host_seconds_per_kernel + hooks.forward_seconds, down_gemm_f,
         skips_last_linear ? elem * kResidualAddPasses * T_hidden * h / r.bytes_per_s : 0.0},
        [&](double K, double N, bool fits) { return linear(T, K, N, fits); }, by16);

    // LM head and loss, once per micro step: the logits GEMM (forward, then 2x backward) and the
    // loss's passes over the T x V logits (up-cast to fp32, log-softmax, its gradient: loss_seconds).
    const double V = static_cast<double>(m.vocab);
    const double head_f =
        linear(T, h, V / tp, t.fp8_gemms && runs_in_fp8(m.hidden, m.vocab));  // vocabulary-parallel under tensor parallelism
    const LossSeconds loss = loss_seconds(m, t, T * V / tp, metric_bytes_per_logit, r);

    const double G = static_cast<double>(gas);
    const double full = t.checkpointing == Checkpointing::Full ? 1.0 : 0.0;
    const double op_sac = t.checkpointing == Checkpointing::SelectiveOp ? 1.0 : 0.0;  // its element-wise passes again
    ComputeTime c;
    // Per micro step, then x G; everything / scale.
    c.forward_seconds = (L * layer_f + head_f + casts.head_forward + loss.forward) / scale;
    // A frozen LM head (LoRA without it in modules_to_save) computes only its input gradient.
    const double head_b = (f.adapters() && !f.train_lm_head ? 1.0 : 2.0) * head_f;
    c.backward_seconds = (L * (layer_b + rc.seconds) + head_b + casts.head_backward + loss.backward) / scale;
    c.metrics_seconds = loss.metrics / scale;
    c.micro_step_seconds = c.forward_seconds + c.backward_seconds + c.metrics_seconds;
    c.gemm_seconds =
        G *
        (L * ((2 + weight_grad_share + full) * gemm_f + rc.gemm_seconds + (t.tiled_mlp ? mlp_gemm_f : 0.0) + (3 + full) * adapter_f) +
         head_f + head_b - L * rc.gemm_skipped_seconds) /
        scale;
    const bool attention_recomputed = t.checkpointing == Checkpointing::Selective || t.checkpointing == Checkpointing::Full;
    c.attention_seconds = G * L * (attn_f + attn_b + (attention_recomputed ? attn_f : 0.0)) / scale;
    c.memory_seconds = G *
                       (L * ((3 + full + op_sac) * elem_f + (1 + full + op_sac + (t.tiled_mlp ? 1 : 0)) * act_f + act_b +
                             (t.tiled_mlp ? mlp_elem_f : 0.0) + (2 + full + op_sac) * dequant_f + (1 + full + op_sac) * casts.forward +
                             casts.backward - rc.elementwise_skipped_seconds) +
                        loss.total + casts.head_forward + casts.head_backward) /
                       scale;
    c.launch_seconds = G * L * ((layer_f - gpu_f) + (layer_b - gpu_b) + (rc.seconds - rc.gpu_seconds)) / scale;
    c.total_seconds = G * c.micro_step_seconds;
    c.head_forward_seconds = (head_f + casts.head_forward + loss.forward) / scale;
    c.head_backward_seconds = (head_b + casts.head_backward + loss.backward) / scale;
    c.head_gemm_seconds = (head_f + head_b) / scale;
    add_gpu_optimizer(c, gpu_optimizer_rate(t, r.bytes_per_s).seconds(optimizer_params, scale));
    return c;
}

ComputeTime pipeline_stage_time(const ComputeTime& whole, double stage_layers, double layers, std::int64_t gas, bool last) {
    const double share = stage_layers / layers, G = static_cast<double>(gas);
    const double head = whole.head_forward_seconds + whole.head_backward_seconds;
    ComputeTime c = whole;
    // The layers' part scaled to the stage, the head's (and the metrics over its logits) kept whole
    // on the last stage.
    const double keep = last ? 1.0 : 0.0;
    const auto stage = [share, keep](double all, double head_part) { return (all - head_part) * share + keep * head_part; };
    c.forward_seconds = stage(whole.forward_seconds, whole.head_forward_seconds);
    c.backward_seconds = stage(whole.backward_seconds, whole.head_backward_seconds);
    c.metrics_seconds = keep * whole.metrics_seconds;
    c.micro_step_seconds = stage(whole.micro_step_seconds - whole.metrics_seconds, head) + c.metrics_seconds;
    c.gemm_seconds = stage(whole.gemm_seconds, G * whole.head_gemm_seconds);
    c.attention_seconds = whole.attention_seconds * share;
    c.launch_seconds = whole.launch_seconds * share;
    // The optimizer's update is the stage's own already (its parameters were passed in).
    c.memory_seconds =
        stage(whole.memory_seconds - whole.optimizer_seconds - G * whole.metrics_seconds, G * (head - whole.head_gemm_seconds)) +
        G * c.metrics_seconds + whole.optimizer_seconds;
    c.total_seconds = G * c.micro_step_seconds + c.optimizer_seconds;
    return c;
}

}  // namespace zp
