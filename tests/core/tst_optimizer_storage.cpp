// bitsandbytes' 8-bit and paged optimizers (core/model/scenario.h OptimizerStorage): where the
// moments live and how wide they are, per engine; what the step keeps and exports; how a measured
// run that names one is read. Facts of bitsandbytes/optim/optimizer.py (get_state_buffer,
// Optimizer2State.init_state) and of the Trainer's OptimizerNames.
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/framework_exports.h"
#include "core/memory/memory_model.h"
#include "core/memory/model_states.h"
#include "core/memory/step_timeline.h"
#include "core/model/enum_names.h"
#include "core/model/trainable_params.h"
#include "core/validation/measured_runs.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;
using zp::test::preset_scenario;

namespace {

// Llama-2 7B on 8 A100 80GB, bf16 AdamW, ZeRO-2 or FSDP FULL_SHARD.
Scenario llama(OptimizerStorage storage, Engine engine = Engine::DeepSpeed, FsdpPrecision precision = FsdpPrecision::Mixed) {
    Scenario s = preset_scenario("llama-2-7b", "a100-80gb", 8);
    s.fsdp.engine = engine;
    s.fsdp.precision = precision;
    s.zero.stage = engine == Engine::DeepSpeed ? 2 : 3;
    s.training.fused_optimizer = false;
    s.training.optimizer_storage = storage;
    s.training.micro_batch = 1;
    s.training.global_batch = 8;
    s.training.seq_len = 2048;
    s.training.checkpointing = Checkpointing::Full;
    return s;
}

double per_param(double bytes, const Scenario& s) { return bytes / static_cast<double>(parameter_count(s.model)) * 8.0; }

}  // namespace

class TestOptimizerStorage : public QObject {
    Q_OBJECT
private slots:
    // AdamW's two moments, bytes per parameter over the 8 ranks (x 8 to read them per parameter):
    // in the allocator and in CUDA managed memory. 8-bit: a byte each and an fp32 absmax per 256.
    void moments_data() {
        QTest::addColumn<int>("storage");
        QTest::addColumn<int>("engine");
        QTest::addColumn<int>("precision");
        QTest::addColumn<double>("allocated");
        QTest::addColumn<double>("paged");
        const int ds = int(Engine::DeepSpeed), fsdp = int(Engine::Fsdp);
        const int mixed = int(FsdpPrecision::Mixed), pure = int(FsdpPrecision::Pure);
        const double eight = 2 * (1 + 4.0 / 256);
        QTest::newRow("ZeRO-2 standard: fp32 moments") << int(OptimizerStorage::Standard) << ds << mixed << 8.0 << 0.0;
        QTest::newRow("ZeRO-2 adamw_bnb_8bit") << int(OptimizerStorage::EightBit) << ds << mixed << eight << 0.0;
        QTest::newRow("ZeRO-2 paged_adamw_32bit") << int(OptimizerStorage::Paged) << ds << mixed << 0.0 << 8.0;
        QTest::newRow("ZeRO-2 paged_adamw_8bit") << int(OptimizerStorage::PagedEightBit) << ds << mixed << 0.0 << eight;
        // torch.optim keeps the moments in the parameter's dtype; bitsandbytes' 32-bit state is fp32.
        QTest::newRow("FSDP pure bf16, torch.optim: bf16 moments") << int(OptimizerStorage::Standard) << fsdp << pure << 4.0 << 0.0;
        QTest::newRow("FSDP pure bf16, paged_adamw_32bit: fp32") << int(OptimizerStorage::Paged) << fsdp << pure << 0.0 << 8.0;
        QTest::newRow("FSDP fp32 shards, adamw_bnb_8bit") << int(OptimizerStorage::EightBit) << fsdp << mixed << eight << 0.0;
    }
    void moments() {
        QFETCH(int, storage);
        QFETCH(int, engine);
        QFETCH(int, precision);
        QFETCH(double, allocated);
        QFETCH(double, paged);
        const Scenario s = llama(OptimizerStorage(storage), Engine(engine), FsdpPrecision(precision));
        const ModelStateBytes b = model_state_bytes(s, parameter_split(s));
        const bool ds = Engine(engine) == Engine::DeepSpeed;
        const double master =
            ds || FsdpPrecision(precision) != FsdpPrecision::Pure ? 4.0 : 0.0;  // DeepSpeed's fp32 master; FSDP's is the shard
        QVERIFY(qAbs(per_param(b.optimizer_states, s) - ((ds ? master : 0.0) + allocated)) < 1e-3);
        QVERIFY(qAbs(per_param(b.paged_optimizer, s) - paged) < 1e-3);
        const MemoryBreakdown m = estimate_memory(s);
        QVERIFY(qAbs(per_param(m.paged_optimizer_bytes, s) - paged) < 1e-3);
    }

    // Paged moments leave the step's peak: what must fit drops by them, the rest stands.
    void paged_moments_leave_the_fit() {
        const Scenario standard = llama(OptimizerStorage::Standard);
        const Scenario paged = llama(OptimizerStorage::Paged);
        const MemoryBreakdown a = estimate_memory(standard), b = estimate_memory(paged);
        QVERIFY(b.peak_allocated_bytes < a.peak_allocated_bytes);
        QCOMPARE(b.activations_bytes, a.activations_bytes);
        QCOMPARE(b.params_bytes, a.params_bytes);
        QVERIFY(b.total_bytes() < a.total_bytes());
    }

    // torch.optim's foreach AdamW makes a temporary the size of the stepped partition;
    // bitsandbytes updates each tensor in one kernel and makes none.
    void no_foreach_temporary() {
        for (const Engine engine : {Engine::DeepSpeed, Engine::Fsdp}) {
            const auto step_buffers = [engine](OptimizerStorage storage) {
                double most = 0;
                for (const StepMoment& mo : step_timeline(llama(storage, engine), TimelineDetail::PeakCandidates))
                    if (mo.phase == StepPhase::OptimizerStep) most = std::max(most, mo.buffers_bytes);
                return most;
            };
            QVERIFY2(step_buffers(OptimizerStorage::EightBit) < step_buffers(OptimizerStorage::Standard), to_string(engine));
        }
    }

    // bitsandbytes has 8-bit and paged AdamW, Adam and Lion in the Trainer; the others are refused.
    void refused_where_bitsandbytes_has_none() {
        Scenario s = llama(OptimizerStorage::Paged);
        s.training.optimizer = Optimizer::Lion;
        validate(s);
        s.training.optimizer = Optimizer::Sgd;
        try {
            validate(s);
            QFAIL("accepted paged SGD");
        } catch (const InputError& e) {
            QVERIFY(QString::fromUtf8(e.what()).contains(QStringLiteral("comes with adamw, adam or lion")));
        }
    }

    // The exports: the Trainer's optim name, and a ds_config whose ZeRO takes the client optimizer.
    void exports_data() {
        QTest::addColumn<int>("storage");
        QTest::addColumn<int>("optimizer");
        QTest::addColumn<QString>("optim");
        QTest::newRow("adamw standard") << int(OptimizerStorage::Standard) << int(Optimizer::AdamW) << QStringLiteral("adamw_torch");
        QTest::newRow("adamw 8bit") << int(OptimizerStorage::EightBit) << int(Optimizer::AdamW) << QStringLiteral("adamw_bnb_8bit");
        QTest::newRow("adamw paged") << int(OptimizerStorage::Paged) << int(Optimizer::AdamW) << QStringLiteral("paged_adamw_32bit");
        QTest::newRow("adam paged 8bit") << int(OptimizerStorage::PagedEightBit) << int(Optimizer::Adam)
                                         << QStringLiteral("paged_adamw_8bit");
        QTest::newRow("lion 8bit") << int(OptimizerStorage::EightBit) << int(Optimizer::Lion) << QStringLiteral("lion_8bit");
        QTest::newRow("lion paged") << int(OptimizerStorage::Paged) << int(Optimizer::Lion) << QStringLiteral("paged_lion_32bit");
    }
    void exports() {
        QFETCH(int, storage);
        QFETCH(int, optimizer);
        QFETCH(QString, optim);
        Scenario s = llama(OptimizerStorage(storage));
        s.training.optimizer = Optimizer(optimizer);
        QCOMPARE(QString::fromUtf8(trainer_optim_name(s.training)), optim);
        const auto j = deepspeed_config(s, ExportOptions{});
        const bool bnb = OptimizerStorage(storage) != OptimizerStorage::Standard;
        QVERIFY(!j.contains("optimizer"));  // fused_optimizer off: the Trainer's optimizer either way
        QCOMPARE(j.contains("zero_allow_untested_optimizer"), bnb);
        QVERIFY(QString::fromStdString(hf_training_arguments_text(s)).contains(QStringLiteral("optim=\"") + optim + QStringLiteral("\"")));
        // With optimizer offload DeepSpeed's CPU Adam steps: its block, no untested optimizer.
        s.zero.offload_optimizer = OffloadDevice::Cpu;
        const auto off = deepspeed_config(s, ExportOptions{});
        QVERIFY(off.contains("optimizer"));
        QVERIFY(!off.contains("zero_allow_untested_optimizer"));
        QCOMPARE(estimate_memory(s).paged_optimizer_bytes, 0.0);
    }

    // A measured run that names a bitsandbytes optimizer is read with its storage.
    void measured_run_names_it_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("storage");
        QTest::newRow("paged_adamw_32bit") << QStringLiteral("paged_adamw_32bit") << int(OptimizerStorage::Paged);
        QTest::newRow("PagedAdamW8bit") << QStringLiteral("PagedAdamW8bit (bitsandbytes)") << int(OptimizerStorage::PagedEightBit);
        QTest::newRow("adamw_bnb_8bit") << QStringLiteral("adamw_bnb_8bit") << int(OptimizerStorage::EightBit);
        QTest::newRow("8-bit Adam") << QStringLiteral("8-bit Adam (bitsandbytes)") << int(OptimizerStorage::EightBit);
        QTest::newRow("torch AdamW") << QStringLiteral("AdamW (torch)") << int(OptimizerStorage::Standard);
    }
    void measured_run_names_it() {
        QFETCH(QString, text);
        QFETCH(int, storage);
        nlohmann::json run = {{"id", "X1"},
                              {"kind", "peak_memory"},
                              {"gpus", 8},
                              {"gpus_per_node", 8},
                              {"nodes", 1},
                              {"stage", 3},
                              {"offload_optimizer", "none"},
                              {"offload_param", "none"},
                              {"precision", "bf16"},
                              {"optimizer", text.toStdString()},
                              {"micro_batch", 1},
                              {"grad_accum", 1},
                              {"seq", 2048},
                              {"checkpointing", "full"},
                              {"flash_attention", true},
                              {"lora", nullptr},
                              {"assumptions", ""}};
        run["model"] = {{"name", "Llama-2-7b"}, {"params", 6738415616}, {"layers", 32}, {"hidden", 4096},
                        {"heads", 32},          {"kv_heads", 32},       {"ffn", 11008}, {"vocab", 32000}};
        run["gpu"] = {{"type", "A100 80GB"}, {"memory_gib", 79.15}};
        run["measured"] = {{"value", 20000}, {"unit", "MiB"}, {"what", "max_allocated"}};
        const std::string doc = nlohmann::json{{"cases", nlohmann::json::array({run})}}.dump();
        const auto cases = validation::parse_measured_runs(doc, "runs.json");
        QCOMPARE(int(cases.front().scenario.training.optimizer_storage), storage);
    }
};

ZP_TEST_APPLESS_MAIN(TestOptimizerStorage)
#include "tst_optimizer_storage.moc"
