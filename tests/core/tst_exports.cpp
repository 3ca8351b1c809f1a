// Every export format for every stage and offload combination: allowed keys, integer types,
// the batch rule, stage-specific keys, "auto" where transformers fills it, and the round trip
// export -> lint (no error, no warning) -> import restores the setup.
// Covers core/deepspeed/config_export.cpp and core/deepspeed/framework_exports.cpp (HF Trainer,
// Accelerate, launch script), with core/deepspeed/config_import.cpp and lint.cpp as oracles.
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/framework_exports.h"
#include "core/deepspeed/fsdp_lint.h"
#include "core/deepspeed/lint.h"
#include "core/deepspeed/megatron_launch.h"
#include "core/deepspeed/peft_export.h"
#include "core/memory/host_memory.h"
#include "core/model/deepspeed_release.h"
#include "core/model/param_swap_buffers.h"
#include "core/presets/default_scenario.h"
#include "core/presets/job_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include <yaml-cpp/yaml.h>
#include "test_main.h"

using namespace zp;

namespace {
Scenario with(const ZeroSetup& z, Precision p, std::int64_t nodes) {
    Scenario s = with_setup(default_scenario(), z);
    s.cluster.nodes = nodes;
    s.training.precision = p;
    s.training.micro_batch = 2;
    s.training.global_batch = 2 * 4 * s.cluster.world_size();
    return s;
}
// Llama-3-8B (32 heads, 8 key/value heads) at 32k tokens under ZeRO-3 with DeepSpeed-Ulysses `sp` on
// `gpus` GPUs, micro batch 1: the README's long-context example.
Scenario ulysses(std::int64_t gpus, std::int64_t sp, bool flash) {
    Scenario s = default_scenario();
    s.model = model_preset("llama-3-8b").spec;
    s.cluster.nodes = gpus / s.cluster.gpus_per_node;
    if (gpus < s.cluster.gpus_per_node) {
        s.cluster.nodes = 1;
        s.cluster.gpus_per_node = gpus;
    }
    s.zero.stage = 3;
    s.parallel.ulysses = sp;
    s.training.seq_len = 32768;
    s.training.micro_batch = 1;
    s.training.auto_micro_batch = false;
    s.training.global_batch = 4 * data_parallel_size(s);
    s.training.flash_attention = flash;
    return s;
}
std::string findings(const LintResult& r) {
    std::string out;
    for (const Diagnostic& d : r.diagnostics)
        if (d.severity != Severity::Info) out += d.path + ": " + d.message + "; ";
    return out;
}
void all_integers_are_integers(const nlohmann::ordered_json& j, const std::string& path) {
    for (const auto& [k, v] : j.items()) {
        const std::string full = path.empty() ? k : path + "." + k;
        if (v.is_object()) all_integers_are_integers(v, full);
        if (v.is_number_float() && k != "gradient_clipping" && path.rfind("optimizer", 0) != 0)
            QFAIL(qPrintable(QString::fromStdString("float where DeepSpeed wants an integer: " + full + " = " + v.dump())));
    }
}
}  // namespace

class TestExports : public QObject {
    Q_OBJECT
private slots:
    // The optimizer and loss kernels (issue 13): torch.optim means no "optimizer" block, so the
    // Hugging Face Trainer passes its own (optim="adamw_torch"); a chunked loss is Trainer's
    // use_liger_kernel. Offload keeps the block: DeepSpeed's CPU Adam runs the step.
    void optimizer_and_loss_kernels_data() {
        QTest::addColumn<bool>("fused");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("offload");
        QTest::addColumn<bool>("block");
        QTest::newRow("DeepSpeed FusedAdam, full loss") << true << int(LossKernel::Full) << int(OffloadDevice::None) << true;
        QTest::newRow("torch.optim, Liger loss") << false << int(LossKernel::Chunked) << int(OffloadDevice::None) << false;
        QTest::newRow("torch.optim asked, CPU offload: CPU Adam") << false << int(LossKernel::Full) << int(OffloadDevice::Cpu) << true;
    }
    // engine.py _configure_basic_optimizer: "torch_adam": true, Adagrad and SGD are torch.optim.
    void import_reads_whose_optimizer_kernel_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<bool>("fused");
        QTest::newRow("AdamW: FusedAdam") << QStringLiteral(R"({"optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}})") << true;
        QTest::newRow("torch_adam") << QStringLiteral(R"({"optimizer": {"type": "AdamW", "params": {"torch_adam": true}}})") << false;
        QTest::newRow("Adagrad: torch.optim") << QStringLiteral(R"({"optimizer": {"type": "Adagrad"}})") << false;
        QTest::newRow("no block: the client's") << QStringLiteral(R"({"train_batch_size": 64})") << false;
    }
    void import_reads_whose_optimizer_kernel() {
        QFETCH(QString, config);
        QFETCH(bool, fused);
        QCOMPARE(apply_ds_config(nlohmann::json::parse(config.toStdString()), default_scenario()).training.fused_optimizer, fused);
    }

    // pin_memory comes from a block that offloads: a "device": "none" block pins nothing, and when
    // both offload the optimizer's decides.
    void import_reads_pin_memory_from_offloading_blocks_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<bool>("pinned");
        QTest::newRow("parameters on the CPU, pinned; optimizer block none and unpinned")
            << QStringLiteral(R"({"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": true},
                                  "offload_optimizer": {"device": "none", "pin_memory": false}}})")
            << true;
        QTest::newRow("both offloaded: the optimizer's decides")
            << QStringLiteral(R"({"zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "pin_memory": true},
                                  "offload_param": {"device": "cpu", "pin_memory": false}}})")
            << true;
        QTest::newRow("parameters only, pageable")
            << QStringLiteral(R"({"zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": false}}})") << false;
    }
    void import_reads_pin_memory_from_offloading_blocks() {
        QFETCH(QString, config);
        QFETCH(bool, pinned);
        QCOMPARE(apply_ds_config(nlohmann::json::parse(config.toStdString()), default_scenario()).zero.pin_memory, pinned);
    }

    // DeepSpeed's deprecated boolean zero_optimization (runtime/zero/config.py
    // read_zero_config_deprecated): true is stage 1 with the top-level allgather_size as its
    // allgather bucket, false stage 0; the import planned the scenario's own stage (ZeRO-2).
    void import_reads_the_boolean_zero_optimization_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("allgather");
        QTest::newRow("true, allgather_size 2e8") << QStringLiteral(R"({"zero_optimization": true, "allgather_size": 2e8})") << 1 << 2e8;
        QTest::newRow("true, DeepSpeed's 5e8") << QStringLiteral(R"({"zero_optimization": true})") << 1 << 5e8;
        QTest::newRow("false") << QStringLiteral(R"({"zero_optimization": false})") << 0 << default_scenario().zero.allgather_bucket_elems;
    }
    void import_reads_the_boolean_zero_optimization() {
        QFETCH(QString, config);
        QFETCH(int, stage);
        QFETCH(double, allgather);
        const Scenario s = apply_ds_config(nlohmann::json::parse(config.toStdString()), default_scenario());
        QCOMPARE(s.zero.stage, stage);
        QCOMPARE(s.zero.allgather_bucket_elems, allgather);
    }

    // A file that names no stage runs stage 0 (runtime/zero/config.py get_zero_config: no block is an
    // empty one, `stage: ZeroStageEnum = 0`), whatever the scenario planned before; a stage written
    // in a form the import does not read ("auto") keeps the scenario's (lint refuses it).
    void import_reads_a_missing_stage_as_zero_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("file_sets_stage");
        QTest::newRow("no zero_optimization block")
            << QStringLiteral(R"({"train_batch_size": 64, "bf16": {"enabled": true}})") << 0 << true;
        QTest::newRow("a block without stage, offload named")
            << QStringLiteral(R"({"zero_optimization": {"offload_optimizer": {"device": "cpu"}}})") << 0 << true;
        QTest::newRow("stage 2") << QStringLiteral(R"({"zero_optimization": {"stage": 2}})") << 2 << true;
        QTest::newRow("stage \"auto\": the scenario's") << QStringLiteral(R"({"zero_optimization": {"stage": "auto"}})") << 3 << false;
    }
    void import_reads_a_missing_stage_as_zero() {
        QFETCH(QString, config);
        QFETCH(int, stage);
        QFETCH(bool, file_sets_stage);
        Scenario before = default_scenario();
        before.zero.stage = 3;
        before.zero.offload_optimizer = before.zero.offload_param = OffloadDevice::Cpu;
        const nlohmann::json file = nlohmann::json::parse(config.toStdString());
        const Scenario s = apply_ds_config(file, before);
        QCOMPARE(s.zero.stage, stage);
        if (stage == 0) {
            QCOMPARE(s.zero.offload_optimizer, OffloadDevice::None);  // stage 0 offloads nothing
            QCOMPARE(s.zero.offload_param, OffloadDevice::None);
        }
        QCOMPARE(ds_config_sets(file).zero, file_sets_stage);
    }

    // DeepSpeed's bf16 block with both low-precision keys (runtime/precision_config.py, PR #7700):
    // imported as the planner's one switch only when both are on (the master weights alone run
    // with ZeRO-Offload, which the planner does not model).
    void import_reads_bf16_master_weights_data() {
        QTest::addColumn<QString>("bf16");
        QTest::addColumn<bool>("on");
        QTest::newRow("both keys") << QStringLiteral(
                                          R"({"enabled": true, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true})")
                                   << true;
        QTest::newRow("master weights alone") << QStringLiteral(R"({"enabled": true, "bf16_master_weights_and_grads": true})") << false;
        QTest::newRow("bf16 off") << QStringLiteral(
                                         R"({"enabled": false, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true})")
                                  << false;
        QTest::newRow("plain bf16") << QStringLiteral(R"({"enabled": true})") << false;
    }
    void import_reads_bf16_master_weights() {
        QFETCH(QString, bf16);
        QFETCH(bool, on);
        const std::string config = R"({"zero_optimization": {"stage": 3}, "bf16": )" + bf16.toStdString() + "}";
        QCOMPARE(apply_ds_config(nlohmann::json::parse(config), default_scenario()).zero.bf16_master_weights, on);
    }
    // Exported, the switch is both keys in the bf16 block; the config lints clean and imports back.
    void bf16_master_weights_round_trip() {
        Scenario s = default_scenario();
        s.zero.stage = 3;
        s.zero.bf16_master_weights = true;
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds.at("bf16").at("bf16_master_weights_and_grads"), true);
        QCOMPARE(ds.at("bf16").at("bf16_optimizer_states"), true);
        QCOMPARE(hf_trainer_config(s).at("bf16").at("bf16_optimizer_states"), true);
        const LintResult r = lint_ds_config(ds.dump(2), s.cluster.world_size());
        QVERIFY(!r.has_errors());
        for (const auto& d : r.diagnostics) QVERIFY2(d.path.rfind("bf16.", 0) != 0, d.message.c_str());  // modelled: no info either
        QVERIFY(apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario()).zero.bf16_master_weights);
    }

    void optimizer_and_loss_kernels() {
        QFETCH(bool, fused);
        QFETCH(int, kernel);
        QFETCH(int, offload);
        QFETCH(bool, block);
        Scenario s = default_scenario();
        s.zero.stage = 2;
        s.training.fused_optimizer = fused;
        s.training.loss_kernel = static_cast<LossKernel>(kernel);
        s.zero.offload_optimizer = static_cast<OffloadDevice>(offload);
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds.contains("optimizer"), block);
        QCOMPARE(hf_trainer_config(s).contains("optimizer"), block);
        QCOMPARE(apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario()).training.fused_optimizer, block);
        const QString args = QString::fromStdString(hf_training_arguments_text(s, ExportOptions{}, "ds_config.json"));
        QCOMPARE(args.contains(QStringLiteral("optim=\"adamw_torch\"")), !block);
        QCOMPARE(args.contains(QStringLiteral("use_liger_kernel=True")), kernel == int(LossKernel::Chunked));
        QVERIFY(!lint_ds_config(ds.dump(2), s.cluster.world_size()).has_errors());
    }

    // ZeRO (stage >= 1) asserts at initialize for an optimizer outside zero/utils.py
    // ZERO_SUPPORTED_OPTIMIZERS unless zero_allow_untested_optimizer (engine.py
    // _do_optimizer_sanity_check): LAMB (FusedLamb) and SGD (torch.optim.SGD) carry it, Adam, Lion
    // (FusedLion) and Adagrad do not need it; each export lints clean. The Trainer's config leaves
    // "auto" only where transformers fills it (lr, betas, eps, weight_decay: SGD's momentum stays
    // 0.9), and its adam_beta2 is Lion's 0.99 for Lion, which it copies into the "auto" betas.
    void untested_optimizers_under_zero_data() {
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("utils.py: LAMB at ZeRO-2") << int(Optimizer::Lamb) << 2 << true;
        QTest::newRow("utils.py: SGD with momentum at ZeRO-1") << int(Optimizer::SgdMomentum) << 1 << true;
        QTest::newRow("utils.py: SGD at ZeRO-3") << int(Optimizer::Sgd) << 3 << true;
        QTest::newRow("utils.py: SGD at ZeRO-0 (no ZeRO: no check)") << int(Optimizer::Sgd) << 0 << false;
        QTest::newRow("utils.py: AdamW (FusedAdam)") << int(Optimizer::AdamW) << 2 << false;
        QTest::newRow("utils.py: Lion (FusedLion)") << int(Optimizer::Lion) << 2 << false;
        QTest::newRow("utils.py: Adagrad") << int(Optimizer::Adagrad) << 2 << false;
    }
    void untested_optimizers_under_zero() {
        QFETCH(int, optimizer);
        QFETCH(int, stage);
        QFETCH(bool, allowed);
        Scenario s = default_scenario();
        s.zero.stage = stage;
        s.training.optimizer = static_cast<Optimizer>(optimizer);
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds.contains("zero_allow_untested_optimizer"), allowed);
        QVERIFY2(!lint_ds_config(ds.dump(2), s.cluster.world_size()).has_errors(), ds.dump(2).c_str());
        const nlohmann::ordered_json hf = hf_trainer_config(s);
        if (hf.contains("optimizer"))
            for (const auto& [key, value] : hf["optimizer"]["params"].items())
                QVERIFY2(value != "auto" || key == "lr" || key == "betas" || key == "eps" || key == "weight_decay", key.c_str());
        const QString args = QString::fromStdString(hf_training_arguments_text(s, ExportOptions{}, "ds_config.json"));
        QVERIFY(args.contains(s.training.optimizer == Optimizer::Lion ? QStringLiteral("adam_beta2=0.99,")
                                                                      : QStringLiteral("adam_beta2=0.95,")));
    }

    // DeepSpeed's BF16_Optimizer at ZeRO-1 needs fp32 gradient accumulation said in the config
    // (engine.py _do_optimizer_sanity_check, get_data_types): written at stage 1 without offload,
    // read back by the import; not at stage 2 (ZeRO's own optimizer) or under offload.
    void bf16_optimizer_grad_accum_dtype_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("offload");
        QTest::addColumn<bool>("written");
        QTest::newRow("engine.py: ZeRO-1, BFLOAT16") << 1 << int(OffloadDevice::None) << true;
        QTest::newRow("engine.py: ZeRO-1 with CPU offload, ZeRO's") << 1 << int(OffloadDevice::Cpu) << false;
        QTest::newRow("engine.py: ZeRO-2, ZeRO's") << 2 << int(OffloadDevice::None) << false;
    }
    void bf16_optimizer_grad_accum_dtype() {
        QFETCH(int, stage);
        QFETCH(int, offload);
        QFETCH(bool, written);
        Scenario s = default_scenario();
        s.zero.stage = stage;
        s.zero.offload_optimizer = static_cast<OffloadDevice>(offload);
        s.training.gradient_accumulation = GradientAccumulation::Bf16Optimizer;
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds.contains("data_types"), written);
        if (written) QCOMPARE(ds["data_types"]["grad_accum_dtype"].get<std::string>(), std::string("fp32"));
        QVERIFY(!lint_ds_config(ds.dump(2), s.cluster.world_size()).has_errors());
        const Scenario back = apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario());
        QCOMPARE(back.training.gradient_accumulation == GradientAccumulation::Bf16Optimizer, written);
    }

    void every_setup_data() {
        QTest::addColumn<int>("setup");
        QTest::addColumn<int>("precision");
        QTest::addColumn<qint64>("nodes");
        for (std::size_t i = 0; i < zero_setups().size(); ++i)
            for (Precision p : {Precision::Bf16, Precision::Fp16, Precision::Fp32})
                for (qint64 nodes : {1, 4}) {
                    if (p == Precision::Fp32 && zero_setups()[i].offload_optimizer != OffloadDevice::None) continue;
                    QTest::newRow(qPrintable(QStringLiteral("%1 %2 %3 nodes")
                                                 .arg(QString::fromStdString(setup_label(zero_setups()[i])), QLatin1String(to_string(p)))
                                                 .arg(nodes)))
                        << int(i) << int(p) << nodes;
                }
    }
    void every_setup() {
        QFETCH(int, setup);
        QFETCH(int, precision);
        QFETCH(qint64, nodes);
        const ZeroSetup& z = zero_setups()[static_cast<std::size_t>(setup)];
        const Scenario s = with(z, static_cast<Precision>(precision), nodes);
        const nlohmann::ordered_json ds = deepspeed_config(s);
        all_integers_are_integers(ds, "");
        // The scenario asks for micro batch 2 and 4 accumulation steps on 8 GPUs per node.
        QCOMPARE(ds["train_micro_batch_size_per_gpu"].get<std::int64_t>(), std::int64_t(2));
        QCOMPARE(ds["gradient_accumulation_steps"].get<std::int64_t>(), std::int64_t(4));
        QCOMPARE(ds["train_batch_size"].get<std::int64_t>(), std::int64_t(2 * 4 * 8 * nodes));
        const auto& zo = ds["zero_optimization"];
        QCOMPARE(zo.contains("stage3_prefetch_bucket_size"), z.stage == 3);
        QCOMPARE(zo.contains("offload_param"), z.offload_param != OffloadDevice::None);
        for (const char* sub : {"offload_param", "offload_optimizer"})
            if (zo.contains(sub) && zo[sub]["device"] == "nvme") QVERIFY(zo[sub].contains("nvme_path"));
        QCOMPARE(ds.contains("aio"), z.offload_optimizer == OffloadDevice::Nvme || z.offload_param == OffloadDevice::Nvme);
        QVERIFY(!(ds.contains("fp16") && ds.contains("bf16")));

        // Round trip: lints clean for its own world size, and importing restores the setup.
        const LintResult r = lint_ds_config(ds.dump(2), s.cluster.world_size());
        QVERIFY2(!r.has_errors() && !r.has_warnings(), qPrintable(QString::fromStdString(diagnostics_json(r).dump(2))));
        const Scenario back = apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario());
        QCOMPARE(back.zero.stage, z.stage);
        QCOMPARE(back.zero.offload_optimizer, z.offload_optimizer);
        QCOMPARE(back.zero.offload_param, z.offload_param);
        QCOMPARE(back.zero.overlap_comm, s.zero.stage == 0 ? default_scenario().zero.overlap_comm : s.zero.overlap_comm);
        QCOMPARE(back.training.micro_batch, s.training.micro_batch);
        QCOMPARE(back.training.global_batch, s.training.global_batch);
        QCOMPARE(back.training.precision, s.training.precision);
        QCOMPARE(back.training.optimizer, s.training.optimizer);
        QCOMPARE(back.training.fused_optimizer, s.training.fused_optimizer);

        // Hugging Face: "auto" exactly where transformers fills it.
        const nlohmann::ordered_json hf = hf_trainer_config(s);
        for (const char* k : {"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "gradient_clipping"})
            QCOMPARE(hf[k], nlohmann::ordered_json("auto"));
        for (const auto& [k, v] : hf["optimizer"]["params"].items()) QCOMPARE(v, nlohmann::ordered_json("auto"));
        QCOMPARE(hf["zero_optimization"].value("stage3_prefetch_bucket_size", nlohmann::ordered_json()) == "auto", z.stage == 3);
        QCOMPARE(hf["zero_optimization"].value("stage3_max_live_parameters", nlohmann::ordered_json()) == "auto", false);

        // Accelerate: the keys `accelerate config` writes for a ds_config file, sorted. Its own ZeRO
        // keys would build a ds_config without the plan's overlap_comm, buckets, ZeRO++ and MiCS
        // (DeepSpeedPlugin.__post_init__), so the block points at the plan's file.
        const YAML::Node y = YAML::Load(accelerate_config_yaml(s));
        QCOMPARE(y["distributed_type"].as<std::string>(), std::string("DEEPSPEED"));
        QCOMPARE(y["num_processes"].as<std::int64_t>(), s.cluster.world_size());
        QCOMPARE(y["num_machines"].as<std::int64_t>(), nodes);
        QCOMPARE(y["deepspeed_config"]["deepspeed_config_file"].as<std::string>(), std::string("ds_config.json"));
        QVERIFY(!y["deepspeed_config"]["zero_stage"].IsDefined() && !y["mixed_precision"].IsDefined());
        QCOMPARE(y["deepspeed_config"]["zero3_init_flag"].as<bool>(), z.stage == 3 && s.zero.zero_init);
        QCOMPARE(accelerate_config_yaml(s).find("DummyOptim") != std::string::npos, ds.contains("optimizer"));
        std::vector<std::string> keys;
        for (const auto& kv : y) keys.push_back(kv.first.as<std::string>());
        QVERIFY(std::is_sorted(keys.begin(), keys.end()));
        // And Accelerate reads it without a finding (lint_accelerate_config: distributed_type DEEPSPEED).
        const LintResult yr = lint_accelerate_config(accelerate_config_yaml(s), "accelerate_config.yaml", lint_context_of(s));
        QVERIFY2(findings(yr).empty(), findings(yr).c_str());

        const std::string launch = launch_script(s);
        if (nodes == 1) QVERIFY(launch.find("deepspeed --num_gpus 8 train.py --deepspeed ds_config.json") != std::string::npos);
        else
            QVERIFY(launch.find("node-3 slots=8") != std::string::npos &&
                    launch.find("--hostfile hostfile --num_nodes 4") != std::string::npos);
    }

    // DeepSpeed-Ulysses under the Hugging Face stack, exported and linted back (the anchor
    // long_context.md section 4): the ds_config (DS-TUT's sequence_parallel_size; AT-USAGE's
    // "seq_parallel_communication_data_type": 'bf16'), Accelerate's YAML (ACC-SP: the
    // parallelism_config block, deepspeed_config_file) and the Trainer's ParallelismConfig (TF-ALST).
    // Every one lints clean, and the ds_config imports back to its degree.
    void sequence_parallel_round_trip_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("sp");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<QString>("attention");
        QTest::newRow("ACC-SP: 2 GPUs, sp 2, sdpa") << qint64(2) << qint64(2) << false << QStringLiteral("sdpa");
        QTest::newRow("HF-BLOG: 4 GPUs, sp 2 x dp_shard 2, flash_attention_2")
            << qint64(4) << qint64(2) << true << QStringLiteral("flash_attention_2");
        QTest::newRow("HF-BLOG: 4 GPUs, sp 4, flash_attention_2") << qint64(4) << qint64(4) << true << QStringLiteral("flash_attention_2");
        QTest::newRow("8 GPUs, sp 4 x dp_shard 2, sdpa") << qint64(8) << qint64(4) << false << QStringLiteral("sdpa");
        QTest::newRow("AT-USAGE: one node, sp 8, flash_attention_2")
            << qint64(8) << qint64(8) << true << QStringLiteral("flash_attention_2");
        QTest::newRow("two nodes, sp 8 x dp_shard 2, sdpa") << qint64(16) << qint64(8) << false << QStringLiteral("sdpa");
        QTest::newRow("four nodes, sp 8 x dp_shard 4, flash_attention_2")
            << qint64(32) << qint64(8) << true << QStringLiteral("flash_attention_2");
    }
    void sequence_parallel_round_trip() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, sp);
        QFETCH(bool, flash);
        QFETCH(QString, attention);
        const Scenario s = ulysses(gpus, sp, flash);
        const std::int64_t dp = gpus / sp;

        // ds_config: the degree and the bf16 gradient reduction; clean for its world; imports back.
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds.at("sequence_parallel_size").get<std::int64_t>(), std::int64_t(sp));
        QCOMPARE(ds.at("seq_parallel_communication_data_type"), nlohmann::ordered_json("bf16"));
        const LintResult dsr = lint_ds_config(ds.dump(2), gpus, "ds_config.json", std::nullopt, lint_context_of(s));
        QVERIFY2(!dsr.has_errors() && !dsr.has_warnings() && dsr.diagnostics.empty(),
                 qPrintable(QString::fromStdString(diagnostics_json(dsr).dump(2))));
        const Scenario back = apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario());
        QCOMPARE(back.parallel.ulysses, std::int64_t(sp));
        QCOMPARE(back.training.precision, Precision::Bf16);
        QCOMPARE(back.zero.stage, 3);

        // Accelerate (ACC-SP): the parallelism_config block, the ds_config by file, no mixed_precision
        // and none of Accelerate's own ZeRO keys beside it.
        const std::string text = accelerate_config_yaml(s);
        const YAML::Node y = YAML::Load(text);
        QCOMPARE(y["distributed_type"].as<std::string>(), std::string("DEEPSPEED"));
        QCOMPARE(y["num_processes"].as<std::int64_t>(), std::int64_t(gpus));
        QCOMPARE(y["deepspeed_config"]["deepspeed_config_file"].as<std::string>(), std::string("ds_config.json"));
        // and zero3_init_flag; across nodes the launcher and its hostfile (utils/launch.py
        // prepare_deepspeed_cmd_env: without them DeepSpeed runs on the local node only)
        const bool nodes = s.cluster.nodes > 1;
        QCOMPARE(y["deepspeed_config"].size(), std::size_t(nodes ? 4 : 2));
        if (nodes) {
            QCOMPARE(y["deepspeed_config"]["deepspeed_hostfile"].as<std::string>(), std::string("hostfile"));
            QCOMPARE(y["deepspeed_config"]["deepspeed_multinode_launcher"].as<std::string>(), std::string("pdsh"));
        }
        QVERIFY(!y["mixed_precision"]);
        const YAML::Node p = y["parallelism_config"];
        QCOMPARE(p.size(), std::size_t(6));
        QCOMPARE(p["parallelism_config_dp_replicate_size"].as<std::int64_t>(), std::int64_t(1));
        QCOMPARE(p["parallelism_config_dp_shard_size"].as<std::int64_t>(), dp);
        QCOMPARE(p["parallelism_config_sp_size"].as<std::int64_t>(), std::int64_t(sp));
        QCOMPARE(p["parallelism_config_sp_backend"].as<std::string>(), std::string("deepspeed"));
        QCOMPARE(p["parallelism_config_sp_seq_length_is_variable"].as<bool>(), true);
        QCOMPARE(QString::fromStdString(p["parallelism_config_sp_attn_implementation"].as<std::string>()), attention);
        // The command-line and environment forms in the comments (ACC-SP).
        const QString comments = QString::fromStdString(text);
        for (const QString& wanted :
             {QStringLiteral("--parallelism-config-sp-size %1").arg(sp), QStringLiteral("PARALLELISM_CONFIG_SP_BACKEND=deepspeed"),
              QStringLiteral("PARALLELISM_CONFIG_SP_SEQ_LENGTH_IS_VARIABLE=true"),
              QStringLiteral("PARALLELISM_CONFIG_SP_ATTN_IMPLEMENTATION=%1").arg(attention),
              QStringLiteral("deepspeed>=0.18.2 accelerate>=1.12")})
            QVERIFY2(comments.contains(wanted), qPrintable(wanted));
        // Round trip: what the export writes lints clean, with the model's heads.
        QVERIFY(is_accelerate_deepspeed_config(text));
        const LintResult r = lint_accelerate_config(text, "accelerate_config.yaml", lint_context_of(s));
        QVERIFY2(findings(r).empty() && !r.has_errors(), findings(r).c_str());

        // TrainingArguments (TF-ALST): the ParallelismConfig, passed on, and the padding.
        const QString py = QString::fromStdString(hf_training_arguments_text(s));
        for (const QString& wanted :
             {QStringLiteral("from accelerate.utils import DeepSpeedSequenceParallelConfig, ParallelismConfig"),
              QStringLiteral("    sp_backend=\"deepspeed\",\n    sp_size=%1,\n    dp_shard_size=%2,").arg(sp).arg(dp),
              QStringLiteral("        sp_seq_length_is_variable=True,\n        sp_attn_implementation=\"%1\",").arg(attention),
              QStringLiteral("    parallelism_config=parallelism_config,\n"), QStringLiteral("pad_to_multiple_of=%1").arg(sp),
              QStringLiteral("deepspeed>=0.18.2 accelerate>=1.12 transformers>=5.0"), QStringLiteral("trl>=0.18.0")})
            QVERIFY2(py.contains(wanted), qPrintable(wanted + QStringLiteral("\n") + py));
    }

    // AT-USAGE: "By default deepspeed will use fp32 for sequence parallelism communications"
    // (runtime/constants.py SEQ_PARALLEL_COMMUNICATION_DATA_TYPE_DEFAULT "fp32", engine.py): a bf16 run
    // with Ulysses says bf16; fp16, fp32 and runs without Ulysses leave the key out.
    void seq_parallel_communication_data_type_data() {
        QTest::addColumn<qint64>("sp");
        QTest::addColumn<int>("precision");
        QTest::addColumn<bool>("written");
        QTest::newRow("AT-USAGE: bf16, sp 4") << qint64(4) << int(Precision::Bf16) << true;
        QTest::newRow("fp16, sp 4: not written") << qint64(4) << int(Precision::Fp16) << false;
        QTest::newRow("fp32, sp 4: not written") << qint64(4) << int(Precision::Fp32) << false;
        QTest::newRow("bf16 without Ulysses: not written") << qint64(1) << int(Precision::Bf16) << false;
    }
    void seq_parallel_communication_data_type() {
        QFETCH(qint64, sp);
        QFETCH(int, precision);
        QFETCH(bool, written);
        Scenario s = ulysses(8, sp, true);
        s.training.precision = static_cast<Precision>(precision);
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds.contains("seq_parallel_communication_data_type"), written);
        QCOMPARE(hf_trainer_config(s).contains("seq_parallel_communication_data_type"), written);
        const LintResult r = lint_ds_config(ds.dump(2), 8);
        QVERIFY2(!r.has_errors() && !r.has_warnings(), qPrintable(QString::fromStdString(diagnostics_json(r).dump(2))));
        // The import has no field for it: reading it back changes nothing beside it.
        nlohmann::json without = nlohmann::json::parse(ds.dump());
        without.erase("seq_parallel_communication_data_type");
        QVERIFY(apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario()) == apply_ds_config(without, default_scenario()));
    }

    // DeepSpeed's activation_checkpointing block (runtime/activation_checkpointing/config.py): the
    // export writes the plan's cpu_checkpointing and partition_activations, and an import reads them back.
    void activation_checkpointing_block_data() {
        QTest::addColumn<bool>("cpu");
        QTest::addColumn<bool>("partition");
        QTest::newRow("whole, in GPU memory") << false << false;
        QTest::newRow("ZeRO paper P_a: partitioned") << false << true;
        QTest::newRow("ZeRO-Infinity: partitioned, in host memory") << true << true;
    }
    void activation_checkpointing_block() {
        QFETCH(bool, cpu);
        QFETCH(bool, partition);
        Scenario s = default_scenario();
        s.parallel.tensor = 4;
        s.training.checkpointing = Checkpointing::Full;
        s.training.cpu_checkpointing = cpu;
        s.training.partition_activations = partition;
        const nlohmann::ordered_json ds = deepspeed_config(s);
        QCOMPARE(ds["activation_checkpointing"]["cpu_checkpointing"].get<bool>(), cpu);
        QCOMPARE(ds["activation_checkpointing"]["partition_activations"].get<bool>(), partition);
        const Scenario back = apply_ds_config(nlohmann::json::parse(ds.dump()), default_scenario());
        QCOMPARE(back.training.cpu_checkpointing, cpu);
        QCOMPARE(back.training.partition_activations, partition);
    }

    // A plan that recomputes says so where the script must turn it on: the Trainer's arguments carry
    // gradient_checkpointing=True; beside the Accelerate YAML and in the launch script the script's
    // own model.gradient_checkpointing_enable() is named (the ds_config's activation_checkpointing
    // reaches deepspeed.checkpointing models only, config_export.cpp). Llama-3.1 70B on 2 DGX H100s,
    // ZeRO-3 with CPU offload, fits only with full recompute.
    // A frozen weight at ZeRO-3 recomputes re-entrantly on DeepSpeed before 0.19.3, whose release of
    // a weight in the recompute breaks a non-reentrant checkpoint (DeepSpeed #4332, fixed by #8148 in
    // v0.19.3: deepspeed_release.h recompute_must_reenter).
    void recompute_is_said_where_the_script_turns_it_on_data() {
        QTest::addColumn<int>("recompute");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("frozen");  // "lora", "layers" (the first 4), "embeddings", "reentrant" (asked) or ""
        QTest::addColumn<QString>("release");
        QTest::addColumn<QString>("kwargs");
        const QString nonReentrant = QStringLiteral("gradient_checkpointing_kwargs={\"use_reentrant\": False}");
        const QString reentrant = QStringLiteral("gradient_checkpointing_kwargs={\"use_reentrant\": True}");
        const int full = int(Checkpointing::Full);
        QTest::newRow("full recompute: non-reentrant, as transformers 5 runs it and the plan counts")
            << full << 3 << QString() << QString() << nonReentrant;
        QTest::newRow("re-entrant recompute asked (--reentrant-recompute on)")
            << full << 3 << QStringLiteral("reentrant") << QString() << reentrant;
        QTest::newRow("LoRA: non-reentrant, as PEFT's guide runs it") << full << 3 << QStringLiteral("lora") << QString() << nonReentrant;
        QTest::newRow("LoRA at ZeRO-3 on DeepSpeed 0.19.2: re-entrant")
            << full << 3 << QStringLiteral("lora") << QStringLiteral("0.19.2") << reentrant;
        QTest::newRow("LoRA at ZeRO-3 on DeepSpeed 0.19.3 (#8148): non-reentrant")
            << full << 3 << QStringLiteral("lora") << QStringLiteral("0.19.3") << nonReentrant;
        QTest::newRow("LoRA at ZeRO-2 on DeepSpeed 0.15: no ZeRO-3 hook frees it")
            << full << 2 << QStringLiteral("lora") << QStringLiteral("0.15") << nonReentrant;
        QTest::newRow("4 frozen layers at ZeRO-3 on DeepSpeed 0.15: re-entrant")
            << full << 3 << QStringLiteral("layers") << QStringLiteral("0.15") << reentrant;
        QTest::newRow("frozen embeddings at ZeRO-3 on DeepSpeed 0.15: outside every block")
            << full << 3 << QStringLiteral("embeddings") << QStringLiteral("0.15") << nonReentrant;
        QTest::newRow("no recompute: nothing said")
            << int(Checkpointing::None) << 3 << QStringLiteral("lora") << QStringLiteral("0.15") << QString();
    }
    void recompute_is_said_where_the_script_turns_it_on() {
        QFETCH(int, recompute);
        QFETCH(int, stage);
        QFETCH(QString, frozen);
        QFETCH(QString, release);
        QFETCH(QString, kwargs);
        Scenario s = zp::test::preset_scenario("llama-3.1-70b", "h100-80gb", 16);
        s.cluster.gpus_per_node = 8;
        s.cluster.nodes = 2;
        s = with_setup(s, SetupKey{stage, OffloadDevice::Cpu, stage == 3 ? OffloadDevice::Cpu : OffloadDevice::None});
        s.training.checkpointing = static_cast<Checkpointing>(recompute);
        if (frozen == QLatin1String("lora")) s.finetune.method = FineTuneMethod::Lora;
        if (frozen == QLatin1String("layers")) s.finetune.freeze_layers = 4;
        if (frozen == QLatin1String("embeddings")) s.finetune.freeze_embeddings = true;
        const bool asked = frozen == QLatin1String("reentrant");
        s.training.reentrant_recompute = asked;
        s.deepspeed_release = release.toStdString();
        validate(s);
        const bool recomputes = recompute != int(Checkpointing::None);
        const bool reenters = kwargs.contains(QStringLiteral("True")) && !asked;  // for the release's sake
        QCOMPARE(recompute_must_reenter(s), reenters);
        // The Accelerate YAML and the launch script name the script's own call, and why it re-enters.
        const QString call = QStringLiteral("model.gradient_checkpointing_enable(") + kwargs + QStringLiteral(")");
        for (const QString& text : {QString::fromStdString(accelerate_config_yaml(s)), QString::fromStdString(launch_script(s))}) {
            QCOMPARE(text.contains(QStringLiteral("gradient_checkpointing_enable")), recomputes);
            if (recomputes) QVERIFY2(text.contains(call), qPrintable(text));
            QCOMPARE(text.contains(QStringLiteral("#8148")), reenters);
        }
        // The TrainingArguments carry it, the reason beside it.
        const QString args = QString::fromStdString(hf_training_arguments_text(s));
        QCOMPARE(args.contains(QStringLiteral("gradient_checkpointing=True")), recomputes);
        QCOMPARE(args.contains(QStringLiteral("gradient_checkpointing_kwargs")), !kwargs.isEmpty());
        if (!kwargs.isEmpty()) QVERIFY2(args.contains(kwargs), qPrintable(args));
        QCOMPARE(args.contains(QStringLiteral("#8148")), reenters);
        QVERIFY(!args.contains(QStringLiteral("gradient_checkpointing_enable")));
        Scenario fsdp = s;  // FSDP's own checkpointing has no ZeRO-3 hooks
        fsdp.fsdp.engine = Engine::Fsdp;
        QVERIFY(!recompute_must_reenter(fsdp));
    }

    // What the plan counts on and no config holds, said beside the Accelerate YAML and the
    // TrainingArguments: TF-ALST "TiledMLP and activation checkpoint offloading, which aren't available
    // in Transformers"; DS-TUT's TiledMLP, offload_activations and PYTORCH_CUDA_ALLOC_CONF; Liger-Kernel.
    void outside_the_config_data() {
        QTest::addColumn<QString>("switch_");
        QTest::addColumn<QString>("wanted");
        QTest::newRow("DS-TUT: TiledMLP") << QStringLiteral("tiled_mlp")
                                          << QStringLiteral("deepspeed.runtime.sequence_parallel.ulysses_sp.TiledMLP");
        QTest::newRow("DS-TUT: activation checkpoint offload")
            << QStringLiteral("cpu_checkpointing") << QStringLiteral("deepspeed.runtime.activation_checkpointing.offload_activations");
        QTest::newRow("DS-TUT: expandable segments")
            << QStringLiteral("expandable_segments") << QStringLiteral("export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
        QTest::newRow("Liger-Kernel") << QStringLiteral("liger") << QStringLiteral("use_liger_kernel=True");
    }
    void outside_the_config() {
        QFETCH(QString, switch_);
        QFETCH(QString, wanted);
        for (std::int64_t sp : {std::int64_t(1), std::int64_t(4)}) {
            Scenario s = ulysses(8, sp, true);
            s.training.checkpointing = Checkpointing::Full;
            const QString before = QString::fromStdString(accelerate_config_yaml(s));
            QVERIFY(!before.contains(wanted));
            if (switch_ == QLatin1String("tiled_mlp")) s.training.tiled_mlp = true;
            if (switch_ == QLatin1String("cpu_checkpointing")) s.training.cpu_checkpointing = true;
            if (switch_ == QLatin1String("expandable_segments")) s.training.expandable_segments = true;
            if (switch_ == QLatin1String("liger")) s.training.loss_kernel = LossKernel::Chunked;
            const std::string yaml = accelerate_config_yaml(s);
            QVERIFY2(QString::fromStdString(yaml).contains(wanted), yaml.c_str());
            if (switch_ == QLatin1String("tiled_mlp") || switch_ == QLatin1String("cpu_checkpointing"))
                QVERIFY(QString::fromStdString(yaml).contains(QStringLiteral("not in Transformers")));
            const std::string py = hf_training_arguments_text(s);
            QVERIFY2(QString::fromStdString(py).contains(wanted), py.c_str());
            // Comments only: the YAML still lints clean.
            QVERIFY(findings(lint_accelerate_config(yaml, "accelerate_config.yaml", lint_context_of(s))).empty());
        }
    }

    // DeepSpeed's hostfile ("hostname slots=N" a line, runner.py fetch_hostfile): listed node by
    // node up to 64 nodes, a shell loop writes it beyond, so the script stays short at any size.
    void hostfile_lines_by_cluster_size_data() {
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<QString>("wanted");
        QTest::addColumn<QString>("unwanted");
        QTest::newRow("one node: no hostfile") << qint64(1) << QString() << QStringLiteral("hostfile");
        QTest::newRow("64 nodes listed") << qint64(64) << QStringLiteral("node-63 slots=8\nHOSTS") << QStringLiteral("seq 0");
        QTest::newRow("65 nodes by a loop") << qint64(65) << QStringLiteral("$(seq 0 64); do echo \"node-$i slots=8\"; done > hostfile")
                                            << QStringLiteral("node-0 slots");
        QTest::newRow("125,000 nodes by a loop") << qint64(125000) << QStringLiteral("$(seq 0 124999)") << QStringLiteral("node-1 slots");
    }
    void hostfile_lines_by_cluster_size() {
        QFETCH(qint64, nodes);
        QFETCH(QString, wanted);
        QFETCH(QString, unwanted);
        Scenario s = default_scenario();
        s.cluster.nodes = nodes;
        for (const std::string& script : {launch_script(s), megatron_launch_script(s)}) {
            if (!wanted.isEmpty()) QVERIFY2(script.find(wanted.toStdString()) != std::string::npos, script.c_str());
            QVERIFY(script.find(unwanted.toStdString()) == std::string::npos);
            QVERIFY(script.size() < 8000);
        }
    }

    // DeepSpeed's use_multi_rank_bucket_allreduce (zero/config.py, default true since v0.12.4):
    // written only when off, at ZeRO-1/2, clean for the linter, and read back by the import.
    // The optimizer's hyperparameters follow what the run is for (recipe_hyperparameters): the
    // QLoRA paper's for adapters (Appendix B.2: 2e-4, 1e-4 from 33B; no weight decay; beta2 0.999;
    // max grad norm 0.3), Llama 2's SFT learning rate for a full fine-tune (Sec. 3.1), its
    // pre-training's otherwise (Sec. 2.2); the same figures in the ds_config and the Trainer's arguments.
    void hyperparameters_follow_the_job_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("job");
        QTest::addColumn<QString>("method");
        QTest::addColumn<double>("lr");
        QTest::addColumn<double>("weightDecay");
        QTest::addColumn<double>("beta2");
        QTest::addColumn<double>("clip");
        QTest::newRow("Llama 2 pre-training") << "llama-2-7b"
                                              << "pretrain"
                                              << "full" << 3e-4 << 0.1 << 0.95 << 1.0;
        QTest::newRow("Llama 2 SFT: a full fine-tune") << "llama-2-7b"
                                                       << "finetune"
                                                       << "full" << 2e-5 << 0.1 << 0.95 << 1.0;
        QTest::newRow("QLoRA paper, 7B") << "llama-2-7b"
                                         << "qlora"
                                         << "qlora" << 2e-4 << 0.0 << 0.999 << 0.3;
        QTest::newRow("QLoRA paper, 70B: 1e-4 from 33B") << "llama-2-70b"
                                                         << "lora"
                                                         << "lora" << 1e-4 << 0.0 << 0.999 << 0.3;
        QTest::newRow("--finetune lora on the default full fine-tune") << "llama-2-7b"
                                                                       << "finetune"
                                                                       << "lora" << 2e-4 << 0.0 << 0.999 << 0.3;
    }
    void hyperparameters_follow_the_job() {
        QFETCH(QString, model);
        QFETCH(QString, job);
        QFETCH(QString, method);
        QFETCH(double, lr);
        QFETCH(double, weightDecay);
        QFETCH(double, beta2);
        QFETCH(double, clip);
        Scenario s = default_scenario();
        s.model = model_preset(model.toStdString()).spec;
        s = with_job(s, parse_job(job.toStdString()));
        s.finetune.method = parse_enum<FineTuneMethod>(method.toStdString());
        s.training.fused_optimizer = true;  // the ds_config carries its optimizer block (not bitsandbytes' paged one)
        s.training.optimizer_storage = OptimizerStorage::Standard;
        const Hyperparameters h = recipe_hyperparameters(s);
        QCOMPARE(h.learning_rate, lr);
        QCOMPARE(h.weight_decay, weightDecay);
        QCOMPARE(h.beta2, beta2);
        QCOMPARE(h.gradient_clipping, clip);
        const auto cfg = deepspeed_config(s);
        QCOMPARE(cfg.at("optimizer").at("params").at("lr").get<double>(), lr);
        QCOMPARE(cfg.at("gradient_clipping").get<double>(), clip);
        const QString args = QString::fromStdString(hf_training_arguments_text(s, ExportOptions{}, "ds_config.json"));
        QVERIFY2(args.contains(QStringLiteral("max_grad_norm=%1,").arg(clip)), qPrintable(args));
        // Options that carry their own hyperparameters keep them.
        ExportOptions own;
        own.hyperparameters = Hyperparameters{};
        own.hyperparameters->learning_rate = 1e-3;
        QCOMPARE(deepspeed_config(s, own).at("optimizer").at("params").at("lr").get<double>(), 1e-3);
    }

    void multi_rank_bucket_allreduce_round_trips() {
        Scenario s = default_scenario();
        s.zero.stage = 2;
        QVERIFY(!deepspeed_config(s).at("zero_optimization").contains("use_multi_rank_bucket_allreduce"));
        s.zero.multi_rank_bucket_allreduce = false;
        const auto cfg = deepspeed_config(s);
        QCOMPARE(cfg.at("zero_optimization").at("use_multi_rank_bucket_allreduce").get<bool>(), false);
        const LintResult r = lint_ds_config(deepspeed_config_text(s), 8);
        QVERIFY(!r.has_errors() && !r.has_warnings());
        QVERIFY(!apply_ds_config(nlohmann::json::parse(deepspeed_config_text(s)), default_scenario()).zero.multi_rank_bucket_allreduce);
        QVERIFY(apply_ds_config(nlohmann::json::parse(deepspeed_config_text(default_scenario())), s).zero.multi_rank_bucket_allreduce ==
                false);  // a config without the key leaves the scenario's choice
    }

    // The keys a release reads (ZeroSetup::deepspeed_release; each release's own config classes run
    // on the key: v0.7.0-v0.12.3 refuse use_multi_rank_bucket_allreduce as an extra field; v0.3.14-
    // v0.5.10 read the save key as stage3_gather_fp16_weights_on_model_save, none before v0.3.14).
    void keys_by_release_data() {
        QTest::addColumn<QString>("release");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("present");
        QTest::addColumn<QString>("absent");
        QTest::newRow("today, ZeRO-2 with the whole-bucket all-reduce off: the key says so") << "" << 2 << "use_multi_rank_bucket_allreduce"
                                                                                             << "";
        QTest::newRow("0.12.3: reduces to the owners, the key unknown") << "0.12.3" << 2 << ""
                                                                        << "use_multi_rank_bucket_allreduce";
        QTest::newRow("0.12.4: the key") << "0.12.4" << 2 << "use_multi_rank_bucket_allreduce"
                                         << "";
        QTest::newRow("0.6.0: the 16-bit save key") << "0.6.0" << 3 << "stage3_gather_16bit_weights_on_model_save"
                                                    << "stage3_gather_fp16_weights_on_model_save";
        QTest::newRow("0.5.10: its fp16 name") << "0.5.10" << 3 << "stage3_gather_fp16_weights_on_model_save"
                                               << "stage3_gather_16bit_weights_on_model_save";
        QTest::newRow("0.3.13: no save key") << "0.3.13" << 3 << ""
                                             << "stage3_gather_fp16_weights_on_model_save";
    }
    void keys_by_release() {
        QFETCH(QString, release);
        QFETCH(int, stage);
        QFETCH(QString, present);
        QFETCH(QString, absent);
        Scenario s = default_scenario();
        s.training.precision = Precision::Fp16;  // bf16 came in v0.6.0
        s.zero.stage = stage;
        s.zero.multi_rank_bucket_allreduce = false;
        s.deepspeed_release = release.toStdString();
        validate(s);
        const auto zo = deepspeed_config(s).at("zero_optimization");
        if (!present.isEmpty()) QVERIFY2(zo.contains(present.toStdString()), qPrintable(present));
        if (!absent.isEmpty()) QVERIFY2(!zo.contains(absent.toStdString()), qPrintable(absent));
    }

    void recommended_plan_exports_clean() {
        const Plan p = recommend(default_scenario());
        QVERIFY(p.feasible);
        const Scenario s = with_candidate(default_scenario(), p.best);
        // The default global batch is 64 sequences (64 is already a multiple of the 8 GPUs); the plan keeps it.
        QCOMPARE(s.training.global_batch, std::int64_t(64));
        QCOMPARE(p.best.micro_batch * p.best.gradient_accumulation_steps * 8, std::int64_t(64));
        const LintResult r = lint_ds_config(deepspeed_config_text(s), 8);
        QVERIFY(!r.has_errors() && !r.has_warnings());
        // The buffers the memory model counted are the buckets exported.
        const auto j = nlohmann::json::parse(deepspeed_config_text(s));
        if (s.zero.stage >= 1) QCOMPARE(j["zero_optimization"]["reduce_bucket_size"].get<double>(), s.zero.reduce_bucket_elems);
    }

    // offload_param nvme: each rank's partition of a parameter lives in one swap buffer
    // (partitioned_param_swapper.py get_buffer asserts numel <= buffer_size), so the export sizes
    // buffer_size to the largest layer's partition, the host's pinned pool counts that size, and
    // lint refuses DeepSpeed's default where a partition is larger.
    void nvme_param_buffers_hold_the_largest_partition_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("bufferSize");
        // 128,256 x 16,384 embedding over 8 ranks (the reviewer's 405B on one DGX H100)
        QTest::newRow("llama-3.1-405b on 8 GPUs: 262,668,288") << QStringLiteral("llama-3.1-405b") << qint64(8) << qint64(262668288);
        // 128,256 x 8,192 over 8 ranks
        QTest::newRow("llama-3.1-70b on 8 GPUs: 131,334,144") << QStringLiteral("llama-3.1-70b") << qint64(8) << qint64(131334144);
        // 32,000 x 4,096 over 8 ranks is 16.4M: DeepSpeed's 1e8
        QTest::newRow("llama-2-7b on 8 GPUs: DeepSpeed's 1e8") << QStringLiteral("llama-2-7b") << qint64(8) << qint64(100000000);
    }
    void nvme_param_buffers_hold_the_largest_partition() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, bufferSize);
        Scenario s = zp::test::preset_scenario(model.toStdString().c_str(), "h100-80gb", gpus);
        s.zero.stage = 3;
        s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::Nvme;
        validate(s);
        const auto j = nlohmann::json::parse(deepspeed_config_text(s));
        QCOMPARE(j["zero_optimization"]["offload_param"]["buffer_size"].get<qint64>(), bufferSize);
        QCOMPARE(lint_ds_config(deepspeed_config_text(s), gpus, "ds_config.json", std::nullopt, lint_context_of(s)).has_errors(), false);
        // DeepSpeed's default buffer where it is too small: an error naming the size that works.
        auto small = j;
        small["zero_optimization"]["offload_param"].erase("buffer_size");
        const LintResult r = lint_ds_config(small.dump(), gpus, "ds_config.json", std::nullopt, lint_context_of(s));
        QCOMPARE(r.has_errors(), bufferSize > 100000000);
        // The pinned swap pool the host holds: buffer_count x buffer_size x 2 bytes on each of the node's ranks.
        QCOMPARE(offload_param_buffer_elems(s), double(bufferSize));
        const double pool = 8.0 * double(s.zero.offload_param_buffer_count) * double(bufferSize) * 2.0;
        QVERIFY(host_memory(s).moment(HostPhase::Training).bytes.buffers >= pool);
    }

    // Megatron-DeepSpeed's defaults are learned absolute positions and biased linears
    // (megatron/arguments.py: --use-rotary-position-embeddings, --disable-bias-linear turn them off):
    // the launch says the model's own, so the model trained is the one planned.
    void megatron_positions_and_biases_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("rotary");
        QTest::addColumn<bool>("noBias");
        QTest::newRow("llama-3-8b: RoPE, no biases") << QStringLiteral("llama-3-8b") << true << true;
        QTest::newRow("qwen2-7b: RoPE, biases on q, k, v only (kept)") << QStringLiteral("qwen2-7b") << true << false;
        QTest::newRow("gpt2: learned positions, biases") << QStringLiteral("gpt2") << false << false;
        QTest::newRow("bloom-176b: ALiBi, biases") << QStringLiteral("bloom-176b") << false << false;
    }
    void megatron_positions_and_biases() {
        QFETCH(QString, model);
        QFETCH(bool, rotary);
        QFETCH(bool, noBias);
        Scenario s = zp::test::preset_scenario(model.toStdString().c_str(), "a100-80gb", 16);
        s.parallel.tensor = 2;
        s.parallel.sequence_parallel = true;
        s.zero.stage = 1;
        validate(s);
        const std::string sh = megatron_launch_script(s);
        QCOMPARE(sh.find("\n  --use-rotary-position-embeddings") != std::string::npos, rotary);
        QCOMPARE(sh.find("\n  --disable-bias-linear") != std::string::npos, noBias);
        // Megatron's sequence parallelism: CUDA_DEVICE_MAX_CONNECTIONS=1 here and, across nodes, in
        // .deepspeed_env, the only way DeepSpeed's launcher passes it on (launcher/runner.py).
        QVERIFY(sh.find("export CUDA_DEVICE_MAX_CONNECTIONS=1\n") != std::string::npos);
        QVERIFY(sh.find("echo 'CUDA_DEVICE_MAX_CONNECTIONS=1' >> .deepspeed_env") != std::string::npos);
    }

    // Megatron-DeepSpeed's launch (issue 16): BLOOM-176B's replica setup, TP 4 x PP 12 x DP 8 on
    // 48 nodes, with the batch DeepSpeed's rule counts over the data-parallel ranks.
    void megatron_launch_for_bloom() {
        Scenario s = zp::test::preset_scenario("bloom-176b", "a100-80gb", 384);
        s.parallel.tensor = 4;
        s.parallel.pipeline = 12;
        s.zero.stage = 1;
        s.training.seq_len = 2048;
        s.training.micro_batch = 2;
        s.training.global_batch = 2048;
        s.training.checkpointing = Checkpointing::Full;
        const std::string sh = megatron_launch_script(s);
        for (const char* wanted :
             {"--hostfile hostfile --num_nodes 48 --num_gpus 8 pretrain_gpt.py", "node-47 slots=8", "--tensor-model-parallel-size 4",
              "--pipeline-model-parallel-size 12", "--num-layers 70", "--micro-batch-size 2", "--global-batch-size 2048", "--zero-stage 1",
              "--bf16", "--deepspeed --deepspeed_config ds_config.json"})
            QVERIFY2(sh.find(wanted) != std::string::npos, wanted);
        QVERIFY(sh.find("--no-pipeline-parallel") == std::string::npos);
        // The plan sends a t-th between stages (the default), as DeepSpeed's PipelineEngine does
        // with tensor parallelism (PartitionedTensor): no note, no pipeline block. A plan sending it
        // whole (Megatron-Core's) has its ds_config switch DeepSpeed's partitioning off
        // (runtime/config.py get_pipeline_config, read since v0.12.3), and the launch says so.
        QVERIFY(sh.find("sends each activation whole") == std::string::npos);
        QVERIFY(!deepspeed_config(s).contains("pipeline"));
        Scenario whole = s;
        whole.parallel.pipeline_send = PipelineSend::Whole;
        QVERIFY(megatron_launch_script(whole).find("its ds_config sets pipeline.pipe_partitioned and grad_partitioned to false") !=
                std::string::npos);
        QCOMPARE(QString::fromStdString(deepspeed_config(whole).at("pipeline").dump()),
                 QStringLiteral(R"({"pipe_partitioned":false,"grad_partitioned":false})"));
        // The interleaved schedule: Megatron-DeepSpeed's DeepSpeed pipeline has none (training.py
        // train_step runs PipelineEngine.train_batch on model[0], the first chunk), so it is refused.
        QVERIFY(sh.find("num-layers-per-virtual-pipeline-stage") == std::string::npos);
        Scenario interleaved = s;
        interleaved.parallel.virtual_stages = 2;
        try {
            megatron_launch_script(interleaved);
            QFAIL("an interleaved schedule exported for Megatron-DeepSpeed's DeepSpeed pipeline");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("has no interleaved schedule")), e.what());
        }
        // train_batch_size = micro x accumulation x data-parallel ranks: 2 x 128 x 8.
        const auto cfg = deepspeed_config(s);
        QCOMPARE(cfg.at("train_batch_size").get<std::int64_t>(), std::int64_t{2048});
        QCOMPARE(cfg.at("gradient_accumulation_steps").get<std::int64_t>(), std::int64_t{128});
        // Without a pipeline: DeepSpeed's plain engine.
        s.parallel.pipeline = 1;
        QVERIFY(megatron_launch_script(s).find("--no-pipeline-parallel") != std::string::npos);
    }

    // QLoRA under FSDP: the packed 4-bit weights are flattened with the others into FSDP's
    // FlatParameter under any sharding strategy (NO_SHARD here), so their storage is the compute
    // dtype, as under ZeRO-3 (an exports review: uint8 was written, which FSDP cannot flatten).
    void qlora_under_fsdp_stores_in_the_compute_dtype() {
        Scenario s = with_job(zp::test::preset_scenario("llama-3.1-70b", "h100-80gb", 8), Job::Qlora);
        s.fsdp.engine = Engine::Fsdp;
        s.zero.stage = 0;
        const std::string py = peft_model_text(s);
        QVERIFY2(py.find("bnb_4bit_quant_storage=torch.bfloat16,") != std::string::npos, py.c_str());
        QVERIFY2(py.find("torch_dtype=torch.bfloat16") != std::string::npos, py.c_str());
        s.fsdp.engine = Engine::DeepSpeed;
        QVERIFY(peft_model_text(s).find("bnb_4bit_quant_storage=torch.uint8,") != std::string::npos);  // ZeRO-0: bitsandbytes' default
    }

    // What pretrain_gpt.py needs to start and the plan decides (an exports review against
    // Megatron-DeepSpeed f4157be): Megatron builds the optimizer and passes it to deepspeed.initialize,
    // so the ds_config's "optimizer" block is not read and the recipe goes as flags; an offloaded
    // optimizer must be its DeepSpeedCPUAdam (--cpu-optimizer) or DeepSpeed refuses the client's;
    // --train-iters (or samples), the data and the tokenizer have no defaults.
    void megatron_launch_runs_as_written() {
        Scenario s = with_job(zp::test::preset_scenario("llama-3.1-70b", "h100-80gb", 16), Job::FullFineTune);
        s.parallel.tensor = 4;
        s.zero.stage = 3;
        s.zero.offload_optimizer = OffloadDevice::Cpu;
        s.training.global_batch = 64;
        s.assumptions.token_budget = 1e9;
        const std::string sh = megatron_launch_script(s);
        const Hyperparameters h = recipe_hyperparameters(s);
        QCOMPARE(h.learning_rate, 2e-5);  // Llama 2's fine-tune
        // 1e9 tokens at 64 sequences of 4096: 3815 steps (3814.7, up).
        for (const char* wanted :
             {"--lr 2e-05", "--weight-decay 0.1", "--adam-beta1 0.9", "--adam-beta2 0.95", "--adam-eps 1e-08", "--cpu-optimizer",
              "TRAIN_ITERS=${TRAIN_ITERS:-3815}", "--train-iters \"$TRAIN_ITERS\"", "--data-path \"$DATA_PATH\"",
              "--tokenizer-type HFTokenizer", "--tokenizer-model \"$TOKENIZER\"", ": \"${DATA_PATH:?"})
            QVERIFY2(sh.find(wanted) != std::string::npos, wanted);
        // DeepSpeed clips (the ds_config's gradient_clipping): --deepspeed leaves Megatron's --clip-grad unread.
        QVERIFY(sh.find("--clip-grad") == std::string::npos);
        // NVMe offload steps DeepSpeedCPUAdam too (engine.py: zero_use_cpu_optimizer for cpu and nvme).
        s.zero.offload_optimizer = OffloadDevice::Nvme;
        QVERIFY(megatron_launch_script(s).find("--cpu-optimizer") != std::string::npos);
        s.zero.offload_optimizer = OffloadDevice::None;
        QVERIFY(megatron_launch_script(s).find("--cpu-optimizer") == std::string::npos);
        // SGD is Megatron's other optimizer (--sgd-momentum defaults to 0.9: plain SGD sets 0); Lion
        // is not one of them, and an offloaded SGD is refused ("CPU offloading is for Adam").
        s.training.optimizer = Optimizer::Sgd;
        QVERIFY(megatron_launch_script(s).find("--optimizer sgd \\\n  --sgd-momentum 0") != std::string::npos);
        s.training.optimizer = Optimizer::SgdMomentum;
        const std::string momentum = megatron_launch_script(s);
        QVERIFY(momentum.find("--optimizer sgd") != std::string::npos && momentum.find("--sgd-momentum") == std::string::npos);
        for (const auto& [optimizer, offload] :
             {std::pair{Optimizer::Lion, OffloadDevice::None}, std::pair{Optimizer::Sgd, OffloadDevice::Cpu}}) {
            s.training.optimizer = optimizer;
            s.zero.offload_optimizer = offload;
            try {
                megatron_launch_script(s);
                QFAIL("an optimizer exported for Megatron-DeepSpeed that it does not build");
            } catch (const InputError& e) {
                QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("builds Adam or SGD itself")), e.what());
            }
        }
    }
};

ZP_TEST_APPLESS_MAIN(TestExports)
#include "tst_exports.moc"
