// The GPUs and racks of 2026 (core/presets/gpu_presets.cpp, cluster_presets.cpp): each preset's
// figures as its datasheet prints them (dense = NVIDIA's sparse figure / 2, its footnote says so),
// and the NVLink domain of a GB200 NVL72 rack as one node, so tensor parallelism may span more
// than 8 GPUs there and not on DGX H100 nodes.
#include "core/base/errors.h"
#include "core/memory/activations.h"
#include "core/model/parallel_layout.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "core/time/collectives.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include "test_main.h"

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

    // Megatron-Core splits the attention when each rank gets whole query heads and either whole
    // key/value groups or an equal share of one group (transformer_config.py: num_query_groups "a
    // multiple or divisor of" the tensor size, since core 0.16.0, NVIDIA/Megatron-LM f7dfb99).
    void tensor_splits_the_attention_data() {
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("kv_heads");
        QTest::addColumn<qint64>("tensor");
        QTest::addColumn<bool>("splits");
        QTest::newRow("Llama-3.1-405B, tensor 8: a key/value group per rank") << qint64{128} << qint64{8} << qint64{8} << true;
        QTest::newRow("Llama-3.1-405B, tensor 16: a group for two ranks") << qint64{128} << qint64{8} << qint64{16} << true;
        QTest::newRow("Llama-3.1-405B, tensor 64: a group for eight ranks") << qint64{128} << qint64{8} << qint64{64} << true;
        QTest::newRow("Qwen3-235B-A22B, 4 groups, tensor 8") << qint64{64} << qint64{4} << qint64{8} << true;
        QTest::newRow("GPT-3 175B, 96 heads, tensor 16") << qint64{96} << qint64{96} << qint64{16} << true;
        QTest::newRow("48 heads in 8 groups, tensor 12: neither divides the other") << qint64{48} << qint64{8} << qint64{12} << false;
        QTest::newRow("40 heads, tensor 16: the query heads do not divide") << qint64{40} << qint64{8} << qint64{16} << false;
    }
    void tensor_splits_the_attention() {
        QFETCH(qint64, heads);
        QFETCH(qint64, kv_heads);
        QFETCH(qint64, tensor);
        QFETCH(bool, splits);
        ModelSpec m = model_preset("llama-3.1-8b").spec;
        m.heads = heads;
        m.kv_heads = kv_heads;
        QCOMPARE(tensor_splits_attention(m, tensor), splits);
    }

    // Llama-3.1-405B on 64 GPUs of a GB200 NVL72 rack: tensor 16 over its 8 key/value groups is a
    // layout (Megatron-Core >= 0.16), the search offers it, and the DGX H100 nodes stop at 8 (the
    // test above). A size that splits neither way is refused with the largest one that works.
    void tensor_parallelism_past_the_key_value_groups() {
        Scenario s = test::model_scenario(model_preset("llama-3.1-405b").spec, 64, 1);
        s = with_node(s, cluster_preset("gb200-nvl72").cluster, 64);
        const auto sizes = tensor_parallel_sizes(s);
        QVERIFY(std::find(sizes.begin(), sizes.end(), 16) != sizes.end());
        QVERIFY(std::find(sizes.begin(), sizes.end(), 64) != sizes.end());
        s.parallel.tensor = 16;
        validate(s);
        // Megatron-Core's distributed optimizer partitions as ZeRO-1 does: no stage 2 or 3 there.
        QVERIFY(layout_runs_stage(s.model, s.parallel, 1) && !layout_runs_stage(s.model, s.parallel, 2));
        s.zero.stage = 3;
        QVERIFY_THROWS_EXCEPTION(InputError, validate(s));
        s.zero.stage = 1;
        s.parallel.tensor = 12;
        s = with_node(s, cluster_preset("gb200-nvl72").cluster, 48);
        try {
            validate(s);
            QFAIL("accepted");
        } catch (const InputError& e) {
            const QString got = QString::fromUtf8(e.what());
            QVERIFY2(got.contains(QLatin1String("key/value heads (8)")) && got.contains(QLatin1String("use tensor 8 or less")),
                     qPrintable(got));
        }
    }

    // Past the groups each rank keeps its group's whole key and value (attention.py
    // num_query_groups_per_partition = 1): Llama-3.1-405B's attention activations at tensor 16 are
    // those of the same layer with 16 groups, one per rank, and its K and V per rank are the same
    // at tensor 8 and 16 (one 128-wide head each).
    void a_shared_group_is_kept_whole() {
        const ModelSpec m = model_preset("llama-3.1-405b").spec;
        ModelSpec one_per_rank = m;
        one_per_rank.kv_heads = 16;
        const double at16 = layer_activation_bytes(m, 4096, 1, 2.0, TensorSplit{.tensor = 16}).attention;
        QCOMPARE(at16, layer_activation_bytes(one_per_rank, 4096, 1, 2.0, TensorSplit{.tensor = 16}).attention);
        // s b (e h + h) + e s b (2 q / 16 + 2 x 128): QKV input and dropout mask whole, Q and the
        // output projection's input split, K and V one head each.
        const double sb = 4096.0, h = 16384.0, q = 128.0 * 128.0;
        QCOMPARE(at16, sb * (2.0 * h + h) + 2.0 * sb * (2.0 * q / 16.0 + 2.0 * 128.0));
    }

    // ... and every layer all-gathers its QKV output over the tensor ranks (attention.py
    // all_gather_last_dim_from_tensor_parallel_region), reduce-scattered back in backward: what the
    // 8-group model's tensor communication has past the 16-group one's, per micro batch and layer.
    void a_shared_group_gathers_the_qkv_output() {
        Scenario s = test::model_scenario(model_preset("llama-3.1-405b").spec, 64, 1);
        s = with_node(s, cluster_preset("gb200-nvl72").cluster, 64);
        s.parallel.tensor = 16;
        s.training.micro_batch = 1;
        s.training.global_batch = 4;
        s.training.checkpointing = Checkpointing::None;
        Scenario one_per_rank = s;
        one_per_rank.model.kv_heads = 16;
        const double extra = estimate_step(s).tensor_parallel_seconds - estimate_step(one_per_rank).tensor_parallel_seconds;
        const double qkv_bytes = 2.0 * 4096 * (128 + 2 * 8) * 128;
        const double per_gather =
            allgather_seconds(qkv_bytes, 16, intra_node_bus_gbytes_per_s(s.cluster)) + s.assumptions.collective_latency_seconds;
        const double micro_steps = 1.0;  // global 4 over 4 data-parallel ranks at micro batch 1
        QVERIFY2(std::abs(extra - 2.0 * 126 * micro_steps * per_gather) < 1e-9 * extra, qPrintable(QString::number(extra)));
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

ZP_TEST_APPLESS_MAIN(TestHardware2026)
#include "tst_hardware_2026.moc"
