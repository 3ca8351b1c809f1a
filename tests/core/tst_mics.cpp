// MiCS (Zhang et al. arXiv 2205.00119; DeepSpeed runtime/zero/mics.py and mics_utils.py,
// mics_shard_size / mics_hierarchical_params_gather in zero/config.py): the model states over the
// shard group, the collectives inside it and across its replicas, what DeepSpeed refuses, the
// config keys both ways and the session. Covers core/model/mics.cpp, core/memory/model_states.cpp,
// core/time/step_time.cpp, core/deepspeed config export, import and lint, core/io/scenario_json.cpp.
#include "core/base/errors.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/framework_exports.h"
#include "core/deepspeed/lint.h"
#include "core/deepspeed/megatron_launch.h"
#include "core/io/scenario_json.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/layer_modules.h"
#include "core/model/mics.h"
#include "core/model/trainable_params.h"
#include "core/time/collectives.h"
#include "core/time/step_time.h"
#include "lint_diagnostics.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;
using zp::test::preset_scenario;

namespace {

// Llama-2 13B, ZeRO-3 on 4 nodes of 8 A100s, bf16 AdamW.
Scenario zero3_4x8(std::int64_t shard, bool hierarchical = false) {
    Scenario s = preset_scenario("llama-2-13b", "a100-80gb", 32);
    s.zero.stage = 3;
    s.training.micro_batch = 1;
    s.training.global_batch = 32;
    s.zero.mics_shard_size = shard;
    s.zero.mics_hierarchical_params_gather = hierarchical;
    return s;
}

double link(const Cluster& c, const QString& name) {
    if (name == QLatin1String("nvlink")) return intra_node_bus_gbytes_per_s(c);
    if (name == QLatin1String("network")) return bottleneck_gbytes_per_s(c);
    return inter_node_bus_gbytes_per_s(c);
}

}  // namespace

class TestMics : public QObject {
    Q_OBJECT
private slots:
    // mics.py MiCS_Optimizer.__init__: partition_count = param_shard_size (MiCS_Init.num_partitions
    // for the parameters): DeepSpeed's stage-3 bytes (2 + 4 + 12 per parameter, bf16 AdamW) over the
    // shard group, not over the 32 data-parallel GPUs. Below stage 3 DeepSpeed ignores the key.
    void model_states_divide_by_the_shard_group_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<qint64>("shard");
        QTest::addColumn<double>("divisor");
        QTest::newRow("mics.py: shard 8 of 32, states over 8") << 3 << qint64(8) << 8.0;
        QTest::newRow("mics.py: shard 16 of 32, states over 16") << 3 << qint64(16) << 16.0;
        QTest::newRow("shard = world: plain ZeRO-3 over 32") << 3 << qint64(32) << 32.0;
        QTest::newRow("MiCS off (DeepSpeed's -1): over 32") << 3 << qint64(1) << 32.0;
    }
    void model_states_divide_by_the_shard_group() {
        QFETCH(int, stage);
        QFETCH(qint64, shard);
        QFETCH(double, divisor);
        Scenario s = zero3_4x8(shard);
        s.zero.stage = stage;
        validate(s);
        const double P = static_cast<double>(parameter_count(s.model));
        const ModelStateBytes m = timeline_inputs(s).states;
        QCOMPARE(m.params, 2.0 * P / divisor);
        QCOMPARE(m.gradients, 4.0 * P / divisor);
        QCOMPARE(m.optimizer_states, 12.0 * P / divisor);
    }

    void stage_2_ignores_the_shard_size() {
        Scenario s = zero3_4x8(8);
        s.zero.stage = 2;
        Scenario off = s;
        off.zero.mics_shard_size = 1;
        validate(s);
        QVERIFY(!effective_mics(s).on());
        QCOMPARE(estimate_memory(s).model_states_bytes(), estimate_memory(off).model_states_bytes());
    }

    // The collectives (step_time.cpp, each with the mics.py code path in its comment): per micro
    // step, two gathers of the 16-bit weights W (forward, backward) and a reduce-scatter of the
    // gradients, inside the shard group; once a step (allreduce_mics_shard_grads returns unless
    // is_gradient_accumulation_boundary()) an all-reduce of the W/S gradient partition over the R
    // replicas, which are on other nodes. Rows: which link the gathers use.
    void collectives_run_in_the_shard_group_data() {
        QTest::addColumn<qint64>("shard");
        QTest::addColumn<bool>("hierarchical");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<QString>("shardLink");
        QTest::newRow("shard 8 = a node: gathers on NVLink, 4 replicas") << qint64(8) << false << qint64(32) << QString::fromUtf8("nvlink");
        QTest::newRow("shard 4, half a node: NVLink, 8 replicas") << qint64(4) << false << qint64(32) << QString::fromUtf8("nvlink");
        QTest::newRow("shard 8, 4 micro steps: one replica all-reduce a step")
            << qint64(8) << false << qint64(128) << QString::fromUtf8("nvlink");
        QTest::newRow("shard 16 over 2 nodes: flat gathers on the network")
            << qint64(16) << false << qint64(32) << QString::fromUtf8("network");
        QTest::newRow("mics.py _hierarchical_all_gather_params: 2 nodes, then NVLink")
            << qint64(16) << true << qint64(32) << QString::fromUtf8("hier");
        QTest::newRow("shard 32 = world: one group, no replica all-reduce")
            << qint64(32) << false << qint64(32) << QString::fromUtf8("network");
    }
    void collectives_run_in_the_shard_group() {
        QFETCH(qint64, shard);
        QFETCH(bool, hierarchical);
        QFETCH(qint64, globalBatch);
        QFETCH(QString, shardLink);
        Scenario s = zero3_4x8(shard, hierarchical);
        s.training.global_batch = globalBatch;
        validate(s);
        const Cluster& c = s.cluster;
        const double P = static_cast<double>(parameter_count(s.model)), W = 2.0 * P, S = static_cast<double>(shard);
        const double R = 32.0 / S;
        const StepTime t = estimate_step(s);
        const double G = static_cast<double>(t.gradient_accumulation_steps);
        QCOMPARE(t.gradient_accumulation_steps, globalBatch / 32);
        // A launch's latency: a group inside a node has no network hop; the replicas' ring has one
        // rank a node (ring_latency_seconds).
        const double one_node = s.assumptions.collective_latency_seconds;
        const double lat = shardLink == QLatin1String("nvlink") ? one_node : ring_latency_seconds(c, S, one_node);
        const double launches = static_cast<double>(comm_volume(P, 3, t.gradient_accumulation_steps, s.training, s.zero).collectives);
        // Forward and backward gathers, the backward's less what the forward kept (layer_modules.h).
        const Zero3Kept kept = zero3_kept_for_backward(s.model, layer_modules(s.model, s.zero).layer_params, s.training, P);
        const double gathered = (kept.forward_gather_share + kept.backward_gather_share) * W * G;
        double gathers = 0;
        if (shardLink == QLatin1String("hier"))
            gathers = allgather_seconds(gathered / 8.0, 2, inter_node_bus_gbytes_per_s(c)) +
                      allgather_seconds(gathered, 8, link(c, QStringLiteral("nvlink")));
        else gathers = allgather_seconds(gathered, S, link(c, shardLink));
        const double bus = shardLink == QLatin1String("hier") ? link(c, QStringLiteral("network")) : link(c, shardLink);
        const double reduce = reduce_scatter_seconds(W * G, S, bus);
        const double replicas =
            R > 1 ? allreduce_seconds(W / S, R, bottleneck_gbytes_per_s(c)) + ring_latency_seconds(c, R, one_node) : 0.0;
        QCOMPARE(t.comm_total_seconds, gathers + reduce + replicas + launches * lat);
        QVERIFY(t.exposed_allreduce_seconds >= 0);
        if (R == 1) QCOMPARE(t.exposed_allreduce_seconds, 0.0);
    }

    // The MiCS paper's point (its abstract: fewer participants per collective, traffic kept off the
    // slower links): gathers inside a node beat ZeRO-3's across 4 nodes.
    void a_node_sized_shard_is_faster_than_zero3_across_nodes() {
        const StepTime plain = estimate_step(zero3_4x8(1));
        const StepTime mics = estimate_step(zero3_4x8(8));
        QVERIFY(mics.exposed_allgather_seconds < plain.exposed_allgather_seconds);
        QVERIFY(mics.seconds < plain.seconds);
    }

    // What DeepSpeed asserts or cannot run, each a one-line refusal naming it; the rest accepted.
    void refusals_data() {
        QTest::addColumn<qint64>("shard");
        QTest::addColumn<bool>("hierarchical");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("error");  // empty: accepted
        QTest::newRow("_generate_mics_config: shard 12 does not divide 32")
            << qint64(12) << false << QString() << QString::fromUtf8("must divide the 32 GPUs");
        QTest::newRow("shard 64 above the world") << qint64(64) << false << QString() << QString::fromUtf8("must divide the 32 GPUs");
        QTest::newRow("shard 0") << qint64(0) << false << QString() << QString::fromUtf8("1 (off) or more");
        QTest::newRow("create_mics_comm_groups: whole-world groups, no tensor parallelism")
            << qint64(8) << false << QString::fromUtf8("tp2") << QString::fromUtf8("without tensor, pipeline and expert parallelism");
        QTest::newRow("allreduce_mics_shard_grads: no CPU offloading")
            << qint64(8) << false << QString::fromUtf8("offload") << QString::fromUtf8("Local sharding has no support");
        QTest::newRow("offload with one shard group: nothing to all-reduce")
            << qint64(32) << false << QString::fromUtf8("offload") << QString();
        QTest::newRow("MiCS replaces ZeRO++'s gathers")
            << qint64(8) << false << QString::fromUtf8("hpz") << QString::fromUtf8("do not combine");
        QTest::newRow("hierarchical within one node: mics_utils.py assert")
            << qint64(8) << true << QString() << QString::fromUtf8("sharding spans on single node");
        QTest::newRow("hierarchical over two nodes") << qint64(16) << true << QString() << QString();
        QTest::newRow("stage 2 ignores it (engine.py stage-3 branch)") << qint64(12) << true << QString::fromUtf8("stage2") << QString();
    }
    void refusals() {
        QFETCH(qint64, shard);
        QFETCH(bool, hierarchical);
        QFETCH(QString, change);
        QFETCH(QString, error);
        Scenario s = zero3_4x8(shard, hierarchical);
        if (change == QLatin1String("tp2")) s.parallel.tensor = 2;
        if (change == QLatin1String("offload")) s.zero.offload_optimizer = OffloadDevice::Cpu;
        if (change == QLatin1String("hpz")) s.zero.hpz_partition_size = 8;
        if (change == QLatin1String("stage2")) s.zero.stage = 2;
        try {
            validate(s);
            QVERIFY2(error.isEmpty(), qPrintable(QStringLiteral("accepted; expected: ") + error));
        } catch (const InputError& e) {
            QVERIFY2(!error.isEmpty() && QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }

    // Export: the keys where MiCS takes effect, as DeepSpeed spells them; import: DeepSpeed's -1
    // default (and 0) is off, a size and the hierarchical switch come back.
    void config_keys_both_ways() {
        const nlohmann::ordered_json on = deepspeed_config(zero3_4x8(16, true));
        QCOMPARE(on.at("zero_optimization").at("mics_shard_size").get<std::int64_t>(), std::int64_t{16});
        QCOMPARE(on.at("zero_optimization").at("mics_hierarchical_params_gather").get<bool>(), true);
        const nlohmann::ordered_json off = deepspeed_config(zero3_4x8(1));
        QVERIFY(!off.at("zero_optimization").contains("mics_shard_size"));
        Scenario stage2 = zero3_4x8(8);
        stage2.zero.stage = 2;
        QVERIFY(!deepspeed_config(stage2).at("zero_optimization").contains("mics_shard_size"));

        const Scenario base = zero3_4x8(8, false);
        const Scenario back = apply_ds_config(nlohmann::json::parse(deepspeed_config_text(zero3_4x8(16, true))), zero3_4x8(1));
        QCOMPARE(back.zero.mics_shard_size, std::int64_t{16});
        QVERIFY(back.zero.mics_hierarchical_params_gather);
        const auto import = [&](const char* text) { return apply_ds_config(nlohmann::json::parse(text), base).zero.mics_shard_size; };
        QCOMPARE(import(R"({"zero_optimization": {"stage": 3, "mics_shard_size": -1}})"), std::int64_t{1});
        QCOMPARE(import(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 0}})"), std::int64_t{1});
        QCOMPARE(import(R"({"zero_optimization": {"stage": 3}})"), std::int64_t{8});  // absent: the scenario's own
    }

    // mics.py MiCS_Optimizer asserts parameters built under MiCS_Init, not plain zero.Init, which
    // transformers (once TrainingArguments or Accelerate's zero3_init_flag registers the config) and
    // Megatron-DeepSpeed's pretrain_gpt.py use at stage 3: the exports say how to avoid it.
    void exports_keep_zero_init_away() {
        const Scenario on = zero3_4x8(8);
        QVERIFY(effective_mics(on).on());
        QVERIFY(accelerate_config_yaml(on).find("zero3_init_flag: false") != std::string::npos);
        QVERIFY(hf_training_arguments_text(on, {}, "ds_config_hf.json").find("load the model before creating TrainingArguments") !=
                std::string::npos);
        QVERIFY(megatron_launch_script(on).find("deepspeed.zero.MiCS_Init") != std::string::npos);
        const Scenario off = zero3_4x8(1);
        QVERIFY(accelerate_config_yaml(off).find("zero3_init_flag: true") != std::string::npos);
        QVERIFY(hf_training_arguments_text(off, {}, "ds_config_hf.json").find("MiCS") == std::string::npos);
        QVERIFY(megatron_launch_script(off).find("MiCS") == std::string::npos);
    }

    // Session format 11 (core/io/session_version.h): both fields are written and read back; a
    // version-10 file has MiCS off (tst_session frozen_version_10).
    void session_keeps_mics() {
        const Scenario s = zero3_4x8(16, true);
        const nlohmann::json j = scenario_to_json(s);
        QCOMPARE(j.at("zero").at("mics_shard_size").get<std::int64_t>(), std::int64_t{16});
        QVERIFY(j.at("zero").at("mics_hierarchical_params_gather").get<bool>());
        QCOMPARE(scenario_from_json(j, "mics.zplan").zero, s.zero);
        const nlohmann::json plain = scenario_to_json(zero3_4x8(1));
        QCOMPARE(plain.at("zero").at("mics_shard_size").get<std::int64_t>(), std::int64_t{1});
        QVERIFY(!plain.at("zero").at("mics_hierarchical_params_gather").get<bool>());
    }

    // The linter: the keys' types, where DeepSpeed ignores or refuses them, and with --gpus-per-node
    // whether a shard group spans nodes.
    void lint_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<qint64>("world");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<QString>("severity");  // "none": no error or warning on the path
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");
        const QString mics = QStringLiteral("zero_optimization.mics_shard_size");
        const QString hier = QStringLiteral("zero_optimization.mics_hierarchical_params_gather");
        QTest::newRow("zero/config.py: -1 is the default, off")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": -1}})") << qint64(32) << qint64(8)
            << QString::fromUtf8("none") << mics << QString();
        QTest::newRow("pydantic int: text that is no whole number is refused")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": "eight"}})") << qint64(0) << qint64(0)
            << QString::fromUtf8("error") << mics << QString::fromUtf8("must be an integer");
        QTest::newRow("pydantic lax int: \"8\" is read as 8")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": "8"}})") << qint64(0) << qint64(0)
            << QString::fromUtf8("info") << mics << QString::fromUtf8("DeepSpeed reads it as the number");
        QTest::newRow("pydantic bool: hierarchical must be true or false")
            << QString::fromUtf8(
                   R"({"zero_optimization": {"stage": 3, "mics_shard_size": 16, "mics_hierarchical_params_gather": "maybe"}})")
            << qint64(0) << qint64(0) << QString::fromUtf8("error") << hier << QString::fromUtf8("must be true or false");
        QTest::newRow("pydantic lax bool: 1 is true")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 16, "mics_hierarchical_params_gather": 1}})")
            << qint64(0) << qint64(0) << QString::fromUtf8("info") << hier << QString::fromUtf8("DeepSpeed reads it as true");
        QTest::newRow("engine.py: ignored below stage 3")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 2, "mics_shard_size": 8}})") << qint64(32) << qint64(0)
            << QString::fromUtf8("warning") << mics << QString::fromUtf8("works only at stage 3");
        QTest::newRow("_generate_mics_config: 12 does not divide 32")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 12}})") << qint64(32) << qint64(0)
            << QString::fromUtf8("error") << mics << QString::fromUtf8("does not divide the world size 32");
        QTest::newRow("8 divides 32") << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 8}})") << qint64(32)
                                      << qint64(0) << QString::fromUtf8("none") << mics << QString();
        QTest::newRow("shard 8 on nodes of 8: inside a node")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 8}})") << qint64(32) << qint64(8)
            << QString::fromUtf8("info") << mics << QString::fromUtf8("stay inside a node of 8");
        QTest::newRow("shard 16 on nodes of 8: spans 2 nodes")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 16}})") << qint64(32) << qint64(8)
            << QString::fromUtf8("info") << mics << QString::fromUtf8("span 2 nodes");
        QTest::newRow("shard 3 on nodes of 8: straddles nodes")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 3}})") << qint64(0) << qint64(8)
            << QString::fromUtf8("warning") << mics << QString::fromUtf8("straddle the nodes of 8");
        QTest::newRow("mics_utils.py: hierarchical inside one node asserts")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 8, "mics_hierarchical_params_gather": true}})")
            << qint64(32) << qint64(8) << QString::fromUtf8("error") << hier << QString::fromUtf8("sharding spans on single node");
        QTest::newRow("hierarchical over 2 nodes")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 16, "mics_hierarchical_params_gather": true}})")
            << qint64(32) << qint64(8) << QString::fromUtf8("none") << hier << QString();
        QTest::newRow("mics.py: no CPU offloading across replicas")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 8, "offload_optimizer": {"device": "cpu"}}})")
            << qint64(32) << qint64(0) << QString::fromUtf8("error") << mics
            << QString::fromUtf8("Local sharding has no support for CPU offloading");
        QTest::newRow("shard 1: MiCS on, nothing sharded")
            << QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "mics_shard_size": 1}})") << qint64(0) << qint64(0)
            << QString::fromUtf8("warning") << mics << QString::fromUtf8("groups of one GPU");
        QTest::newRow("with ZeRO++") << QString::fromUtf8(
                                            R"({"zero_optimization": {"stage": 3, "mics_shard_size": 8, "zero_quantized_weights": true}})")
                                     << qint64(0) << qint64(0) << QString::fromUtf8("warning") << mics
                                     << QString::fromUtf8("neither quantizes");
    }
    void lint() {
        QFETCH(QString, config);
        QFETCH(qint64, world);
        QFETCH(qint64, gpusPerNode);
        QFETCH(QString, severity);
        QFETCH(QString, path);
        QFETCH(QString, text);
        LintContext ctx;
        if (gpusPerNode > 0) ctx.gpus_per_node = gpusPerNode;
        const LintResult r =
            lint_ds_config(config.toStdString(), world > 0 ? std::optional<std::int64_t>(world) : std::nullopt, "ds_config.json", {}, ctx);
        if (severity == QLatin1String("none")) {
            QVERIFY2(!has_diagnostic(r, QStringLiteral("error"), path, QString()) &&
                         !has_diagnostic(r, QStringLiteral("warning"), path, QString()),
                     diagnostics_json(r).dump().c_str());
        } else {
            QVERIFY2(has_diagnostic(r, severity, path, text), diagnostics_json(r).dump().c_str());
        }
    }

    // The window's shard sizes: off, then every divisor of the GPUs.
    void shard_sizes_divide_the_world() {
        Cluster c;
        c.nodes = 3;
        c.gpus_per_node = 8;
        QCOMPARE(mics_shard_sizes(c), (std::vector<std::int64_t>{1, 2, 3, 4, 6, 8, 12, 24}));
    }
};

ZP_TEST_APPLESS_MAIN(TestMics)
#include "tst_mics.moc"
