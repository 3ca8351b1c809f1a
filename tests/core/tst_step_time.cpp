// Step time: communication volume (ZeRO paper Sec. 7, nccl-tests), FLOPs (Korthikanti Eq. 7,
// Narayanan Eq. 3) and the effect of gradient accumulation.
#include "core/time/collectives.h"
#include "core/model/default_scenario.h"
#include "core/time/flops.h"
#include "core/time/step_time.h"

#include <QtTest>
#include <cmath>

using namespace zp;

namespace {
// Elements each GPU sends per step under the ring model: 2(N-1)/N per all-reduced element,
// (N-1)/N per reduce-scattered or all-gathered one.
double elements_per_gpu(const CommVolume& v, double N) {
    return ((N - 1) / N) * (2 * v.allreduce_bytes + v.reduce_scatter_bytes + v.allgather_bytes) / 2.0;
}
}  // namespace

class TestStepTime : public QObject {
    Q_OBJECT
private slots:
    void zero_paper_volume_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("psiMultiple");
        QTest::newRow("ZeRO Sec. 7.2.1: DP all-reduce 2 Psi") << 0 << 2.0;
        QTest::newRow("ZeRO Sec. 7.2.1: P_os 2 Psi") << 1 << 2.0;
        QTest::newRow("ZeRO Sec. 7.2.1: P_os+g 2 Psi") << 2 << 2.0;
        QTest::newRow("ZeRO Sec. 7.2.2: P_os+g+p 3 Psi") << 3 << 3.0;
    }
    void zero_paper_volume() {
        QFETCH(int, stage);
        QFETCH(double, psiMultiple);
        const double psi = 7.5e9, N = 1e6;  // the large-N limit
        const CommVolume v = comm_volume(psi, stage, 1, Training{}, ZeroSetup{});
        QVERIFY(std::fabs(elements_per_gpu(v, N) / psi - psiMultiple) < 1e-5);
    }

    void nccl_tests_formulas_data() {
        QTest::addColumn<double>("ranks");
        for (double n : {2.0, 3.0, 8.0, 64.0}) QTest::newRow(qPrintable(QString("N=%1").arg(n))) << n;
    }
    void nccl_tests_formulas() {
        QFETCH(double, ranks);
        const double S = 1e9, B = 100;  // bytes, GB/s
        QCOMPARE(allreduce_seconds(S, ranks, B), 2 * (ranks - 1) / ranks * S / (B * 1e9));
        QCOMPARE(reduce_scatter_seconds(S, ranks, B), (ranks - 1) / ranks * S / (B * 1e9));
        QCOMPARE(allgather_seconds(S, ranks, B), (ranks - 1) / ranks * S / (B * 1e9));
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
            if (stage <= 1) QCOMPARE(v8, v1);           // all-reduce once per optimizer step
            if (stage == 3) QCOMPARE(v8, 8 * v1);       // gathers and reduces every micro step
            if (stage == 2) QVERIFY(v8 > v1 && v8 < 8 * v1);
        }
    }

    void step_outputs_are_consistent() {
        Scenario s = default_scenario();
        const StepTime t = estimate_step(s);
        QVERIFY(t.seconds > 0 && std::isfinite(t.seconds));
        QCOMPARE(t.seconds, t.compute_seconds + t.comm_seconds + t.offload_seconds);
        QCOMPARE(t.tokens_per_second, t.tokens_per_step / t.seconds);
        QVERIFY(t.mfu > 0 && t.mfu <= s.assumptions.mfu + 1e-12);
        QCOMPARE(t.budget_gpu_hours, t.budget_seconds * 8 / 3600);
        s.zero.offload_optimizer = OffloadDevice::Cpu;
        QVERIFY(estimate_step(s).offload_seconds > 0);
    }
};

QTEST_APPLESS_MAIN(TestStepTime)
#include "tst_step_time.moc"
