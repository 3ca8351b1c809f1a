// Step time. Covers core/time/collectives.cpp (ring formulas, bottleneck link), core/time/flops.cpp
// (Korthikanti Eq. 7, Narayanan Eq. 3), core/time/step_time.cpp (communication volume per stage,
// gradient accumulation, offload, the step's outputs). Every expected value is a published
// relation or a literal worked out by hand (tests/hand_calculations.py), never the code's own formula.
#include "core/presets/model_presets.h"
#include "core/time/collectives.h"
#include "core/time/flops.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include <QtTest>
#include <cmath>

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

    // The bus bandwidth a ring sees: NVLink on one node; on several, each GPU's share of its node's
    // network (1600 Gbit/s / 8 bit / 8 GPUs = 25 GB/s) unless the intra-node link is slower.
    void bottleneck_link_data() {
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<double>("intraGBps");
        QTest::addColumn<double>("interGbits");
        QTest::addColumn<double>("expectedGBps");
        QTest::newRow("one DGX A100: NVLink 300 GB/s") << qint64(1) << qint64(8) << 300.0 << 1600.0 << 300.0;
        QTest::newRow("two DGX A100: 1600 / 8 / 8 = 25 GB/s") << qint64(2) << qint64(8) << 300.0 << 1600.0 << 25.0;
        QTest::newRow("4090 boxes, PCIe 32 GB/s, 100 Gbit/s: 100 / 8 / 8 = 1.5625") << qint64(4) << qint64(8) << 32.0 << 100.0 << 1.5625;
        QTest::newRow("one GPU per node, 3200 Gbit/s = 400 GB/s > PCIe 32") << qint64(4) << qint64(1) << 32.0 << 3200.0 << 32.0;
    }
    void bottleneck_link() {
        QFETCH(qint64, nodes);
        QFETCH(qint64, gpusPerNode);
        QFETCH(double, intraGBps);
        QFETCH(double, interGbits);
        QFETCH(double, expectedGBps);
        Cluster c;
        c.nodes = nodes;
        c.gpus_per_node = gpusPerNode;
        c.intra_node_gbytes_per_s = intraGBps;
        c.inter_node_gbits_per_s = interGbits;
        QCOMPARE(bottleneck_gbytes_per_s(c), expectedGBps);
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

    // One step of GPT-2 124M worked out by hand from docs/design.md §5 (tests/hand_calculations.py):
    //   tokens T = 64 x 1024 = 65,536; G = 64 / (micro x N).
    //   model FLOPs = 6 x (P - 1024 x 768) x T + 12 L h s T      (the position table is a lookup)
    //               = 6 x 123,653,376 x 65,536 + 12 x 12 x 768 x 1024 x 65,536
    //               = 48,622,485,897,216 + 7,421,703,487,488 = 56,044,189,384,704
    //   full recompute adds one forward of the layers: 2 x 85,056,000 x T + 4 L h s T = 13,622,361,194,496.
    //   compute = hardware FLOPs / (N x 312e12 x 0.45).
    // Row "1 x 8, ZeRO-2, overlap off" (micro 4, G = 2):
    //   compute    = 56,044,189,384,704 / (8 x 312e12 x 0.45)                = 0.049896892258 s
    //   reduce-scatter of 2P x G bytes every micro step: 7/8 x 497,759,232 / 300e9 = 0.00145179776 s
    //   all-gather of 2P once:                          7/8 x 248,879,616 / 300e9 = 0.00072589888 s
    //   launches: one 2e8 bucket per reduce-scatter (x2) and one all-gather = 3 x 30 us = 0.00009 s
    //   comm = 0.00226769664 s, nothing hidden; step = 0.052164588898 s
    //   tokens/s = 65,536 / step = 1,256,331.19; MFU = model FLOPs / step / 8 / 312e12 = 0.43044
    //   GPU-hours for 1e12 tokens = 1e12 / (tokens/s) x 8 / 3600 = 1768.82
    // "overlap on" hides min(0.8 x backward (2/3 of compute), the reduce-scatter): all 0.00145179776 s.
    // "2 x 8 DDP" (G = 1): an all-reduce of 2P on the 25 GB/s network share:
    //   2 x 15/16 x 248,879,616 / 25e9 + 30 us = 0.0186959712 s.
    // "1 x 1, ZeRO-2 + CPU optimizer, full recompute" (G = 16): no collectives; PCIe (2P x G + 2P) /
    //   32e9 = 0.132217296 s plus CPU Adam P / 4.5e9 = 0.0276532907 s.
    // "1 x 8, ZeRO-3 + NVMe optimizer and params" (micro 8, G = 1): comm 0.00238769664 s (RS 2P, AG 4P,
    //   7 launches) all hidden behind 0.8 x compute; offload = PCIe (2P/8 + 2P/8 + 4P/8) / 32e9
    //   + P / 4.5e9 + NVMe states 2 x 16P / 6e9 + NVMe params (4P + 2P) / 6e9 = 0.81966081867 s.
    void hand_computed_step_data() {
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("offloadOptimizer");
        QTest::addColumn<int>("offloadParam");
        QTest::addColumn<bool>("overlap");
        QTest::addColumn<qint64>("micro");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<qint64>("gas");
        QTest::addColumn<double>("computeSeconds");
        QTest::addColumn<double>("commSeconds");
        QTest::addColumn<double>("offloadSeconds");
        QTest::addColumn<double>("seconds");
        QTest::addColumn<double>("tokensPerSecond");
        QTest::addColumn<double>("mfu");
        QTest::addColumn<double>("gpuHours");
        const int none = int(OffloadDevice::None), cpu = int(OffloadDevice::Cpu), nvme = int(OffloadDevice::Nvme);
        QTest::newRow("1 x 8, ZeRO-2, overlap off")
            << qint64(1) << qint64(8) << 2 << none << none << false << qint64(4) << int(Checkpointing::None) << qint64(2)
            << 0.049896892258461535 << 0.00226769664 << 0.0 << 0.05216458889846153 << 1256331.1891054283 << 0.43043762043277417
            << 1768.8187967414528;
        QTest::newRow("1 x 8, ZeRO-2, overlap on hides the reduce-scatter")
            << qint64(1) << qint64(8) << 2 << none << none << true << qint64(4) << int(Checkpointing::None) << qint64(2)
            << 0.049896892258461535 << 0.00081589888 << 0.0 << 0.050712791138461534 << 1292297.2395872776 << 0.44276012051875524
            << 1719.5906283386753;
        QTest::newRow("2 x 8, DDP on the 25 GB/s network share")
            << qint64(2) << qint64(8) << 0 << none << none << false << qint64(4) << int(Checkpointing::None) << qint64(1)
            << 0.024948446129230768 << 0.0186959712 << 0.0 << 0.043644417329230766 << 1501589.5276051122 << 0.25723337473988267
            << 2959.8264790331195;
        QTest::newRow("1 x 1, ZeRO-2 + CPU optimizer, full recompute")
            << qint64(1) << qint64(1) << 2 << cpu << none << true << qint64(4) << int(Checkpointing::Full) << qint64(16)
            << 0.4962005027008547 << 0.0 << 0.15987058666666668 << 0.6560710893675213 << 99891.61397613071 << 0.2737947381641689
            << 2780.7917674065543;
        QTest::newRow("1 x 8, ZeRO-3 + NVMe optimizer and params")
            << qint64(1) << qint64(8) << 3 << nvme << nvme << true << qint64(8) << int(Checkpointing::None) << qint64(1)
            << 0.049896892258461535 << 0.0 << 0.8196608186666666 << 0.8695577109251281 << 75367.05060124856 << 0.025821864649350483
            << 29485.328197059738;
    }
    void hand_computed_step() {
        QFETCH(qint64, nodes);
        QFETCH(qint64, gpusPerNode);
        QFETCH(int, stage);
        QFETCH(int, offloadOptimizer);
        QFETCH(int, offloadParam);
        QFETCH(bool, overlap);
        QFETCH(qint64, micro);
        QFETCH(int, recompute);
        QFETCH(qint64, gas);
        QFETCH(double, computeSeconds);
        QFETCH(double, commSeconds);
        QFETCH(double, offloadSeconds);
        QFETCH(double, seconds);
        QFETCH(double, tokensPerSecond);
        QFETCH(double, mfu);
        QFETCH(double, gpuHours);
        const Scenario s = gpt2_step(nodes, gpusPerNode, stage, static_cast<OffloadDevice>(offloadOptimizer),
                                     static_cast<OffloadDevice>(offloadParam), overlap, micro, static_cast<Checkpointing>(recompute));
        validate(s);
        const StepTime t = estimate_step(s);
        QCOMPARE(t.gradient_accumulation_steps, std::int64_t(gas));
        QCOMPARE(t.tokens_per_step, 65536.0);
        QCOMPARE(t.model_flops, 56044189384704.0);
        QCOMPARE(t.hardware_flops, recompute == int(Checkpointing::Full) ? 69666550579200.0 : 56044189384704.0);
        ZP_COMPARE_NEAR(t.compute_seconds, computeSeconds);
        ZP_COMPARE_NEAR(t.comm_seconds, commSeconds);
        ZP_COMPARE_NEAR(t.offload_seconds, offloadSeconds);
        ZP_COMPARE_NEAR(t.seconds, seconds);
        ZP_COMPARE_NEAR(t.tokens_per_second, tokensPerSecond);
        ZP_COMPARE_NEAR(t.mfu, mfu);
        ZP_COMPARE_NEAR(t.budget_gpu_hours, gpuHours);
    }
};

QTEST_APPLESS_MAIN(TestStepTime)
#include "tst_step_time.moc"
