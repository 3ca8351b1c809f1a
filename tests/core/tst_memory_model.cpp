// The memory model: published relations and invariants over the whole input range.
#include "core/memory/buffers.h"
#include "core/model/default_scenario.h"
#include "core/search/scenario_edits.h"
#include "core/memory/memory_model.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"

#include <QtTest>
#include <cmath>

using namespace zp;

namespace {
Scenario scenario(const ModelSpec& m, std::int64_t gpus, int stage) {
    Scenario s = default_scenario();
    s.model = m;
    s.cluster.gpus_per_node = std::min<std::int64_t>(gpus, 8);
    s.cluster.nodes = gpus / s.cluster.gpus_per_node;
    s.zero.stage = stage;
    return s;
}
}  // namespace

class TestMemoryModel : public QObject {
    Q_OBJECT
private slots:
    // The headline: llama-2-7b, 8 GPUs, stage 2: model states = 2P + 18P/N.
    void stage2_llama2_7b() {
        const Scenario s = scenario(model_preset("llama-2-7b").spec, 8, 2);
        const MemoryBreakdown m = estimate_memory(s);
        const double P = 6738415616.0;
        QCOMPARE(m.params_bytes + m.gradients_bytes + m.optimizer_states_bytes, 2 * P + 18 * P / 8);
    }

    // Hugging Face DeepSpeed guide: 5e8 buckets with overlap_comm cost 5e8 x 2 x 2 x 4.5 = 9 GB.
    void overlap_comm_buckets_data() {
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<double>("bytes");
        QTest::newRow("HF DeepSpeed guide: overlap_comm on, 9 GB") << true << 9e9;
        QTest::newRow("overlap_comm off: the two buckets, 2 GB") << false << 2e9;
    }
    void overlap_comm_buckets() {
        QFETCH(bool, overlap);
        QFETCH(double, bytes);
        ZeroSetup z;
        z.stage = 2;
        z.overlap_comm = overlap;
        z.reduce_bucket_elems = z.allgather_bucket_elems = 5e8;
        QCOMPARE(buffer_bytes(model_preset("llama-2-7b").spec, Training{}, z).total(), bytes);
    }

    // ZeRO-3 host RAM with zero.Init and full CPU offload: DeepSpeed's P x 18 / nodes x 1.5.
    void stage3_cpu_offload_host_ram() {
        Scenario s = scenario(model_preset("llama-2-70b").spec, 8, 3);
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Cpu;
        const double P = 68976648192.0;
        QCOMPARE(estimate_memory(s).cpu_bytes_per_node, P * 18 * 1.5);
        s.cluster.nodes = 4;
        QCOMPARE(estimate_memory(s).cpu_bytes_per_node, P * 18 / 4 * 1.5);
    }

    void invariants_data() {
        QTest::addColumn<qint64>("params");
        QTest::addColumn<QString>("preset");
        QTest::newRow("100M synthesized") << qint64(100'000'000) << "";
        QTest::newRow("llama-2-7b") << qint64(0) << "llama-2-7b";
        QTest::newRow("mixtral-8x7b") << qint64(0) << "mixtral-8x7b";
        QTest::newRow("llama-3-70b") << qint64(0) << "llama-3-70b";
        QTest::newRow("2T synthesized") << qint64(2'000'000'000'000) << "";
    }
    // For every setup, precision, optimizer and GPU count from 1 to 4096: every slice finite and
    // non-negative, the total the sum of its slices; ZeRO-3 never grows with more GPUs; a higher
    // stage never holds more model states; offload never raises GPU model states.
    void invariants() {
        QFETCH(qint64, params);
        QFETCH(QString, preset);
        const ModelSpec m = params > 0 ? synthesize_model(params) : model_preset(preset.toStdString()).spec;
        int checked = 0;
        for (Precision p : {Precision::Bf16, Precision::Fp16, Precision::Fp32})
            for (Optimizer o : {Optimizer::AdamW, Optimizer::Lion, Optimizer::Sgd})
                for (Convention c : {Convention::DeepSpeed, Convention::Paper}) {
                    double previous_stage3 = INFINITY;
                    for (std::int64_t gpus = 1; gpus <= 4096; gpus *= 2) {
                        double previous_states = INFINITY;
                        for (const ZeroSetup& z : zero_setups()) {
                            if (p == Precision::Fp32 && z.offload_optimizer != OffloadDevice::None) continue;
                            Scenario s = with_setup(scenario(m, gpus, z.stage), z);
                            s.training.precision = p;
                            s.training.optimizer = o;
                            s.assumptions.convention = c;
                            const MemoryBreakdown b = estimate_memory(s);
                            for (double v : {b.params_bytes, b.gradients_bytes, b.optimizer_states_bytes, b.activations_bytes, b.buffers_bytes,
                                             b.cuda_context_bytes, b.fragmentation_bytes, b.cpu_bytes_per_node, b.nvme_bytes_per_node})
                                QVERIFY(std::isfinite(v) && v >= 0);
                            const double sum = b.params_bytes + b.gradients_bytes + b.optimizer_states_bytes + b.activations_bytes +
                                               b.buffers_bytes + b.cuda_context_bytes + b.fragmentation_bytes;
                            QCOMPARE(b.total_bytes(), sum);
                            if (z.offload_optimizer == OffloadDevice::None) {
                                // zero_setups() lists stages 0..3 without offload first, in order.
                                QVERIFY(b.model_states_bytes() <= previous_states * (1 + 1e-12));
                                previous_states = b.model_states_bytes();
                                if (z.stage == 3) {
                                    QVERIFY(b.total_bytes() <= previous_stage3 * (1 + 1e-12));
                                    previous_stage3 = b.total_bytes();
                                }
                            } else {
                                Scenario plain = s;
                                plain.zero.offload_optimizer = plain.zero.offload_param = OffloadDevice::None;
                                QVERIFY(b.model_states_bytes() <= estimate_memory(plain).model_states_bytes());
                            }
                            ++checked;
                        }
                    }
                }
        QVERIFY(checked > 1000);
    }
};

QTEST_APPLESS_MAIN(TestMemoryModel)
#include "tst_memory_model.moc"
