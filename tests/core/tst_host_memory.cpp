// Host RAM and NVMe per node (core/memory/host_memory.cpp, docs/design.md §4.6).
// CPU rows: DeepSpeed's own estimator numbers (tests/data/anchors/deepspeed_estimator.json, rows
// selected by case name). NVMe rows: worked out by hand (tests/hand_calculations.py) from ZeRO-Infinity's
// layout: the states live on NVMe, the host keeps DeepSpeed's pinned swap buffers
// (swap_tensor/optimizer_utils.py: buffer_count fp32 buffers of the largest sub-group, which is at
// most a rank's partition P/N; swap_tensor/partitioned_param_swapper.py: buffer_count 16-bit
// buffers of buffer_size elements), one set per GPU of the node.
#include "core/memory/host_memory.h"
#include "test_data.h"

#include <QtTest>

using namespace zp;

namespace {
ModelSpec sized(double params, double largest_layer) {
    ModelSpec m;
    m.params_override = static_cast<std::int64_t>(params);
    m.largest_layer_override = static_cast<std::int64_t>(largest_layer);
    return m;
}
Cluster nodes_of(std::int64_t nodes, std::int64_t gpus_per_node) {
    Cluster c;
    c.nodes = nodes;
    c.gpus_per_node = gpus_per_node;
    return c;
}
OffloadDevice device(const std::string& name) {
    if (name == "cpu") return OffloadDevice::Cpu;
    if (name == "nvme") return OffloadDevice::Nvme;
    return OffloadDevice::None;
}
}  // namespace

class TestHostMemory : public QObject {
    Q_OBJECT
private slots:
    // DeepSpeed's estimate_zero2/zero3_model_states_mem_needs "per CPU" column, additional_buffer_factor 1.5.
    // clang-format off
    void deepspeed_estimator_cpu_data() {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("offloadOptimizer");
        QTest::addColumn<QString>("offloadParam");
        QTest::addColumn<bool>("zeroInit");
        QTest::addColumn<double>("cpuBytes");
        const auto cases = load_test_json("anchors/deepspeed_estimator.json").at("cases");
        for (const char* name : {"t5-3b live (docs memory.rst)", "bigscience/T0_3B live, 1 GPU (transformers docs)"}) {
            const auto& c = json_row(cases, "name", name);
            for (const auto& r : c.at("zero2_current")) {
                const std::string oo = r.at("offload_optimizer");
                QTest::newRow((std::string(name) + " / ZeRO-2 offload_optimizer=" + oo).c_str())
                    << QString::fromLatin1(name) << 2 << QString::fromStdString(oo) << QStringLiteral("none") << false
                    << r.at("cpu_bytes").get<double>();
            }
            for (const auto& r : c.at("zero3")) {
                const std::string oo = r.at("offload_optimizer"), op = r.at("offload_param");
                const bool init = r.at("zero_init").get<int>() == 1;
                QTest::newRow((std::string(name) + " / ZeRO-3 offload_optimizer=" + oo + " offload_param=" + op +
                               " zero_init=" + (init ? "1" : "0"))
                                  .c_str())
                    << QString::fromLatin1(name) << 3 << QString::fromStdString(oo) << QString::fromStdString(op) << init
                    << r.at("cpu_bytes").get<double>();
            }
        }
    }
    // clang-format on
    void deepspeed_estimator_cpu() {
        QFETCH(QString, caseName);
        QFETCH(int, stage);
        QFETCH(QString, offloadOptimizer);
        QFETCH(QString, offloadParam);
        QFETCH(bool, zeroInit);
        QFETCH(double, cpuBytes);
        const nlohmann::json cases = load_test_json("anchors/deepspeed_estimator.json").at("cases");
        const auto& c = json_row(cases, "name", caseName.toStdString());
        ZeroSetup z;
        z.stage = stage;
        z.offload_optimizer = device(offloadOptimizer.toStdString());
        z.offload_param = device(offloadParam.toStdString());
        z.zero_init = zeroInit;
        const HostBytes h = host_bytes(sized(c.at("total_params"), c.at("largest_layer_params")),
                                       nodes_of(c.at("num_nodes"), c.at("num_gpus_per_node")), Training{}, z, 1.5);
        QCOMPARE(h.cpu_per_node, cpuBytes);
        QCOMPARE(h.nvme_per_node, 0.0);
    }

    // NVMe offload at stage 3, Adam (16 bytes of states per parameter: fp32 master, m, v, fp32
    // gradients), DeepSpeed's defaults unless the row says: sub_group_size 1e9, optimizer
    // buffer_count 4, parameter buffer_count 5 of 1e8 elements, zero.Init, buffer factor 1.5.
    // Llama-2 70B: P = 68,976,648,192, largest module Lp = 32000 x 8192 = 262,144,000. One DGX node
    // (8 GPUs), optimizer on NVMe ("70B, optimizer NVMe"):
    //   NVMe: 16 x P = 1,103,626,371,072 bytes
    //   host: the partition P/8 = 8.6e9 exceeds a sub-group, so 8 GPUs x 4 buffers x 1e9 x 4 bytes
    //         = 128,000,000,000, more than loading one module per rank (4 Lp x 8 x 1.5 = 12,582,912,000).
    // Parameters on NVMe add 2P to NVMe and 8 x 5 x 1e8 x 2 = 8,000,000,000 of pinned buffers; on the
    // CPU they add 2P/n x 1.5. An optimizer on the CPU is 16P/n x 1.5 of host RAM.
    // clang-format off
    void nvme_data() {
        QTest::addColumn<double>("params");
        QTest::addColumn<double>("largestLayer");
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<QString>("offloadOptimizer");
        QTest::addColumn<QString>("offloadParam");
        QTest::addColumn<bool>("zeroInit");
        QTest::addColumn<double>("subGroup");
        QTest::addColumn<qint64>("optimizerBuffers");
        QTest::addColumn<qint64>("paramBuffers");
        QTest::addColumn<double>("paramBufferElems");
        QTest::addColumn<double>("cpuBytes");
        QTest::addColumn<double>("nvmeBytes");
        const double P70 = 68976648192.0, Lp70 = 262144000.0, P3 = 2851598336.0, Lp3 = 32899072.0;
        const int adam = int(Optimizer::AdamW), sgd = int(Optimizer::Sgd);
        QTest::newRow("70B, optimizer NVMe") << P70 << Lp70 << qint64(1) << adam << "nvme" << "none" << true << 1e9 << qint64(4)
                                             << qint64(5) << 1e8 << 128000000000.0 << 1103626371072.0;
        QTest::newRow("70B, optimizer and params NVMe: + 8e9 pinned, + 2P on NVMe")
            << P70 << Lp70 << qint64(1) << adam << "nvme" << "nvme" << true << 1e9 << qint64(4) << qint64(5) << 1e8 << 136000000000.0
            << 1241579667456.0;
        QTest::newRow("70B, optimizer CPU, params NVMe: 16P x 1.5 + 8e9")
            << P70 << Lp70 << qint64(1) << adam << "cpu" << "nvme" << true << 1e9 << qint64(4) << qint64(5) << 1e8 << 1663439556608.0
            << 137953296384.0;
        QTest::newRow("70B, optimizer NVMe, params CPU: 128e9 + 2P x 1.5")
            << P70 << Lp70 << qint64(1) << adam << "nvme" << "cpu" << true << 1e9 << qint64(4) << qint64(5) << 1e8 << 334929944576.0
            << 1103626371072.0;
        // t5-3b on 2 x 8: a rank's partition P/16 = 178,224,896 is smaller than a sub-group, so the
        // buffers are 8 x 4 x 178,224,896 x 4 + 8e9 = 30,812,786,688; NVMe 18P / 2 = 25,664,385,024.
        QTest::newRow("t5-3b on 2 nodes, both NVMe: the partition caps the sub-group")
            << P3 << Lp3 << qint64(2) << adam << "nvme" << "nvme" << true << 1e9 << qint64(4) << qint64(5) << 1e8 << 30812786688.0
            << 25664385024.0;
        QTest::newRow("70B, SGD without momentum: 8 bytes of states per parameter on NVMe")
            << P70 << Lp70 << qint64(1) << sgd << "nvme" << "none" << true << 1e9 << qint64(4) << qint64(5) << 1e8 << 128000000000.0
            << 551813185536.0;
        QTest::newRow("70B without zero.Init: every rank loads the fp32 model, 4P x 8 x 1.5")
            << P70 << Lp70 << qint64(1) << adam << "nvme" << "none" << false << 1e9 << qint64(4) << qint64(5) << 1e8
            << 3310879113216.0 << 1103626371072.0;
        // 4 nodes: 8 x 2 x 5e8 x 4 + 8 x 8 x 2e8 x 2 = 32e9 + 25.6e9; NVMe 18P / 4.
        QTest::newRow("70B on 4 nodes, both NVMe, custom buffers")
            << P70 << Lp70 << qint64(4) << adam << "nvme" << "nvme" << true << 5e8 << qint64(2) << qint64(8) << 2e8 << 57600000000.0
            << 310394916864.0;
    }
    // clang-format on
    void nvme() {
        QFETCH(double, params);
        QFETCH(double, largestLayer);
        QFETCH(qint64, nodes);
        QFETCH(int, optimizer);
        QFETCH(QString, offloadOptimizer);
        QFETCH(QString, offloadParam);
        QFETCH(bool, zeroInit);
        QFETCH(double, subGroup);
        QFETCH(qint64, optimizerBuffers);
        QFETCH(qint64, paramBuffers);
        QFETCH(double, paramBufferElems);
        QFETCH(double, cpuBytes);
        QFETCH(double, nvmeBytes);
        Training t;
        t.optimizer = static_cast<Optimizer>(optimizer);
        ZeroSetup z;
        z.stage = 3;
        z.offload_optimizer = device(offloadOptimizer.toStdString());
        z.offload_param = device(offloadParam.toStdString());
        z.zero_init = zeroInit;
        z.sub_group_size = subGroup;
        z.offload_optimizer_buffer_count = optimizerBuffers;
        z.offload_param_buffer_count = paramBuffers;
        z.offload_param_buffer_size = paramBufferElems;
        const HostBytes h = host_bytes(sized(params, largestLayer), nodes_of(nodes, 8), t, z, 1.5);
        QCOMPARE(h.cpu_per_node, cpuBytes);
        QCOMPARE(h.nvme_per_node, nvmeBytes);
    }
};

QTEST_APPLESS_MAIN(TestHostMemory)
#include "tst_host_memory.moc"
