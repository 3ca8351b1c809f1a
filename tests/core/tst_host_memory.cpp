// Host RAM and NVMe per node over a run (core/memory/host_memory.cpp, docs/design.md §4.6), and
// what frees it (core/search/host_advice.cpp). The literals are worked out by hand in
// tests/hand_calculations.py ("host RAM over a run") from DeepSpeed v0.19.6's allocations,
// transformers' from_pretrained and PyTorch's pinned-memory rounding, not from this code.
#include "core/memory/host_memory.h"
#include "core/memory/memory_model.h"
#include "core/model/enum_names.h"
#include "core/model/param_swap_buffers.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/host_advice.h"
#include "core/search/scenario_edits.h"
#include "test_util.h"

#include <algorithm>

#include "test_main.h"

using namespace zp;

namespace {

ModelSpec t5_11b() {
    ModelSpec m = model_preset("t5-3b").spec;
    m.name = "t5-11b";
    m.heads = m.kv_heads = 128;
    m.head_dim = 128;
    m.ffn = 65536;
    m.params_override = 11307321344;  // HF model card
    m.largest_layer_override = 32128 * 1024;
    return m;
}

ModelSpec model_named(const std::string& name) { return name == "t5-11b" ? t5_11b() : model_preset(name).spec; }

// One optimizer step per micro batch (no gradient accumulation), DeepSpeed's other defaults.
Scenario run(const std::string& model, const std::string& gpu, qint64 nodes, qint64 gpus_per_node, int stage, const std::string& oo,
             const std::string& op) {
    Scenario s;
    s.model = model_named(model);
    s.cluster.nodes = nodes;
    s.cluster.gpus_per_node = gpus_per_node;
    s.cluster.use_gpu(gpu_preset(gpu));
    s.cluster.cpu_ram_bytes_per_node = 4e12;
    s.training.precision = Precision::Fp16;
    s.training.micro_batch = 1;
    s.training.global_batch = nodes * gpus_per_node;
    s.training.seq_len = 1024;
    s.training.load_in_16bit = false;      // the runs of 2021 (transformers before v5 loaded fp32)
    s.training.low_cpu_mem_usage = false;  // and before 4.51 with a checkpoint shard beside the model
    s.zero.stage = stage;
    s.zero.offload_optimizer = parse_offload_device(oo);
    s.zero.offload_param = parse_offload_device(op);
    return s;
}

// ZeRO-Infinity's 1T model on one DGX-2 (Rajbhandari et al. 2021 Table 1: 128 layers x 25,600,
// sequence 1024, full recompute) at stage 3, before its offload devices are chosen.
Scenario zero_infinity_1t_on_dgx2() {
    Scenario s = default_scenario();
    s.cluster = cluster_preset("dgx-2").cluster;
    s.model = ModelSpec{};
    s.model.name = "ZeRO-Infinity 1T";
    s.model.layers = 128;
    s.model.hidden = 25600;
    s.model.heads = s.model.kv_heads = 160;
    s.model.head_dim = s.model.hidden / s.model.heads;
    s.model.ffn = 4 * s.model.hidden;
    s.model.vocab = 51200;
    s.training.seq_len = 1024;
    s.training.checkpointing = Checkpointing::Full;
    s.zero.stage = 3;
    return s;
}

}  // namespace

class TestHostMemory : public QObject {
    Q_OBJECT
private slots:
    // PyTorch's CachingHostAllocator rounds every pinned block up to a power of two.
    void pinned_rounding_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<double>("allocated");
        QTest::newRow("t5-3b's fp32 partition on one GPU, 4 x 2,851,598,336 -> 16 GiB") << 11406393344.0 << 17179869184.0;
        QTest::newRow("exactly 1 GiB stays 1 GiB") << 1073741824.0 << 1073741824.0;
        QTest::newRow("1 GiB and one byte -> 2 GiB") << 1073741825.0 << 2147483648.0;
        QTest::newRow("nothing") << 0.0 << 0.0;
    }
    void pinned_rounding() {
        QFETCH(double, bytes);
        QFETCH(double, allocated);
        QCOMPARE(pinned_allocation_bytes(bytes), allocated);
    }

    // Pinned one tensor at a time, each rounded on its own: GPT-2's 16-way ZeRO-3 partitions
    // (fused c_attn 768 x 2304, c_proj, MLP 768 x 3072 twice, wte 50257 x 768) cost 1.6637x.
    void per_tensor_factor() {
        ZP_COMPARE_NEAR(per_tensor_pinned_factor(model_preset("gpt2").spec, 16, 2), 1.6637052971005932);
        ZP_COMPARE_NEAR(per_tensor_pinned_factor(model_preset("t5-3b").spec, 1, 2), 1.0002676229727561);
        ModelSpec sized;
        sized.params_override = 7'000'000'000;
        QCOMPARE(per_tensor_pinned_factor(sized, 8, 2), 1.0);  // known only by its size: no rounding claimed
    }

    // Each phase of the node's run, hand-computed (tests/hand_calculations.py rows H1-H10).
    // clang-format off
    void phases_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("oo");
        QTest::addColumn<QString>("op");
        QTest::addColumn<bool>("pin");
        QTest::addColumn<bool>("load16");
        QTest::addColumn<bool>("lowMem");
        QTest::addColumn<qint64>("workers");
        QTest::addColumn<double>("loading");
        QTest::addColumn<double>("initialize");
        QTest::addColumn<double>("training");
        QTest::addColumn<double>("save");
        QTest::addColumn<double>("nvme");
        QTest::addColumn<QString>("peak");
        QTest::newRow("H1 t5-3b, one RTX 3090, ZeRO-2 + CPU Adam, pinned: 16 GiB master, 16 GiB gradients, 8 GiB staging")
            << "t5-3b" << "rtx-3090" << qint64(1) << qint64(1) << 2 << "cpu" << "none" << true << false << false << qint64(0)
            << 18466393344.0 << 45076781824.0 << 67889568512.0 << 73592765184.0 << 0.0 << "checkpoint save";
        QTest::newRow("H2 the same, pageable (pin_memory false, DeepSpeed's default before v0.19.5; M21)")
            << "t5-3b" << "rtx-3090" << qint64(1) << qint64(1) << 2 << "cpu" << "none" << false << false << false << qint64(0)
            << 18466393344.0 << 30641781504.0 << 53454568192.0 << 59157764864.0 << 0.0 << "checkpoint save";
        QTest::newRow("H3 t5-11b, one A100 40GB, ZeRO-2 + CPU Adam, pageable (transformers#9996)")
            << "t5-11b" << "a100-40gb" << qint64(1) << qint64(1) << 2 << "cpu" << "none" << false << false << false << qint64(0)
            << 52289285376.0 << 115199011584.0 << 205657582336.0 << 228272225024.0 << 0.0 << "checkpoint save";
        QTest::newRow("H4 GPT-2 on 8 GPUs, ZeRO-2: eight fp32 copies and shards while loading")
            << "gpt2" << "a100-80gb" << qint64(1) << qint64(8) << 2 << "none" << "none" << true << false << false << qint64(0)
            << 24444147712.0 << 16480000000.0 << 16480000000.0 << 18471036928.0 << 0.0 << "loading";
        QTest::newRow("H5 GPT-2 on 8 GPUs, ZeRO-3 under zero.Init: one shard per process")
            << "gpt2" << "a100-80gb" << qint64(1) << qint64(8) << 3 << "none" << "none" << true << false << false << qint64(0)
            << 20462073856.0 << 16480000000.0 << 16480000000.0 << 16977759232.0 << 0.0 << "loading";
        QTest::newRow("H6 GPT-2 on 2 x 8, ZeRO-3, optimizer and parameters on the CPU, pinned partitions cached")
            << "gpt2" << "a100-80gb" << qint64(2) << qint64(8) << 3 << "cpu" << "cpu" << true << false << false << qint64(0)
            << 20669105023.73978 << 17970540927.73978 << 17970540927.73978 << 18219420543.73978 << 0.0 << "loading";
        QTest::newRow("H7 Llama-2 70B on 8 GPUs, ZeRO-3, optimizer on NVMe: swap pool, gradient buffer, flat 16-bit gradients")
            << "llama-2-70b" << "a100-80gb" << qint64(1) << qint64(8) << 3 << "nvme" << "none" << true << false << false << qint64(0)
            << 56480000000.0 << 451357906944.0 << 451357906944.0 << 589311203328.0 << 1103626371072.0 << "checkpoint save";
        QTest::newRow("H10 Llama-2 70B on 8 GPUs, ZeRO-3, both on NVMe: Init's parameter swap pool while loading, max_in_cpu on the host")
            << "llama-2-70b" << "a100-80gb" << qint64(1) << qint64(8) << 3 << "nvme" << "nvme" << true << false << false << qint64(0)
            << 64480000000.0 << 476537776128.0 << 476537776128.0 << 614491072512.0 << 1225579667456.0 << "checkpoint save";
        QTest::newRow("H8 GPT-2 on 8 GPUs, ZeRO-2, 16-bit load with low_cpu_mem_usage, 2 dataloader workers each")
            << "gpt2" << "a100-80gb" << qint64(1) << qint64(8) << 2 << "none" << "none" << true << true << true << qint64(2)
            << 18471036928.0 << 16480000000.0 << 21632000000.0 << 23623036928.0 << 0.0 << "checkpoint save";
    }
    // clang-format on
    void phases() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(qint64, nodes);
        QFETCH(qint64, gpusPerNode);
        QFETCH(int, stage);
        QFETCH(QString, oo);
        QFETCH(QString, op);
        QFETCH(bool, pin);
        QFETCH(bool, load16);
        QFETCH(bool, lowMem);
        QFETCH(qint64, workers);
        QFETCH(double, loading);
        QFETCH(double, initialize);
        QFETCH(double, training);
        QFETCH(double, save);
        QFETCH(double, nvme);
        QFETCH(QString, peak);
        Scenario s = run(model.toStdString(), gpu.toStdString(), nodes, gpusPerNode, stage, oo.toStdString(), op.toStdString());
        s.zero.pin_memory = pin;
        s.training.load_in_16bit = load16;
        s.training.low_cpu_mem_usage = lowMem;
        s.training.dataloader_workers = workers;
        validate(s);
        const HostMemory h = host_memory(s);
        ZP_COMPARE_NEAR(h.moment(HostPhase::Loading).bytes.total(), loading);
        ZP_COMPARE_NEAR(h.moment(HostPhase::Initialize).bytes.total(), initialize);
        ZP_COMPARE_NEAR(h.moment(HostPhase::Training).bytes.total(), training);
        ZP_COMPARE_NEAR(h.moment(HostPhase::CheckpointSave).bytes.total(), save);
        QCOMPARE(h.nvme_bytes, nvme);
        QCOMPARE(QString::fromLatin1(to_string(h.peak_phase)), peak);
        // The memory model reports the same node peak.
        const MemoryBreakdown m = estimate_memory(s);
        QCOMPARE(m.cpu_bytes_per_node, h.peak_bytes());
        QCOMPARE(m.nvme_bytes_per_node, nvme);
    }

    // Gradient accumulation makes ZeRO-1/2 offload keep each owned parameter's 16-bit gradient on
    // the host (accumulated_grads_in_cpu): + 2P/N, pinned one tensor at a time.
    void accumulation_keeps_16bit_gradients() {
        Scenario s = run("t5-3b", "rtx-3090", 1, 1, 2, "cpu", "none");
        const double one_step = host_memory(s).moment(HostPhase::Training).bytes.total();
        s.training.global_batch = 8;  // 8 micro batches per step
        const double accumulating = host_memory(s).moment(HostPhase::Training).bytes.total();
        ZP_COMPARE_NEAR(accumulating - one_step, 2.0 * 2851598336.0 * 1.0002676229727561);
    }

    // The default loads as transformers does today: the checkpoint's 16-bit dtype (v5's dtype="auto",
    // PR #42805) on the meta device, filled tensor by tensor (from 4.51, PR #36963): per process the
    // model alone. Before 4.51 without low_cpu_mem_usage a 5 GB checkpoint shard sat beside it.
    // FSDP loads on the node's first process only, on the meta device whatever low_cpu_mem_usage
    // says: before 4.51 transformers turned it on itself under cpu_ram_efficient_loading
    // (from_pretrained: "if is_fsdp_enabled(): low_cpu_mem_usage = True").
    void loading_follows_todays_transformers() {
        Scenario s = default_scenario();  // Llama-2 7B on 8 x A100 80GB, ZeRO-2
        const double P = 6738415616.0, g = 8.0;
        QVERIFY(s.training.load_in_16bit && s.training.low_cpu_mem_usage);
        ZP_COMPARE_NEAR(host_memory(s).moment(HostPhase::Loading).bytes.total(), g * 2.06e9 + g * 2 * P);
        s.training.low_cpu_mem_usage = false;
        ZP_COMPARE_NEAR(host_memory(s).moment(HostPhase::Loading).bytes.total(), g * 2.06e9 + g * (2 * P + 5e9));
        s.training.load_in_16bit = false;
        ZP_COMPARE_NEAR(host_memory(s).moment(HostPhase::Loading).bytes.total(), g * 2.06e9 + g * (4 * P + 5e9));
        // FSDP's cpu_ram_efficient_loading: the node's first process alone, with no shard either way.
        Scenario fsdp = default_scenario();
        fsdp.fsdp.engine = Engine::Fsdp;
        fsdp.zero.stage = 3;
        ZP_COMPARE_NEAR(host_memory(fsdp).moment(HostPhase::Loading).bytes.total(), g * 2.06e9 + 2 * P);
        fsdp.training.low_cpu_mem_usage = false;
        ZP_COMPARE_NEAR(host_memory(fsdp).moment(HostPhase::Loading).bytes.total(), g * 2.06e9 + 2 * P);
    }

    // The GPU has no room for a second 16-bit copy: ZeRO-1/2 flatten on the host (2 x 2P) and
    // that is when the node peaks. Llama-2 70B in 16-bit is 138 GB, more than half of any card.
    void flattening_on_the_host() {
        Scenario s = run("llama-2-70b", "a100-80gb", 1, 8, 1, "none", "none");
        s.training.load_in_16bit = true;
        s.training.low_cpu_mem_usage = true;
        const HostMemory h = host_memory(s);
        ZP_COMPARE_NEAR(h.moment(HostPhase::Initialize).bytes.total(), 8 * 2.06e9 + 8 * 4 * 68976648192.0);
        QCOMPARE(h.peak_phase, HostPhase::Initialize);
        // With CPU offload and 4 micro batches per step (H11): the flat copies are made before any
        // partition and the accumulated 16-bit gradients only in the first backward, so initialize
        // is the flattening alone, not the flattening on top of the partitions.
        s.zero.offload_optimizer = OffloadDevice::Cpu;
        s.training.global_batch = 4 * 8;
        const HostMemory o = host_memory(s);
        ZP_COMPARE_NEAR(o.moment(HostPhase::Initialize).bytes.total(), 2223732742144.0);
        ZP_COMPARE_NEAR(o.moment(HostPhase::Training).bytes.total(), 2101111497227.7354);
        QCOMPARE(o.peak_phase, HostPhase::CheckpointSave);
    }

    // What the options do, on every setup: pinning never lowers host RAM, low_cpu_mem_usage and a
    // 16-bit load never raise it, zero.Init never raises the loading phase (but for the NVMe swap pool it makes first), twice the nodes never
    // raise training's per-node states, and the peak is the largest phase.
    void monotone_in_the_options() {
        int checked = 0;
        for (const char* model : {"gpt2", "llama-2-7b", "mixtral-8x7b"})
            for (qint64 nodes : {1, 4})
                for (int stage = 0; stage <= 3; ++stage)
                    for (const char* oo : {"none", "cpu", "nvme"})
                        for (const char* op : {"none", "cpu", "nvme"}) {
                            Scenario s = run(model, "a100-80gb", nodes, 8, stage, oo, op);
                            try {
                                validate(s);
                            } catch (const InputError&) {
                                continue;  // not a DeepSpeed setup
                            }
                            const HostMemory base = host_memory(s);
                            double top = 0;
                            for (const HostMoment& mo : base.moments) top = std::max(top, mo.bytes.total());
                            QCOMPARE(base.peak_bytes(), top);
                            Scenario x = s;
                            x.zero.pin_memory = false;
                            QVERIFY(host_memory(x).peak_bytes() <= base.peak_bytes());
                            x = s;
                            x.training.low_cpu_mem_usage = true;
                            QVERIFY(host_memory(x).peak_bytes() <= base.peak_bytes());
                            x = s;
                            x.training.load_in_16bit = true;
                            QVERIFY(host_memory(x).peak_bytes() <= base.peak_bytes());
                            x = s;
                            x.zero.zero_init = false;
                            // (with parameters on NVMe, zero.Init makes the swap pool before loading;
                            // without it, deepspeed.initialize makes it later)
                            const double pool =
                                s.zero.zero_init && s.zero.offload_param == OffloadDevice::Nvme
                                    ? 8.0 * static_cast<double>(s.zero.offload_param_buffer_count) * offload_param_buffer_elems(s) * 2.0
                                    : 0.0;
                            QVERIFY(host_memory(x).moment(HostPhase::Loading).bytes.total() + pool >=
                                    base.moment(HostPhase::Loading).bytes.total());
                            x = s;
                            x.cluster.nodes *= 2;
                            x.training.global_batch *= 2;
                            const auto states = [](const HostMemory& h) {
                                const HostSlices& b = h.moment(HostPhase::Training).bytes;
                                return b.parameters + b.gradients + b.optimizer_states;
                            };
                            QVERIFY(states(host_memory(x)) <= states(base) * (1 + 1e-12));
                            ++checked;
                        }
        QVERIFY(checked >= 30);
    }

    // The advice when host RAM is the limit: the fixes that lower the peak, settings first, each
    // with what it frees. GPT-2 on 8 GPUs at ZeRO-2 peaks while loading (H4: 24.44 GB); on a node
    // with 20 GiB, low_cpu_mem_usage frees the eight 497,759,232-byte shards and fits.
    // Since DeepSpeed v0.6.0 (PR #1453) stage 3 with an offloaded optimizer keeps a 16-bit gradient
    // buffer of the rank's whole partition on the host (stage3.py _setup_for_real_optimizer,
    // grad_partitions_flat_buffer, device cpu for NVMe too); the releases ZeRO-Infinity was measured
    // on had none. For its 1T model on one DGX-2 (Rajbhandari et al. 2021 Table 1: 128 layers x
    // 25,600, NVMe for parameters and optimizer states) that buffer is 2 bytes x 1.008T over the
    // node's 16 ranks, more than the DGX-2's 1.5 TB: the run fits the host only without it.
    void zero3_host_gradient_buffer_by_release_data() {
        QTest::addColumn<QString>("optimizer");
        QTest::newRow("ZeRO-Infinity 1T, NVMe optimizer") << QStringLiteral("nvme");
        QTest::newRow("ZeRO-3 Offload, CPU optimizer") << QStringLiteral("cpu");
    }
    void zero3_host_gradient_buffer_by_release() {
        QFETCH(QString, optimizer);
        Scenario s = zero_infinity_1t_on_dgx2();
        s.zero.offload_optimizer = parse_enum<OffloadDevice>(optimizer.toStdString());
        s.zero.offload_param = OffloadDevice::Nvme;
        s.zero.pin_memory = false;  // no power-of-two rounding: the difference is the buffer's bytes
        const double with = host_memory(s).moment(HostPhase::Training).bytes.total();
        s.zero.zero3_host_gradient_buffer = false;
        const double without = host_memory(s).moment(HostPhase::Training).bytes.total();
        const double buffer = 2.0 * static_cast<double>(parameter_count(s.model));  // bf16, every rank's partition on the node
        QVERIFY2(std::abs((with - without) / buffer - 1) < 1e-9, qPrintable(QString::number((with - without) / buffer)));
        QVERIFY2(buffer > s.cluster.cpu_ram_bytes_per_node, qPrintable(QString::number(buffer)));
        if (optimizer == QStringLiteral("nvme")) {
            s.zero.gather_16bit_weights_on_model_save = false;
            QVERIFY(host_memory(s).peak_bytes() < s.cluster.cpu_ram_bytes_per_node);
            s.zero.zero3_host_gradient_buffer = true;
            QVERIFY(host_memory(s).peak_bytes() > s.cluster.cpu_ram_bytes_per_node);
        }
    }

    // An older release is the advice of last resort: 1T parameters on one H100 of a DGX H100 (2 TiB of
    // RAM) with ZeRO-3 and both offloaded to NVMe fits the host with no host gradient buffer (before
    // v0.6.0) alone, and also with two changes of the config together (no 16-bit gather at save, no
    // pinned rounding): the cheapest fix is the config's (the review of 0.2.0 saw the downgrade first).
    void advice_prefers_the_config_to_an_older_release() {
        Scenario s = default_scenario();
        s.cluster = with_gpu_count(s, 1, 1).cluster;
        s.model = synthesize_model(1'000'000'000'000);
        s.zero.stage = 3;
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Nvme;
        const std::vector<HostFix> fixes = host_ram_fixes(s);
        QVERIFY(std::any_of(fixes.begin(), fixes.end(), [](const HostFix& f) { return f.fits && f.last_resort; }));
        const std::string cheapest = cheapest_host_fix(s);
        QVERIFY2(cheapest.rfind("together: stage3_gather_16bit_weights_on_model_save: false", 0) == 0, cheapest.c_str());
        QVERIFY2(cheapest.find("release") == std::string::npos, cheapest.c_str());
    }

    // ZeRO-Infinity's 1T on one DGX-2 with NVMe (Table 1) under today's DeepSpeed: no change fits
    // alone, and the advice names the two that together do, the one that frees most first: the
    // release the paper ran (no host gradient buffer) and no 16-bit gather at save.
    void advice_combines_changes_for_zero_infinity_1t() {
        Scenario s = zero_infinity_1t_on_dgx2();
        s.training.micro_batch = 1;
        s.training.global_batch = 16;
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Nvme;
        QVERIFY(host_memory(s).peak_bytes() > s.cluster.cpu_ram_bytes_per_node);
        const std::vector<HostFix> fixes = host_ram_fixes(s);
        QVERIFY(!fixes.empty());
        for (std::size_t i = 0; i + 1 < fixes.size(); ++i) QVERIFY2(!fixes[i].fits, fixes[i].change.c_str());
        const HostFix& together = fixes.back();
        QVERIFY(together.fits);
        QVERIFY2(together.change.rfind("together: a DeepSpeed release before v0.6.0", 0) == 0, together.change.c_str());
        QVERIFY2(together.change.find("stage3_gather_16bit_weights_on_model_save: false") != std::string::npos, together.change.c_str());
        QVERIFY(together.change.find("pin_memory") == std::string::npos);  // not needed: the two fit
        s.zero.zero3_host_gradient_buffer = false;
        s.zero.gather_16bit_weights_on_model_save = false;
        ZP_COMPARE_NEAR(together.peak_bytes, host_memory(s).peak_bytes());
    }

    void advice_names_the_cheapest_fix() {
        Scenario s = run("gpt2", "a100-80gb", 1, 8, 2, "none", "none");
        s.cluster.cpu_ram_bytes_per_node = 20.0 * 1073741824.0;
        const std::vector<HostFix> fixes = host_ram_fixes(s);
        QVERIFY(fixes.size() >= 2);
        QVERIFY(QString::fromStdString(fixes[0].change).contains(QStringLiteral("low_cpu_mem_usage=True")));
        // The peak moves to loading without the shard: 24,444,147,712 - 8 x 497,759,232.
        ZP_COMPARE_NEAR(fixes[0].peak_bytes, 24444147712.0 - 8 * 497759232.0);
        ZP_COMPARE_NEAR(fixes[0].freed_bytes, 8 * 497759232.0);
        QVERIFY(fixes[0].fits);
        QVERIFY(QString::fromStdString(cheapest_host_fix(s)).startsWith(QStringLiteral("from_pretrained(..., low_cpu_mem_usage=True)")));
        // Nothing to free below what the processes themselves need: no fix fits, the advice says so.
        s.cluster.cpu_ram_bytes_per_node = 1e9;
        QVERIFY(QString::fromStdString(cheapest_host_fix(s)).contains(QStringLiteral("still does not fit")));
    }

    // ZeRO-1/2 cannot put the optimizer on NVMe (stage_1_and_2.py offloads to the CPU only): the
    // advice for T5-3B at ZeRO-2 + CPU Adam (H1, 73.59 GB at save) on a 48 GiB node names ZeRO-3
    // with the optimizer on NVMe, its peak (hand_calculations.py: 36,353,131,264 at save) and the
    // NVMe it needs (45,625,573,376 bytes = 42.5 GiB).
    void advice_offers_zero3_nvme_for_zero2_offload() {
        Scenario s = run("t5-3b", "rtx-3090", 1, 1, 2, "cpu", "none");
        s.cluster.cpu_ram_bytes_per_node = 48.0 * 1073741824.0;
        s.cluster.nvme_bytes_per_node = 2e12;
        const std::vector<HostFix> fixes = host_ram_fixes(s);
        const auto it = std::find_if(fixes.begin(), fixes.end(), [](const HostFix& f) { return f.change.rfind("ZeRO-3", 0) == 0; });
        QVERIFY(it != fixes.end());
        ZP_COMPARE_NEAR(it->peak_bytes, 36353131264.0);
        ZP_COMPARE_NEAR(it->freed_bytes, 73592765184.0 - 36353131264.0);
        QVERIFY(QString::fromStdString(it->change).contains(QStringLiteral("with 42.5 GiB of NVMe per node")));
        QVERIFY(it->fits);
        // Without the NVMe to hold it, the same change does not fit.
        s.cluster.nvme_bytes_per_node = 40.0 * 1073741824.0;
        const std::vector<HostFix> short_of_nvme = host_ram_fixes(s);
        const auto jt =
            std::find_if(short_of_nvme.begin(), short_of_nvme.end(), [](const HostFix& f) { return f.change.rfind("ZeRO-3", 0) == 0; });
        QVERIFY(jt != short_of_nvme.end());
        QVERIFY(!jt->fits);
    }

    // Activation checkpoints kept on the host (cpu_checkpointing) count in the peak the advice
    // starts from, as in the estimate: every fix's peak plus what it frees is the estimate's peak.
    void advice_counts_cpu_checkpoints() {
        Scenario s = run("gpt2", "a100-80gb", 1, 8, 2, "none", "none");
        s.training.micro_batch = 64;
        s.training.global_batch = 64 * 8;
        s.training.checkpointing = Checkpointing::Full;
        s.training.cpu_checkpointing = true;
        const double estimated = estimate_memory(s).cpu_bytes_per_node;
        QVERIFY(estimated > host_memory(s).peak_bytes() + 1e9);  // the checkpoints are what makes the peak
        s.cluster.cpu_ram_bytes_per_node = estimated - 1e9;
        const std::vector<HostFix> fixes = host_ram_fixes(s);
        QVERIFY(!fixes.empty());
        for (const HostFix& f : fixes) ZP_COMPARE_NEAR(f.peak_bytes + f.freed_bytes, estimated);
        // Only keeping the checkpoints on the GPU lowers this peak.
        QCOMPARE(fixes.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(fixes[0].change).contains(QStringLiteral("cpu_checkpointing: false")));
        QVERIFY(fixes[0].fits);
    }
};

ZP_TEST_APPLESS_MAIN(TestHostMemory)
#include "tst_host_memory.moc"
