// FP8 matmuls (Training::fp8_gemms): Transformer Engine's DelayedScaling through Accelerate.
// Rows: the GEMMs at the GPU's FP8 rate (core/time/compute_time.cpp), the FP8 weight copies each
// te.Linear saves for backward (core/memory/step_timeline.cpp), the refusals (core/model/scenario.cpp)
// and the Accelerate export (core/deepspeed/accelerate_yaml.cpp).
#include "core/base/errors.h"
#include "core/deepspeed/framework_exports.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/linear_modules.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/time/compute_time.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include <QtTest>

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

}  // namespace

class TestFp8 : public QObject {
    Q_OBJECT

private slots:
    // The matmuls run at the FP8 peak (datasheets: H100 SXM 1979 against 989 dense, B200 4500
    // against 2250), so a compute-bound GEMM takes the 16-bit time x peak16 / peak8; the attention
    // core stays in bf16. GPT-2's 50,257-wide LM head does not divide by 16: Accelerate leaves it an
    // nn.Linear, so it keeps its 16-bit time.
    void gemms_at_the_fp8_rate_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("head_in_fp8");
        QTest::newRow("Llama-3.1 8B on H100 SXM: 989 -> 1979 TFLOP/s")
            << QStringLiteral("llama-3.1-8b") << QStringLiteral("h100-80gb") << true;
        QTest::newRow("Llama-3.1 8B on B200: 2250 -> 4500 TFLOP/s") << QStringLiteral("llama-3.1-8b") << QStringLiteral("b200") << true;
        QTest::newRow("GPT-2 XL on H100: the 50,257-wide head stays bf16")
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
        const double head_share_bf16 =
            3.0 * static_cast<double>(m.vocab * m.hidden) / (fp8_layer_params(m) + 3.0 * static_cast<double>(m.vocab * m.hidden));
        if (head_in_fp8) {
            QVERIFY2(std::abs(fp8.gemm_seconds / bf16.gemm_seconds - ratio) < 1e-3,
                     qPrintable(QString::number(fp8.gemm_seconds / bf16.gemm_seconds)));
        } else {
            // The head's GEMMs keep their time: the ratio lies between all-FP8 and all-bf16.
            const double r = fp8.gemm_seconds / bf16.gemm_seconds;
            QVERIFY2(r > ratio + 0.1 * head_share_bf16 && r < 1.0, qPrintable(QString::number(r)));
        }
        // Each te.Linear casts its input, weight and output gradient: memory-bound passes more.
        QVERIFY(fp8.memory_seconds > bf16.memory_seconds);
        QVERIFY(fp8.total_seconds < bf16.total_seconds);
    }

    // Each te.Linear saves its FP8 weight for backward (TE linear.py): on Hopper the E4M3 weight and
    // its transpose, 2 bytes a parameter, on Blackwell one buffer for both, 1 byte. Nothing is
    // cached between micro steps under Accelerate, so the copies live with the activations: every
    // layer's without recompute (the peak at the loss holds all of them), one layer's with full
    // recompute, whole on every ZeRO-3 rank.
    void weight_copies_saved_for_backward_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("recompute");
        QTest::addColumn<double>("bytes_per_param");
        QTest::newRow("H100, no recompute: every layer's, 2 bytes") << QStringLiteral("h100-80gb") << false << 2.0;
        QTest::newRow("B200, no recompute: every layer's, 1 byte") << QStringLiteral("b200") << false << 1.0;
        QTest::newRow("H100, full recompute: one layer's") << QStringLiteral("h100-80gb") << true << 2.0;
    }
    void weight_copies_saved_for_backward() {
        QFETCH(QString, gpu);
        QFETCH(bool, recompute);
        QFETCH(double, bytes_per_param);
        Scenario s = preset_scenario("llama-3.1-8b", gpu.toStdString().c_str(), 8);
        s.zero.stage = 3;
        s.training.seq_len = 2048;
        s.training.micro_batch = 1;
        s.training.checkpointing = recompute ? Checkpointing::Full : Checkpointing::None;
        QCOMPARE(fp8_weight_copy_bytes_per_param(s.cluster.gpu), bytes_per_param);
        // The first backward moment (the last layer's backward) holds them: all of the kept layers',
        // or the recomputed layer's own.
        const auto first_backward = [](const Scenario& x) {
            for (const StepMoment& mo : step_timeline(x, TimelineDetail::EveryLayer))
                if (mo.phase == StepPhase::Backward) return mo.activations_bytes;
            return 0.0;
        };
        const double bf16 = first_backward(s);
        s.training.fp8_gemms = true;
        const double fp8 = first_backward(s);
        const double all_layers = bytes_per_param * fp8_layer_params(s.model);
        const double expected = recompute ? all_layers / static_cast<double>(s.model.layers) : all_layers;
        QVERIFY2(std::abs((fp8 - bf16) - expected) <= 1e-6 * expected,
                 qPrintable(QStringLiteral("grown %1, expected %2").arg(fp8 - bf16).arg(expected)));
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
    }
    void refusals() {
        QFETCH(QString, what);
        QFETCH(QString, message);
        Scenario s = preset_scenario("llama-3.1-8b", what == QLatin1String("a100") ? "a100-80gb" : "h100-80gb", 8);
        s.training.fp8_gemms = true;
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
        s.training.fp8_gemms = false;
        QVERIFY(!QString::fromStdString(accelerate_config_yaml(s)).contains(QStringLiteral("fp8")));
        QVERIFY(!QString::fromStdString(hf_training_arguments_text(s)).contains(QStringLiteral("fp8")));
    }
};

QTEST_APPLESS_MAIN(TestFp8)
#include "tst_fp8.moc"
