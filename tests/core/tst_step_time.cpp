// Step time. Covers core/time/collectives.cpp (ring formulas, bus efficiency, bottleneck link),
// core/time/flops.cpp (Korthikanti Eq. 7, Narayanan Eq. 3), core/time/compute_time.cpp (roofline,
// launch bound), core/hardware/host_rates.h (CPU Adam from host bandwidth), core/time/step_time.cpp
// (communication volume per stage, what each stage exposes, ZeRO-3's per-module costs, offload).
// Expected values are published relations or figures, or literals worked out by hand, never the
// code's own formula. The throughput targets against measured runs are in tst_validation.
#include "core/hardware/host_rates.h"
#include "core/model/deepspeed_release.h"
#include "core/model/enum_names.h"
#include "core/model/layer_modules.h"
#include "core/model/linear_modules.h"
#include "core/model/model_spec.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "core/time/collectives.h"
#include "core/time/compute_time.h"
#include "core/time/flops.h"
#include "core/time/step_time.h"
#include "test_data.h"
#include "test_util.h"

#include <cmath>
#include "test_main.h"

using namespace zp;

namespace {
// Elements each GPU sends per step under the ring model: 2(N-1)/N per all-reduced element,
// (N-1)/N per reduce-scattered or all-gathered one.
double elements_per_gpu(const CommVolume& v, double N) {
    return ((N - 1) / N) * (2 * v.allreduce_bytes + v.reduce_scatter_bytes + v.allgather_bytes) / 2.0;
}

// GPT-2 124M (124,439,808 parameters; its tied 50257 x 768 embedding is the LM head) at sequence
// 1024, global batch 64, bf16 AdamW, on numbers set here rather than taken from the presets:
// 312 TFLOP/s at MFU 0.45, 300 GB/s NVLink per GPU, 1600 Gbit/s per node, PCIe 32 GB/s, CPU Adam
// 4.5e9 params/s and NVMe 6 GB/s per node, 30 us per bucketed launch, 80% of backward usable for
// overlap, 2e8-element buckets, 5e7 prefetch, a budget of 1e12 tokens.
Scenario gpt2_step(std::int64_t nodes, std::int64_t gpus_per_node, int stage, OffloadDevice optimizer, OffloadDevice param, bool overlap,
                   std::int64_t micro, Checkpointing recompute) {
    Scenario s;
    s.model = model_preset("gpt2").spec;
    s.model.activation =
        MlpActivation::Fused;  // its shape with a fused activation: the layer tests/hand_calculations.py counts (Korthikanti's)
    s.cluster.nodes = nodes;
    s.cluster.gpus_per_node = gpus_per_node;
    s.cluster.gpu.memory_gib = 80;
    s.cluster.gpu.peak_tflops_16bit = 312;
    s.cluster.intra_node_gbytes_per_s = 300;
    s.cluster.inter_node_gbits_per_s = 1600;
    s.cluster.pcie_gbytes_per_s = 32;
    s.cluster.cpu_adam_params_per_second = 4.5e9;
    s.cluster.nvme_gbytes_per_s = 6;
    s.training.precision = Precision::Bf16;
    s.training.optimizer = Optimizer::AdamW;
    s.training.seq_len = 1024;
    s.training.micro_batch = micro;
    s.training.global_batch = 64;
    s.training.checkpointing = recompute;
    s.zero.stage = stage;
    s.zero.offload_optimizer = optimizer;
    s.zero.offload_param = param;
    s.zero.overlap_comm = overlap;
    s.zero.reduce_bucket_elems = s.zero.allgather_bucket_elems = 2e8;
    s.zero.stage3_prefetch_bucket_elems = 5e7;
    s.assumptions.mfu = 0.45;
    s.assumptions.comm_overlap_fraction = 0.8;
    s.assumptions.collective_latency_seconds = 30e-6;
    s.assumptions.token_budget = 1e12;
    return s;
}
}  // namespace

class TestStepTime : public QObject {
    Q_OBJECT
private slots:
    // Non-reentrant checkpointing stops each block's full recompute at its last saved tensor, the down
    // projection's input (torch >= 2.1 early stop; core/model/scenario.h recompute_skips_last_linear):
    // that GEMM's 2 h f FLOPs a token a layer are not run again. FSDP's own checkpointing, and
    // transformers 5's under DeepSpeed (recompute_stops_early); not Megatron-DeepSpeed's or
    // deepspeed.checkpointing's re-entrant CheckpointFunction, nor frozen weights at ZeRO-3 before
    // DeepSpeed 0.19.3 (recompute_must_reenter). Not where something saves after the down projection
    // (Gemma-2's post_feedforward_layernorm, GPT-2's residual dropout), nor for experts, LoRA, FP8
    // (te.Linear) or TiledMLP.
    void recompute_stops_before_the_down_projection_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("variant");
        QTest::addColumn<bool>("skips");
        QTest::newRow("Llama-2 7B: the down projection is not re-run") << "llama-2-7b"
                                                                       << "" << true;
        QTest::newRow("Gemma-2 9B: its post-feed-forward norm saves the output") << "gemma-2-9b"
                                                                                 << "" << false;
        QTest::newRow("GPT-2 XL: its residual dropout saves its mask") << "gpt2-xl"
                                                                       << "" << false;
        QTest::newRow("Mixtral 8x7B: the combine saves the experts' outputs") << "mixtral-8x7b"
                                                                              << "" << false;
        QTest::newRow("LoRA: lora_B runs after the frozen down projection") << "llama-2-7b"
                                                                            << "lora" << false;
        QTest::newRow("FP8: te.Linear saves once its GEMM has run") << "llama-2-7b"
                                                                    << "fp8" << false;
        QTest::newRow("TiledMLP: its Function saves once its forward has run") << "llama-2-7b"
                                                                               << "tiled" << false;
        QTest::newRow("DeepSpeed ZeRO-2, transformers 5's checkpointing") << "llama-2-7b"
                                                                          << "deepspeed" << true;
        QTest::newRow("DeepSpeed ZeRO-3 with frozen layers on 0.19.3") << "llama-2-7b"
                                                                       << "frozen-0.19.3" << true;
        QTest::newRow("DeepSpeed ZeRO-3 with frozen layers on 0.19.2: re-entrant") << "llama-2-7b"
                                                                                   << "frozen-0.19.2" << false;
        QTest::newRow("Megatron-DeepSpeed, tensor 2: CheckpointFunction re-enters") << "llama-2-7b"
                                                                                    << "tp2" << false;
        QTest::newRow("ALST's checkpoints in host memory: non-reentrant") << "llama-2-7b"
                                                                          << "cpu-checkpointing" << true;
        QTest::newRow("deepspeed.checkpointing's partition_activations re-enters") << "llama-2-7b"
                                                                                   << "partition" << false;
        QTest::newRow("Megatron-DeepSpeed, pipeline 2") << "llama-2-7b"
                                                        << "pp2" << false;
        QTest::newRow("Megatron's GPT: the head on the word embedding") << "llama-2-7b"
                                                                        << "megatron-head" << false;
        QTest::newRow("DeepSpeed 0.10.3: before torch 2.1's early stop") << "llama-2-7b"
                                                                         << "release-0.10.3" << false;
        QTest::newRow("Megatron-LM's main_grad accumulation") << "llama-2-7b"
                                                              << "main-grad" << false;
        QTest::newRow("DeepSpeed's BF16_Optimizer at ZeRO-1: the Trainer's") << "llama-2-7b"
                                                                             << "bf16-optimizer" << true;
        QTest::newRow("DeepSpeed 0.11.0") << "llama-2-7b"
                                          << "release-0.11.0" << true;
        QTest::newRow("DeepSpeed, --reentrant-recompute on") << "llama-2-7b"
                                                             << "reentrant" << false;
    }
    void recompute_stops_before_the_down_projection() {
        QFETCH(QString, model);
        QFETCH(QString, variant);
        QFETCH(bool, skips);
        Scenario s = preset_scenario(model.toStdString().c_str(), "h100-80gb", 8);
        const bool deepspeed = variant == QLatin1String("deepspeed") || variant.startsWith(QLatin1String("frozen")) ||
                               variant.startsWith(QLatin1String("release")) || variant == QLatin1String("tp2") ||
                               variant == QLatin1String("pp2") || variant == QLatin1String("cpu-checkpointing") ||
                               variant == QLatin1String("partition") || variant == QLatin1String("megatron-head") ||
                               variant == QLatin1String("reentrant") || variant == QLatin1String("main-grad") ||
                               variant == QLatin1String("bf16-optimizer");
        s.fsdp.engine = deepspeed ? Engine::DeepSpeed : Engine::Fsdp;
        s.zero.stage = deepspeed && !variant.startsWith(QLatin1String("frozen")) && variant != QLatin1String("tp2") ? 2 : 3;
        s.training.checkpointing = Checkpointing::Full;
        if (variant == QLatin1String("lora")) s.finetune.method = FineTuneMethod::Lora;
        if (variant == QLatin1String("fp8")) s.training.fp8_gemms = true;
        if (variant == QLatin1String("tiled")) s.training.tiled_mlp = true;
        if (variant.startsWith(QLatin1String("frozen"))) {
            s.finetune.freeze_layers = 4;
            s.deepspeed_release = variant.mid(7).toStdString();
        }
        if (variant == QLatin1String("tp2")) s.parallel.tensor = 2;
        if (variant == QLatin1String("pp2")) {
            s.parallel.pipeline = 2;
            s.zero.stage = 1;
        }
        if (variant == QLatin1String("partition")) {
            s.parallel.tensor = 2;
            s.training.partition_activations = true;
        }
        if (variant == QLatin1String("cpu-checkpointing")) s.training.cpu_checkpointing = true;
        if (variant == QLatin1String("megatron-head")) s.training.lm_head = LmHead::EmbeddingWeight;
        if (variant.startsWith(QLatin1String("release"))) {
            s.deepspeed_release = variant.mid(8).toStdString();
            apply_deepspeed_release(s.zero, *parse_deepspeed_release(s.deepspeed_release));
        }
        if (variant == QLatin1String("reentrant")) s.training.reentrant_recompute = true;
        if (variant == QLatin1String("main-grad")) s.training.gradient_accumulation = GradientAccumulation::MainGrad;
        if (variant == QLatin1String("bf16-optimizer")) {
            s.zero.stage = 1;
            s.training.gradient_accumulation = GradientAccumulation::Bf16Optimizer;
        }
        validate(s);
        // Re-run whole, by the flag of the plan's engine only.
        Scenario whole = s;
        if (deepspeed) whole.training.reentrant_recompute = true;
        else whole.fsdp.checkpoint_early_stop = false;
        const StepTime early = estimate_step(s), rerun = estimate_step(whole);
        const ModelSpec& m = s.model;
        const double skipped_flops =
            skips ? 2.0 * static_cast<double>(m.layers) * static_cast<double>(m.hidden) * mlp_width_per_token(m) * early.tokens_per_step
                  : 0.0;
        QCOMPARE(rerun.hardware_flops - early.hardware_flops, skipped_flops);
        QCOMPARE(early.compute.gemm_seconds < rerun.compute.gemm_seconds, skips);
        if (!skips) QCOMPARE(early.seconds, rerun.seconds);
    }

    // Composer's train metrics (Training::logit_metrics; llm-foundry sets LanguageCrossEntropy and
    // LanguagePerplexity) run a cross-entropy forward over each micro batch's logits after its
    // backward: log_softmax in the logits' dtype (read and write), then under autocast (Composer's
    // precision context, not under DeepSpeed) nll_loss's fp32 copy of the log-probabilities (read 2,
    // write 4): 10 bytes a 16-bit logit under FSDP, 4 under DeepSpeed, 8 for fp32 logits
    // (transformers before 4.46 with the up-cast), none without logits (a chunked loss). In the
    // micro step but not in the backward, the window that hides the backward's collectives.
    void logit_metrics_pass_over_the_logits_data() {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<bool>("fsdp");
        QTest::addColumn<double>("bytesPerLogit");  // each metric's, each micro step
        QTest::newRow("FSDP, flash-attn's fused loss: 16-bit log-softmax and its fp32 copy, 10")
            << int(LossKernel::Xentropy) << true << 10.0;
        QTest::newRow("FSDP, transformers' full loss: the 16-bit logits as returned, 10") << int(LossKernel::Full) << true << 10.0;
        QTest::newRow("FSDP, transformers < 4.46: fp32 logits, log-softmax alone, 8") << int(LossKernel::Shifted) << true << 8.0;
        QTest::newRow("FSDP, Liger's chunked loss: no logits to read, 0") << int(LossKernel::Chunked) << true << 0.0;
        QTest::newRow("DeepSpeed: no autocast, the 16-bit log-softmax alone, 4") << int(LossKernel::Full) << false << 4.0;
    }
    void logit_metrics_pass_over_the_logits() {
        QFETCH(int, kernel);
        QFETCH(bool, fsdp);
        QFETCH(double, bytesPerLogit);
        Scenario s = preset_scenario("llama-2-7b", "a100-80gb", 8);
        if (fsdp) s.fsdp.engine = Engine::Fsdp;
        s.zero.stage = 3;
        s.training.micro_batch = 2;
        s.training.global_batch = 64;  // 4 micro steps
        s.training.loss_kernel = static_cast<LossKernel>(kernel);
        Scenario composer = s;
        composer.training.logit_metrics = 2;
        const StepTime without = estimate_step(s), with = estimate_step(composer);
        const double logits = 2.0 * 4096.0 * 32000.0, micro_steps = 4;
        const double per_micro_step = 2 * bytesPerLogit * logits / streaming_bytes_per_second(s.cluster.gpu);
        QCOMPARE(with.compute.metrics_seconds, per_micro_step);
        QCOMPARE(with.compute.memory_seconds - without.compute.memory_seconds, micro_steps * per_micro_step);
        QCOMPARE(with.compute.micro_step_seconds - without.compute.micro_step_seconds, per_micro_step);
        QCOMPARE(with.compute.forward_seconds, without.compute.forward_seconds);
        QCOMPARE(with.compute.backward_seconds, without.compute.backward_seconds);  // the overlap window is the backward's
        QCOMPARE(with.hardware_flops, without.hardware_flops);                      // no matmul
    }

    // On a pipeline the metrics run where the logits are, with the head: the last stage.
    void logit_metrics_on_the_last_pipeline_stage() {
        Scenario s = preset_scenario("llama-2-13b", "a100-80gb", 8);
        s.fsdp.engine = Engine::Fsdp;
        s.training.micro_batch = 1;
        s.training.logit_metrics = 2;
        const ComputeTime whole = compute_time(s.model, s.training, s.cluster.gpu, 4, 1e9, 1.0, {}, {}, 0, {}, 1.0, 1.0, false, 10.0);
        QVERIFY(whole.metrics_seconds > 0);
        const ComputeTime first = pipeline_stage_time(whole, 10, 40, 4, false), last = pipeline_stage_time(whole, 10, 40, 4, true);
        QCOMPARE(first.metrics_seconds, 0.0);
        QCOMPARE(last.metrics_seconds, whole.metrics_seconds);
        QCOMPARE(last.micro_step_seconds - first.micro_step_seconds,
                 whole.head_forward_seconds + whole.head_backward_seconds + whole.metrics_seconds);
        QCOMPARE(last.memory_seconds - first.memory_seconds,
                 4 * (whole.head_forward_seconds + whole.head_backward_seconds - whole.head_gemm_seconds + whole.metrics_seconds));
    }

    // Local attention layers under flash attention compute only their window's or chunk's pairs:
    // the attention time scales by attention_pair_share; without flash attention (the whole
    // score matrix computed, then masked) and in the MFU's FLOP count nothing changes.
    void local_attention_layers_shorten_attention_only_under_flash() {
        Training t;
        t.seq_len = 8192;
        t.micro_batch = 1;
        const GpuSpec& h100 = gpu_preset("h100-80gb");
        const ModelSpec local = model_preset("gemma-3-27b").spec;
        ModelSpec global = local;
        global.attention_window = 0;
        const ComputeTime a = compute_time(local, t, h100, 1, 1e9, 1.0);
        const ComputeTime b = compute_time(global, t, h100, 1, 1e9, 1.0);
        QVERIFY(std::abs(a.attention_seconds / b.attention_seconds - attention_pair_share(local, 8192)) < 1e-9);
        QCOMPARE(a.gemm_seconds, b.gemm_seconds);
        t.flash_attention = false;
        QCOMPARE(compute_time(local, t, h100, 1, 1e9, 1.0).attention_seconds, compute_time(global, t, h100, 1, 1e9, 1.0).attention_seconds);
    }

    // Flash attention's rate is FlashAttention-2's share of the GPU's dense peak (gpu_presets.cpp
    // kAmpereFlash, kHopperFlash): a decoder's 4 b s^2 q FLOPs a layer forward, half of them under
    // the causal mask, the backward 2.5x the forward (FlashAttention-2 Sec. 3.1.2), at that share.
    void flash_attention_at_its_published_share_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("share");
        QTest::newRow("FlashAttention-2 (Dao 2023): 50-73% of the A100's peak (abstract; 73% forward, 63% backward, Sec. 1): 0.56")
            << QStringLiteral("a100-80gb") << 0.56;
        QTest::newRow("FlashAttention-3 (Shah et al. 2024) abstract: FlashAttention-2 at 35% of the H100's peak")
            << QStringLiteral("h100-80gb") << 0.35;
    }
    void flash_attention_at_its_published_share() {
        QFETCH(QString, gpu);
        QFETCH(double, share);
        const GpuSpec& g = gpu_preset(gpu.toStdString());
        const ModelSpec m = model_preset("llama-2-7b").spec;
        Training t;
        t.seq_len = 8192;
        t.micro_batch = 1;
        t.flash_attention = true;
        t.checkpointing = Checkpointing::None;
        const double s = 8192, q = 4096, layers = 32;
        const double forward_flops = 0.5 * 4 * s * s * q;  // causal: half the pairs
        const double expected = layers * (1 + 2.5) * forward_flops / (g.peak_tflops_16bit * 1e12 * share);
        QCOMPARE(compute_time(m, t, g, 1, 1e9, 1.0).attention_seconds, expected);
    }

    // The ZeRO paper's volumes (Sec. 7.2) beside what DeepSpeed's code moves. P_os and P_os+g: the
    // paper reduce-scatters the gradients and all-gathers the parameters, 2 Psi. DeepSpeed's stage 1
    // all-reduces its gradient buckets at the boundary and then all-gathers the updated partitions
    // (stage_1_and_2.py allreduce_bucket, step(): all_gather_dp_groups): 3 Psi; its stage 2 reduced
    // each bucket to its owners before v0.12.4 (the paper's 2 Psi) and all-reduces it whole since
    // (use_multi_rank_bucket_allreduce, PR #4695): 3 Psi.
    void zero_paper_volume_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("multiRankAllreduce");
        QTest::addColumn<double>("psiMultiple");
        QTest::newRow("ZeRO Sec. 7.2.1: DP all-reduce 2 Psi") << 0 << true << 2.0;
        QTest::newRow("ZeRO Sec. 7.2.1: P_os 2 Psi; DeepSpeed all-reduce + all-gather 3 Psi") << 1 << true << 3.0;
        QTest::newRow("ZeRO Sec. 7.2.1: P_os+g 2 Psi (DeepSpeed before v0.12.4)") << 2 << false << 2.0;
        QTest::newRow("P_os+g, DeepSpeed v0.12.4+: buckets all-reduced whole, 3 Psi") << 2 << true << 3.0;
        QTest::newRow("ZeRO Sec. 7.2.2: P_os+g+p 3 Psi") << 3 << true << 3.0;
    }
    void zero_paper_volume() {
        QFETCH(int, stage);
        QFETCH(bool, multiRankAllreduce);
        QFETCH(double, psiMultiple);
        const double psi = 7.5e9, N = 1e6;  // the large-N limit
        ZeroSetup z;
        z.multi_rank_bucket_allreduce = multiRankAllreduce;
        const CommVolume v = comm_volume(psi, stage, 1, Training{}, z);
        QVERIFY(std::fabs(elements_per_gpu(v, N) / psi - psiMultiple) < 1e-5);
    }

    // nccl-tests doc/PERFORMANCE.md: busBw = algBw x 2(N-1)/N for all-reduce and x (N-1)/N for
    // reduce-scatter and all-gather, algBw = S / t. So 1 GB at a bus bandwidth of 100 GB/s takes
    // t = 2(N-1)/N x 1e9 / 1e11 s, e.g. N = 8: 2 x 7/8 x 0.01 s = 0.0175 s (half that, 0.00875 s, for a
    // reduce-scatter). One rank sends nothing.
    void nccl_tests_times_data() {
        QTest::addColumn<double>("ranks");
        QTest::addColumn<double>("allreduceSeconds");
        QTest::addColumn<double>("reduceScatterSeconds");
        QTest::newRow("N=1: nothing to exchange") << 1.0 << 0.0 << 0.0;
        QTest::newRow("N=2: 2 x 1/2 x 0.01 s") << 2.0 << 0.01 << 0.005;
        QTest::newRow("N=3: 2 x 2/3 x 0.01 s") << 3.0 << 0.013333333333333333 << 0.0066666666666666667;
        QTest::newRow("N=8: 2 x 7/8 x 0.01 s") << 8.0 << 0.0175 << 0.00875;
        QTest::newRow("N=64: 2 x 63/64 x 0.01 s") << 64.0 << 0.0196875 << 0.00984375;
    }
    void nccl_tests_times() {
        QFETCH(double, ranks);
        QFETCH(double, allreduceSeconds);
        QFETCH(double, reduceScatterSeconds);
        const double S = 1e9, B = 100;  // bytes, GB/s
        QCOMPARE(allreduce_seconds(S, ranks, B), allreduceSeconds);
        QCOMPARE(reduce_scatter_seconds(S, ranks, B), reduceScatterSeconds);
        QCOMPARE(allgather_seconds(S, ranks, B), reduceScatterSeconds);
    }

    // The bus bandwidth a ring sees: NVLink at 0.8 of its rate on one node (nccl-tests: ~230 GB/s
    // busBw on a DGX A100's 300 GB/s); on several, min(the ring's share of the node's NICs, one NIC)
    // at 0.9 (core/time/collectives.h), unless the intra-node link is slower; PCIe at 0.75. With one
    // NIC per GPU (nics 0) every ring gets the per-GPU share (1600 / 8 bit / 8 GPUs x 0.9 = 22.5 GB/s).
    void bottleneck_link_data() {
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<qint64>("nics");
        QTest::addColumn<double>("ranksPerNode");
        QTest::addColumn<double>("intraGBps");
        QTest::addColumn<double>("interGbits");
        QTest::addColumn<double>("expectedGBps");
        QTest::newRow("one DGX A100: NVLink 300 x 0.8 = 240 GB/s")
            << qint64(1) << qint64(8) << qint64(0) << 8.0 << 300.0 << 1600.0 << 240.0;
        QTest::newRow("two DGX A100, data parallel: one HDR NIC 1600 / 8 / 8 x 0.9 = 22.5 GB/s")
            << qint64(2) << qint64(8) << qint64(0) << 8.0 << 300.0 << 1600.0 << 22.5;
        QTest::newRow("two DGX A100, tensor 8: 8 rings side by side, 22.5 each")
            << qint64(2) << qint64(8) << qint64(0) << 1.0 << 300.0 << 1600.0 << 22.5;
        QTest::newRow("DGX-2, data parallel: one EDR NIC 800 / 8 / 8 x 0.9 = 11.25 GB/s")
            << qint64(4) << qint64(16) << qint64(8) << 16.0 << 150.0 << 800.0 << 11.25;
        QTest::newRow("DGX-2, tensor 16 (the ZeRO paper's MP 16): 800 / 8 / 16 x 0.9 = 5.625 GB/s")
            << qint64(25) << qint64(16) << qint64(8) << 1.0 << 150.0 << 800.0 << 5.625;
        QTest::newRow("4090 boxes, one 100 Gbit/s NIC, data parallel: 100 / 8 x 0.9 = 11.25 GB/s")
            << qint64(4) << qint64(8) << qint64(1) << 8.0 << 32.0 << 100.0 << 11.25;
        QTest::newRow("4090 boxes, one 100 Gbit/s NIC, one ring per GPU: 100 / 8 / 8 x 0.9 = 1.40625")
            << qint64(4) << qint64(8) << qint64(1) << 1.0 << 32.0 << 100.0 << 1.40625;
        QTest::newRow("one GPU per node, 3200 Gbit/s: PCIe 32 x 0.75 = 24 is slower")
            << qint64(4) << qint64(1) << qint64(0) << 1.0 << 32.0 << 3200.0 << 24.0;
    }
    void bottleneck_link() {
        QFETCH(qint64, nodes);
        QFETCH(qint64, gpusPerNode);
        QFETCH(qint64, nics);
        QFETCH(double, ranksPerNode);
        QFETCH(double, intraGBps);
        QFETCH(double, interGbits);
        QFETCH(double, expectedGBps);
        Cluster c;
        c.nodes = nodes;
        c.gpus_per_node = gpusPerNode;
        c.nics_per_node = nics;
        c.intra_node_gbytes_per_s = intraGBps;
        c.inter_node_gbits_per_s = interGbits;
        QCOMPARE(bottleneck_gbytes_per_s(c, ranksPerNode), expectedGBps);
    }

    // The step's ZeRO rings see the ranks of their group in a node: on one 100 Gb/s NIC for eight
    // GPUs, plain data parallelism's ZeRO-3 ring runs at the NIC's rate, while with tensor
    // parallelism 8 the node's eight rings share it; 0.1.0's per-GPU share charged the first as the
    // second.
    void zero_rings_use_the_nic_the_node_has() {
        Scenario s = default_scenario();
        s.model = model_preset("llama-2-13b").spec;
        s.cluster = cluster_preset("rtx4090-box").cluster;
        s.cluster.nodes = 4;
        s.training.seq_len = 2048;
        s.training.checkpointing = Checkpointing::Full;
        s.zero.stage = 3;
        const double one_nic = estimate_step(s).exposed_allgather_seconds;
        s.cluster.nics_per_node = 0;  // one per GPU: the ring gets 1/8 of the node's 100 Gbit/s
        const double share = estimate_step(s).exposed_allgather_seconds;
        QVERIFY2(one_nic > 0 && share > 4 * one_nic,
                 qPrintable(QString::number(one_nic) + QStringLiteral(" vs ") + QString::number(share)));
    }

    void published_flops_data() {
        QTest::addColumn<double>("B");
        QTest::addColumn<double>("s");
        QTest::addColumn<double>("l");
        QTest::addColumn<double>("h");
        QTest::addColumn<double>("V");
        // Narayanan et al. 2021 Table 1 rows; Korthikanti et al. 2022 Table 3 models.
        QTest::newRow("Narayanan Table 1: 1.7B") << 512.0 << 2048.0 << 24.0 << 2304.0 << 51200.0;
        QTest::newRow("Narayanan Table 1: 175B") << 1536.0 << 2048.0 << 96.0 << 12288.0 << 51200.0;
        QTest::newRow("Narayanan Table 1: 1T") << 3072.0 << 2048.0 << 128.0 << 25600.0 << 51200.0;
        QTest::newRow("Korthikanti: MT-NLG 530B") << 1920.0 << 2048.0 << 105.0 << 20480.0 << 51200.0;
    }
    void published_flops() {
        QFETCH(double, B);
        QFETCH(double, s);
        QFETCH(double, l);
        QFETCH(double, h);
        QFETCH(double, V);
        const double tokens = B * s;
        const StepFlops none = transformer_step_flops(12 * l * h * h, V * h, l, h, s, tokens, Checkpointing::None);
        const double eq7 = 72 * B * s * l * h * h * (1 + s / (6 * h) + V / (12 * h * l));
        QVERIFY(std::fabs(none.model / eq7 - 1) < 1e-12);
        const StepFlops full = transformer_step_flops(12 * l * h * h, V * h, l, h, s, tokens, Checkpointing::Full);
        const double eq3 = 96 * B * s * l * h * h * (1 + s / (6 * h) + V / (16 * l * h));
        QVERIFY(std::fabs(full.hardware / eq3 - 1) < 1e-12);
        QCOMPARE(full.model, none.model);  // recompute is not model FLOPs
    }

    void gradient_accumulation() {
        const double P = 7e9;
        for (int stage = 0; stage <= 3; ++stage) {
            const CommVolume g1 = comm_volume(P, stage, 1, Training{}, ZeroSetup{});
            const CommVolume g8 = comm_volume(P, stage, 8, Training{}, ZeroSetup{});
            const double v1 = elements_per_gpu(g1, 64), v8 = elements_per_gpu(g8, 64);
            if (stage <= 1) QCOMPARE(v8, v1);      // all-reduce once per optimizer step
            if (stage == 3) QCOMPARE(v8, 8 * v1);  // gathers and reduces every micro step
            if (stage == 2) QVERIFY(v8 > v1 && v8 < 8 * v1);
        }
    }

    // ZeRO-Offload (arXiv 2101.06840) Table 4: DeepSpeed's CPU Adam updates 1B parameters in 0.22 s
    // on a DGX-2, whose two Xeon Platinum 8168 have 6 channels of DDR4-2666 each: 2 x 6 x 2666e6 x 8
    // = 256 GB/s. The memory-bound rate (28 bytes per parameter at half the DIMM bandwidth) must
    // reproduce it within 10%; a DGX A100 (2 x 8 channels DDR4-3200 = 409.6 GB/s) is faster by the ratio.
    void cpu_adam_from_host_bandwidth_data() {
        QTest::addColumn<double>("hostGBps");
        QTest::addColumn<double>("secondsPerBillion");
        QTest::newRow("ZeRO-Offload Table 4: DGX-2, 0.22 s per 1B") << 256.0 << 0.22;
        QTest::newRow("DGX A100 by the bandwidth ratio: 0.22 x 256 / 409.6") << 409.6 << 0.22 * 256.0 / 409.6;
    }
    void cpu_adam_from_host_bandwidth() {
        QFETCH(double, hostGBps);
        QFETCH(double, secondsPerBillion);
        const double seconds = 1e9 / host_rates::cpu_adam_params_per_second(hostGBps);
        QVERIFY2(std::fabs(seconds / secondsPerBillion - 1) < 0.10, qPrintable(QString::number(seconds)));
    }

    // Pinned or pageable offload buffers (pin_memory; host_rates.h): the rate per direction is 0.8
    // of the link pinned, and from pageable memory the lower of that and one core's ~10 GB/s
    // staging copy (CUDA Runtime API, "API synchronization behavior": the driver stages pageable
    // copies through its own pinned buffer).
    void host_link_rate_data() {
        QTest::addColumn<double>("pcieGBps");
        QTest::addColumn<bool>("pinned");
        QTest::addColumn<double>("gbytesPerSecond");
        QTest::newRow("PCIe 4.0 x16 pinned: 0.8 x 32") << 32.0 << true << 25.6;
        QTest::newRow("PCIe 4.0 x16 pageable: one core's staging copy") << 32.0 << false << 10.0;
        QTest::newRow("PCIe 3.0 x16 pinned: 0.8 x 16") << 16.0 << true << 12.8;
        QTest::newRow("PCIe 3.0 x8 pageable: the link is the slower") << 8.0 << false << 6.4;
    }
    void host_link_rate() {
        QFETCH(double, pcieGBps);
        QFETCH(bool, pinned);
        QFETCH(double, gbytesPerSecond);
        QCOMPARE(host_rates::host_link_bytes_per_second(pcieGBps, pinned), gbytesPerSecond * 1e9);
    }

    // ZeRO-Offload with pageable buffers: the gradient copy-down blocks the host (a device-to-host
    // copy into pageable memory returns when it completes), so none of it hides behind backward,
    // and every transfer runs at the staged rate: the step's PCIe time grows, nothing else does.
    void pageable_offload_exposes_the_copies() {
        Scenario pinned = gpt2_step(1, 8, 2, OffloadDevice::Cpu, OffloadDevice::None, true, 4, Checkpointing::None);
        Scenario pageable = pinned;
        pageable.zero.pin_memory = false;
        const StepTime a = estimate_step(pinned), b = estimate_step(pageable);
        const double partition = 124439808.0 / 8;  // elements of this rank's fp32 partition
        const double G = static_cast<double>(a.gradient_accumulation_steps);
        // Pageable: G copies of the 16-bit partition down plus one up, all exposed at 10 GB/s.
        QCOMPARE(b.pcie_seconds, (G + 1) * 2.0 * partition / 10e9);
        QVERIFY(a.pcie_seconds < b.pcie_seconds);
        QCOMPARE(b.compute_seconds, a.compute_seconds);
        QCOMPARE(b.cpu_optimizer_seconds, a.cpu_optimizer_seconds);
    }

    // offload_param alone (ZeRO-3, the optimizer on the GPU; DeepSpeed runs it, stage3.py
    // _configure_offloading sets the two apart): the 16-bit partition comes up for forward and
    // backward every micro step, as with the optimizer offloaded too, and the GPU's step writes each
    // updated fp32 partition into the host's 16-bit one once (stage3.py
    // _reassign_or_swap_out_partitioned_parameters); no CPU step.
    void offload_param_alone_writes_the_step_back() {
        const Scenario s = gpt2_step(1, 8, 3, OffloadDevice::None, OffloadDevice::Cpu, true, 4, Checkpointing::None);
        const StepTime t = estimate_step(s);
        const double P = 124439808.0, N = 8, rate = 25.6e9;  // pinned: 0.8 x PCIe 32 GB/s
        const double G = static_cast<double>(t.gradient_accumulation_steps);
        QCOMPARE(t.pcie_seconds, 2.0 * (2.0 * P / N) * G / rate + 2.0 * (P / N) / rate);
        QCOMPARE(t.cpu_optimizer_seconds, 0.0);
        Scenario both = s;
        both.zero.offload_optimizer = OffloadDevice::Cpu;
        QVERIFY(estimate_step(both).cpu_optimizer_seconds > 0);
    }

    // What each stage exposes (DeepSpeed engine.py allreduce_gradients after backward at stage 0;
    // stage_1_and_2.py reduces in backward hooks on reduction_stream with overlap_comm, all-reducing
    // each bucket whole since v0.12.4 (use_multi_rank_bucket_allreduce) and reducing it to its owners
    // before, and all-gathers after step() at stages 1 and 2). GPT-2 124M on two nodes of 8 with
    // 800 Gbit/s each (9 GB/s per GPU: a 2P reduce-scatter takes ~26 ms, within 0.8 of one
    // backward), micro 4, G = 1.
    void exposed_per_stage_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<bool>("multiRankAllreduce");
        QTest::addColumn<bool>("allreduceExposed");
        QTest::addColumn<bool>("reduceScatterExposed");
        QTest::addColumn<bool>("allgatherExposed");
        QTest::newRow("engine.py: stage 0 all-reduces after backward, overlap_comm or not") << 0 << true << true << true << false << false;
        QTest::newRow("stage_1_and_2.py: stage 1 all-reduces after backward, all-gathers after step()")
            << 1 << false << true << true << false << true;
        QTest::newRow("stage_1_and_2.py: stage 2 without overlap_comm all-reduces its buckets after backward")
            << 2 << false << true << true << false << true;
        QTest::newRow("stage2.py before v0.12.4: stage 2 without overlap_comm reduces to the owners after backward")
            << 2 << false << false << false << true << true;
        QTest::newRow("stage_1_and_2.py: stage 2 all-gathers after step() even with overlap_comm")
            << 2 << true << true << false << false << true;
    }
    void exposed_per_stage() {
        QFETCH(int, stage);
        QFETCH(bool, overlap);
        QFETCH(bool, multiRankAllreduce);
        QFETCH(bool, allreduceExposed);
        QFETCH(bool, reduceScatterExposed);
        QFETCH(bool, allgatherExposed);
        Scenario s = gpt2_step(2, 8, stage, OffloadDevice::None, OffloadDevice::None, overlap, 4, Checkpointing::None);
        s.cluster.inter_node_gbits_per_s = 800;
        s.zero.multi_rank_bucket_allreduce = multiRankAllreduce;
        const StepTime t = estimate_step(s);
        QCOMPARE(t.exposed_allreduce_seconds > 0, allreduceExposed);
        QCOMPARE(t.exposed_reduce_scatter_seconds > 0, reduceScatterExposed);
        QCOMPARE(t.exposed_allgather_seconds > 0, allgatherExposed);
        QCOMPARE(t.comm_seconds,
                 t.exposed_allreduce_seconds + t.exposed_reduce_scatter_seconds + t.exposed_allgather_seconds + t.zero3_overhead_seconds);
        QCOMPARE(t.seconds, t.compute_seconds + t.comm_seconds + t.offload_seconds + t.data_wait_seconds);
    }

    // The roofline's two sides and the launch bound, on GPT-2 124M (12 layers, hidden 768) at
    // sequence 1024 on one A100: at micro batch 1 a layer's GPU work (2 x 7.1M x 1024 x ~4 GEMMs,
    // ~0.1 ms at 218 TFLOP/s, flash attention) is shorter than issuing its ~18 kernels from PyTorch
    // eager (2.2 ms at 122 us each), so the step is launch-bound and a faster GPU does not shorten it;
    // at micro batch 64 the GEMMs dominate and the peak does.
    void launch_bound_small_model_data() {
        QTest::addColumn<qint64>("micro");
        QTest::addColumn<bool>("launchBound");
        QTest::newRow("GPT-2 124M, micro 1: kernels x host time > GPU work") << qint64(1) << true;
        QTest::newRow("GPT-2 124M, micro 64: GEMMs dominate") << qint64(64) << false;
    }
    void launch_bound_small_model() {
        QFETCH(qint64, micro);
        QFETCH(bool, launchBound);
        Scenario s = gpt2_step(1, 1, 0, OffloadDevice::None, OffloadDevice::None, false, micro, Checkpointing::None);
        s.training.flash_attention = true;
        s.cluster.gpu = gpu_preset("a100-80gb");
        const ComputeTime slow = estimate_step(s).compute;
        s.cluster.gpu = gpu_preset("h100-80gb");  // 3.2x the peak, 1.6x the HBM bandwidth
        const ComputeTime fast = estimate_step(s).compute;
        QCOMPARE(slow.launch_seconds > 0.5 * slow.total_seconds, launchBound);
        if (launchBound) QVERIFY(fast.total_seconds > 0.8 * slow.total_seconds);
        else QVERIFY(fast.total_seconds < 0.6 * slow.total_seconds);
    }

    // ZeRO-1/2's gradient hooks (stage_1_and_2.py: one on each trainable parameter at stage 2, and
    // at stage 1 with overlap_comm), a kernel's host time each: in every backward at stage 2, in the
    // accumulation boundary's at stage 1. GPT-2's layer has 12 tensors (c_attn, c_proj, c_fc, the
    // MLP's c_proj: weight and bias each; two LayerNorms: weight and bias each). At micro batch 1
    // its backward is launch-bound, so the hooks add 12 kernels' host time per layer and hooked backward.
    void gradient_hooks_by_stage_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<double>("hooked_backwards");
        QTest::newRow("stage 1, overlap_comm off: reduced after the backward, no hooks") << 1 << false << 0.0;
        QTest::newRow("stage 1, overlap_comm on: the boundary micro step's backward") << 1 << true << 1.0;
        QTest::newRow("stage 2: all 8 micro steps' backwards") << 2 << false << 8.0;
    }
    void gradient_hooks_by_stage() {
        QFETCH(int, stage);
        QFETCH(bool, overlap);
        QFETCH(double, hooked_backwards);
        QCOMPARE(trainable_tensors_per_layer(model_preset("gpt2").spec, FineTune{}), 12.0);
        Scenario s = gpt2_step(1, 8, 0, OffloadDevice::None, OffloadDevice::None, false, 1, Checkpointing::None);
        const ComputeTime plain = estimate_step(s).compute;
        s.zero.stage = stage;
        s.zero.overlap_comm = overlap;
        const ComputeTime c = estimate_step(s).compute;
        const double layers = 12;  // global batch 64 over 8 GPUs at micro batch 1: 8 micro steps
        const double hooks = hooked_backwards * layers * 12 * compute_model::kHostSecondsPerKernel;
        QVERIFY2(std::abs((c.launch_seconds - plain.launch_seconds) - hooks) < 1e-9,
                 qPrintable(QStringLiteral("%1 s of hooks, %2 expected").arg(c.launch_seconds - plain.launch_seconds).arg(hooks)));
    }

    // The tensors the hooks run on, per layer, against the Linear modules and norms each model is
    // built with (core/model/linear_modules.cpp, model_spec.cpp): biases, fused projections, QK-norm,
    // a mixture's experts over the expert-parallel ranks, T5's cross-attention, frozen layers.
    void trainable_tensors_per_layer_by_model_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("expert_parallel");
        QTest::addColumn<qint64>("frozen_layers");
        QTest::addColumn<double>("tensors");
        QTest::newRow("Llama-3.1 8B: q, k, v, o, gate, up, down, 2 RMSNorms")
            << QStringLiteral("llama-3.1-8b") << qint64{1} << qint64{0} << 9.0;
        QTest::newRow("Qwen2.5 7B: + q, k, v biases") << QStringLiteral("qwen2.5-7b") << qint64{1} << qint64{0} << 12.0;
        QTest::newRow("Qwen3 8B: + q_norm, k_norm") << QStringLiteral("qwen3-8b") << qint64{1} << qint64{0} << 11.0;
        QTest::newRow("Phi-3 mini: qkv_proj, o, gate_up_proj, down") << QStringLiteral("phi-3-mini") << qint64{1} << qint64{0} << 6.0;
        QTest::newRow("Mixtral 8x7B: 8 experts x 3 + router + attention 4 + 2 norms")
            << QStringLiteral("mixtral-8x7b") << qint64{1} << qint64{0} << 31.0;
        QTest::newRow("Mixtral 8x7B, expert parallel 8: one expert a rank")
            << QStringLiteral("mixtral-8x7b") << qint64{8} << qint64{0} << 10.0;
        QTest::newRow("Llama-3.1 8B, 16 of 32 layers frozen") << QStringLiteral("llama-3.1-8b") << qint64{1} << qint64{16} << 4.5;
    }
    void trainable_tensors_per_layer_by_model() {
        QFETCH(QString, model);
        QFETCH(qint64, expert_parallel);
        QFETCH(qint64, frozen_layers);
        QFETCH(double, tensors);
        FineTune f;
        f.freeze_layers = frozen_layers;
        QCOMPARE(trainable_tensors_per_layer(model_preset(model.toStdString()).spec, f, expert_parallel), tensors);
    }

    // The count trainable_tensors_per_layer makes without building modules, against the modules
    // linear_modules builds, for every preset model, whole and at expert parallelism 4: each
    // Linear's weight and bias (a routed expert over the expert-parallel ranks, a fused expert
    // parameter once a mixture layer), then the norms, QK-norm, MLA's two latent norms, T5's
    // cross-attention norm and the sinks, which are not Linear modules; DeepSeek's router
    // (MoEGate) is a bare weight Parameter, no nn.Linear, so it is added here.
    void trainable_tensors_agree_with_linear_modules() {
        for (const ModelPreset& p : model_presets()) {
            const ModelSpec& m = p.spec;
            if (m.synthesized) continue;
            for (std::int64_t ep : {std::int64_t{1}, std::int64_t{4}}) {
                const double L = static_cast<double>(m.layers);
                const double mixtures = m.experts > 1 ? static_cast<double>(moe_layers(m)) : 0.0;
                double tensors = 0;
                for (const LinearModule& l : linear_modules(m)) {
                    if (l.role == LinearRole::Head) continue;
                    const double instances = l.fused_parameter && l.role != LinearRole::Router
                                                 ? mixtures
                                                 : static_cast<double>(l.count) / (l.token_share < 1.0 ? static_cast<double>(ep) : 1.0);
                    tensors += instances * (l.bias ? 2.0 : 1.0);
                }
                const double per_norm = m.norm == NormKind::LayerNorm ? 2.0 : 1.0;
                tensors += L * (m.norms_per_layer * per_norm + (m.qk_norm ? 2.0 : 0.0) + (m.attention_sinks ? 1.0 : 0.0));
                if (uses_mla(m)) tensors += L * ((m.q_lora_rank > 0 ? 1.0 : 0.0) + 1.0);
                if (m.encoder_decoder) tensors += 0.5 * L * per_norm;
                if (m.family == "deepseek_v2" || m.family == "deepseek_v3") tensors += mixtures;
                const double counted = trainable_tensors_per_layer(m, FineTune{}, ep);
                QVERIFY2(std::abs(counted - tensors / L) < 1e-9,
                         qPrintable(QStringLiteral("%1 at expert parallel %2: %3 counted, %4 from linear_modules")
                                        .arg(QString::fromStdString(p.name))
                                        .arg(ep)
                                        .arg(counted)
                                        .arg(tensors / L)));
            }
        }
    }

    // DeepSpeed's autotuning of GPT-2 XL (DeepSpeedExamples autotuning/hf/gpt2-xl/README.md: 16 V100s
    // of a DGX-2, fp16, block size 512, micro batch 1, DeepSpeed's defaults, so overlap_comm off at
    // stages 1 and 2): DeepSpeed's own metric (the forward, backward and step timers) ranks ZeRO-1
    // (40.17 samples/s) ahead of ZeRO-2 (33.05) and ZeRO-3 (12.86). The same order, ZeRO-2's
    // gradient hooks making the difference at this launch-bound size.
    void autotuning_ranks_the_stages_for_gpt2_xl() {
        const auto step = [](int stage) {
            Scenario s = test::preset_scenario("gpt2-xl", "v100-32gb", 16);
            s.cluster = cluster_preset("dgx-2").cluster;
            s.training.precision = Precision::Fp16;
            s.training.seq_len = 512;
            s.training.micro_batch = 1;
            s.training.auto_micro_batch = false;
            s.training.global_batch = 16;
            s.training.checkpointing = Checkpointing::None;
            s.training.auto_checkpointing = false;
            s.training.flash_attention = false;
            s.zero.stage = stage;
            s.zero.overlap_comm = stage == 3;
            return estimate_step(s).seconds;
        };
        const double z1 = step(1), z2 = step(2), z3 = step(3);
        QVERIFY2(z1 < z2 && z2 < z3, qPrintable(QStringLiteral("ZeRO-1 %1 s, ZeRO-2 %2 s, ZeRO-3 %3 s").arg(z1).arg(z2).arg(z3)));
        // ZeRO-2 against ZeRO-1: 0.398 s and 0.484 s measured (1.22x); within 10%.
        QVERIFY2(std::abs((z2 / z1) / (0.484 / 0.398) - 1) < 0.10, qPrintable(QString::number(z2 / z1)));
    }

    // ZeRO-3's per-module costs (parameter_offload.py hooks on every module; one all-gather per
    // module above stage3_param_persistence_threshold). GPT-2's layer: fused c_attn, c_proj,
    // c_fc, c_proj (4 linears), 2 norms, 3 containers = 9 hooked modules; the linears are
    // 768 x 2304, 768 x 768, 768 x 3072, 3072 x 768, all above DeepSpeed's default 1e5.
    void zero3_modules_data() {
        QTest::addColumn<double>("threshold");
        QTest::addColumn<double>("gathered");
        QTest::newRow("stage3_param_persistence_threshold 1e5: the 4 linears are gathered") << 1e5 << 4.0;
        QTest::newRow("threshold 1e6: only c_attn (1.77M) and the MLP's two (2.36M) are") << 1e6 << 3.0;
        QTest::newRow("threshold 1e7: every module stays resident") << 1e7 << 0.0;
    }
    void zero3_modules() {
        QFETCH(double, threshold);
        QFETCH(double, gathered);
        ModelSpec m = model_preset("gpt2").spec;
        ZeroSetup z;
        z.stage = 3;
        z.stage3_param_persistence_threshold = threshold;
        const LayerModules l = layer_modules(m, z);
        QCOMPARE(l.gathered, gathered);
        QCOMPARE(l.hooked, 4.0 + 2.0 + 3.0);
        // The hooks cost ZeRO-3 time the same setup at stage 2 does not pay.
        Scenario s = gpt2_step(1, 8, 3, OffloadDevice::None, OffloadDevice::None, true, 1, Checkpointing::None);
        s.zero.stage3_param_persistence_threshold = threshold;
        QVERIFY(estimate_step(s).zero3_overhead_seconds > 0);
    }

    // partitioned_param_coordinator.py fetch_sub_module prefetches while the elements in flight are
    // under stage3_prefetch_bucket_size, so it always takes the next parameter whole: GPT-3's
    // 604M-element MLP linears (12288 x 49152) run one ahead with the default 5e7 bucket as with a
    // bucket their size, and only a bucket of 0 stops the prefetch. 175B on 32 nodes of 8 A100s,
    // micro batch 32 x 512 tokens (the DeepSpeed on Azure run, paper_throughput.json P32).
    void zero3_prefetch_runs_one_module_ahead_data() {
        QTest::addColumn<double>("bucket");
        QTest::addColumn<bool>("sameAsModuleBucket");
        QTest::newRow("fetch_sub_module: 5e7 bucket, 604M module fetched whole") << 5e7 << true;
        QTest::newRow("fetch_sub_module: bucket of 0 prefetches nothing") << 0.0 << false;
    }
    void zero3_prefetch_runs_one_module_ahead() {
        QFETCH(double, bucket);
        QFETCH(bool, sameAsModuleBucket);
        Scenario s = gpt2_step(32, 8, 3, OffloadDevice::None, OffloadDevice::None, true, 32, Checkpointing::Full);
        s.model = model_preset("gpt3-175b").spec;
        s.training.seq_len = 512;
        s.training.global_batch = 32 * 256;
        s.zero.stage3_max_live_parameters = 3e9;
        const double module = layer_modules(s.model, s.zero).largest_params;
        QCOMPARE(module, 12288.0 * 49152.0);
        s.zero.stage3_prefetch_bucket_elems = module;
        const StepTime whole = estimate_step(s);
        s.zero.stage3_prefetch_bucket_elems = bucket;
        const StepTime t = estimate_step(s);
        QCOMPARE(t.exposed_allgather_seconds == whole.exposed_allgather_seconds, sameAsModuleBucket);
        if (!sameAsModuleBucket) QVERIFY(t.exposed_allgather_seconds > whole.exposed_allgather_seconds);
    }

    // A custom GPU keeps the preset's time traits (custom_gpu keeps the throughput fields), and the
    // traits table follows gpu_presets() row for row.
    void gpu_time_traits_follow_the_presets() {
        for (std::size_t i = 0; i < gpu_presets().size(); ++i) {
            QCOMPARE(std::string(gpu_time_traits_preset(i)), gpu_presets()[i].name);
            const GpuTimeTraits t = gpu_time_traits(gpu_presets()[i]);
            QVERIFY(t.hbm_gbytes_per_s > 0 && t.gemm_efficiency > 0 && t.gemm_efficiency <= 1);
        }
        QCOMPARE(gpu_time_traits(custom_gpu(gpu_preset("v100-32gb"), 12)).hbm_gbytes_per_s, 900.0);  // Tesla V100 datasheet
        QCOMPARE(gpu_time_traits(gpu_preset("a100-80gb")).hbm_gbytes_per_s, 2039.0);                 // A100 datasheet
    }
    // The dense peak a step's matmuls run against, by precision (compute_time.h gemm_peak_tflops):
    // the 16-bit tensor-core figure, the FP32 units' for fp32 (PyTorch leaves TF32 off) and for
    // bf16 on Volta, which has no bf16 tensor cores. The figures are the datasheets'.
    void matmul_peak_by_precision_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("precision");
        QTest::addColumn<double>("tflops");
        QTest::newRow("Tesla V100 datasheet: fp16 tensor cores 125") << QStringLiteral("v100-32gb") << int(Precision::Fp16) << 125.0;
        QTest::newRow("Tesla V100 datasheet: no bf16 tensor cores, single precision 15.7")
            << QStringLiteral("v100-32gb") << int(Precision::Bf16) << 15.7;
        QTest::newRow("Tesla V100 datasheet: fp32 15.7") << QStringLiteral("v100-32gb") << int(Precision::Fp32) << 15.7;
        QTest::newRow("A100 datasheet: bf16 tensor cores 312") << QStringLiteral("a100-80gb") << int(Precision::Bf16) << 312.0;
        QTest::newRow("A100 datasheet: FP32 19.5, TF32 off") << QStringLiteral("a100-80gb") << int(Precision::Fp32) << 19.5;
        QTest::newRow("H100 datasheet: SXM FP32 67") << QStringLiteral("h100-80gb") << int(Precision::Fp32) << 67.0;
        QTest::newRow("AMD MI300X data sheet: FP32 matrix 163.4") << QStringLiteral("mi300x") << int(Precision::Fp32) << 163.4;
    }
    void matmul_peak_by_precision() {
        QFETCH(QString, gpu);
        QFETCH(int, precision);
        QFETCH(double, tflops);
        const GpuSpec& g = gpu_preset(gpu.toStdString());
        QCOMPARE(gemm_peak_tflops(static_cast<Precision>(precision), g, gpu_time_traits(g)), tflops);
    }
    // The GPU optimizer's update is memory-bound (kGpuAdamBytesPerParam, DeepSpeed's FusedAdam,
    // csrc/adam/multi_tensor_adam.cu): AdamW reads and writes the fp32 master and both moments, reads
    // the fp32 gradient and writes the 16-bit copy, 4 x 2 x 3 + 4 + 2 = 30 bytes a parameter, at 85%
    // of the datasheet's HBM rate. The term is linear in the parameters this GPU updates (the setup's
    // shard): compute_time with them is compute_time without them plus the term, bit for bit, which
    // is what ComputeTimeMemo keeps apart.
    void gpu_optimizer_update_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("hbm_gbytes_per_s");
        QTest::newRow("A100 80GB datasheet, HBM2e 2039 GB/s") << "a100-80gb" << 2039.0;
        QTest::newRow("H100 SXM datasheet, 3350 GB/s") << "h100-80gb" << 3350.0;
    }
    void gpu_optimizer_update() {
        QFETCH(QString, gpu);
        QFETCH(double, hbm_gbytes_per_s);
        Scenario s = with_gpu(default_scenario(), gpu_preset(gpu.toStdString()));
        s.training.optimizer = Optimizer::AdamW;
        s.training.optimizer_storage = OptimizerStorage::Standard;
        constexpr double kParams = 1e9;
        constexpr std::int64_t kGas = 4;
        constexpr double kScale = 0.8;  // a calibration (Assumptions::mfu / kReferenceMfu) divides it too
        const double by_hand = kParams * 30 / (hbm_gbytes_per_s * 1e9 * 0.85) / kScale;
        const ComputeTime with = compute_time(s.model, s.training, s.cluster.gpu, kGas, kParams, kScale);
        const ComputeTime without = compute_time(s.model, s.training, s.cluster.gpu, kGas, 0.0, kScale);
        const auto near = [&](double seconds) { return std::abs(seconds / by_hand - 1) < 1e-9; };
        QVERIFY2(near(with.optimizer_seconds), qPrintable(QString::number(with.optimizer_seconds)));
        QCOMPARE(without.optimizer_seconds, 0.0);
        // Once a step, in the memory-bound time and the total; not in a micro step.
        QVERIFY2(near(with.memory_seconds - without.memory_seconds), qPrintable(QString::number(with.memory_seconds)));
        QVERIFY2(near(with.total_seconds - without.total_seconds), qPrintable(QString::number(with.total_seconds)));
        ComputeTime added = without;
        add_gpu_optimizer(added, gpu_optimizer_rate(s.training, s.cluster.gpu).seconds(kParams, kScale));
        QVERIFY(added.optimizer_seconds == with.optimizer_seconds);
        QVERIFY(added.memory_seconds == with.memory_seconds);
        QVERIFY(added.total_seconds == with.total_seconds);
        QVERIFY(added.micro_step_seconds == with.micro_step_seconds);
    }
    // A search keeps one ComputeTimeMemo per layout and gives each recompute policy and micro batch
    // its own line (use_line), asked by every setup in turn: each step it answers is the step without
    // it, bit for bit, whichever setup and line asked before (tst_robustness compares whole searches).
    // A caller that names one line for all (the second pass) gets misses, never another line's answer.
    void compute_memo_answers_the_step_without_it() {
        ComputeTimeMemo memo;
        for (const bool own_lines : {true, false})
            for (const ZeroSetup& z : zero_setups())
                for (std::size_t ask = 0; ask < 8; ++ask) {
                    const std::size_t line = ask / 2;
                    Scenario s = default_scenario();
                    s.zero = z;
                    s.assumptions.mfu = ask % 2 == 0 ? 0.45 : 0.36;  // a calibrated run asks the line again at another scale
                    s.training.micro_batch = line < 2 ? 1 : 2;       // the next line: the same accumulation, another recompute
                    s.training.checkpointing = line % 2 == 0 ? Checkpointing::None : Checkpointing::Selective;
                    memo.use_line(own_lines ? line : 0);
                    const StepTime kept = estimate_step(s, memo), fresh = estimate_step(s);
                    const QString where =
                        QString::fromStdString(setup_label(setup_key(z))) + QStringLiteral(", line ") + QString::number(line);
                    QVERIFY2(kept.seconds == fresh.seconds, qPrintable(where));
                    QVERIFY2(kept.compute.total_seconds == fresh.compute.total_seconds, qPrintable(where));
                    QVERIFY2(kept.compute.optimizer_seconds == fresh.compute.optimizer_seconds, qPrintable(where));
                    QVERIFY2(kept.zero3_overhead_seconds == fresh.zero3_overhead_seconds, qPrintable(where));
                }
    }
    // What that means for a step: Llama-2 7B on 8 A100s, compute alone, is as many times slower in
    // fp32 as the peaks are apart (312 / 19.5 = 16x on its matmuls; less on the whole, whose
    // memory-bound passes do not move with the matmul rate); on a V100 bf16 is fp32's speed, not fp16's.
    void fp32_and_volta_bf16_steps() {
        Scenario s = default_scenario();
        s.training.precision = Precision::Bf16;
        const double bf16 = estimate_step(s).compute_seconds;
        s.training.precision = Precision::Fp32;
        const double fp32 = estimate_step(s).compute_seconds;
        QVERIFY2(fp32 > 8 * bf16 && fp32 < 16 * bf16, qPrintable(QString::number(fp32 / bf16)));
        Scenario v = with_gpu(default_scenario(), gpu_preset("v100-32gb"));
        v.training.precision = Precision::Fp16;
        const double v_fp16 = estimate_step(v).compute_seconds;
        v.training.precision = Precision::Bf16;
        QVERIFY(estimate_step(v).compute_seconds > 4 * v_fp16);
    }
    // A plan moved to a GPU without bf16 tensor cores trains in fp16 there (precision_for_gpu); fp32
    // stays, and back on an A100 fp16 stays what the user has.
    void a_move_to_volta_takes_fp16() {
        Scenario s = default_scenario();
        QCOMPARE(s.training.precision, Precision::Bf16);
        const Scenario v = with_gpu(s, gpu_preset("v100-32gb"));
        QCOMPARE(v.training.precision, Precision::Fp16);
        QCOMPARE(with_gpu(v, gpu_preset("a100-80gb")).training.precision, Precision::Fp16);
        s.training.precision = Precision::Fp32;
        QCOMPARE(with_gpu(s, gpu_preset("v100-32gb")).training.precision, Precision::Fp32);
        const ClusterPreset& dgx2 = cluster_preset("dgx-2");
        QCOMPARE(with_node(default_scenario(), dgx2.cluster, 16).training.precision, Precision::Fp16);
        // An FSDP model loaded in bf16 (pure) cannot be pure fp16 (validate refuses it): on Volta it
        // trains under fp16 MixedPrecision, a plan that validates.
        Scenario pure = default_scenario();
        pure.fsdp.engine = Engine::Fsdp;
        pure.fsdp.precision = FsdpPrecision::Pure;
        pure.zero.stage = 3;
        const Scenario volta = with_gpu(pure, gpu_preset("v100-32gb"));
        QCOMPARE(volta.fsdp.precision, FsdpPrecision::Mixed);
        validate(volta);
    }
    // A custom GPU of a peak two presets share takes the traits of the one nearest in memory: the
    // A100 80GB given as the 79.15 GiB torch reports keeps its HBM2e, a 40GB card its HBM2 (A100
    // datasheet: 2039 and 1555 GB/s; both 312 TFLOP/s).
    void custom_gpu_traits_by_nearest_memory_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("memoryGib");
        QTest::addColumn<double>("hbmGbytesPerS");
        QTest::newRow("A100 80GB as torch reports it (79.15 GiB)") << QStringLiteral("a100-80gb") << 79.15 << 2039.0;
        QTest::newRow("A100 40GB as torch reports it (39.39 GiB)") << QStringLiteral("a100-80gb") << 39.39 << 1555.0;
        QTest::newRow("A100 80GB with a memory limit of 70 GiB") << QStringLiteral("a100-80gb") << 70.0 << 2039.0;
    }
    // A head whose width is not a whole number of 16-byte vectors leaves attention's batched GEMMs
    // on cuBLAS's narrow-load kernels without flash attention (compute_time.h
    // kUnalignedHeadGemmShare); flash attention pads the head and the linears never see it.
    void unaligned_heads_slow_eager_attention_only_data() {
        QTest::addColumn<qlonglong>("heads");
        QTest::addColumn<bool>("aligned");
        QTest::newRow("GPT-2 1.5B, 25 heads of 64 (Hugging Face)") << qlonglong{25} << true;
        QTest::newRow("GPT-2 1.5B, 16 heads of 100 (Megatron's example, the ZeRO tutorials)") << qlonglong{16} << false;
        QTest::newRow("GPT-2 1.5B, 20 heads of 80") << qlonglong{20} << true;
        QTest::newRow("GPT-2 1.5B, 32 heads of 50") << qlonglong{32} << false;
    }
    void unaligned_heads_slow_eager_attention_only() {
        QFETCH(qlonglong, heads);
        QFETCH(bool, aligned);
        Training t;
        t.seq_len = 1024;
        t.micro_batch = 4;
        t.flash_attention = false;
        const GpuSpec& v100 = gpu_preset("v100-32gb");
        const ModelSpec reference = model_preset("gpt2-xl").spec;  // 25 heads of 64
        ModelSpec m = reference;
        m.heads = m.kv_heads = heads;
        m.head_dim = 0;  // hidden / heads
        const ComputeTime eager = compute_time(m, t, v100, 1, 1e9, 1.0);
        const ComputeTime eager_reference = compute_time(reference, t, v100, 1, 1e9, 1.0);
        QCOMPARE(eager.gemm_seconds, eager_reference.gemm_seconds);
        const double slower = eager.attention_seconds / eager_reference.attention_seconds;
        if (aligned) QVERIFY2(slower < 1.01, qPrintable(QString::number(slower)));
        else QVERIFY2(slower > 3, qPrintable(QString::number(slower)));  // the GEMMs 17x, the score traffic as it was
        t.flash_attention = true;
        QCOMPARE(compute_time(m, t, v100, 1, 1e9, 1.0).attention_seconds, compute_time(reference, t, v100, 1, 1e9, 1.0).attention_seconds);
    }

    // The pair kUnalignedHeadGemmShare was read off (BigScience tr11 chronicles-prequel.md, "tile
    // and wave quantization", 2022-02-20, Megatron-DeepSpeed on A100 80GB): 80 layers of 96 heads,
    // TP 8, PP 10, DP 4, micro batch 1, GBS 2048, sequence 2048, vocabulary 250880, bf16, full
    // recompute; hidden 14400 (heads of 150) 221.21 s/it, hidden 13824 (heads of 144) 160.29.
    void unaligned_heads_bigscience_pair() {
        const auto bigscience = [](std::int64_t hidden) {
            Scenario s = test::preset_scenario("gpt3-175b", "a100-80gb", 320);
            s.model.layers = 80;
            s.model.hidden = hidden;
            s.model.heads = s.model.kv_heads = 96;
            s.model.head_dim = 0;  // hidden / heads
            s.model.ffn = 4 * hidden;
            s.model.vocab = 250880;
            s.parallel.tensor = 8;
            s.parallel.pipeline = 10;
            s.zero.stage = 1;
            s.training.precision = Precision::Bf16;
            s.training.micro_batch = 1;
            s.training.auto_micro_batch = false;
            s.training.global_batch = 2048;
            s.training.seq_len = 2048;
            s.training.checkpointing = Checkpointing::Full;
            s.training.auto_checkpointing = false;
            s.training.flash_attention = false;
            // Jean Zay's A100 nodes as the prequel's runs had them (measured_runs_facts.json: four
            // Omni-Path NICs at the 40.5 Gbit/s all-reduce bus bandwidth BigScience measured in January).
            s.cluster.inter_node_gbits_per_s = 180;
            s.cluster.nics_per_node = 4;
            return s;
        };
        const double predicted = estimate_step(bigscience(14400)).seconds / estimate_step(bigscience(13824)).seconds;
        const double measured = 221.21 / 160.29;
        QVERIFY2(std::abs(predicted / measured - 1) < 0.02, qPrintable(QStringLiteral("%1 against %2").arg(predicted).arg(measured)));
    }

    // Summing the micro batches' gradients (Training::gradient_accumulation): Llama-2 7B on 8 A100s,
    // global batch 64 at micro batch 1 (8 micro batches a step). A pass over the 6.74B trainable
    // parameters at the A100's streaming rate: autograd from the second micro batch on (read both
    // gradients, write one), Megatron-LM's main_grad hook every micro batch (read the gradient, read
    // and write the buffer: fp32 with bf16, else 16-bit), DeepSpeed's BF16_Optimizer every micro
    // batch into an fp32 copy through an fp32 temporary, fused accumulation none; none where ZeRO-2
    // reduces every micro batch, or with one micro batch.
    void gradient_accumulation_passes_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<QString>("accumulation");
        QTest::addColumn<qlonglong>("globalBatch");
        QTest::addColumn<double>("bytesPerParam");
        QTest::newRow("DeepSpeed ZeRO-1, bf16, autograd: 7 x 3 x 2 bytes") << 1 << "bf16"
                                                                           << "autograd" << 64LL << 42.0;
        QTest::newRow("DeepSpeed ZeRO-0, fp16, autograd: 7 x 3 x 2 bytes") << 0 << "fp16"
                                                                           << "autograd" << 64LL << 42.0;
        QTest::newRow("Megatron-LM main_grad, bf16 (fp32 buffer): 8 x (2 + 2 x 4) bytes") << 0 << "bf16"
                                                                                          << "main-grad" << 64LL << 80.0;
        QTest::newRow("Megatron-LM main_grad, fp16: 8 x 3 x 2 bytes") << 0 << "fp16"
                                                                      << "main-grad" << 64LL << 48.0;
        QTest::newRow("DeepSpeed BF16_Optimizer: 8 x (2 + 4 + 4 + 4 + 4) bytes") << 0 << "bf16"
                                                                                 << "bf16-optimizer" << 64LL << 144.0;
        QTest::newRow("Megatron-LM fused accumulation: none") << 0 << "bf16"
                                                              << "fused" << 64LL << 0.0;
        QTest::newRow("ZeRO-2 reduces every micro batch: none") << 2 << "bf16"
                                                                << "autograd" << 64LL << 0.0;
        QTest::newRow("one micro batch a step: none") << 1 << "bf16"
                                                      << "autograd" << 8LL << 0.0;
    }
    void gradient_accumulation_passes() {
        QFETCH(int, stage);
        QFETCH(QString, precision);
        QFETCH(QString, accumulation);
        QFETCH(qlonglong, globalBatch);
        QFETCH(double, bytesPerParam);
        Scenario s = test::preset_scenario("llama-2-7b", "a100-80gb", 8);
        s.zero.stage = stage;
        s.training.precision = parse_enum<Precision>(precision.toStdString());
        s.training.gradient_accumulation = parse_enum<GradientAccumulation>(accumulation.toStdString());
        s.training.micro_batch = 1;
        s.training.auto_micro_batch = false;
        s.training.global_batch = globalBatch;
        const StepTime st = estimate_step(s);
        const double expected = bytesPerParam * static_cast<double>(parameter_count(s.model)) / streaming_bytes_per_second(s.cluster.gpu);
        if (expected == 0) {
            QCOMPARE(st.compute.accumulation_seconds, 0.0);
        } else {
            ZP_COMPARE_NEAR(st.compute.accumulation_seconds, expected);
            Scenario fused = s;
            fused.training.gradient_accumulation = GradientAccumulation::Fused;
            ZP_COMPARE_NEAR(st.compute_seconds - estimate_step(fused).compute_seconds, expected);
        }
    }

    // transformers' gelu_new (the gpt2 presets): eight kernels over the ffn-wide tensor where a fused
    // activation runs one (compute_time.h kGeluNew*). Where the GPU's work decides a layer (GPT-2
    // 124M at micro batch 64 x 1024 tokens) it adds 16 + 24 passes of 2 bytes per ffn element a layer
    // and micro step at the streaming rate; where the host's kernel issue decides it (micro batch 1)
    // 7 + 10 kernels at the host time per kernel.
    void gelu_new_passes_and_kernels_data() {
        QTest::addColumn<qlonglong>("micro");
        QTest::addColumn<bool>("launchBound");
        QTest::newRow("micro batch 64: the GPU's passes") << 64LL << false;
        QTest::newRow("micro batch 1: the host's kernels") << 1LL << true;
    }
    void gelu_new_passes_and_kernels() {
        QFETCH(qlonglong, micro);
        QFETCH(bool, launchBound);
        Scenario fused = gpt2_step(1, 8, 2, OffloadDevice::None, OffloadDevice::None, true, micro, Checkpointing::None);
        fused.training.flash_attention = true;
        fused.training.global_batch = micro * 8;
        Scenario gelu_new = fused;
        gelu_new.model.activation = MlpActivation::GeluNew;
        QCOMPARE(int(model_preset("gpt2").spec.activation), int(MlpActivation::GeluNew));
        const ComputeTime a = estimate_step(fused).compute, b = estimate_step(gelu_new).compute;
        QCOMPARE(a.launch_seconds > 0, launchBound);
        QCOMPARE(b.launch_seconds > 0, launchBound);
        const double L = static_cast<double>(fused.model.layers);
        const double tokens = static_cast<double>(micro) * static_cast<double>(fused.training.seq_len);
        const double expected = launchBound
                                    ? L * (compute_model::kGeluNewExtraKernelsForward + compute_model::kGeluNewExtraKernelsBackward) *
                                          compute_model::kHostSecondsPerKernel
                                    : L * 2.0 * (compute_model::kGeluNewExtraPassesForward + compute_model::kGeluNewExtraPassesBackward) *
                                          tokens * static_cast<double>(fused.model.ffn) / streaming_bytes_per_second(fused.cluster.gpu);
        ZP_COMPARE_NEAR(b.micro_step_seconds - a.micro_step_seconds, expected);
    }

    // Korthikanti et al. 2022 (arXiv 2205.05198) Table 4: one layer of the 22B model (tensor 8 on
    // 8 A100s, Table 3), forward + backward 19.6 ms without recompute; full recompute 27.2 ms (+39%),
    // selective 20.9 (+7%), sequence parallel + selective 20.3 (+4%), sequence parallel alone 19.0
    // (-3%). The planner's step for the same configuration (paper_throughput.json's 22B row), with
    // only the recompute and sequence parallelism changed, adds within 4 points of those (8 for
    // full recompute: the table's 39% is one layer's, the step also runs the unrecomputed head).
    void recompute_overhead_like_korthikanti_table4_data() {
        QTest::addColumn<QString>("checkpointing");
        QTest::addColumn<bool>("sequenceParallel");
        QTest::addColumn<double>("overhead");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("Korthikanti Table 4: full recompute +39%") << QStringLiteral("full") << false << 0.39 << 0.08;
        QTest::newRow("Korthikanti Table 4: selective recompute +7%") << QStringLiteral("selective") << false << 0.07 << 0.04;
        QTest::newRow("Korthikanti Table 4: selective + sequence parallel +4%") << QStringLiteral("selective") << true << 0.04 << 0.04;
        QTest::newRow("Korthikanti Table 4: sequence parallel alone -3%") << QStringLiteral("none") << true << -0.03 << 0.04;
    }
    void recompute_overhead_like_korthikanti_table4() {
        QFETCH(QString, checkpointing);
        QFETCH(bool, sequenceParallel);
        QFETCH(double, overhead);
        QFETCH(double, tolerance);
        Scenario base;
        for (const auto& c : bundled_measured_runs("paper_throughput.json"))
            if (c.scenario.model.hidden == 6144 && c.scenario.parallel.tensor == 8 && !c.scenario.parallel.sequence_parallel)
                base = c.scenario;
        QCOMPARE(base.model.layers, std::int64_t(48));
        base.training.checkpointing = Checkpointing::None;
        Scenario s = base;
        s.training.checkpointing = parse_enum<Checkpointing>(checkpointing.toStdString());
        s.parallel.sequence_parallel = sequenceParallel;
        const double got = estimate_step(s).seconds / estimate_step(base).seconds - 1;
        QVERIFY2(std::abs(got - overhead) <= tolerance, qPrintable(QString::number(got)));
    }
    // A ring's latency grows with its hops (NCCL src/graph/tuning.cc ncclTopoTuneModel, ring
    // Simple protocol: 3.4 us a hop over NVLink, 9.6 us over the network): one node keeps the
    // launch latency; each further node of 8 GPUs adds one network hop and 7 NVLink hops.
    void ring_latency_grows_with_the_nodes_data() {
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("ranks");
        QTest::addColumn<double>("expectedUs");
        QTest::newRow("one GPU: no collective") << qint64(1) << qint64(1) << 0.0;
        QTest::newRow("one node of 8: the launch latency") << qint64(1) << qint64(8) << 30.0;
        QTest::newRow("2 nodes: + 9.6 + 7 x 3.4 us") << qint64(2) << qint64(16) << 30.0 + 33.4;
        QTest::newRow("192 nodes (Narayanan Table 2, 1,536 GPUs)") << qint64(192) << qint64(1536) << 30.0 + 191 * 33.4;
        QTest::newRow("a data-parallel group of 4 over 4 nodes: one GPU each") << qint64(4) << qint64(4) << 30.0 + 3 * 9.6;
    }
    void ring_latency_grows_with_the_nodes() {
        QFETCH(qint64, nodes);
        QFETCH(qint64, ranks);
        QFETCH(double, expectedUs);
        Cluster c = cluster_preset("dgx-a100").cluster;
        c.nodes = nodes;
        QVERIFY2(std::abs(ring_latency_seconds(c, static_cast<double>(ranks), 30e-6) * 1e6 - expectedUs) < 1e-6,
                 qPrintable(QString::number(ring_latency_seconds(c, static_cast<double>(ranks), 30e-6) * 1e6)));
    }
    void custom_gpu_traits_by_nearest_memory() {
        QFETCH(QString, preset);
        QFETCH(double, memoryGib);
        QFETCH(double, hbmGbytesPerS);
        QCOMPARE(gpu_time_traits(custom_gpu(gpu_preset(preset.toStdString()), memoryGib)).hbm_gbytes_per_s, hbmGbytesPerS);
    }
};

ZP_TEST_APPLESS_MAIN(TestStepTime)
#include "tst_step_time.moc"
