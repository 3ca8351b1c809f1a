// The GPUs and racks of 2026 (core/presets/gpu_presets.cpp, cluster_presets.cpp): each preset's
// figures as its datasheet prints them (dense = NVIDIA's sparse figure / 2, its footnote says so),
// and the NVLink domain of a GB200 NVL72 rack as one node, so tensor parallelism may span more
// than 8 GPUs there and not on DGX H100 nodes.
#include "core/base/errors.h"
#include "core/model/parallel_layout.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "test_util.h"

#include <QtTest>

#include <algorithm>

using namespace zp;

class TestHardware2026 : public QObject {
    Q_OBJECT
private slots:
    void gpu_figures_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<double>("tflops");
        QTest::addColumn<double>("hbm_gbytes_per_s");
        QTest::addColumn<double>("nvlink_gbytes_per_s");
        QTest::newRow("Blackwell datasheet, HGX B200: 4.5 PF sparse, 7.7 TB/s, NVLink 1.8 TB/s") << "b200" << 2250.0 << 7700.0 << 900.0;
        QTest::newRow("GTC 2024 HGX B200 table: 192 GB, 8 TB/s") << "b200-192gb" << 2250.0 << 8000.0 << 900.0;
        QTest::newRow("Blackwell datasheet, GB200 NVL72: 5 PF sparse, 8 TB/s") << "gb200" << 2500.0 << 8000.0 << 900.0;
        QTest::newRow("Blackwell Ultra datasheet, HGX B300: 4.5 PF sparse, 7.7 TB/s") << "b300" << 2250.0 << 7700.0 << 900.0;
        QTest::newRow("Blackwell Ultra datasheet, GB300 NVL72: 5 PF sparse, 8 TB/s") << "gb300" << 2500.0 << 8000.0 << 900.0;
        QTest::newRow("RTX Blackwell whitepaper Table 3: 209.5 (FP32 accumulate), 1792 GB/s") << "rtx-5090" << 209.5 << 1792.0 << 64.0;
        QTest::newRow("AMD MI325X: 1307.4 dense, 6 TB/s, 7 x 64 GB/s xGMI") << "mi325x" << 1307.4 << 6000.0 << 448.0;
        QTest::newRow("AMD MI355X: 2516.6 dense, 8 TB/s, 7 x 76.5 GB/s xGMI") << "mi355x" << 2516.6 << 8000.0 << 535.5;
    }
    void gpu_figures() {
        QFETCH(QString, gpu);
        QFETCH(double, tflops);
        QFETCH(double, hbm_gbytes_per_s);
        QFETCH(double, nvlink_gbytes_per_s);
        const GpuSpec& g = gpu_preset(gpu.toStdString());
        QCOMPARE(g.peak_tflops_16bit, tflops);
        QCOMPARE(gpu_time_traits(g).hbm_gbytes_per_s, hbm_gbytes_per_s);
        QCOMPARE(g.intra_node_gbytes_per_s, nvlink_gbytes_per_s);
    }

    // GB200 NVL72: 72 GPUs in one NVLink domain, 36 Grace CPUs of 480 GB LPDDR5X.
    void nvl72_is_one_node_of_72() {
        const Cluster& c = cluster_preset("gb200-nvl72").cluster;
        QCOMPARE(c.gpus_per_node, std::int64_t{72});
        QCOMPARE(c.gpu.name, std::string("gb200"));
        QVERIFY(std::abs(c.cpu_ram_bytes_per_node - 36 * 480e9) < 1e9);
    }

    // Tensor parallelism follows the NVLink domain: 16 on 64 GPUs of an NVL72 rack; at most 8 on
    // DGX H100 nodes. GPT-3 175B's 96 heads (and key/value heads) take 16.
    void tensor_parallelism_follows_the_nvlink_domain() {
        Scenario s = test::model_scenario(model_preset("gpt3-175b").spec, 64, 1);
        s.training.global_batch = 512;
        const Scenario rack = with_node(s, cluster_preset("gb200-nvl72").cluster, 64);
        const Scenario dgx = with_node(s, cluster_preset("dgx-h100").cluster, 64);
        const auto rack_sizes = tensor_parallel_sizes(rack), dgx_sizes = tensor_parallel_sizes(dgx);
        QVERIFY(std::find(rack_sizes.begin(), rack_sizes.end(), 16) != rack_sizes.end());
        QCOMPARE(*std::max_element(dgx_sizes.begin(), dgx_sizes.end()), std::int64_t{8});
        Scenario tp16 = rack;
        tp16.parallel.tensor = 16;
        validate(tp16);
        tp16 = dgx;
        tp16.parallel.tensor = 16;
        QVERIFY_THROWS_EXCEPTION(InputError, validate(tp16));
    }

    // Llama-3.1-405B has 128 heads in 8 key/value groups: Megatron gives each tensor rank whole
    // groups (megatron/core/transformer/attention.py divide(num_query_groups, world_size)), so 16
    // is refused inside the rack too, and the refusal names the largest size that works.
    void tensor_parallelism_stops_at_the_key_value_groups() {
        Scenario s = test::model_scenario(model_preset("llama-3.1-405b").spec, 64, 1);
        s = with_node(s, cluster_preset("gb200-nvl72").cluster, 64);
        s.parallel.tensor = 16;
        try {
            validate(s);
            QFAIL("accepted");
        } catch (const InputError& e) {
            const QString got = QString::fromUtf8(e.what());
            QVERIFY2(got.contains(QLatin1String("key/value heads (8)")) && got.contains(QLatin1String("use tensor 8 or less")),
                     qPrintable(got));
        }
        s.parallel.tensor = 8;
        validate(s);
    }

    // The window lists GPUs and nodes by vendor and generation: every preset has its family.
    void every_gpu_preset_has_a_family() {
        for (const GpuSpec& g : gpu_presets()) QVERIFY2(*gpu_family(g.name) != '\0', g.name.c_str());
        for (const ClusterPreset& c : cluster_presets()) QVERIFY2(*gpu_family(c.cluster.gpu.name) != '\0', c.name.c_str());
        QCOMPARE(std::string(gpu_family("b300")), std::string("NVIDIA Blackwell"));
        QCOMPARE(std::string(gpu_family("mi355x")), std::string("AMD Instinct"));
        QCOMPARE(std::string(gpu_family("rtx-5090")), std::string("Workstation and consumer GPUs"));
        QCOMPARE(std::string(gpu_family("no-such-gpu")), std::string());
        // The compute-capability-10 flag (MXFP8, FP8 in every layout) is the data-centre Blackwell family's.
        for (const GpuSpec& g : gpu_presets())
            QVERIFY2(g.compute_capability_10 == (std::string(gpu_family(g.name)) == "NVIDIA Blackwell"), g.name.c_str());
    }

    // HGX B300 (DGX B300 user guide): 8 GPUs, 8 x 800 Gb/s, 2 TB.
    void hgx_b300_node() {
        const Cluster& c = cluster_preset("hgx-b300").cluster;
        QCOMPARE(c.gpu.name, std::string("b300"));
        QCOMPARE(c.gpus_per_node, std::int64_t{8});
        QCOMPARE(c.inter_node_gbits_per_s, 6400.0);
        QCOMPARE(c.cpu_ram_bytes_per_node, 2048.0 * 1024 * 1024 * 1024);
    }
};

QTEST_APPLESS_MAIN(TestHardware2026)
#include "tst_hardware_2026.moc"
