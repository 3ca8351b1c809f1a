// What dominates a step (core/time/step_explain.h): the terms add up to the step, and the
// dominant one is what the published setups are known for: large GEMMs compute-bound (Narayanan
// et al. 2021 Table 1), a small model at micro batch 1 launch-bound (the PyTorch performance
// tuning guide's CPU-overhead case), ZeRO-Infinity's NVMe optimizer on a small batch swap-bound
// (arXiv 2104.07857 Sec. 5), plain data parallelism over a slow network all-reduce-bound (the
// ZeRO paper's motivation, Sec. 1).
#include "core/presets/model_presets.h"
#include "core/time/step_explain.h"
#include "test_util.h"

#include <cmath>
#include "test_main.h"

using namespace zp;
using zp::test::preset_scenario;

class TestStepExplain : public QObject {
    Q_OBJECT
private slots:
    void dominant_term_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("offload");
        QTest::addColumn<qint64>("micro");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<double>("interGbits");
        QTest::addColumn<bool>("computeBound");
        QTest::addColumn<int>("dominant");
        QTest::addColumn<QString>("lineStartsWith");
        const int none = int(OffloadDevice::None), nvme = int(OffloadDevice::Nvme);
        QTest::newRow("Narayanan 2021 Table 1 scale: Llama-2 7B, 8 x A100, micro 4 x 4096: compute-bound")
            << QStringLiteral("llama-2-7b") << QStringLiteral("a100-80gb") << qint64(8) << 1 << none << qint64(4) << qint64(4096) << 1600.0
            << true << int(StepTerm::Gemm) << QStringLiteral("compute-bound");
        QTest::newRow("PyTorch tuning guide, CPU overhead: GPT-2 124M, micro 1 x 128: launch-bound")
            << QStringLiteral("gpt2") << QStringLiteral("a100-80gb") << qint64(1) << 0 << none << qint64(1) << qint64(128) << 1600.0
            << false << int(StepTerm::KernelLaunch) << QStringLiteral("launch-bound");
        QTest::newRow("ZeRO-Infinity Sec. 5: 7B, NVMe optimizer, micro 1 x 512: NVMe swapping")
            << QStringLiteral("llama-2-7b") << QStringLiteral("a100-80gb") << qint64(8) << 3 << nvme << qint64(1) << qint64(512) << 1600.0
            << false << int(StepTerm::Nvme) << QStringLiteral("NVMe swapping");
        QTest::newRow("ZeRO Sec. 1: DDP of 1.5B over 2 nodes at 10 Gbit/s: exposed all-reduce")
            << QStringLiteral("gpt2-xl") << QStringLiteral("a100-80gb") << qint64(16) << 0 << none << qint64(1) << qint64(1024) << 10.0
            << false << int(StepTerm::AllReduce) << QStringLiteral("exposed gradient all-reduce");
    }
    void dominant_term() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(qint64, gpus);
        QFETCH(int, stage);
        QFETCH(int, offload);
        QFETCH(qint64, micro);
        QFETCH(qint64, seq);
        QFETCH(double, interGbits);
        QFETCH(bool, computeBound);
        QFETCH(int, dominant);
        QFETCH(QString, lineStartsWith);
        Scenario s = preset_scenario(model.toStdString().c_str(), gpu.toStdString().c_str(), gpus);
        s.zero.stage = stage;
        s.zero.offload_optimizer = static_cast<OffloadDevice>(offload);
        s.training.micro_batch = micro;
        s.training.seq_len = seq;
        s.training.global_batch = micro * gpus;
        s.cluster.inter_node_gbits_per_s = interGbits;
        validate(s);
        const StepTime t = estimate_step(s);
        const StepExplanation e = explain_step(t);
        QCOMPARE(e.compute_bound, computeBound);
        QCOMPARE(int(e.dominant.term), dominant);
        const QString line = QString::fromStdString(explain_step_line(t));
        QVERIFY2(line.startsWith(lineStartsWith), qPrintable(line));
        // The terms are the whole step, nothing counted twice.
        double sum = 0, shares = 0;
        for (const StepTermShare& term : e.terms) {
            sum += term.seconds;
            shares += term.share;
        }
        QVERIFY2(std::abs(sum / t.seconds - 1) < 1e-9,
                 qPrintable(QString::number(sum) + QStringLiteral(" vs ") + QString::number(t.seconds)));
        QVERIFY(std::abs(shares - 1) < 1e-9);
    }
};

ZP_TEST_APPLESS_MAIN(TestStepExplain)
#include "tst_step_explain.moc"
