#pragma once
// GPU time of one micro step (forward + backward, with recompute) and of the optimizer's own
// kernels, from the shapes of the kernels a transformer layer runs (docs/design.md §5.1):
//
//   GEMM      max(2 M K N / (peak x e_gen), 2 (MK + KN + MN) bytes / HBM)   roofline (Williams et
//             al. 2009) with e_gen the generation's achieved fraction of the dense 16-bit peak
//             (core/presets/gpu_presets.cpp, fitted per generation)
//   attention with flash attention: its FLOPs (a causal mask's counted as half) at the
//             generation's FlashAttention-2 efficiency (core/presets/gpu_presets.cpp kAmpereFlash,
//             kHopperFlash: Dao 2023 Sec. 4.1 on the A100, Shah et al. 2024 on the H100);
//             without: the two batched GEMMs plus the score matrix (b x heads x s x s) written,
//             masked, soft-maxed and dropped out in HBM (Megatron's FusedScaleMaskSoftmax
//             reads and writes it once; dropout reads, writes and keeps a mask), kScoreBytes*;
//             unfused (Hugging Face's eager attention) the scale and masks pass it once more each
//   elementwise  norms, residual adds, dropouts, bias and activation: HBM traffic per token of
//             hidden and ffn width (kHiddenPasses, kFfnPasses below)
//   launch    each layer's pass takes at least (kernels x host time per kernel): PyTorch eager
//             launches one kernel after another from Python; when the GPU work of a kernel is
//             shorter than the host's time to issue it the GPU waits (FITTED, see compute_time.cpp)
//
// Backward runs 2x the forward's GEMM FLOPs and about 2x its traffic and kernels (Narayanan
// et al. 2021 Sec. 5.1); full recompute re-runs the layer forward, selective only attention.
// Fine-tuning: a frozen Linear's backward computes the input gradient only (1x the forward's
// GEMMs, not 2x); each LoRA adapter adds its two thin GEMMs (lora_A reads the whole input, so
// they are bandwidth-bound) and its kernels (A, B, scale, add; + dropout); a quantised base is
// dequantised to the compute dtype in every forward, backward and recompute of every Linear
// (bitsandbytes MatMul4Bit: dequantize_4bit, reading 0.5 and writing 2 bytes per weight).
#include "core/hardware/gpu_links.h"
#include "core/model/scenario.h"

#include <cmath>

namespace zp {

struct ComputeTime {
    double gemm_seconds = 0;       // the layers' and the LM head's matmuls
    double attention_seconds = 0;  // score/softmax/AV (flash or not)
    double memory_seconds = 0;     // elementwise and norm traffic, loss, optimizer kernels
    double launch_seconds = 0;     // what the host's kernel issue adds above the GPU work
    double forward_seconds = 0;    // of one micro step, recompute excluded
    double backward_seconds = 0;   // of one micro step, recompute included
    double micro_step_seconds = 0;
    double optimizer_seconds = 0;  // the GPU optimizer's memory-bound update (0 when offloaded)
    // Of memory_seconds: summing the micro batches' gradients (core/time/step_time.cpp
    // add_gradient_accumulation; set by the step, 0 from compute_time alone).
    double accumulation_seconds = 0;
    // The loop's metrics over the logits after each micro step's backward (Training::logit_metrics),
    // one micro step's: in micro_step_seconds and memory_seconds, not in backward_seconds, the window
    // step_time.cpp hides the backward's collectives in (they are done before the metrics start:
    // FSDP's post-backward callback waits for its reduce-scatters, DeepSpeed's backward for its
    // reduce). On a pipeline's last stage, with the head.
    double metrics_seconds = 0;
    double total_seconds = 0;  // G micro steps + the optimizer
    // The LM head and the loss of one micro step, outside the layers (in forward_seconds and
    // backward_seconds; x G in gemm_seconds and memory_seconds): a pipeline's last stage runs them
    // whole (pipeline_stage_time).
    double head_forward_seconds = 0, head_backward_seconds = 0;
    double head_gemm_seconds = 0;  // of those two, the logits GEMMs
};

// One stage of a pipeline: its `stage_layers` of the model's `layers`, and on the last stage
// (`last`) the LM head with the loss, which sit there whole: Megatron-LM builds them only where
// post_process (megatron/model/gpt_model.py, the pipeline's last stage); Megatron-DeepSpeed's
// GPTModelPipe ends its layer specs with the final norm and the tied LM head and partitions with
// 'type:transformer' by default (megatron/model/gpt_model.py, DeepSpeed PipelineModule
// _partition_layers: the transformer layers balanced, the head added to the last partition). In
// 1F1B the slowest stage sets every slot (Narayanan et al. 2021 Sec. 2.2.1). `gas`: micro steps.
ComputeTime pipeline_stage_time(const ComputeTime& whole, double stage_layers, double layers, std::int64_t gas, bool last);

// Global parameters of the compute model (not per GPU, not per run).
namespace compute_model {
// Host time to issue one kernel: Assumptions::host_seconds_per_kernel (its FITTED default,
// compute_model::kHostSecondsPerKernel, and its rows: core/model/host_overheads.h).
// Kernels per layer forward (count of a Megatron/Hugging Face GPT layer: 2 norms, 4-7 matmuls,
// bias/activation/dropout/residual, attention's scale/mask/softmax/dropout/transposes).
// Backward launches about twice as many.
inline constexpr double kKernelsPerLayerForwardFlash = 18;
inline constexpr double kKernelsPerLayerForwardEager = 26;
// The share of the full QK^T and AV FLOPs flash attention runs under a causal mask (decoders):
// the blocks below and on the diagonal, s(s+1)/2 of s^2 (FlashAttention-2 Sec. 3.1.1).
inline constexpr double kCausalAttentionShare = 0.5;
// MPT's Triton flash attention (llm-foundry attn_impl: triton, flash_attn_triton.py, the default
// of its benchmark sweeps of 2023) against FlashAttention-2: FITTED, on llm-foundry's benchmark
// tables (measured_runs_3.json LH and LA rows, where it decides the 8K-65K-token rows; `validate
// --holdout` re-fits it, tests/data/anchors/fitted_constants.json lists the rows). About half, as
// FlashAttention-2 (Dao 2023) Sec. 4.1 finds its Triton baseline 1.3-1.5x slower forward and about
// 2x backward. No control sets it: a measured run that names the kernel takes it
// (Assumptions::flash_attention_scale).
inline constexpr double kTritonFlashShare = 0.55;
// Without flash attention QK^T and AV (and their four backward GEMMs) are cuBLAS batched GEMMs
// whose operands are each head's slice of the fused q/k/v projection: a head starts every
// head_dim elements, so a head of 150 or 450 16-bit elements (300 or 900 bytes) gives cuBLAS
// pointers and strides aligned to 4 bytes, not the 16 its vectorised Tensor Core kernels load
// (cuBLAS documentation, "Tensor Core Usage": alignment of A, B, C and their leading dimensions
// to 16 bytes; NVIDIA Matrix Multiplication Background User's Guide Sec. 2.2, "Tensor Core
// Requirements": performance is better with multiples of 16 bytes, 128 on A100). Those GEMMs then
// run at kUnalignedHeadGemmShare of the GEMM rate. FITTED to a published pair, not a bundled row:
// BigScience tr11 chronicles-prequel.md, "tile and wave quantization" (Megatron-DeepSpeed on Jean
// Zay A100 80GB, 2022-02-20): 80 layers, 96 heads, TP 8, PP 10, DP 4, micro batch 1, GBS 2048,
// sequence 2048, at hidden 14400 (heads of 150) 221.21 s/it and at 13824 (heads of 144) 160.29:
// 1.38x the time where the planner's FLOPs and traffic say 1.07x. With the share below its two
// predictions stand 1.38x apart (tst_step_time `unaligned_heads_bigscience_pair`). The attention
// GEMMs are s / 6h of the layer's (2.4% here), so the pair asks them to run 20x slower: more than
// narrow loads alone would cost, and it carries whatever else the 14400 shape costs (the
// chronicle suspected tile and wave quantization, some 5% by its 108-SM arithmetic), so it is
// the least certain of the planner's GEMM numbers. measured_runs_2.json N22 (the same chronicle's
// 20B at 32 heads of 450 on one node) is not used for it: a row it is checked against.
// 0.059 until pipeline_stage_time put the LM head on the last stage: the pair's stages carry it,
// which the ratio of the two times then dilutes.
inline constexpr double kUnalignedHeadGemmShare = 0.051;
inline constexpr double kGemmAlignmentBytes = 16;
inline bool head_gemms_aligned(double head_bytes) { return std::fmod(head_bytes, kGemmAlignmentBytes) == 0.0; }
// Bytes per score element without flash attention, forward: QK^T writes 2, scale-mask-softmax
// reads 2 and writes 2, dropout reads 2, writes 2 and a 1-byte mask, AV reads 2 = 13; backward
// about twice (the softmax and dropout gradients read the saved tensors and the incoming grad).
inline constexpr double kScoreBytesForward = 13;
inline constexpr double kScoreBytesBackward = 26;
// Unfused (AttentionSoftmax::Unfused, scenario.h): each of the scale, the causal mask and the
// padding mask is its own kernel reading and writing the scores before the softmax, 4 bytes each
// forward (transformers GPT2Attention._attn: "/ sqrt", torch.where(causal_mask, ...),
// "+ attention_mask"; DeepSpeedExamples Megatron-LM mpu/transformer.py: "/ math.sqrt",
// torch.mul by the mask, "- 10000.0 * (1.0 - mask)"): 13 + 12 = 25. Backward, the scale's and the
// mask multiply's gradients pass the matrix once more each (the additive mask's gradient is the
// incoming one): 26 + 8 = 34. Llama's eager path (a scale, an additive 4-D mask, the softmax in fp32
// and cast back, no dropout at p = 0) moves about as much, 24 forward.
inline constexpr double kScoreBytesForwardUnfused = 25;
inline constexpr double kScoreBytesBackwardUnfused = 34;
// 16-bit passes over the hidden-width activation per layer forward: 2 norms (read + write),
// 2 residual adds (2 reads, 1 write), 2 dropouts (read, write, mask), bias adds, the q/k/v
// reshape copies: ~20; over the ffn-width activation: bias + activation (+ gate product): 4 (6 gated).
inline constexpr double kHiddenPasses = 20;
// Of those, the passes of the ops Megatron runs whole on every tensor-parallel rank without
// sequence parallelism (Korthikanti et al. 2022 Sec. 4.2.2: the layer norms and the dropouts with
// their residual adds); the bias adds and the q/k/v copies work on the rank's split tensors.
// FITTED to Korthikanti's Table 4 (a published figure, not a bundled row): sequence parallelism
// alone, which splits exactly these ops 8 ways, saves 3% of a 22B layer at tensor 8 (19.6 -> 19.0
// ms), about 6 of the 20 passes at the HBM rate here. Counting each fused op's tensors (2 norms x
// read + write, 2 bias-dropout-adds x 3.5) would say 11: Megatron's fused kernels move less than
// their operands' full size through HBM. tests/core/tst_step_time.cpp holds the model to Table 4.
inline constexpr double kHiddenPassesReplicated = 6;
inline constexpr double kFfnPasses = 4;
inline constexpr double kFfnPassesGated = 6;
// Of kHiddenPasses, the block's last residual add: reads two, writes one.
inline constexpr double kResidualAddPasses = 3;
// transformers' gelu_new (ModelSpec::activation GeluNew; activations.py NewGELUActivation, the
// GPT-2 and Phi-1/2 configs): eight kernels over the ffn-wide tensor where a fused activation runs
// one. Forward pow, * 0.044715, x +, * sqrt(2/pi), tanh, 1 +, 0.5 * x, the product: 18 passes of
// 16 bits (the two-input ops read two), 16 more than the fused kernel's read and write. Backward,
// autograd's: the product's two gradients (6), tanh's (3), the three scalar products' (2 each),
// pow's (x.pow(2), * 3, * grad: 7) and the two adds summing x's three gradients (6): 28 passes,
// 24 more than the 2x-forward rule gives a fused activation. Kernels: 7 more forward, 10 backward
// (the backward's 11 against the fused one's 1).
inline constexpr double kGeluNewExtraPassesForward = 16;
inline constexpr double kGeluNewExtraPassesBackward = 24;
inline constexpr double kGeluNewExtraKernelsForward = 7;
inline constexpr double kGeluNewExtraKernelsBackward = 10;
// Fused Adam on the GPU (DeepSpeed FusedAdam, csrc/adam/multi_tensor_adam.cu): reads and
// writes the fp32 master, both moments, reads the fp32 gradient and writes the 16-bit copy.
inline constexpr double kGpuAdamBytesPerParam = 4 * 2 * 3 + 4 + 2;
// Kernels of one LoRA adapter's forward (peft tuners/lora/layer.py Linear.forward: lora_A,
// lora_B, "* scaling", the add into the result; dropout one more); backward about twice.
inline constexpr double kKernelsPerAdapterForward = 4;
}  // namespace compute_model

// How one rank's micro step is cut by model parallelism (docs/design.md §5.1). Megatron's tensor
// parallelism splits the linears' widths, the attention heads and the vocabulary t ways
// (Shoeybi et al. 2019 Sec. 3; megatron/core/tensor_parallel/layers.py Column/RowParallelLinear,
// VocabParallelEmbedding); without its sequence parallelism the layer norms, dropouts and residual
// adds over the hidden width run whole on every rank (Korthikanti et al. 2022 Sec. 4.2.2: "the
// layer-norm and the dropouts ... are not parallelized ... replicated across the tensor parallel
// group"; transformer.py ParallelTransformerLayer), with it they take a t-th of the tokens.
// DeepSpeed-Ulysses gives each rank s/u tokens through the linears and a/u heads of the whole
// sequence in attention (arXiv 2309.14509 Sec. 3.1). Every rank launches every kernel: the host's
// issue time is not divided.
struct RankShare {
    double tensor = 1;
    double ulysses = 1;
    bool sequence_parallel = false;  // Megatron's --sequence-parallel
    bool operator==(const RankShare&) const = default;
};

// What a streaming (memory-bound) kernel reads and writes per second on `gpu`: the datasheet HBM
// bandwidth at the share copies reach (compute_time.cpp kHbmEfficiency).
double streaming_bytes_per_second(const GpuSpec& gpu);

// The dense peak a training step's matmuls at precision `p` run against on `gpu`, TFLOP/s: the
// 16-bit tensor-core figure, or the FP32 units' (GpuTimeTraits::fp32_tflops) for fp32 and for bf16
// on a part without bf16 tensor cores.
double gemm_peak_tflops(Precision p, const GpuSpec& gpu, const GpuTimeTraits& traits);

// `scale` divides the whole: Assumptions::mfu / kReferenceMfu (1 unless calibrated).
// `optimizer_params`: parameters this GPU's optimizer updates (0 when it runs on the CPU).
// `hooks`: host time the engine's hooks add to each layer's forward and backward: ZeRO-3's module
// hooks in both (core/time/step_time.h), ZeRO-1/2's gradient hooks in the backward; and the host
// time of one kernel.
// `f`: the fine-tuning method (frozen weights, adapters, a quantised base).
// `routed_slots_per_token`: under expert parallelism the capacity-padded expert rows a token costs
// (core/model/experts.h: DeepSpeed's experts compute every slot of the (experts, capacity, h)
// tensor, padding included, and skip dropped tokens); 0 = experts_per_token.
// `share`: this rank's cut of each layer (RankShare); the times are of the whole model's layers at
// that cut (a pipeline stage's share of the layers is the caller's).
// `gemm_efficiency_scale`, `flash_attention_scale`: multiply the GPU's GEMM and flash attention
// efficiencies (Assumptions::gemm_efficiency_scale, flash_attention_scale).
// `recompute_early_stop`: full recompute stops at a block's last saved tensor (non-reentrant
// checkpointing: core/model/scenario.h recompute_stops_early, recompute_skips_last_linear).
// `metric_bytes_per_logit`: what each of the loop's metrics moves a logit (core/model/logits.h
// metric_traffic_bytes_per_logit: it depends on the engine).
struct LayerHooks {
    double forward_seconds = 0, backward_seconds = 0;  // per layer and micro step
    // Host time to issue one kernel (Assumptions::host_seconds_per_kernel): a layer is launch-bound
    // when its kernels x this, with the hooks, outlast its GPU time.
    double host_seconds_per_kernel = compute_model::kHostSecondsPerKernel;
    bool any() const { return forward_seconds > 0 || backward_seconds > 0; }
    friend bool operator==(const LayerHooks&, const LayerHooks&) = default;
};
// compute_time's GPU optimizer term alone, which is linear in the parameters it updates: the bytes
// its memory-bound update moves per parameter and the rate it moves them at (compute_time.cpp
// gpu_optimizer_rate), for a caller that keeps the rest of a compute (core/time/step_time.h
// ComputeTimeMemo) and varies only those parameters.
struct GpuOptimizerRate {
    double bytes_per_param = 0;
    double bytes_per_second = 1;
    double seconds(double params, double scale) const { return params * bytes_per_param / bytes_per_second / scale; }
};
GpuOptimizerRate gpu_optimizer_rate(const Training& t, const GpuSpec& gpu);
// `c` with that update added: its seconds, which memory_seconds and total_seconds include.
void add_gpu_optimizer(ComputeTime& c, double optimizer_seconds);

ComputeTime compute_time(const ModelSpec& m, const Training& t, const GpuSpec& gpu, std::int64_t gas, double optimizer_params, double scale,
                         const LayerHooks& hooks = {}, const FineTune& f = {}, double routed_slots_per_token = 0,
                         const RankShare& share = {}, double gemm_efficiency_scale = 1.0, double flash_attention_scale = 1.0,
                         bool recompute_early_stop = false, double metric_bytes_per_logit = 0);

// What Assumptions::mfu meant when it was the whole model (0.45): calibration now scales the
// compute model by mfu / kReferenceMfu, so an unchanged 0.45 leaves it as it is and an old
// session's calibrated mfu keeps its relative correction.
inline constexpr double kReferenceMfu = 0.45;

}  // namespace zp
