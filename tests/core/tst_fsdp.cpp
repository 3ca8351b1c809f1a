// PyTorch FSDP as an engine beside DeepSpeed (core/model/engine.h, core/memory/fsdp_memory.cpp):
// the sharded states per dtype policy, what FSDP gathers, the setups it has, what validate
// refuses, the recommender's search and the session. Covers core/model/scenario.cpp validate_fsdp,
// core/memory/step_timeline.cpp add_fsdp_terms, core/search/recommender.cpp, core/io/scenario_json.cpp.
#include "core/base/errors.h"
#include "core/base/units.h"
#include "core/deepspeed/fsdp_export.h"
#include "core/deepspeed/fsdp_lint.h"
#include "core/io/scenario_json.h"
#include "core/io/session_version.h"
#include "core/memory/fsdp_memory.h"
#include "core/memory/host_memory.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/trainable_params.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/model_presets.h"
#include "core/report/report.h"
#include "core/search/max_sequence.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "test_main.h"

using namespace zp;
using zp::test::preset_scenario;

namespace {

// Llama-2 7B under FSDP on one node of 8 A100 80GB, bf16 AdamW (torch.optim), full recompute.
Scenario fsdp_llama(FsdpPrecision precision, int stage = 3) {
    Scenario s = preset_scenario("llama-2-7b", "a100-80gb", 8);
    s.fsdp.engine = Engine::Fsdp;
    s.fsdp.precision = precision;
    s.zero.stage = stage;
    s.training.fused_optimizer = false;
    s.training.micro_batch = 1;
    s.training.global_batch = 8;
    s.training.seq_len = 2048;
    s.training.checkpointing = Checkpointing::Full;
    return s;
}

// The scenario on two nodes of 8 with FSDP's hybrid sharding (FsdpSetup::hybrid_shard).
Scenario two_nodes_hybrid(Scenario s) {
    s.cluster.nodes = 2;
    s.training.global_batch = 16;
    s.fsdp.hybrid_shard = true;
    return s;
}

double bytes_per_param(const Scenario& s) {
    const ModelStateBytes b = model_state_bytes(s, parameter_split(s));
    return b.total() / static_cast<double>(parameter_count(s.model));
}

}  // namespace

class TestFsdp : public QObject {
    Q_OBJECT
private slots:
    // _flat_param.py FlatParamHandle.shard keeps numel / world of each FlatParameter; the fp32 model
    // (Trainer, Accelerate: MixedPrecision only casts what is gathered) keeps fp32 shards, fp32
    // reduced gradients (_cast_grad_to_param_dtype) and torch.optim's fp32 moments (zeros_like):
    // 4 + 4 + 8 = 16 bytes a parameter over the ranks, with no separate master copy. A model loaded
    // in bf16 keeps 2 + 2 + 4 = 8. NO_SHARD keeps them whole.
    void model_states_per_parameter_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("expected");
        QTest::newRow("FULL_SHARD, MixedPrecision: 16 / 8") << int(FsdpPrecision::Mixed) << 3 << 16.0 / 8;
        QTest::newRow("FULL_SHARD, autocast: 16 / 8") << int(FsdpPrecision::Autocast) << 3 << 16.0 / 8;
        QTest::newRow("FULL_SHARD, pure bf16: 8 / 8") << int(FsdpPrecision::Pure) << 3 << 8.0 / 8;
        QTest::newRow("SHARD_GRAD_OP, MixedPrecision: 16 / 8") << int(FsdpPrecision::Mixed) << 2 << 16.0 / 8;
        QTest::newRow("NO_SHARD, MixedPrecision: 16") << int(FsdpPrecision::Mixed) << 0 << 16.0;
        QTest::newRow("NO_SHARD, pure bf16: 8") << int(FsdpPrecision::Pure) << 0 << 8.0;
    }
    void model_states_per_parameter() {
        QFETCH(int, precision);
        QFETCH(int, stage);
        QFETCH(double, expected);
        const Scenario s = fsdp_llama(static_cast<FsdpPrecision>(precision), stage);
        QVERIFY2(std::abs(bytes_per_param(s) - expected) < 1e-9, std::to_string(bytes_per_param(s)).c_str());
    }

    // DeepSpeed's stage 3 keeps 18 bytes a parameter over the ranks (2 + 4 + 12: a 16-bit
    // partition, an fp32 gradient partition, the fp32 master and moments); FSDP with an fp32 model
    // 16: the engine choice changes the states, not only the name.
    void deepspeed_and_fsdp_differ_by_the_master_copy() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed);
        const double fsdp = bytes_per_param(s);
        s.fsdp.engine = Engine::DeepSpeed;
        QVERIFY2(std::abs(bytes_per_param(s) - 18.0 / 8) < 1e-9, std::to_string(bytes_per_param(s)).c_str());
        QVERIFY(fsdp < bytes_per_param(s));
    }

    // CPUOffload(offload_params=True): the shards, reduced gradients and torch.optim's states are on
    // the host; the GPU keeps what it gathers and computes with.
    void cpu_offload_keeps_no_states_on_the_gpu() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed);
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Cpu;
        const ModelStateBytes b = model_state_bytes(s, parameter_split(s));
        QCOMPARE(b.total(), 0.0);
        QVERIFY(estimate_memory(s).peak_allocated_bytes > 0);
    }

    // The gathered units: the root (embedding and output layer, untied in Llama-2: 2 x 32000 x 4096)
    // unsharded from its forward through the backward (_post_forward_reshard does not free the
    // root's), and two decoder layers in flight under limit_all_gathers, in param_dtype (bf16 under
    // MixedPrecision, fp32 under autocast). SHARD_GRAD_OP keeps every layer gathered.
    void gathered_units_data() {
        QTest::addColumn<int>("precision");
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("bytes_per_element");
        QTest::addColumn<double>("layers_in_flight");
        QTest::newRow("FULL_SHARD, MixedPrecision bf16") << int(FsdpPrecision::Mixed) << 3 << 2.0 << 2.0;
        QTest::newRow("FULL_SHARD, autocast: fp32 gathers") << int(FsdpPrecision::Autocast) << 3 << 4.0 << 2.0;
        QTest::newRow("SHARD_GRAD_OP: all 32 layers") << int(FsdpPrecision::Mixed) << 2 << 2.0 << 32.0;
        // Accelerate 1.14's fsdp2_prepare_model: the untied embedding is a unit of its own, resharded
        // after its forward; only the tail [final_norm, lm_head] stays gathered (negative stage: FSDP2).
        QTest::newRow("FSDP2 FULL_SHARD: the tail unit alone kept") << int(FsdpPrecision::Mixed) << -3 << 2.0 << 2.0;
    }
    void gathered_units() {
        QFETCH(int, precision);
        QFETCH(int, stage);
        QFETCH(double, bytes_per_element);
        QFETCH(double, layers_in_flight);
        Scenario s = fsdp_llama(static_cast<FsdpPrecision>(precision), std::abs(stage));
        if (stage < 0) s.fsdp.engine = Engine::Fsdp2;
        const double P = static_cast<double>(parameter_count(s.model));
        const double root = 2.0 * 32000 * 4096;  // Llama-2's untied embedding and output layer
        const double kept = stage < 0 ? root / 2 : root;
        const double layer = (P - root) / 32;
        const FsdpUnits u = fsdp_units(s, P, P, 0.0);
        const double in_flight = u.unsharded_through_backward ? 32.0 : u.units_in_flight;
        const double gathered = u.root_bytes + in_flight * u.layer_bytes + u.layer_grad_bytes;
        const double expected = bytes_per_element * (kept + layers_in_flight * layer + layer);  // + one layer's unsharded gradient
        QVERIFY2(std::abs(gathered - expected) / expected < 1e-9, (std::to_string(gathered) + " vs " + std::to_string(expected)).c_str());
        QCOMPARE(buffer_bytes(s).buckets, 0.0);  // no DeepSpeed buckets
    }

    // Gradient accumulation under no_sync (the Trainer's and accelerator.accumulate()'s default):
    // the micro steps before the last leave every rank the whole model's unsharded gradient, in
    // param_dtype (bf16: 2 bytes a parameter) and on the GPU even with CPUOffload (FSDP1's no_sync
    // docstring), and the last reduce-scatters it once. sync_each_batch reduces every micro step: the
    // sharded gradient only. Without accumulation, and at NO_SHARD (whole gradients anyway), nothing changes.
    void no_sync_holds_the_unsharded_gradient_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("offload");
        QTest::addColumn<std::int64_t>("global_batch");
        QTest::addColumn<double>("held_bytes_per_param");
        QTest::newRow("FULL_SHARD, 2 micro steps") << 3 << false << std::int64_t{16} << 2.0;
        QTest::newRow("FULL_SHARD + CPUOffload, 4 micro steps") << 3 << true << std::int64_t{32} << 2.0;
        QTest::newRow("SHARD_GRAD_OP, 2 micro steps") << 2 << false << std::int64_t{16} << 2.0;
        QTest::newRow("FULL_SHARD, one micro step") << 3 << false << std::int64_t{8} << 0.0;
        QTest::newRow("NO_SHARD, 2 micro steps") << 0 << false << std::int64_t{16} << 0.0;
    }
    void no_sync_holds_the_unsharded_gradient() {
        QFETCH(int, stage);
        QFETCH(bool, offload);
        QFETCH(std::int64_t, global_batch);
        QFETCH(double, held_bytes_per_param);
        Scenario no_sync = fsdp_llama(FsdpPrecision::Mixed, stage);
        no_sync.training.global_batch = global_batch;
        if (offload) no_sync.zero.offload_optimizer = no_sync.zero.offload_param = OffloadDevice::Cpu;
        Scenario synced = no_sync;
        synced.fsdp.sync_each_batch = true;
        const double P = static_cast<double>(parameter_count(no_sync.model));
        // The gradients at the loss (a micro step's forward done, its backward not begun): what the
        // earlier micro steps left. Synced: the fp32 shard (4 bytes / 8 ranks), none with CPUOffload
        // or one micro step; NO_SHARD: the whole fp32 gradient either way.
        const auto gradients_at_loss = [](const Scenario& s) {
            for (const StepMoment& m : step_timeline(s, TimelineDetail::PeakCandidates))
                if (m.phase == StepPhase::Loss) return m.gradients_bytes;
            return -1.0;
        };
        const double synced_bytes = offload || global_batch == 8 ? 0.0 : (stage == 0 ? 4.0 : 0.5) * P;
        const double expected = held_bytes_per_param > 0 ? held_bytes_per_param * P : synced_bytes;
        QVERIFY2(std::abs(gradients_at_loss(synced) - synced_bytes) < 1e-6 * P, std::to_string(gradients_at_loss(synced) / P).c_str());
        QVERIFY2(std::abs(gradients_at_loss(no_sync) - expected) < 1e-6 * P, std::to_string(gradients_at_loss(no_sync) / P).c_str());
        // One reduce-scatter a step instead of one a micro step.
        if (held_bytes_per_param > 0) QVERIFY(estimate_step(no_sync).comm_total_seconds < estimate_step(synced).comm_total_seconds);
    }

    // HYBRID_SHARD (torch _init_utils.py _init_intra_and_inter_node_groups: the shard group is a
    // node's GPUs, the replicate group the same local rank on every node): the states are sharded
    // over the node's 8 GPUs, not the 16 of two nodes, so each GPU holds twice FULL_SHARD's 16 bytes
    // a parameter / 16; the all-gathers and the reduce-scatter stay on NVLink and only each rank's
    // gradient shard (1/8) is all-reduced over the network: far less exposed communication on
    // 200 Gb/s NICs. On one node, and at NO_SHARD, it is FULL_SHARD and NO_SHARD exactly.
    void hybrid_shard_shards_inside_the_node_data() {
        QTest::addColumn<int>("engine");
        QTest::addColumn<int>("stage");
        QTest::addColumn<std::int64_t>("nodes");
        QTest::addColumn<double>("states_ratio");  // model states per GPU, hybrid / flat
        QTest::newRow("FSDP1 HYBRID_SHARD, 2 nodes") << int(Engine::Fsdp) << 3 << std::int64_t{2} << 2.0;
        QTest::newRow("FSDP1 HYBRID_SHARD_ZERO2, 2 nodes") << int(Engine::Fsdp) << 2 << std::int64_t{2} << 2.0;
        QTest::newRow("FSDP2 2-D mesh, 4 nodes") << int(Engine::Fsdp2) << 3 << std::int64_t{4} << 4.0;
        QTest::newRow("FSDP1 HYBRID_SHARD, one node") << int(Engine::Fsdp) << 3 << std::int64_t{1} << 1.0;
        QTest::newRow("FSDP1 NO_SHARD, 2 nodes") << int(Engine::Fsdp) << 0 << std::int64_t{2} << 1.0;
        // Nodes of one GPU (negative: the node count with one GPU each): FULL_SHARD, as exported.
        QTest::newRow("FSDP1, 2 nodes of one GPU") << int(Engine::Fsdp) << 3 << std::int64_t{-2} << 1.0;
    }
    void hybrid_shard_shards_inside_the_node() {
        QFETCH(int, engine);
        QFETCH(int, stage);
        QFETCH(std::int64_t, nodes);
        QFETCH(double, states_ratio);
        Scenario flat = fsdp_llama(FsdpPrecision::Mixed, stage);
        flat.fsdp.engine = static_cast<Engine>(engine);
        flat.cluster.nodes = std::abs(nodes);
        if (nodes < 0) flat.cluster.gpus_per_node = 1;
        flat.cluster.inter_node_gbits_per_s = 1600;              // 8 x 200 Gb/s
        flat.training.global_batch = flat.cluster.world_size();  // one micro step: no no_sync gradient
        Scenario hybrid = flat;
        hybrid.fsdp.hybrid_shard = true;
        validate(hybrid);
        const MemoryBreakdown a = estimate_memory(flat), b = estimate_memory(hybrid);
        QVERIFY2(std::abs(b.model_states_bytes() / a.model_states_bytes() - states_ratio) < 1e-9,
                 std::to_string(b.model_states_bytes() / a.model_states_bytes()).c_str());
        const StepTime ta = estimate_step(flat), tb = estimate_step(hybrid);
        if (states_ratio == 1.0) {
            QCOMPARE(b.total_bytes(), a.total_bytes());
            QCOMPARE(tb.seconds, ta.seconds);
        } else {
            QVERIFY2(tb.comm_seconds < 0.5 * ta.comm_seconds,
                     (std::to_string(tb.comm_seconds) + " s against " + std::to_string(ta.comm_seconds)).c_str());
            QVERIFY(tb.exposed_allreduce_seconds > 0 || tb.comm_total_seconds > 0);
        }
    }

    // The replicate group's all-reduce follows each gradient reduce-scatter (_runtime_utils.py
    // _reduce_grad) and both are skipped under no_sync: one a step with gradient accumulation,
    // one a micro step with sync_each_batch.
    void hybrid_shard_all_reduces_with_each_reduce() {
        // The all-reduce alone: two nodes less one (the same shard group of 8 on NVLink, the same
        // gathers and reduce-scatters; one node has no replicas to all-reduce with).
        const auto all_reduce_seconds = [](bool sync_each_batch) {
            Scenario two = two_nodes_hybrid(fsdp_llama(FsdpPrecision::Mixed, 3));
            two.training.global_batch = 64;  // 4 micro steps
            two.fsdp.sync_each_batch = sync_each_batch;
            Scenario one = two;
            one.cluster.nodes = 1;
            one.training.global_batch = 32;
            return estimate_step(two).comm_total_seconds - estimate_step(one).comm_total_seconds;
        };
        const double once = all_reduce_seconds(false), every = all_reduce_seconds(true);
        QVERIFY(once > 0);
        QVERIFY2(std::abs(every / once - 4.0) < 1e-9, std::to_string(every / once).c_str());
    }

    // What FSDP cannot run or the planner does not model, refused in FSDP's words.
    void hybrid_shard_refusals_data() {
        QTest::addColumn<int>("engine");
        QTest::addColumn<std::int64_t>("gpus_per_node");
        QTest::addColumn<QString>("words");
        QTest::newRow("DeepSpeed") << int(Engine::DeepSpeed) << std::int64_t{8} << "MiCS";
    }
    void hybrid_shard_refusals() {
        QFETCH(int, engine);
        QFETCH(std::int64_t, gpus_per_node);
        QFETCH(QString, words);
        Scenario s = two_nodes_hybrid(fsdp_llama(FsdpPrecision::Mixed, 3));
        s.fsdp.engine = static_cast<Engine>(engine);
        s.cluster.gpus_per_node = gpus_per_node;
        s.training.global_batch = 2 * gpus_per_node;
        try {
            validate(s);
            QFAIL("validate accepted it");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find(words.toStdString()) != std::string::npos, e.what());
        }
        // Back to DeepSpeed (the window's engine box, engine auto's DeepSpeed plan) it goes off.
        QVERIFY(!with_engine(two_nodes_hybrid(fsdp_llama(FsdpPrecision::Mixed, 3)), Engine::DeepSpeed).fsdp.hybrid_shard);
    }

    // The exports say it in each launcher's words: Accelerate's fsdp_sharding_strategy (FSDP1),
    // its ParallelismConfig's 2-D mesh (FSDP2), the Trainer's fsdp option string.
    void hybrid_shard_exports_data() {
        QTest::addColumn<int>("engine");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("yaml_words");
        QTest::addColumn<QString>("args_words");
        QTest::newRow("FSDP1 HYBRID_SHARD") << int(Engine::Fsdp) << 3 << "fsdp_sharding_strategy: HYBRID_SHARD\n"
                                            << "fsdp=\"hybrid_shard auto_wrap\"";
        QTest::newRow("FSDP1 HYBRID_SHARD_ZERO2") << int(Engine::Fsdp) << 2 << "fsdp_sharding_strategy: HYBRID_SHARD_ZERO2\n"
                                                  << "fsdp=\"hybrid_shard_zero2 auto_wrap\"";
        QTest::newRow("FSDP2 2-D mesh")
            << int(Engine::Fsdp2) << 3
            << "parallelism_config:\n  parallelism_config_dp_replicate_size: 2\n  parallelism_config_dp_shard_size: 8\n"
            << "--parallelism_config_dp_replicate_size 2 --parallelism_config_dp_shard_size 8";
    }
    void hybrid_shard_exports() {
        QFETCH(int, engine);
        QFETCH(int, stage);
        QFETCH(QString, yaml_words);
        QFETCH(QString, args_words);
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, stage);
        s.fsdp.engine = static_cast<Engine>(engine);
        s = two_nodes_hybrid(s);
        const std::string yaml = accelerate_fsdp_config_yaml(s);
        QVERIFY2(yaml.find(yaml_words.toStdString()) != std::string::npos, yaml.c_str());
        const std::string args = trainer_fsdp_arguments_text(s, ExportOptions{});
        QVERIFY2(args.find(args_words.toStdString()) != std::string::npos, args.c_str());
    }

    // Across nodes the recommender plans FSDP both ways and keeps the faster, saying why; on one
    // node there is nothing to choose.
    void recommend_plans_hybrid_shard_across_nodes() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, 3);
        s.cluster.nodes = 2;
        s.cluster.inter_node_gbits_per_s = 200;  // one 200 Gb/s NIC per node: the flat gathers cross it
        s.cluster.nics_per_node = 1;
        s.training.global_batch = 256;
        const Plan p = recommend(s);
        QVERIFY(p.feasible);
        QVERIFY(p.best.hybrid_shard);
        bool said = false;
        for (const std::string& w : p.why) said = said || w.find("Hybrid sharding") != std::string::npos;
        QVERIFY(said);
        // Asked for, it is kept (not searched away), as ZeRO++ switches set are.
        s.fsdp.hybrid_shard = true;
        const Plan kept = recommend(s);
        QVERIFY(kept.best.hybrid_shard || kept.best.zero.stage == 0);
        s.fsdp.hybrid_shard = false;
        s.cluster.nodes = 1;
        s.training.global_batch = 128;
        QVERIFY(!recommend(s).best.hybrid_shard);
    }

    // Host RAM under FSDP1: CPUOffload pins each FlatParameter's shard and gradient shard apart
    // (_flat_param.py init_flat_param_attributes), so each wrapped unit rounds up on its own:
    // Llama-2 70B over 16 ranks, a decoder layer's fp32 shard 204 MiB -> 256 MiB, the root's (the
    // untied embedding and output layer) 125 MiB -> 128 MiB; a node's 8 ranks hold 161 GiB of each,
    // not 8 x 32 GiB for one 16 GiB block. And the node's first process loads the model in the
    // dtype it is loaded in (bf16: 2 bytes a parameter): FSDP1 casts to fp32 after wrapping, on the GPU.
    void fsdp1_host_ram_per_unit_and_loaded_dtype() {
        Scenario s = preset_scenario("llama-2-70b", "a100-80gb", 16);
        s.fsdp.engine = Engine::Fsdp;
        s.zero.stage = 3;
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Cpu;
        s.training.global_batch = 64;
        const HostMemory h = host_memory(s);
        const double P = static_cast<double>(parameter_count(s.model));
        const double root = 2.0 * 32000 * 8192;
        const double layer_shard = 4.0 * (P - root) / 80 / 16, root_shard = 4.0 * root / 16;
        const double expected = 8 * (80 * static_cast<double>(std::bit_ceil(static_cast<std::uint64_t>(std::ceil(layer_shard)))) +
                                     static_cast<double>(std::bit_ceil(static_cast<std::uint64_t>(std::ceil(root_shard)))));
        const HostMoment& training = h.moment(HostPhase::Training);
        QVERIFY2(std::abs(training.bytes.parameters - expected) < 1e-6 * expected,
                 (std::to_string(training.bytes.parameters / (1024.0 * 1024 * 1024)) + " GiB").c_str());
        QCOMPARE(training.bytes.gradients, training.bytes.parameters);
        const double loaded = h.moment(HostPhase::Loading).bytes.model_copy;
        QCOMPARE(loaded, 2.0 * P);  // the model in bf16, built on the meta device and filled tensor by tensor
        // Before 4.51 too: cpu_ram_efficient_loading made transformers turn low_cpu_mem_usage on itself
        // (from_pretrained: "if is_fsdp_enabled(): low_cpu_mem_usage = True"), so no shard is read beside it.
        s.training.low_cpu_mem_usage = false;
        QCOMPARE(host_memory(s).moment(HostPhase::Loading).bytes.model_copy, 2.0 * P);
    }

    // FSDP has no ZeRO-1, no NVMe tier, and offloads parameters with the optimizer; validate says so
    // and the recommender never picks such a setup.
    void setups_fsdp_has_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("offload_optimizer");
        QTest::addColumn<int>("offload_param");
        QTest::addColumn<bool>("runs");
        QTest::newRow("NO_SHARD") << 0 << int(OffloadDevice::None) << int(OffloadDevice::None) << true;
        QTest::newRow("ZeRO-1: none") << 1 << int(OffloadDevice::None) << int(OffloadDevice::None) << false;
        QTest::newRow("SHARD_GRAD_OP") << 2 << int(OffloadDevice::None) << int(OffloadDevice::None) << true;
        QTest::newRow("ZeRO-2 + CPU optimizer: none") << 2 << int(OffloadDevice::Cpu) << int(OffloadDevice::None) << false;
        QTest::newRow("FULL_SHARD") << 3 << int(OffloadDevice::None) << int(OffloadDevice::None) << true;
        QTest::newRow("FULL_SHARD + CPUOffload") << 3 << int(OffloadDevice::Cpu) << int(OffloadDevice::Cpu) << true;
        QTest::newRow("NVMe: none") << 3 << int(OffloadDevice::Nvme) << int(OffloadDevice::Nvme) << false;
        QTest::newRow("FSDP2 NO_SHARD: none") << -1 << int(OffloadDevice::None) << int(OffloadDevice::None) << false;
    }
    void setups_fsdp_has() {
        QFETCH(int, stage);
        QFETCH(int, offload_optimizer);
        QFETCH(int, offload_param);
        QFETCH(bool, runs);
        // -1: stage 0 under FSDP2 (fully_shard always shards).
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, stage < 0 ? 0 : stage);
        if (stage < 0) s.fsdp.engine = Engine::Fsdp2;
        s.zero.offload_optimizer = static_cast<OffloadDevice>(offload_optimizer);
        s.zero.offload_param = static_cast<OffloadDevice>(offload_param);
        QCOMPARE(engine_runs_setup(s.fsdp, setup_key(s.zero)), runs);
        bool refused = false;
        try {
            validate(s);
        } catch (const InputError&) {
            refused = true;
        }
        QCOMPARE(refused, !runs);
        if (stage >= 0) QCOMPARE(fsdp_strategy_name(setup_key(s.zero)).empty(), !runs);
    }

    void validate_names_what_fsdp_lacks_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("stage 1") << "stage1"
                                 << "no optimizer-only sharding";
        QTest::newRow("NVMe") << "nvme"
                              << "CPU only";
        QTest::newRow("optimizer without parameters") << "half"
                                                      << "together";
        QTest::newRow("ZeRO++") << "zeropp"
                                << "ZeRO++";
        QTest::newRow("tensor parallelism") << "tp"
                                            << "data parallelism only";
        QTest::newRow("CPUOffload at SHARD_GRAD_OP: FSDP's words, not DeepSpeed's")
            << "offload2"
            << "CPUOffload(offload_params=True) is planned with FULL_SHARD";
        QTest::newRow("pure fp16: the second moment underflows, no loss scaling") << "purefp16"
                                                                                  << "underflows";
        // FSDP2 in fully_shard's words (torch/distributed/fsdp/_fully_shard/_fully_shard.py):
        // reshard_after_forward and CPUOffloadPolicy, and no NO_SHARD to suggest.
        QTest::newRow("FSDP2 stage 1: the two shardings it has")
            << "fsdp2 stage1"
            << "use stage 2 (reshard_after_forward=False) or 3 (reshard_after_forward=True)";
        QTest::newRow("FSDP2 NVMe: CPUOffloadPolicy") << "fsdp2 nvme"
                                                      << "CPU only (offload_policy=CPUOffloadPolicy())";
        QTest::newRow("FSDP2 offload without resharding") << "fsdp2 offload2"
                                                          << "CPUOffloadPolicy() is planned with reshard_after_forward=True (stage 3) only";
    }
    void validate_names_what_fsdp_lacks() {
        QFETCH(QString, what);
        QFETCH(QString, message);
        Scenario s = fsdp_llama(FsdpPrecision::Mixed);
        if (what.startsWith(QLatin1String("fsdp2 "))) {
            s.fsdp.engine = Engine::Fsdp2;
            what.remove(0, 6);
        }
        if (what == QLatin1String("stage1")) s.zero.stage = 1;
        if (what == QLatin1String("nvme")) s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Nvme;
        if (what == QLatin1String("half")) s.zero.offload_optimizer = OffloadDevice::Cpu;
        if (what == QLatin1String("zeropp")) s.zero.quantized_weights = true;
        if (what == QLatin1String("tp")) s.parallel.tensor = 2;
        if (what == QLatin1String("offload2")) {
            s.zero.stage = 2;
            s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Cpu;
        }
        if (what == QLatin1String("purefp16")) {
            s.fsdp.precision = FsdpPrecision::Pure;
            s.training.precision = Precision::Fp16;
        }
        try {
            validate(s);
            QFAIL("validate accepted it");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
            // FSDP2 has no NO_SHARD and no ShardingStrategy: none of FSDP1's names in its errors.
            if (s.fsdp.engine == Engine::Fsdp2)
                for (const char* fsdp1 : {"NO_SHARD", "SHARD_GRAD_OP", "FULL_SHARD", "CPUOffload("})
                    QVERIFY2(!std::strstr(e.what(), fsdp1), e.what());
        }
    }

    // The largest micro batch of an FSDP plan is sought above the plan's own: with accumulation,
    // no_sync keeps the whole unsharded gradient, so micro batch 1 (4 micro steps) does not fit
    // where the plan's 4 (one micro step) does, and the window's card said nothing (a review).
    void largest_micro_batch_starts_at_the_plans() {
        Scenario s = default_scenario();
        s.model = model_preset("llama-3.1-70b").spec;
        s.cluster = cluster_preset("dgx-h100").cluster;
        s = with_gpu_count(s, 16, 8);
        s.fsdp.engine = Engine::Fsdp;
        const Plan p = recommend(s);
        QVERIFY(p.feasible);
        const PlanRoom room = room_of(s, p.best);
        QVERIFY(room.micro.has_value());
        QVERIFY2(room.micro->max_micro_batch >= p.best.micro_batch, qPrintable(QString::number(room.micro->max_micro_batch)));
    }

    // Each setup in its engine's words: FSDP1's ShardingStrategy names, FSDP2's fully_shard
    // arguments (reshard_after_forward defaults to True; offload_policy=CPUOffloadPolicy(); hybrid
    // sharding is a 2-D mesh), as the reports, the bars and the diagnosis name them.
    void setup_names_are_the_engines_data() {
        QTest::addColumn<int>("engine");
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("offload");
        QTest::addColumn<bool>("hybrid");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("short_name");
        const int fsdp = int(Engine::Fsdp), fsdp2 = int(Engine::Fsdp2);
        QTest::newRow("FSDP1 FULL_SHARD") << fsdp << 3 << false << false << "FULL_SHARD"
                                          << "FULL_SHARD";
        QTest::newRow("FSDP1 SHARD_GRAD_OP") << fsdp << 2 << false << false << "SHARD_GRAD_OP"
                                             << "SHARD_GRAD_OP";
        QTest::newRow("FSDP1 CPUOffload") << fsdp << 3 << true << false << "FULL_SHARD + CPUOffload"
                                          << "FULL_SHARD+CPU";
        QTest::newRow("FSDP1 HYBRID_SHARD_ZERO2") << fsdp << 2 << false << true << "HYBRID_SHARD_ZERO2"
                                                  << "HYBRID_SHARD_ZERO2";
        QTest::newRow("FSDP2 resharding after forward") << fsdp2 << 3 << false << false << "fully_shard"
                                                        << "fully_shard";
        QTest::newRow("FSDP2 reshard_after_forward=False") << fsdp2 << 2 << false << false << "fully_shard, reshard_after_forward=False"
                                                           << "no reshard";
        QTest::newRow("FSDP2 CPUOffloadPolicy") << fsdp2 << 3 << true << false << "fully_shard + CPUOffloadPolicy"
                                                << "fully_shard+CPU";
        QTest::newRow("FSDP2 2-D mesh") << fsdp2 << 3 << false << true << "fully_shard on an HSDP mesh"
                                        << "HSDP";
        QTest::newRow("FSDP2 2-D mesh without resharding")
            << fsdp2 << 2 << false << true << "fully_shard on an HSDP mesh, reshard_after_forward=False"
            << "HSDP no reshard";
    }
    void setup_names_are_the_engines() {
        QFETCH(int, engine);
        QFETCH(int, stage);
        QFETCH(bool, offload);
        QFETCH(bool, hybrid);
        const OffloadDevice device = offload ? OffloadDevice::Cpu : OffloadDevice::None;
        const SetupKey k{stage, device, device};
        const auto e = static_cast<Engine>(engine);
        QFETCH(QString, name);
        QFETCH(QString, short_name);
        QCOMPARE(QString::fromStdString(setup_label(k, e, hybrid)), name);
        QCOMPARE(QString::fromStdString(short_setup_label(k, e, hybrid)), short_name);
    }

    // The recommender searches FSDP's own setups only: ZeRO-1, ZeRO-2 + CPU and NVMe are rejected
    // with the engine's reason, and the layout is never searched (no tensor or pipeline ranks).
    void recommend_keeps_to_fsdp_setups() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed);
        s.cluster.nodes = 2;
        s.training.global_batch = 16;
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        const Plan p = recommend(s);
        QVERIFY(engine_runs_setup(s.fsdp, setup_key(p.best.zero)));
        QCOMPARE(p.best.parallel.tensor, std::int64_t{1});
        QCOMPARE(p.best.parallel.pipeline, std::int64_t{1});
        bool named = false;
        for (const auto& r : p.rejected)
            if (r.reason.find("PyTorch FSDP has no such setup") != std::string::npos) named = true;
        QVERIFY(named);
    }

    // Answer.AI's fsdp_qlora benchmarks (benchmarks_03_2024.md, dual RTX 3090, measured_runs_2.json
    // N14): Llama-2 7B, LoRA r 64 on q/k/v/gate/up/down, pure bf16, FULL_SHARD over 2 GPUs, batch 1
    // of 2048 tokens, reentrant checkpointing: "the peak allocated memory is ... 9.16 GiB".
    void answerai_lora_peak_allocated() {
        Scenario s = preset_scenario("llama-2-7b", "rtx-3090", 2);
        s.cluster.gpus_per_node = 2;
        s.fsdp.engine = Engine::Fsdp;
        s.fsdp.precision = FsdpPrecision::Pure;
        s.zero.stage = 3;
        s.finetune.method = FineTuneMethod::Lora;
        s.finetune.lora_rank = 64;
        s.finetune.targets = LoraTargets::Modules;
        s.finetune.target_modules = "q_proj,k_proj,v_proj,gate_proj,up_proj,down_proj";
        s.training.fused_optimizer = false;
        s.training.flash_attention = false;
        s.training.micro_batch = 1;
        s.training.global_batch = 2;
        s.training.seq_len = 2048;
        s.training.checkpointing = Checkpointing::Full;
        const double gib = bytes_to_gib(estimate_memory(s).peak_allocated_bytes);
        QVERIFY2(std::abs(gib / 9.16 - 1.0) < 0.15, std::to_string(gib).c_str());
    }

    // FSDP's step: no DeepSpeed per-module hook time, and the gathers and reduce-scatters in the
    // gathered dtype: fp32 under autocast moves twice the bytes of MixedPrecision's bf16.
    void autocast_gathers_fp32() {
        Scenario mixed = fsdp_llama(FsdpPrecision::Mixed);
        mixed.cluster.nodes = 2;
        mixed.training.global_batch = 16;
        Scenario autocast = mixed;
        autocast.fsdp.precision = FsdpPrecision::Autocast;
        const StepTime a = estimate_step(mixed), b = estimate_step(autocast);
        const double ratio = b.comm_total_seconds / a.comm_total_seconds;
        QVERIFY2(ratio > 1.8 && ratio <= 2.0, std::to_string(ratio).c_str());
    }

    // transformer_layer_cls_to_wrap names the layer class of transformers' modelling code: every
    // preset's family has one, so an export never leaves FSDP to wrap the whole model as one unit.
    void every_preset_family_has_a_layer_class_data() {
        QTest::addColumn<QString>("preset");
        for (const ModelPreset& p : model_presets()) QTest::newRow(p.name.c_str()) << QString::fromStdString(p.name);
    }
    void every_preset_family_has_a_layer_class() {
        QFETCH(QString, preset);
        const ModelSpec m = model_preset(preset.toStdString()).spec;
        QVERIFY2(!fsdp_layer_class(m.family).empty(), m.family.c_str());
    }

    // The export and the lint agree: what accelerate_fsdp_config_yaml writes, lint_accelerate_fsdp_config
    // reads without a finding, for FSDP1 and FSDP2, every strategy FSDP has.
    void export_lints_clean_data() {
        QTest::addColumn<int>("engine");
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("offload");
        QTest::newRow("FSDP1 FULL_SHARD") << int(Engine::Fsdp) << 3 << false;
        QTest::newRow("FSDP1 FULL_SHARD + CPUOffload") << int(Engine::Fsdp) << 3 << true;
        QTest::newRow("FSDP1 SHARD_GRAD_OP") << int(Engine::Fsdp) << 2 << false;
        QTest::newRow("FSDP1 NO_SHARD") << int(Engine::Fsdp) << 0 << false;
        QTest::newRow("FSDP2 reshard_after_forward") << int(Engine::Fsdp2) << 3 << false;
        QTest::newRow("FSDP2 without reshard") << int(Engine::Fsdp2) << 2 << false;
        QTest::newRow("FSDP1 HYBRID_SHARD, 2 nodes") << int(Engine::Fsdp) << -3 << false;
        QTest::newRow("FSDP1 HYBRID_SHARD_ZERO2, 2 nodes") << int(Engine::Fsdp) << -2 << false;
        QTest::newRow("FSDP2 2-D mesh, 2 nodes") << int(Engine::Fsdp2) << -3 << false;
    }
    void export_lints_clean() {
        QFETCH(int, engine);
        QFETCH(int, stage);
        QFETCH(bool, offload);
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, std::abs(stage));
        s.fsdp.engine = static_cast<Engine>(engine);
        if (stage < 0) s = two_nodes_hybrid(s);  // a negative stage: hybrid sharding over two nodes
        if (offload) s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Cpu;
        const std::string yaml = accelerate_fsdp_config_yaml(s);
        QVERIFY(looks_like_accelerate_config(yaml));
        const LintResult r = lint_accelerate_fsdp_config(yaml, "accelerate.yaml", lint_context_of(s));
        std::string findings;
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity != Severity::Info) findings += d.path + ": " + d.message + "; ";
        QVERIFY2(findings.empty(), findings.c_str());
    }

    // limit_all_gathers is FSDP1's constructor argument with no Accelerate key: an FSDP1 plan without
    // it is refused an export, an FSDP2 plan has none to lose (a user review: refused).
    void limit_all_gathers_off_refused_for_fsdp1_only() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, 2);
        s.fsdp.limit_all_gathers = false;
        bool refused = false;
        try {
            (void)accelerate_fsdp_config_yaml(s);
        } catch (const InputError&) {
            refused = true;
        }
        QVERIFY(refused);
        s.fsdp.engine = Engine::Fsdp2;
        QVERIFY(accelerate_fsdp_config_yaml(s).find("fsdp_version: 2") != std::string::npos);
    }

    // Recompute once: the YAML turns FSDP's activation checkpointing on and the Trainer's arguments
    // ask for it in fsdp_config with gradient_checkpointing off, since the Trainer raises "can't be
    // set to True simultaneously" when `accelerate launch` brings the YAML's beside
    // gradient_checkpointing=True (trainer.py create_accelerator_and_postprocess).
    void recompute_asked_once() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, 3);
        s.training.checkpointing = Checkpointing::Full;
        QVERIFY(accelerate_fsdp_config_yaml(s).find("fsdp_activation_checkpointing: true") != std::string::npos);
        const std::string args = trainer_fsdp_arguments_text(s);
        QVERIFY(args.find("\"activation_checkpointing\": True") != std::string::npos);
        QVERIFY(args.find("gradient_checkpointing=False") != std::string::npos);
        QVERIFY(args.find("gradient_checkpointing=True") == std::string::npos);
        s.training.checkpointing = Checkpointing::None;
        QVERIFY(accelerate_fsdp_config_yaml(s).find("fsdp_activation_checkpointing: false") != std::string::npos);
        QVERIFY(trainer_fsdp_arguments_text(s).find("activation_checkpointing") == std::string::npos);
    }

    // PEFT's FSDP guide (docs/source/accelerate/fsdp.md): adapters under FSDP1 with use_orig_params
    // false, the frozen weights and the adapters in separate units, as the planner counts the
    // gradients (adapters only); full fine-tuning keeps use_orig_params true.
    void adapters_flatten_apart() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed, 3);
        s.finetune.method = FineTuneMethod::Lora;
        QVERIFY(accelerate_fsdp_config_yaml(s).find("fsdp_use_orig_params: false") != std::string::npos);
        QVERIFY(accelerate_fsdp_config_yaml(s).find("fsdp_auto_wrap_policy(model)") != std::string::npos);
        QVERIFY(trainer_fsdp_arguments_text(s).find("\"use_orig_params\": False") != std::string::npos);
        s.finetune.method = FineTuneMethod::Full;
        QVERIFY(accelerate_fsdp_config_yaml(s).find("fsdp_use_orig_params: true") != std::string::npos);
        QVERIFY(trainer_fsdp_arguments_text(s).find("\"use_orig_params\": True") != std::string::npos);
    }

    // --engine auto: the recommender plans under DeepSpeed and under FSDP and keeps the faster that
    // fits; its why names both engines' best, and the winner's candidate carries its engine.
    void engine_auto_keeps_the_faster() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed);
        s.fsdp.engine = Engine::DeepSpeed;
        s.fsdp.auto_engine = true;
        Scenario deepspeed = s, fsdp = s;
        deepspeed.fsdp.auto_engine = fsdp.fsdp.auto_engine = false;
        fsdp = with_engine(fsdp, Engine::Fsdp);
        const Plan a = recommend(deepspeed), b = recommend(fsdp), both = recommend(s);
        QVERIFY(a.feasible && b.feasible && both.feasible);
        const bool fsdp_faster = b.best.step.tokens_per_second > a.best.step.tokens_per_second / 0.98;
        QCOMPARE(int(both.best.engine), int(fsdp_faster ? Engine::Fsdp : Engine::DeepSpeed));
        QCOMPARE(both.best.step.tokens_per_second, (fsdp_faster ? b : a).best.step.tokens_per_second);
        bool named = false;
        for (const std::string& w : both.why)
            if (w.find("Engine on auto chose") != std::string::npos && w.find("DeepSpeed") != std::string::npos &&
                w.find("PyTorch FSDP") != std::string::npos)
                named = true;
        QVERIFY(named);
        QCOMPARE(int(with_candidate(s, both.best).fsdp.engine), int(both.best.engine));
        QCOMPARE(both.candidates_evaluated, a.candidates_evaluated + b.candidates_evaluated);
    }

    // A report of an FSDP plan carries its Accelerate config, not a ds_config, and names the setup
    // by FSDP's strategy.
    void report_carries_the_accelerate_config() {
        Scenario s = fsdp_llama(FsdpPrecision::Mixed);
        s.training.auto_micro_batch = false;
        const Report r = make_report(s);
        QVERIFY(r.feasible);
        QCOMPARE(QString::fromStdString(r.config_file), QStringLiteral("accelerate_config.yaml"));
        QVERIFY(r.config_text.find("distributed_type: FSDP") != std::string::npos);
        QVERIFY(r.recommended.find("SHARD") != std::string::npos);
    }

    // The session keeps the engine (version 14); a version-13 file is a DeepSpeed plan.
    void session_round_trip() {
        Scenario s = fsdp_llama(FsdpPrecision::Autocast, 2);
        s.fsdp.engine = Engine::Fsdp2;
        s.fsdp.limit_all_gathers = false;
        QVERIFY(parse_session(session_text(s), "fsdp.zplan") == s);
        nlohmann::json doc = nlohmann::json::parse(session_text(default_scenario()));
        doc["version"] = 13;
        doc.erase("engine");
        const Scenario old = parse_session(doc.dump(), "v13.zplan");
        QCOMPARE(int(old.fsdp.engine), int(Engine::DeepSpeed));
        Scenario expected = default_scenario();
        expected.job = Job::Custom;                                             // a file before version 16 chose no job
        expected.parallel.pipeline_send = PipelineSend::ScatterGather;          // before version 20: a t-th between stages
        expected.training.gradient_accumulation = GradientAccumulation::Fused;  // before version 21: no pass per micro batch
        expected.training.attention_softmax = AttentionSoftmax::Fused;          // before version 22: Megatron's fused softmax
        expected.zero.multi_rank_bucket_allreduce = false;                      // before version 26: ZeRO-2 reduce-scattered
        expected.fsdp.sync_each_batch = true;                                   // before version 30: FSDP reduced every micro step
        expected.training.reentrant_recompute = true;                           // before version 34: DeepSpeed's recompute re-entered
        QVERIFY(old == expected);
    }
};

ZP_TEST_APPLESS_MAIN(TestFsdp)
#include "tst_fsdp.moc"
