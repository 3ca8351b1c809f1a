// The memory model. Covers core/memory/memory_model.cpp (estimate_memory, check_fit) with
// core/memory/model_states.cpp, activations.cpp, buffers.cpp and host_memory.cpp as it composes
// them: published relations, one breakdown worked out by hand per setup family, and invariants
// over the whole input range.
#include "core/memory/buffers.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/layer_modules.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "test_util.h"

#include <cmath>
#include "test_main.h"

using namespace zp;
using zp::test::model_scenario;

namespace {
// GPT-2 124M at sequence 1024, bf16 AdamW, DeepSpeed's accounting, with every memory assumption
// set here: 2e8-element buckets with overlap_comm, prefetch 5e7, max live 1e9, a 1 GiB context,
// zero.Init at stage 3.
Scenario gpt2_memory(std::int64_t nodes, std::int64_t gpus_per_node, int stage, OffloadDevice optimizer, OffloadDevice param,
                     std::int64_t micro, Checkpointing recompute, bool flash) {
    Scenario s;
    s.model = model_preset("gpt2").spec;
    s.model.activation =
        MlpActivation::Fused;  // its shape with a fused activation: the layer tests/hand_calculations.py counts (Korthikanti's)
    s.cluster.nodes = nodes;
    s.cluster.gpus_per_node = gpus_per_node;
    s.cluster.gpu.memory_gib = 80;  // only the fit depends on these
    s.cluster.gpu.peak_tflops_16bit = 312;
    s.training.precision = Precision::Bf16;
    s.training.optimizer = Optimizer::AdamW;
    s.training.seq_len = 1024;
    s.training.micro_batch = micro;
    s.training.checkpointing = recompute;
    s.training.flash_attention = flash;
    s.training.cpu_checkpointing = false;
    s.training.load_in_16bit = false;      // tests/hand_calculations.py loads fp32 (load16 False: transformers before v5)
    s.training.low_cpu_mem_usage = false;  // with a checkpoint shard beside the model (lowmem False: before 4.51)
    s.zero.stage = stage;
    s.zero.offload_optimizer = optimizer;
    s.zero.offload_param = param;
    s.zero.overlap_comm = true;
    s.zero.reduce_bucket_elems = s.zero.allgather_bucket_elems = 2e8;
    s.zero.stage3_prefetch_bucket_elems = 5e7;
    s.zero.stage3_max_live_parameters = 1e9;
    s.zero.zero_init = true;
    s.assumptions.convention = Convention::DeepSpeed;
    s.assumptions.cuda_context_bytes = 1024.0 * 1024 * 1024;
    return s;
}
}  // namespace

class TestMemoryModel : public QObject {
    Q_OBJECT
private slots:
    // The headline: llama-2-7b, 8 GPUs, stage 2: model states = 2P + 18P/N.
    void stage2_llama2_7b() {
        const Scenario s = model_scenario(model_preset("llama-2-7b").spec, 8, 2);
        const ModelStateBytes m = timeline_inputs(s).states;
        const double P = 6738415616.0;
        QCOMPARE(m.total(), 2 * P + 18 * P / 8);
    }

    // A boundary call (fit_margin): the usable memory less what must fit, and "at the edge" within
    // 5% of the card either way. The card is sized around the step's own need, so each row sits
    // where it says: 4% and 6% of the card to spare, 4% and 6% short.
    void fit_margin_at_the_edge_data() {
        QTest::addColumn<double>("spareShareOfCard");
        QTest::addColumn<bool>("fits");
        QTest::addColumn<bool>("atEdge");
        QTest::newRow("6% of the card to spare: fits") << 0.06 << true << false;
        QTest::newRow("4% to spare: fits, at the edge") << 0.04 << true << true;
        QTest::newRow("4% short: out of memory, at the edge") << -0.04 << false << true;
        QTest::newRow("6% short: out of memory") << -0.06 << false << false;
    }
    void fit_margin_at_the_edge() {
        QFETCH(double, spareShareOfCard);
        QFETCH(bool, fits);
        QFETCH(bool, atEdge);
        Scenario s = model_scenario(model_preset("llama-2-7b").spec, 8, 3);
        const double need = estimate_memory(s).peak_required_bytes;
        // usable = card x (1 - headroom) = need + share x card
        const double card = need / (1.0 - s.assumptions.headroom - spareShareOfCard);
        s.cluster.gpu.memory_gib = card / (1024.0 * 1024 * 1024);
        const MemoryBreakdown m = estimate_memory(s);
        QCOMPARE(m.peak_required_bytes, need);
        const FitMargin margin = fit_margin(s, m);
        QVERIFY(std::abs(margin.margin_bytes - spareShareOfCard * card) < 1.0);
        QCOMPARE(check_fit(s, m).gpu, fits);
        QCOMPARE(margin.at_edge, atEdge);
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

    // ZeRO-3's gathered set: DeepSpeed's 4 Lp (the largest module's 16-bit parameter and gradient)
    // plus what the prefetch has in flight. fetch_sub_module (partitioned_param_coordinator.py)
    // takes the next parameter whole before it checks stage3_prefetch_bucket_size, so a layer
    // module larger than the bucket is in flight whole: Llama-2 7B's largest linear (4096 x 11008,
    // 45.1M) is under the default 5e7 bucket, Llama-2 70B's (8192 x 28672, 234.9M) is not.
    void zero3_prefetch_in_flight_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("inFlightElems");
        QTest::newRow("Llama-2 7B: the 5e7 bucket") << QStringLiteral("llama-2-7b") << 5e7;
        QTest::newRow("Llama-2 70B: one 8192 x 28672 linear") << QStringLiteral("llama-2-70b") << 8192.0 * 28672.0;
    }
    void zero3_prefetch_in_flight() {
        QFETCH(QString, model);
        QFETCH(double, inFlightElems);
        const ModelSpec m = model_preset(model.toStdString()).spec;
        ZeroSetup z;
        z.stage = 3;
        z.stage3_prefetch_bucket_elems = 5e7;
        Training t;
        t.precision = Precision::Bf16;
        const double largest = static_cast<double>(largest_layer_params(m));
        QCOMPARE(buffer_bytes(m, t, z).gathered, 2.0 * 2.0 * largest + 2.0 * inFlightElems);
        z.stage3_prefetch_bucket_elems = 0;  // no prefetch: the 4 Lp alone
        QCOMPARE(buffer_bytes(m, t, z).gathered, 2.0 * 2.0 * largest);
    }

    // Where the step is (buffers.h Zero3Gathered): inside the layer stack the largest layer module
    // (Llama-2 7B: gate_proj 4096 x 11008, 45.1M), at the head and the embedding the vocabulary
    // matrix (32000 x 4096, 131.1M), the prefetch taking that matrix whole when it comes next
    // (fetch_sub_module adds the next parameter before it checks the 5e7 bucket). bf16, 2 bytes.
    void zero3_gathered_where_the_step_is() {
        const ModelSpec m = model_preset("llama-2-7b").spec;
        ZeroSetup z;
        z.stage = 3;
        z.stage3_prefetch_bucket_elems = 5e7;
        Training t;
        t.precision = Precision::Bf16;
        const Zero3Gathered at = buffer_bytes(m, t, z).gathered_at;
        QCOMPARE(at.layer, 2.0 * 4096 * 11008);
        QCOMPARE(at.layer_gradient, at.layer);
        QCOMPARE(at.vocabulary, 2.0 * 32000 * 4096);
        QCOMPARE(at.layer_prefetch, 2.0 * 5e7);
        QCOMPARE(at.vocabulary_prefetch, 2.0 * 32000 * 4096);
    }

    // deepspeed.zero.TiledLinear as Megatron-LM-v1.1.5-ZeRO3 builds it (--tile-factor T): every
    // linear of a GPT layer in tiles of (h/T)^2, each gathered alone. ZeRO-Infinity's 1T layer
    // (h 25,600) at T = 4: qkv 3 x 16 tiles, the projection 16, the MLP 4 x 16 each, 192 gathered
    // modules of 6,400^2; hooked besides: per linear the TiledLinear, its ModuleList and one per
    // output split (12, 4, 16, 4: 8 + 36), the two LayerNorms and the layer's three containers.
    void tiled_linear_modules_data() {
        QTest::addColumn<qint64>("tiles");
        QTest::addColumn<double>("largest");
        QTest::addColumn<double>("gathered");
        QTest::addColumn<double>("hooked");
        QTest::newRow("untiled: the 25,600 x 102,400 up-projection, 4 linears") << qint64(1) << 25600.0 * 102400.0 << 4.0 << 4.0 + 2 + 3;
        QTest::newRow("tile factor 2: 48 tiles of 12,800^2") << qint64(2) << 12800.0 * 12800.0 << 48.0 << 48.0 + 8 + 18 + 2 + 3;
        QTest::newRow("tile factor 4: 192 tiles of 6,400^2") << qint64(4) << 6400.0 * 6400.0 << 192.0 << 192.0 + 8 + 36 + 2 + 3;
    }
    void tiled_linear_modules() {
        QFETCH(qint64, tiles);
        QFETCH(double, largest);
        QFETCH(double, gathered);
        QFETCH(double, hooked);
        ModelSpec m = model_preset("gpt2").spec;  // a GPT layer: fused qkv, 4h MLP, two LayerNorms
        m.hidden = 25600;
        m.heads = 256;
        m.head_dim = 100;
        m.kv_heads = 256;
        m.ffn = 102400;
        ZeroSetup z;
        z.stage = 3;
        z.linear_tile_factor = tiles;
        const LayerModules l = layer_modules(m, z);
        QCOMPARE(l.largest_params, largest);
        QCOMPARE(l.gathered, gathered);
        QCOMPARE(l.hooked, hooked);
        QCOMPARE(l.layer_params, 12.0 * 25600 * 25600);  // tiling splits the modules, not the parameters
    }

    // offload_param alone at ZeRO-3: the 16-bit partition lives on the host (stage3.py
    // _create_param_groups_fp16_flat_cpu_memory), the fp32 master, its gradients and the moments stay
    // on the GPU as plain ZeRO-3 keeps them (the optimizer's device is the GPU unless offload_optimizer
    // is set: stage3.py self.device).
    void offload_param_alone_keeps_the_optimizer_on_the_gpu() {
        const Scenario plain = model_scenario(model_preset("llama-2-13b").spec, 8, 3);
        Scenario params = plain;
        params.zero.offload_param = OffloadDevice::Cpu;
        const MemoryBreakdown a = estimate_memory(plain), b = estimate_memory(params);
        QVERIFY(a.params_bytes > 0);
        QCOMPARE(b.params_bytes, 0.0);
        QCOMPARE(b.gradients_bytes, a.gradients_bytes);
        QCOMPARE(b.optimizer_states_bytes, a.optimizer_states_bytes);
        QCOMPARE(QString::fromStdString(setup_label(params.zero)), QStringLiteral("ZeRO-3 + CPU params"));
    }

    // ZeRO-3 host RAM with zero.Init and full CPU offload (core/memory/host_memory.cpp): during
    // training a node holds at least 20 bytes per parameter of its share (fp32 master 4, moments 8,
    // fp32 gradients 4, the flat 16-bit partition 2, the 16-bit gradient buffer 2), more with the
    // pinned blocks' power-of-two rounding, and four nodes hold about a quarter each.
    void stage3_cpu_offload_host_ram() {
        Scenario s = model_scenario(model_preset("llama-2-70b").spec, 8, 3);
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Cpu;
        const double P = 68976648192.0;
        const auto states = [](const MemoryBreakdown& m) {
            const HostSlices& b = m.host.moment(HostPhase::Training).bytes;
            return b.parameters + b.gradients + b.optimizer_states;
        };
        const double one = states(estimate_memory(s));
        QVERIFY(one >= 20 * P);
        QVERIFY(one <= 20 * P * 1.5);
        s.cluster.nodes = 4;
        const double four = states(estimate_memory(s));
        QVERIFY(four >= 20 * P / 4);
        QVERIFY(four <= one / 4 * 1.1);
    }

    // The slices' formulas (what the step timeline is built from: timeline_inputs), one setup family
    // a row, worked out by hand from docs/design.md §4 (tests/hand_calculations.py).
    // GPT-2 124M: P = 124,439,808, largest module (the tied wte) Lp = 50257 x 768 = 38,597,376,
    // L = 12, h = 768, a = 12, V = 50257, s = 1024. Row "1 x 8 ZeRO-2":
    //   params 2P = 248,879,616; gradients 2P/8 + 4P/8 = 93,329,856; optimizer (4 + 8)P/8 = 186,659,712
    //   activations (Korthikanti Table 2) 12 x 1024 x 768 x (34 + 5 x 12 x 1024 / 768) = 12 x 786,432 x 114
    //     = 1,075,838,976, plus final-norm and head inputs and 16-bit + fp32 logits
    //     1024 x (4 x 768 + 6 x 50257) = 311,924,736: 1,387,763,712
    //   buffers 2 bytes x (2e8 + 2e8) x 4.5 (overlap_comm) = 3,600,000,000
    //   host RAM per node at its peak, loading: 8 processes of 2.06e9 and each builds the fp32 model and
    //     reads it as one shard, 8 x (2.06e9 + 4P + 4P) = 24,444,147,712 (tests/hand_calculations.py H4).
    // ZeRO-3 rows: params 2P/N, gradients 4P/N (no 16-bit copy), optimizer 12P/N; buffers 4 Lp (gathered
    // module and its gradient) + 2 x 5e7 prefetch + 2 x 2e8 reduce bucket = 654,389,504; host RAM under
    // zero.Init peaks while loading: one shard per process (H5, H6). Full recompute keeps 2sbh per
    // layer plus one whole layer (34 sbh with flash attention); selective keeps 34 sbh per layer.
    // DDP on one GPU: 20P of model states and one 2e8 all-reduce bucket, 400,000,000; host RAM
    // 2.06e9 + 4P + 4P = 3,055,518,464 while loading.
    void hand_computed_breakdown_data() {
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("offload");  // optimizer and, at stage 3, parameters
        QTest::addColumn<qint64>("micro");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<double>("params");
        QTest::addColumn<double>("gradients");
        QTest::addColumn<double>("optimizer");
        QTest::addColumn<double>("activations");
        QTest::addColumn<double>("buffers");
        QTest::addColumn<double>("cpuPerNode");
        const int none = int(OffloadDevice::None), cpu = int(OffloadDevice::Cpu);
        QTest::newRow("1 x 8 ZeRO-2, micro 1, no recompute, no flash")
            << qint64(1) << qint64(8) << 2 << none << qint64(1) << int(Checkpointing::None) << false << 248879616.0 << 93329856.0
            << 186659712.0 << 1387763712.0 << 3600000000.0 << 24444147712.0;
        QTest::newRow("1 x 8 ZeRO-3, micro 2, full recompute, flash")
            << qint64(1) << qint64(8) << 3 << none << qint64(2) << int(Checkpointing::Full) << true << 31109952.0 << 62219904.0
            << 186659712.0 << 715075584.0 << 654389504.0 << 20462073856.0;
        QTest::newRow("2 x 8 ZeRO-3 + CPU optimizer and params, micro 4, selective")
            << qint64(2) << qint64(8) << 3 << cpu << qint64(4) << int(Checkpointing::Selective) << false << 0.0 << 0.0 << 0.0
            << 2531155968.0 << 654389504.0 << 20669105023.73978;
        QTest::newRow("1 x 1 DDP, micro 1, flash")
            << qint64(1) << qint64(1) << 0 << none << qint64(1) << int(Checkpointing::None) << true << 248879616.0 << 746638848.0
            << 1493277696.0 << 632788992.0 << 400000000.0 << 3055518464.0;
    }
    // transformers' gelu_new keeps three more ffn-wide tensors a layer (tanh's output, 1 + tanh,
    // 0.5 x): 12 layers x 1024 tokens x 3 x 2 bytes x 3072 = 226,492,416 at micro batch 1 without
    // recompute (tests/hand_calculations.py, "gelu_new"); with full recompute, one layer's worth.
    void gelu_new_keeps_three_ffn_tensors_data() {
        QTest::addColumn<int>("recompute");
        QTest::addColumn<double>("extra");
        QTest::newRow("no recompute: every layer") << int(Checkpointing::None) << 226492416.0;
        QTest::newRow("full recompute: the layer rebuilt") << int(Checkpointing::Full) << 18874368.0;
    }
    void gelu_new_keeps_three_ffn_tensors() {
        QFETCH(int, recompute);
        QFETCH(double, extra);
        const Scenario fused =
            gpt2_memory(1, 8, 2, OffloadDevice::None, OffloadDevice::None, 1, static_cast<Checkpointing>(recompute), false);
        Scenario gelu_new = fused;
        gelu_new.model.activation = MlpActivation::GeluNew;
        ZP_COMPARE_NEAR(timeline_inputs(gelu_new).activations.gpu_bytes - timeline_inputs(fused).activations.gpu_bytes, extra);
    }

    void hand_computed_breakdown() {
        QFETCH(qint64, nodes);
        QFETCH(qint64, gpusPerNode);
        QFETCH(int, stage);
        QFETCH(int, offload);
        QFETCH(qint64, micro);
        QFETCH(int, recompute);
        QFETCH(bool, flash);
        QFETCH(double, params);
        QFETCH(double, gradients);
        QFETCH(double, optimizer);
        QFETCH(double, activations);
        QFETCH(double, buffers);
        QFETCH(double, cpuPerNode);
        const auto device = static_cast<OffloadDevice>(offload);
        const Scenario s = gpt2_memory(nodes, gpusPerNode, stage, device, stage == 3 ? device : OffloadDevice::None, micro,
                                       static_cast<Checkpointing>(recompute), flash);
        validate(s);
        const TimelineInputs in = timeline_inputs(s);
        ZP_COMPARE_NEAR(in.states.params, params);
        ZP_COMPARE_NEAR(in.states.gradients, gradients);
        ZP_COMPARE_NEAR(in.states.optimizer_states, optimizer);
        ZP_COMPARE_NEAR(in.activations.gpu_bytes, activations);
        ZP_COMPARE_NEAR(in.buffers.total(), buffers);
        const MemoryBreakdown m = estimate_memory(s);
        QCOMPARE(m.cuda_context_bytes, 1073741824.0);
        ZP_COMPARE_NEAR(m.cpu_bytes_per_node, cpuPerNode);
        QCOMPARE(m.nvme_bytes_per_node, 0.0);
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
    // non-negative; ZeRO-3 never grows with more GPUs; a higher
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
                            Scenario s = with_setup(model_scenario(m, gpus, z.stage), z);
                            s.training.precision = p;
                            s.training.optimizer = o;
                            s.assumptions.convention = c;
                            const MemoryBreakdown b = estimate_memory(s);
                            for (double v :
                                 {b.params_bytes, b.gradients_bytes, b.optimizer_states_bytes, b.activations_bytes, b.buffers_bytes,
                                  b.cuda_context_bytes, b.allocator_cache_bytes, b.cpu_bytes_per_node, b.nvme_bytes_per_node})
                                QVERIFY(std::isfinite(v) && v >= 0);
                            QVERIFY(std::isfinite(b.total_bytes()));
                            // One memory model: the slices are the deciding moment's and sum to what must fit,
                            // the figure the fit is decided on; no per-GPU figure shown is above it.
                            QVERIFY2(std::abs(b.total_bytes() - b.peak_required_bytes) <= 1e-9 * b.peak_required_bytes,
                                     (std::to_string(b.total_bytes()) + " vs " + std::to_string(b.peak_required_bytes)).c_str());
                            QVERIFY(b.peak_allocated_bytes <= b.peak_required_bytes * (1 + 1e-12));
                            const double states = timeline_inputs(s).states.total();
                            if (z.offload_optimizer == OffloadDevice::None) {
                                // zero_setups() lists stages 0..3 without offload first, in order.
                                QVERIFY(states <= previous_states * (1 + 1e-12));
                                previous_states = states;
                                if (z.stage == 3) {
                                    QVERIFY(b.total_bytes() <= previous_stage3 * (1 + 1e-12));
                                    previous_stage3 = b.total_bytes();
                                }
                            } else {
                                Scenario plain = s;
                                plain.zero.offload_optimizer = plain.zero.offload_param = OffloadDevice::None;
                                QVERIFY(states <= timeline_inputs(plain).states.total());
                            }
                            ++checked;
                        }
                    }
                }
        QVERIFY(checked > 1000);
    }
};

ZP_TEST_APPLESS_MAIN(TestMemoryModel)
#include "tst_memory_model.moc"
