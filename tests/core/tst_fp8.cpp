// FP8 matmuls (Training::fp8_gemms): Transformer Engine's DelayedScaling or MXFP8 block scaling
// (Training::fp8_scaling) through Accelerate.
// Rows: the GEMMs at the GPU's FP8 rate (core/time/compute_time.cpp), the FP8 weight copies each
// te.Linear saves for backward (core/memory/step_timeline.cpp), the refusals (core/model/scenario.cpp)
// and the Accelerate export (core/deepspeed/accelerate_yaml.cpp).
#include "core/base/errors.h"
#include "core/deepspeed/framework_exports.h"
#include "core/deepspeed/fsdp_export.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/linear_modules.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/time/compute_time.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include "test_main.h"

using namespace zp;
using zp::test::preset_scenario;

namespace {

// The layers' Linear parameters that run in FP8 (dimensions divisible by 16), the LM head apart.
double fp8_layer_params(const ModelSpec& m) {
    double params = 0;
    for (const LinearModule& l : linear_modules(m))
        if (l.role != LinearRole::Head && runs_in_fp8(l)) params += static_cast<double>(l.count * l.in * l.out);
    return params;
}

// The activations at the first moment of `phase` in the step's timeline (every layer).
double first_activations(const Scenario& x, StepPhase phase) {
    for (const StepMoment& mo : step_timeline(x, TimelineDetail::EveryLayer))
        if (mo.phase == phase) return mo.activations_bytes;
    return 0.0;
}

}  // namespace

class TestFp8 : public QObject {
    Q_OBJECT

private slots:
    // The matmuls run at the FP8 peak (datasheets: H100 SXM 1979 against 989 dense, B200 4500
    // against 2250), so a compute-bound GEMM takes the 16-bit time x peak16 / peak8; the attention
    // core stays in bf16. GPT-2 converts nothing: its layers are transformers' Conv1D, not
    // nn.Linear (convert_model swaps nn.Linear only), and its 50,257-wide LM head does not divide
    // by 16, so FP8 leaves its step as it was.
    void gemms_at_the_fp8_rate_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("head_in_fp8");
        QTest::newRow("Llama-3.1 8B on H100 SXM: 989 -> 1979 TFLOP/s")
            << QStringLiteral("llama-3.1-8b") << QStringLiteral("h100-80gb") << true;
        QTest::newRow("Llama-3.1 8B on B200: 2250 -> 4500 TFLOP/s") << QStringLiteral("llama-3.1-8b") << QStringLiteral("b200") << true;
        QTest::newRow("GPT-2 XL on H100: Conv1D layers and a 50,257-wide head stay bf16")
            << QStringLiteral("gpt2-xl") << QStringLiteral("h100-80gb") << false;
    }
    void gemms_at_the_fp8_rate() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(bool, head_in_fp8);
        const ModelSpec m = model_preset(model.toStdString()).spec;
        const GpuSpec g = gpu_preset(gpu.toStdString());
        Training t;
        t.seq_len = 4096;
        t.micro_batch = 4;
        const ComputeTime bf16 = compute_time(m, t, g, 1, 0, 1.0);
        t.fp8_gemms = true;
        const ComputeTime fp8 = compute_time(m, t, g, 1, 0, 1.0);
        const double ratio = g.peak_tflops_16bit / g.peak_tflops_fp8;
        QCOMPARE(fp8.attention_seconds, bf16.attention_seconds);
        if (head_in_fp8) {
            QVERIFY2(std::abs(fp8.gemm_seconds / bf16.gemm_seconds - ratio) < 1e-3,
                     qPrintable(QString::number(fp8.gemm_seconds / bf16.gemm_seconds)));
        } else {
            QCOMPARE(fp8.total_seconds, bf16.total_seconds);
            return;
        }
        // Each te.Linear casts its input, weight and output gradient: memory-bound passes more.
        QVERIFY(fp8.memory_seconds > bf16.memory_seconds);
        QVERIFY(fp8.total_seconds < bf16.total_seconds);
    }

    // gpt-oss's routed experts (and router) are fused nn.Parameters (GptOssExperts,
    // GptOssTopKRouter), not nn.Linear: convert_model leaves them in 16 bits, so only the attention
    // projections and the LM head run in FP8 and keep FP8 copies.
    void fused_experts_stay_16_bit() {
        const ModelSpec m = model_preset("gpt-oss-20b").spec;
        const GpuSpec g = gpu_preset("h100-80gb");
        Training t;
        t.seq_len = 4096;
        t.micro_batch = 1;
        const ComputeTime bf16 = compute_time(m, t, g, 1, 0, 1.0);
        t.fp8_gemms = true;
        const double r = compute_time(m, t, g, 1, 0, 1.0).gemm_seconds / bf16.gemm_seconds;
        QVERIFY2(r > g.peak_tflops_16bit / g.peak_tflops_fp8 + 0.05 && r < 1.0, qPrintable(QString::number(r)));
        double attention = 0;
        for (const LinearModule& l : linear_modules(m))
            if (l.role == LinearRole::AttentionInput || l.role == LinearRole::AttentionOutput)
                attention += static_cast<double>(l.count * l.in * l.out);
        QCOMPARE(fp8_layer_params(m), attention);
    }

    // Each te.Linear saves its FP8 weight for backward (TE linear.py): on Hopper the E4M3 weight and
    // its transpose, 2 bytes a parameter, on Blackwell one buffer for both, 1 byte; MXFP8 keeps a
    // rowwise and a columnwise quantization with a scale byte per 32 each, 2 x 33/32. Nothing is
    // cached between micro steps under Accelerate, so the copies live with the activations: every
    // layer's without recompute (the peak at the loss holds all of them), one layer's with full
    // recompute, whole on every ZeRO-3 rank.
    void weight_copies_saved_for_backward_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("recompute");
        QTest::addColumn<bool>("mxfp8");
        QTest::addColumn<double>("bytes_per_param");
        QTest::newRow("H100, no recompute: every layer's, 2 bytes") << QStringLiteral("h100-80gb") << false << false << 2.0;
        QTest::newRow("B200, no recompute: every layer's, 1 byte") << QStringLiteral("b200") << false << false << 1.0;
        QTest::newRow("H100, full recompute: one layer's") << QStringLiteral("h100-80gb") << true << false << 2.0;
        QTest::newRow("B200, MXFP8, no recompute: 2 x 33/32 bytes") << QStringLiteral("b200") << false << true << 2.0625;
        QTest::newRow("GB300, MXFP8, full recompute: one layer's") << QStringLiteral("gb300") << true << true << 2.0625;
        // Changing the memory makes a custom GPU that keeps its tensor cores (gpu_spec.h custom_gpu).
        QTest::newRow("B200 with its memory typed in: still 1 byte") << QStringLiteral("b200 custom") << false << false << 1.0;
    }
    void weight_copies_saved_for_backward() {
        QFETCH(QString, gpu);
        QFETCH(bool, recompute);
        QFETCH(bool, mxfp8);
        QFETCH(double, bytes_per_param);
        Scenario s = preset_scenario("llama-3.1-8b", gpu.section(QLatin1Char(' '), 0, 0).toStdString().c_str(), 8);
        if (gpu.endsWith(QLatin1String(" custom"))) s.cluster.gpu = custom_gpu(s.cluster.gpu, 170.0);
        s.training.fp8_scaling = mxfp8 ? Fp8Scaling::Mxfp8 : Fp8Scaling::Delayed;
        s.zero.stage = 3;
        s.training.seq_len = 2048;
        s.training.micro_batch = 1;
        s.training.checkpointing = recompute ? Checkpointing::Full : Checkpointing::None;
        QCOMPARE(fp8_weight_copy_bytes_per_param(s.cluster.gpu, s.training.fp8_scaling), bytes_per_param);
        // The first backward moment (the last layer's backward) holds them: all of the kept layers',
        // or the recomputed layer's own.
        const double bf16 = first_activations(s, StepPhase::Backward);
        s.training.fp8_gemms = true;
        const double fp8 = first_activations(s, StepPhase::Backward);
        const double all_layers = bytes_per_param * fp8_layer_params(s.model);
        const double expected = recompute ? all_layers / static_cast<double>(s.model.layers) : all_layers;
        QVERIFY2(std::abs((fp8 - bf16) - expected) <= 1e-6 * expected,
                 qPrintable(QStringLiteral("grown %1, expected %2").arg(fp8 - bf16).arg(expected)));
    }

    // Accelerate converts the LM head too when both its dimensions divide by 16 (utils/
    // transformer_engine.py convert_model): its FP8 copy is saved from the head's forward to its
    // backward, so the loss holds it on top of the layers' (Llama-3.1 8B on H100: 128,256 x 4,096
    // x 2 bytes, 1 GiB); GPT-2 XL's 50,257-wide head stays an nn.Linear and adds nothing.
    void head_copy_held_through_the_loss_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("head_in_fp8");
        QTest::newRow("Llama-3.1 8B: 128,256 x 4,096 head in FP8") << QStringLiteral("llama-3.1-8b") << true;
        QTest::newRow("GPT-2 XL: the 50,257-wide head stays bf16") << QStringLiteral("gpt2-xl") << false;
    }
    void head_copy_held_through_the_loss() {
        QFETCH(QString, model);
        QFETCH(bool, head_in_fp8);
        Scenario s = preset_scenario(model.toStdString().c_str(), "h100-80gb", 8);
        s.zero.stage = 3;
        s.training.seq_len = 2048;
        s.training.micro_batch = 1;
        s.training.checkpointing = Checkpointing::None;
        const double bf16 = first_activations(s, StepPhase::Loss);
        s.training.fp8_gemms = true;
        const double grown = first_activations(s, StepPhase::Loss) - bf16;
        const double head = head_in_fp8 ? 2.0 * static_cast<double>(s.model.vocab * s.model.hidden) : 0.0;
        const double expected = 2.0 * fp8_layer_params(s.model) + head;
        QVERIFY2(std::abs(grown - expected) <= 1e-6 * expected,
                 qPrintable(QStringLiteral("grown %1, expected %2").arg(grown).arg(expected)));
    }

    // ... and casts its input, its weight and its output gradient once a micro step (not in the
    // layers' recompute): 4 bytes an element each (read 2, write the rowwise and columnwise FP8).
    // Against the same model with a vocabulary one short of a multiple of 16 (head left in bf16),
    // whose loss reads one column less.
    void head_casts_once_a_micro_step() {
        const ModelSpec m = model_preset("llama-3.1-8b").spec;
        ModelSpec odd = m;
        odd.vocab = m.vocab - 1;
        const GpuSpec g = gpu_preset("h100-80gb");
        Training t;
        t.seq_len = 2048;
        t.micro_batch = 2;
        t.fp8_gemms = true;
        t.checkpointing = Checkpointing::Full;
        const double T = 4096.0, h = static_cast<double>(m.hidden), V = static_cast<double>(m.vocab);
        const double grown = compute_time(m, t, g, 1, 0, 1.0).memory_seconds - compute_time(odd, t, g, 1, 0, 1.0).memory_seconds;
        const double expected = (4.0 * (T * h + h * V + T * V) + 24.0 * T) / streaming_bytes_per_second(g);
        QVERIFY2(std::abs(grown - expected) <= 1e-6 * expected,
                 qPrintable(QStringLiteral("grown %1 s, expected %2 s").arg(grown).arg(expected)));
    }

    // What FP8 needs: FP8 tensor cores (the A100 has none; a custom GPU keeps its preset's rate),
    // bf16 (Accelerate's fp8 runs under bf16 autocast), and nn.Linear layers (QLoRA's are
    // bitsandbytes' Linear4bit, which Accelerate does not convert).
    void refusals_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("A100: no FP8 tensor cores") << "a100"
                                                   << "does not have";
        QTest::newRow("fp16") << "fp16"
                              << "use --precision bf16";
        QTest::newRow("QLoRA") << "qlora"
                               << "4-bit layers are not nn.Linear";
        // MXFP8 needs compute capability 10 (TE quantization.py _compute_mxfp8_support): not Hopper,
        // not the RTX 5090 (12.0), not AMD.
        QTest::newRow("MXFP8 on H100") << "mxfp8 h100-80gb"
                                       << "MXFP8 needs compute capability 10";
        QTest::newRow("MXFP8 on RTX 5090") << "mxfp8 rtx-5090"
                                           << "MXFP8 needs compute capability 10";
        QTest::newRow("MXFP8 on MI355X") << "mxfp8 mi355x"
                                         << "MXFP8 needs compute capability 10";
        // convert_model would swap Llama4Router, an nn.Linear subclass that also routes.
        QTest::newRow("Llama-4 Scout: its router is an nn.Linear that routes") << "llama-4-scout"
                                                                               << "Llama4Router";
    }
    void refusals() {
        QFETCH(QString, what);
        QFETCH(QString, message);
        const std::string gpu = what.startsWith(QLatin1String("mxfp8 ")) ? what.mid(6).toStdString()
                                : what == QLatin1String("a100")          ? std::string("a100-80gb")
                                                                         : std::string("h100-80gb");
        Scenario s = preset_scenario(what == QLatin1String("llama-4-scout") ? "llama-4-scout" : "llama-3.1-8b", gpu.c_str(), 8);
        s.training.fp8_gemms = true;
        if (what.startsWith(QLatin1String("mxfp8 "))) s.training.fp8_scaling = Fp8Scaling::Mxfp8;
        if (what == QLatin1String("fp16")) s.training.precision = Precision::Fp16;
        if (what == QLatin1String("qlora")) {
            s.finetune.method = FineTuneMethod::Qlora;
            s.finetune.base_precision = BasePrecision::Nf4;
        }
        try {
            validate(s);
            QFAIL("accepted");
        } catch (const InputError& e) {
            const QString got = QString::fromUtf8(e.what());
            QVERIFY2(got.contains(message), qPrintable(got));
        }
    }

    // Accelerate's config for it (accelerate docs low_precision_training.md, fp8.yaml template):
    // mixed_precision fp8 with a TE block at DelayedScaling's defaults.
    void accelerate_config() {
        Scenario s = preset_scenario("llama-3.1-8b", "h100-80gb", 8);
        s.training.fp8_gemms = true;
        const QString yaml = QString::fromStdString(accelerate_config_yaml(s));
        for (const char* line : {"mixed_precision: fp8", "fp8_config:", "backend: TE", "fp8_format: HYBRID", "amax_history_len: 1024",
                                 "amax_compute_algo: max"})
            QVERIFY2(yaml.contains(QLatin1String(line)), qPrintable(yaml));
        // The Trainer's arguments have no FP8 switch: they say where it comes from.
        QVERIFY(QString::fromStdString(hf_training_arguments_text(s)).contains(QStringLiteral("mixed_precision: fp8")));
        QVERIFY(!yaml.contains(QStringLiteral("mxfp8")));
        s.training.fp8_gemms = false;
        QVERIFY(!QString::fromStdString(accelerate_config_yaml(s)).contains(QStringLiteral("fp8")));
        QVERIFY(!QString::fromStdString(hf_training_arguments_text(s)).contains(QStringLiteral("fp8")));
    }

    // MXFP8 (Accelerate utils/transformer_engine.py apply_fp8_autowrap): the fp8_config key
    // use_mxfp8_block_scaling and no amax keys (refused with MXFP8); on the DeepSpeed path the
    // recipe comes from FP8RecipeKwargs alone (accelerator.py _prepare_deepspeed), which the
    // exports say. The FSDP YAML reaches TERecipeKwargs and needs no such line.
    void accelerate_config_mxfp8() {
        Scenario s = preset_scenario("llama-3.1-8b", "b200", 8);
        s.training.fp8_gemms = true;
        s.training.fp8_scaling = Fp8Scaling::Mxfp8;
        validate(s);
        const QString yaml = QString::fromStdString(accelerate_config_yaml(s));
        for (const char* line : {"mixed_precision: fp8", "fp8_config:", "backend: TE", "use_mxfp8_block_scaling: true",
                                 "FP8RecipeKwargs(backend=\"te\", use_mxfp8_block_scaling=True)"})
            QVERIFY2(yaml.contains(QLatin1String(line)), qPrintable(yaml));
        QVERIFY2(!yaml.contains(QLatin1String("amax")), qPrintable(yaml));
        QVERIFY(QString::fromStdString(hf_training_arguments_text(s)).contains(QStringLiteral("create_accelerator_and_postprocess")));
        s.fsdp.engine = Engine::Fsdp;
        const QString fsdp = QString::fromStdString(accelerate_fsdp_config_yaml(s));
        QVERIFY2(fsdp.contains(QLatin1String("use_mxfp8_block_scaling: true")) && !fsdp.contains(QLatin1String("FP8RecipeKwargs")),
                 qPrintable(fsdp));
    }

    // The cast passes write MXFP8's block scales too: 4 + 2/32 bytes an element against 4.
    void mxfp8_casts_move_their_scales() {
        const ModelSpec m = model_preset("llama-3.1-8b").spec;
        const GpuSpec g = gpu_preset("b200");
        Training t;
        t.seq_len = 4096;
        t.fp8_gemms = true;
        const ComputeTime bf16 = [&] {
            Training b = t;
            b.fp8_gemms = false;
            return compute_time(m, b, g, 1, 0, 1.0);
        }();
        const ComputeTime delayed = compute_time(m, t, g, 1, 0, 1.0);
        t.fp8_scaling = Fp8Scaling::Mxfp8;
        const ComputeTime mx = compute_time(m, t, g, 1, 0, 1.0);
        QCOMPARE(mx.gemm_seconds, delayed.gemm_seconds);
        const double ratio = (mx.memory_seconds - bf16.memory_seconds) / (delayed.memory_seconds - bf16.memory_seconds);
        QVERIFY2(std::abs(ratio - (4.0 + 2.0 / 32.0) / 4.0) < 1e-9, qPrintable(QString::number(ratio, 'g', 12)));
    }
};

ZP_TEST_APPLESS_MAIN(TestFp8)
#include "tst_fp8.moc"
