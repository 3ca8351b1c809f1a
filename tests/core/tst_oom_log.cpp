// core/io/oom_log: PyTorch's out-of-memory messages in both forms, several ranks, the traceback's
// frames and the moment they name, one row per public report (tests/data/anchors/oom_reports.json,
// each with its source) and per form.
#include "core/base/errors.h"
#include "core/diagnose/log_setup.h"
#include "core/io/oom_log.h"
#include "core/model/enum_names.h"
#include "test_data.h"

#include <QtTest>

using namespace zp;

namespace {
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;
}  // namespace

class TestOomLog : public QObject {
    Q_OBJECT
private slots:
    // Each report's message as its oom_parsed says, and its frames' moment as its phase says.
    void public_reports_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("moment");
        // The reports' phase labels in the planner's words: optimizer_partition_init is
        // deepspeed.initialize, model_load_engine_init moving the model, loss_logits the loss.
        QTest::newRow("DeepSpeed#237 ZeRO-2 Megatron GPT-2, in deepspeed.initialize")
            << QStringLiteral("O01") << QStringLiteral("start-up");
        QTest::newRow("LLaMA-Factory#7532 236B MoE ZeRO-3, torch AdamW's state")
            << QStringLiteral("O03") << QStringLiteral("optimizer step");
        QTest::newRow("TRL#3172 GRPO Qwen2.5-7B, the model moved to GPU 0 by every rank")
            << QStringLiteral("O07") << QStringLiteral("model_load");
        QTest::newRow("Megatron-LM#92 large vocabulary, fp32 logits") << QStringLiteral("O10") << QStringLiteral("loss");
    }
    void public_reports() {
        QFETCH(QString, id);
        QFETCH(QString, moment);
        const auto reports = load_test_json("anchors/oom_reports.json").at("reports");
        const auto& r = json_row(reports, "id", id.toStdString());
        const OomLog log = read_oom_log(r.at("oom_text").get<std::string>(), id.toStdString());
        const auto& parsed = r.at("oom_parsed");
        const OomEvent& e = log.events.front();
        const auto expect = [&](const char* gib_key, const char* mib_key, const std::optional<double>& got) {
            double want = 0;
            if (parsed.contains(gib_key)) want = parsed.at(gib_key).get<double>() * kGiB;
            else if (parsed.contains(mib_key)) want = parsed.at(mib_key).get<double>() * kMiB;
            else return;
            QVERIFY2(got.has_value(), gib_key);
            QVERIFY2(std::abs(*got - want) <= 0.006 * kGiB,
                     qPrintable(QStringLiteral("%1: %2 vs %3").arg(QLatin1String(gib_key)).arg(*got).arg(want)));
        };
        expect("tried_to_allocate_GiB", "tried_to_allocate_MiB", e.tried_bytes);
        expect("total_capacity_GiB", "total_capacity_MiB", e.total_bytes);
        expect("allocated_GiB", "allocated_MiB", e.allocated_bytes);
        expect("free_GiB", "free_MiB", e.free_bytes);
        if (parsed.contains("gpu_index")) QCOMPARE(e.gpu_index.value_or(-1), parsed.at("gpu_index").get<int>());
        StepPhase phase = StepPhase::StartUp;
        std::vector<std::string> frames = r.at("stack_frame_names").get<std::vector<std::string>>();
        const OomMoment m = moment_of_frames(frames, &phase, nullptr);
        const QString got = m == OomMoment::ModelLoad        ? QStringLiteral("model_load")
                            : m == OomMoment::CheckpointSave ? QStringLiteral("checkpoint_save")
                            : m == OomMoment::Unknown        ? QStringLiteral("unknown")
                                                             : QString::fromLatin1(to_string(phase));
        QCOMPARE(got, moment);
    }

    // Both forms, a [rankN] prefix on each line, ranks interleaved, the message on the line after
    // the exception's name, and the first traceback's frames (innermost last).
    void log_with_ranks_and_traceback() {
        const std::string text =
            "[rank0]: Traceback (most recent call last):\n"
            "[rank1]: Traceback (most recent call last):\n"
            "[rank0]:   File \"/x/train.py\", line 10, in <module>\n"
            "[rank0]:   File \"/x/transformers/trainer.py\", line 2, in training_step\n"
            "[rank1]:   File \"/x/train.py\", line 10, in <module>\n"
            "[rank0]:   File \"/x/torch/nn/modules/module.py\", line 3, in forward\n"
            "[rank0]: torch.OutOfMemoryError:\n"
            "[rank0]: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.65 GiB of which 1.50 GiB is free. "
            "Including non-PyTorch memory, this process has 22.14 GiB memory in use. Of the allocated memory 20.00 GiB is allocated by "
            "PyTorch, and 1.25 GiB is reserved by PyTorch but unallocated.\n"
            "[rank1]: RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 1; 23.65 GiB total capacity; 21.00 GiB already "
            "allocated; 100.00 MiB free; 22.00 GiB reserved in total by PyTorch)\n";
        const OomLog log = read_oom_log(text, "run.log");
        QCOMPARE(log.events.size(), std::size_t(2));
        QCOMPARE(log.events[0].rank.value_or(-1), 0);
        QVERIFY(log.events[0].new_form);
        QCOMPARE(*log.events[0].reserved_total_bytes(), 21.25 * kGiB);
        QCOMPARE(*log.events[0].process_bytes, 22.14 * kGiB);
        QCOMPARE(log.events[1].rank.value_or(-1), 1);
        QVERIFY(!log.events[1].new_form);
        QCOMPARE(log.events[1].tried_bytes, 512 * kMiB);
        QCOMPARE(*log.events[1].reserved_total_bytes(), 22.0 * kGiB);
        QCOMPARE(log.frames, (std::vector<std::string>{"<module>", "training_step", "forward"}));
        QCOMPARE(log.moment, OomMoment::InStep);
        QCOMPARE(log.phase, StepPhase::Forward);
    }

    void sizes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("bytes");
        QTest::newRow("GiB") << QStringLiteral("8.52 GiB") << 8.52 * kGiB;
        QTest::newRow("MiB") << QStringLiteral("130.00 MiB") << 130 * kMiB;
        QTest::newRow("bytes") << QStringLiteral("0 bytes") << 0.0;
        QTest::newRow("not a size") << QStringLiteral("lots") << -1.0;
    }
    void sizes() {
        QFETCH(QString, text);
        QFETCH(double, bytes);
        const auto v = parse_memory_size(text.toStdString());
        QCOMPARE(v.value_or(-1.0), bytes);
    }

    void moments_data() {
        QTest::addColumn<QStringList>("frames");
        QTest::addColumn<QString>("moment");
        QTest::newRow("checkpoint save wins over the step")
            << QStringList{QStringLiteral("train"), QStringLiteral("_save_checkpoint"), QStringLiteral("save_checkpoint"),
                           QStringLiteral("_zero3_consolidated_16bit_state_dict")}
            << QStringLiteral("checkpoint_save");
        QTest::newRow("reduce inside backward")
            << QStringList{QStringLiteral("backward"), QStringLiteral("reduce_ipg_grads"), QStringLiteral("average_tensor")}
            << QStringLiteral("gradient reduce");
        // transformers#7158 (https://github.com/huggingface/transformers/issues/7158): its frames,
        // the message not in the excerpt seen: evaluation, not the training step.
        QTest::newRow("Trainer.evaluate, transformers#7158") << QStringList{QStringLiteral("<module>"), QStringLiteral("main"),
                                                                            QStringLiteral("evaluate"), QStringLiteral("prediction_loop")}
                                                             << QStringLiteral("evaluation");
        QTest::newRow("no frame") << QStringList{} << QStringLiteral("unknown");
    }
    void moments() {
        QFETCH(QStringList, frames);
        QFETCH(QString, moment);
        std::vector<std::string> f;
        for (const QString& s : frames) f.push_back(s.toStdString());
        StepPhase phase = StepPhase::StartUp;
        const OomMoment m = moment_of_frames(f, &phase, nullptr);
        const QString got = m == OomMoment::ModelLoad        ? QStringLiteral("model_load")
                            : m == OomMoment::Evaluation     ? QStringLiteral("evaluation")
                            : m == OomMoment::CheckpointSave ? QStringLiteral("checkpoint_save")
                            : m == OomMoment::Unknown        ? QStringLiteral("unknown")
                                                             : QString::fromLatin1(to_string(phase));
        QCOMPARE(got, moment);
    }

    // The run a log describes (core/diagnose/log_setup.h): LLaMA-7B under ZeRO-2 with the Trainer's
    // torch AdamW on 8 V100s, as its model config, DeepSpeed's dump and TrainingArguments print it.
    void setup_from_a_trainer_log() {
        const std::string text = read_text_file(test_data_path("log_setup/llama_zero2_trainer.log"));
        const OomLog log = read_oom_log(text, "llama.log");
        const LogSetup setup = setup_from_log(text, log, "llama.log");
        QVERIFY(setup.states_anything);
        const Scenario& s = setup.scenario;
        QCOMPARE(s.model.layers, std::int64_t(32));
        QCOMPARE(s.model.ffn, std::int64_t(11008));
        QCOMPARE(s.cluster.world_size(), std::int64_t(8));
        QCOMPARE(s.zero.stage, 2);
        QCOMPARE(s.training.micro_batch, std::int64_t(4));
        QCOMPARE(s.training.seq_len, std::int64_t(1024));
        QCOMPARE(s.training.checkpointing, Checkpointing::None);
        QCOMPARE(s.training.precision, Precision::Fp16);
        QVERIFY(!s.training.fused_optimizer);
        QCOMPARE(s.cluster.gpu.memory_gib, 31.75);
        QVERIFY(setup.assumed.empty());
    }
    // A log with only the message states nothing: the default scenario, everything assumed.
    void setup_from_a_bare_message() {
        const std::string text =
            "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.65 GiB total capacity; "
            "20.00 GiB already allocated; 0.50 GiB free; 21.00 GiB reserved in total by PyTorch)\n";
        const LogSetup setup = setup_from_log(text, read_oom_log(text, "x.log"), "x.log");
        QVERIFY(!setup.states_anything);
        QVERIFY(setup.assumed.size() >= 2);
    }

    void no_message_is_an_error() { QVERIFY_THROWS_EXCEPTION(InputError, read_oom_log("step 1 loss 2.3\n", "run.log")); }
};

QTEST_APPLESS_MAIN(TestOomLog)
#include "tst_oom_log.moc"
