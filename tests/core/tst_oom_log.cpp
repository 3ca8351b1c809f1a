// core/io/oom_log: PyTorch's out-of-memory messages in both forms, several ranks, the traceback's
// frames and the moment they name, one row per public report (tests/data/anchors/oom_reports.json,
// each with its source) and per form.
#include "core/base/errors.h"
#include "core/base/units.h"
#include "core/diagnose/log_setup.h"
#include "core/diagnose/oom_diagnosis.h"
#include "core/io/oom_log.h"
#include "core/model/enum_names.h"
#include "test_data.h"

#include "test_main.h"

using namespace zp;

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
            if (parsed.contains(gib_key)) want = parsed.at(gib_key).get<double>() * kBytesPerGiB;
            else if (parsed.contains(mib_key)) want = parsed.at(mib_key).get<double>() * kBytesPerMiB;
            else return;
            QVERIFY2(got.has_value(), gib_key);
            QVERIFY2(std::abs(*got - want) <= 0.006 * kBytesPerGiB,
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
        QCOMPARE(*log.events[0].reserved_total_bytes(), 21.25 * kBytesPerGiB);
        QCOMPARE(*log.events[0].process_bytes, 22.14 * kBytesPerGiB);
        QCOMPARE(log.events[1].rank.value_or(-1), 1);
        QVERIFY(!log.events[1].new_form);
        QCOMPARE(log.events[1].tried_bytes, 512 * kBytesPerMiB);
        QCOMPARE(*log.events[1].reserved_total_bytes(), 22.0 * kBytesPerGiB);
        QCOMPARE(log.frames, (std::vector<std::string>{"<module>", "training_step", "forward"}));
        QCOMPARE(log.moment, OomMoment::InStep);
        QCOMPARE(log.phase, StepPhase::Forward);
    }

    // ROCm's PyTorch raises the same allocator's message as "HIP out of memory." (ROCm/TheRock#1054,
    // 2025-07-16, verbatim): read as the 2.1+ form, the MI250X and MI300X presets' logs included.
    void rocm_hip_message() {
        const std::string text =
            "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 16.00 GiB. GPU 0 has a total capacity of 15.24 GiB of which "
            "15.09 GiB is free. Of the allocated memory 0 bytes is allocated by PyTorch, and 0 bytes is reserved by PyTorch but "
            "unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to "
            "avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)\n";
        const OomLog log = read_oom_log(text, "rocm.log");
        QCOMPARE(log.events.size(), std::size_t(1));
        QVERIFY(log.events[0].new_form);
        QCOMPARE(log.events[0].tried_bytes, 16.0 * kBytesPerGiB);
        QCOMPARE(*log.events[0].total_bytes, 15.24 * kBytesPerGiB);
        QCOMPARE(*log.events[0].free_bytes, 15.09 * kBytesPerGiB);
        QCOMPARE(*log.events[0].allocated_bytes, 0.0);
    }

    // A message a console wrapped at 80 columns (Chinese-Vicuna#81, verbatim with its breaks): its
    // figures read across the lines, as one line's.
    void console_wrapped_message() {
        const std::string text =
            "OutOfMemoryError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 14.75 \n"
            "GiB total capacity; 12.97 GiB already allocated; 6.81 MiB free; 13.69 GiB \n"
            "reserved in total by PyTorch) If reserved memory is >> allocated memory try \n"
            "setting max_split_size_mb to avoid fragmentation.  See documentation for Memory \n";
        const OomLog log = read_oom_log(text, "wrapped.log");
        QCOMPARE(log.events.size(), std::size_t(1));
        QCOMPARE(log.events[0].tried_bytes, 16.0 * kBytesPerMiB);
        QCOMPARE(*log.events[0].total_bytes, 14.75 * kBytesPerGiB);
        QCOMPARE(*log.events[0].allocated_bytes, 12.97 * kBytesPerGiB);
        QCOMPARE(*log.events[0].reserved_bytes, 13.69 * kBytesPerGiB);
    }

    void sizes_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("bytes");
        QTest::newRow("GiB") << QStringLiteral("8.52 GiB") << 8.52 * kBytesPerGiB;
        QTest::newRow("MiB") << QStringLiteral("130.00 MiB") << 130 * kBytesPerMiB;
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
        // Found by a review of 30 public reports: a state_dict's copy is the save (falcontune#19), and
        // the Trainer's optimizer.step() the step where its inner frames are cut (sentence-transformers#3214).
        QTest::newRow("state_dict's copy, falcontune#19")
            << QStringList{QStringLiteral("save_pretrained"), QStringLiteral("state_dict"), QStringLiteral("_save_to_state_dict")}
            << QStringLiteral("checkpoint_save");
        QTest::newRow("optimizer.step() under the Trainer, sentence-transformers#3214")
            << QStringList{QStringLiteral("train"), QStringLiteral("_inner_training_loop"), QStringLiteral("step")}
            << QStringLiteral("optimizer step");
        // Composer's train metrics after the backward (trainer.py _train_microbatch -> _eval_train_metrics
        // -> update_metric -> LanguageCrossEntropy.update -> cross_entropy): the metrics, not the loss.
        QTest::newRow("Composer's train metrics over the logits")
            << QStringList{QStringLiteral("_train_microbatch"), QStringLiteral("_eval_train_metrics"), QStringLiteral("update_metric"),
                           QStringLiteral("update"), QStringLiteral("cross_entropy")}
            << QStringLiteral("metrics");
        QTest::newRow("Composer's evaluation loop: its metrics are not the step's loss")
            << QStringList{QStringLiteral("fit"),        QStringLiteral("_train_loop"),   QStringLiteral("_run_evaluators"),
                           QStringLiteral("_eval_loop"), QStringLiteral("update_metric"), QStringLiteral("cross_entropy")}
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
    // DeepSpeed's launcher echoes the failed command as a Python list (LLaMA-Factory#1722): read as
    // the command line, "--fp16 False" not taken for fp16, an item with a space skipped.
    void setup_reads_the_launcher_echo() {
        const std::string text =
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.45 GiB (GPU 1; 23.68 GiB total capacity; 18.98 GiB "
            "already allocated; 213.12 MiB free; 22.03 GiB reserved in total by PyTorch)\n"
            "[2023-12-04 09:47:01,915] [ERROR] [launch.py:321:sigkill_handler] ['/root/miniconda3/bin/python', '-u', "
            "'src/train_bash.py', '--local_rank=1', '--deepspeed', 'ds_config.json', '--stage', 'sft', '--cutoff_len', '512', "
            "'--per_device_train_batch_size', '1', '--output_dir', 'saves/Qwen 14B', '--fp16', 'False', '--bf16', 'false'] exits "
            "with return code = 1\n";
        const OomLog log = read_oom_log(text, "train.log");
        const LogSetup setup = setup_from_log(text, log, "train.log");
        QCOMPARE(setup.scenario.training.micro_batch, std::int64_t(1));
        QCOMPARE(setup.scenario.training.seq_len, std::int64_t(512));
        QVERIFY(!setup.fields.count("precision"));  // "--fp16 False" and "--bf16 false" state no precision
        QVERIFY(setup.fields.count("micro_batch") && setup.fields.count("sequence"));
        QCOMPARE(setup.scenario.zero.stage, default_scenario().zero.stage);  // LLaMA-Factory's --stage sft is not ZeRO's
    }
    // The Trainer's optim names bitsandbytes' optimizers as well as torch's.
    void setup_reads_bitsandbytes_optim_data() {
        QTest::addColumn<QString>("optim");
        QTest::addColumn<int>("storage");
        QTest::newRow("paged_adamw_32bit") << QStringLiteral("paged_adamw_32bit") << int(OptimizerStorage::Paged);
        QTest::newRow("paged_adamw_8bit") << QStringLiteral("paged_adamw_8bit") << int(OptimizerStorage::PagedEightBit);
        QTest::newRow("adamw_bnb_8bit") << QStringLiteral("adamw_bnb_8bit") << int(OptimizerStorage::EightBit);
        QTest::newRow("adamw_torch") << QStringLiteral("adamw_torch") << int(OptimizerStorage::Standard);
    }
    void setup_reads_bitsandbytes_optim() {
        QFETCH(QString, optim);
        QFETCH(int, storage);
        const std::string text = "TrainingArguments(... optim=" + optim.toStdString() +
                                 ", ...)\nRuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.65 GiB total "
                                 "capacity; 20.00 GiB already allocated; 0.50 GiB free; 21.00 GiB reserved in total by PyTorch)\n";
        const LogSetup setup = setup_from_log(text, read_oom_log(text, "x.log"), "x.log");
        QCOMPARE(int(setup.scenario.training.optimizer_storage), storage);
    }

    // Without DeepSpeed's config dump: its "Creating {dtype} ZeRO stage {N} optimizer" line
    // (engine.py _configure_zero_optimizer) names the stage and dtype, a traceback through
    // zero/stage3.py names stage 3; with neither, the stage is assumed (the default's 2).
    void setup_reads_the_stage_without_the_dump_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("precision");
        QTest::addColumn<bool>("read");
        QTest::newRow("DeepSpeed 0.1x: fp16 ZeRO stage 1")
            << QStringLiteral(
                   "[2024-01-01 00:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] Creating torch.float16 ZeRO stage 1 optimizer")
            << 1 << int(Precision::Fp16) << true;
        QTest::newRow("DeepSpeed 0.3 (DeepSpeed#237): fp16 ZeRO stage 2")
            << QStringLiteral("[INFO] Creating fp16 ZeRO stage 2 optimizer") << 2 << int(Precision::Fp16) << true;
        QTest::newRow("bf16 ZeRO stage 3") << QStringLiteral("Creating torch.bfloat16 ZeRO stage 3 optimizer") << 3 << int(Precision::Bf16)
                                           << true;
        QTest::newRow("a frame of zero/stage3.py")
            << QStringLiteral("  File \"/usr/lib/python3/site-packages/deepspeed/runtime/zero/stage3.py\", line 2052, in step") << 3
            << int(Precision::Bf16) << true;
        // MedicalGPT#318 (held out in stop 82's review): ZeRO-1/2's optimizer class in the traceback.
        QTest::newRow("stage_1_and_2.py's DeepSpeedZeroOptimizer: 1 or 2, planned as 2")
            << QStringLiteral("    optimizer = DeepSpeedZeroOptimizer(") << 2 << int(Precision::Bf16) << true;
        QTest::newRow("neither") << QStringLiteral("Epoch 1") << 2 << int(Precision::Bf16) << false;
    }
    void setup_reads_the_stage_without_the_dump() {
        QFETCH(QString, line);
        QFETCH(int, stage);
        QFETCH(int, precision);
        QFETCH(bool, read);
        const std::string text = line.toStdString() +
                                 "\nRuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 79.15 GiB total "
                                 "capacity; 70.00 GiB already allocated; 0.50 GiB free; 76.00 GiB reserved in total by PyTorch)\n";
        const LogSetup setup = setup_from_log(text, read_oom_log(text, "x.log"), "x.log");
        QCOMPARE(setup.scenario.zero.stage, stage);
        QCOMPARE(int(setup.scenario.training.precision), precision);
        QCOMPARE(setup.fields.count("zero") == 1, read);
    }

    // With no world size printed, the batch says it: the Trainer's "Running training" block or
    // DeepSpeed's config dump, total over micro batch x accumulation steps (DeepSpeed's batch rule).
    void setup_reads_the_ranks_from_the_batch_data() {
        QTest::addColumn<QString>("lines");
        QTest::addColumn<qint64>("gpus");
        QTest::newRow("Trainer: 128 / (2 x 4)") << QStringLiteral(
                                                       "  Instantaneous batch size per device = 2\n"
                                                       "  Total train batch size (w. parallel, distributed & accumulation) = 128\n"
                                                       "  Gradient Accumulation steps = 4")
                                                << qint64(16);
        QTest::newRow("DeepSpeed's dump: 96 / (1 x 4)")
            << QStringLiteral(
                   "    \"train_batch_size\": 96,\n    \"train_micro_batch_size_per_gpu\": 1,\n    \"gradient_accumulation_steps\": 4,")
            << qint64(24);
        QTest::newRow("does not divide: the default's 8")
            << QStringLiteral(
                   "  Instantaneous batch size per device = 3\n"
                   "  Total train batch size (w. parallel, distributed & accumulation) = 128\n"
                   "  Gradient Accumulation steps = 4")
            << qint64(8);
    }
    void setup_reads_the_ranks_from_the_batch() {
        QFETCH(QString, lines);
        QFETCH(qint64, gpus);
        const std::string text = lines.toStdString() +
                                 "\nRuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 79.15 GiB total "
                                 "capacity; 70.00 GiB already allocated; 0.50 GiB free; 76.00 GiB reserved in total by PyTorch)\n";
        const LogSetup setup = setup_from_log(text, read_oom_log(text, "x.log"), "x.log");
        QCOMPARE(qint64(setup.scenario.cluster.world_size()), gpus);
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

    // DeepSpeed's see_memory_usage line as public logs print it (deepspeed/runtime/utils.py: MA,
    // Max_MA, CA to two decimals, Max_CA whole, each / 1024^3 and labelled "GB").
    void memory_usage_line_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<double>("ma");
        QTest::addColumn<double>("max_ma");
        QTest::addColumn<double>("ca");
        QTest::addColumn<double>("max_ca");
        // https://github.com/hiyouga/LlamaFactory/issues/2949 (DeepSpeed 0.14, a trailing blank)
        QTest::newRow("LLaMA-Factory#2949")
            << QStringLiteral(
                   "[2024-03-24 04:09:30,752] [INFO] [utils.py:801:see_memory_usage] MA 4.36 GB         Max_MA 4.39 GB         "
                   "CA 5.27 GB         Max_CA 5 GB ")
            << 4.36 << 4.39 << 5.27 << 5.0;
        // https://github.com/nebuly-ai/optimate/issues/242 (DeepSpeed 0.8, no trailing blank)
        QTest::newRow("optimate#242")
            << QStringLiteral(
                   "[2023-03-10 08:16:32,535] [INFO] [utils.py:832:see_memory_usage] MA 1.0 GB         Max_MA 1.0 GB         "
                   "CA 13.8 GB         Max_CA 14 GB")
            << 1.0 << 1.0 << 13.8 << 14.0;
        // https://github.com/deepspeedai/DeepSpeed/issues/6679 (ZeRO-3 with everything offloaded: all zero)
        QTest::newRow("DeepSpeed#6679")
            << QStringLiteral(
                   "[2024-10-28 17:59:22,056] [INFO] [utils.py:801:see_memory_usage] MA 0.0 GB         Max_MA 0.0 GB         "
                   "CA 0.0 GB         Max_CA 0 GB ")
            << 0.0 << 0.0 << 0.0 << 0.0;
    }
    void memory_usage_line() {
        QFETCH(QString, line);
        QFETCH(double, ma);
        QFETCH(double, max_ma);
        QFETCH(double, ca);
        QFETCH(double, max_ca);
        const auto u = parse_memory_usage_line(line.toStdString());
        QVERIFY(u.has_value());
        QCOMPARE(u->allocated_bytes, ma * kBytesPerGiB);
        QCOMPARE(u->max_allocated_bytes, max_ma * kBytesPerGiB);
        QCOMPARE(u->reserved_bytes, ca * kBytesPerGiB);
        QCOMPARE(u->max_reserved_bytes, max_ca * kBytesPerGiB);
        // Its CPU line and a Megatron "max allocated" line are not one.
        QVERIFY(!parse_memory_usage_line("[INFO] [utils.py:808:see_memory_usage] CPU Virtual Memory:  used = 5.33 GB, percent = 17.0%"));
        QVERIFY(!parse_memory_usage_line("MA 1.0 KB         Max_MA 1.0 KB         CA 2.0 KB         Max_CA 2 KB"));
    }
    // The last see_memory_usage before the first message, with its message line; none after it.
    void memory_usage_before_the_oom() {
        const std::string text =
            "[2024-03-24 04:09:30,750] [INFO] [utils.py:800:see_memory_usage] After initializing optimizer states\n"
            "[2024-03-24 04:09:30,752] [INFO] [utils.py:801:see_memory_usage] MA 4.36 GB         Max_MA 4.39 GB         CA 5.27 GB"
            "         Max_CA 5 GB \n"
            "[2024-03-24 04:09:31,401] [INFO] [utils.py:800:see_memory_usage] After initializing ZeRO optimizer\n"
            "[2024-03-24 04:09:31,402] [INFO] [utils.py:801:see_memory_usage] MA 4.38 GB         Max_MA 4.38 GB         CA 5.27 GB"
            "         Max_CA 5 GB \n"
            "RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.65 GiB total capacity; "
            "20.00 GiB already allocated; 0.50 GiB free; 21.00 GiB reserved in total by PyTorch)\n"
            "[2024-03-24 04:09:32,000] [INFO] [utils.py:800:see_memory_usage] after the failure\n"
            "[2024-03-24 04:09:32,001] [INFO] [utils.py:801:see_memory_usage] MA 9.00 GB         Max_MA 9.00 GB         CA 9.00 GB"
            "         Max_CA 9 GB \n";
        const OomLog log = read_oom_log(text, "x.log");
        QVERIFY(log.memory_usage.has_value());
        QCOMPARE(log.memory_usage->message, std::string("After initializing ZeRO optimizer"));
        QCOMPARE(log.memory_usage->allocated_bytes, 4.38 * kBytesPerGiB);
        QVERIFY(!read_oom_log(text.substr(text.find("RuntimeError")), "y.log").memory_usage);
    }
    // PEFT's print_trainable_parameters as public logs print it, with and without separators.
    void peft_line_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("trainable");
        QTest::addColumn<qint64>("all");
        // https://github.com/huggingface/peft/issues/1514 (TinyLlama, peft 0.9: separators, trainable% unrounded)
        QTest::newRow("peft#1514") << QStringLiteral(
                                          "trainable params: 50,462,720 || all params: 1,150,511,104 || trainable%: 4.386113252149889")
                                   << qint64(50462720) << qint64(1150511104);
        // peft 0.2's f-string had no ",d" (peft/peft_model.py print_trainable_parameters before 0.5):
        // the line PEFT's own README showed for bigscience/mt0-large, r 8.
        QTest::newRow("peft 0.2 README, no separators")
            << QStringLiteral("trainable params: 2359296 || all params: 1231940608 || trainable%: 0.19151053100118282") << qint64(2359296)
            << qint64(1231940608);
        // After a logger's prefix (LLaMA-Factory's llamafactory.model.loader).
        QTest::newRow("after a prefix") << QStringLiteral(
                                               "[INFO|2025-01-05 10:00:00] llamafactory.model.loader:143 >> trainable params: "
                                               "4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622")
                                        << qint64(4194304) << qint64(6742609920);
    }
    void peft_line() {
        QFETCH(QString, text);
        QFETCH(qint64, trainable);
        QFETCH(qint64, all);
        const auto counts = read_peft_trainable_line(text.toStdString());
        QVERIFY(counts.has_value());
        QCOMPARE(counts->first, std::int64_t(trainable));
        QCOMPARE(counts->second, std::int64_t(all));
    }
    // The LoRA whose count is the printed one: Llama-2-7B's shape (the setup log's model config)
    // with rank 16 on every Linear is 39,976,960 (PEFT's count), with PEFT's default (q_proj,
    // v_proj) at rank 8 4,194,304; a count no rank and target set gives keeps LoRA's defaults.
    void peft_line_sets_lora() {
        std::string text = read_text_file(test_data_path("log_setup/llama_zero2_trainer.log"));
        const auto with = [&](const std::string& line) {
            const std::string t = line + "\n" + text;
            return setup_from_log(t, read_oom_log(t, "x.log"), "x.log");
        };
        const LogSetup all_linear = with("trainable params: 39,976,960 || all params: 6,778,392,576 || trainable%: 0.5898");
        QCOMPARE(all_linear.scenario.finetune.method, FineTuneMethod::Lora);
        QCOMPARE(all_linear.scenario.finetune.lora_rank, std::int64_t(16));
        QCOMPARE(all_linear.scenario.finetune.targets, LoraTargets::AllLinear);
        QVERIFY(all_linear.fields.count("finetune"));
        QCOMPARE(all_linear.peft_notes.size(), std::size_t(1));
        const LogSetup q_v = with("trainable params: 4194304 || all params: 6742609920 || trainable%: 0.06220594176090199");
        QCOMPARE(q_v.scenario.finetune.lora_rank, std::int64_t(8));
        QCOMPARE(q_v.scenario.finetune.targets, LoraTargets::Default);
        const LogSetup odd = with("trainable params: 1,234,567 || all params: 9,000,000,000 || trainable%: 0.0137");
        QCOMPARE(odd.scenario.finetune.method, FineTuneMethod::Lora);
        QCOMPARE(odd.scenario.finetune.lora_rank, std::int64_t(8));
        QCOMPARE(odd.peft_notes.size(), std::size_t(2));  // no match; all params 33% more than the model's
        QVERIFY(odd.peft_notes[1].find("all params 9,000,000,000") == 0);
    }

    // A rank killed with SIGKILL (Linux's out-of-memory killer) and nothing failed on a GPU: the
    // launchers' words for it, and the launcher's "Killing subprocess" alone where no traceback is
    // printed (a killed process prints none). After a GPU failure the kills are clean-up, not events.
    void host_kills_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("host_kill");
        QTest::addColumn<QString>("message");
        QTest::newRow("DeepSpeed#3938: the launcher's kills, no traceback")
            << QStringLiteral(
                   "[2023-07-25 00:37:49,180] [INFO] [torch_checkpoint_engine.py:27:load] [Torch] Loading checkpoint from "
                   "/opt/ml/model/checkpoint-10/global_step10/bf16_zero_pp_rank_0_mp_rank_00_optim_states.pt...\n"
                   "[2023-07-25 00:38:05,103] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 230\n"
                   "[2023-07-25 00:38:08,243] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 231\n")
            << true << QStringLiteral("Killing subprocess 230");
        QTest::newRow("DeepSpeed launcher: return code -9")
            << QStringLiteral(
                   "[INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n"
                   "[ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0'] exits with return "
                   "code = -9\n")
            << true << QStringLiteral("exits with return code = -9");
        QTest::newRow("torchrun: exitcode -9")
            << QStringLiteral(
                   "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 5031) of binary: "
                   "/usr/bin/python\n")
            << true << QStringLiteral("failed (exitcode: -9) local_rank: 0 (pid: 5031) of binary: /usr/bin/python");
        QTest::newRow("the kernel's own line") << QStringLiteral("[12345.6] Out of memory: Killed process 4242 (python) total-vm:1234kB\n")
                                               << true << QStringLiteral("Out of memory: Killed process 4242 (python) total-vm:1234kB");
        QTest::newRow("a traceback ended the rank: the launcher's kills say nothing")
            << QStringLiteral(
                   "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\nKeyError: 'labels'\n"
                   "[INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n")
            << false << QString();
        // The launcher kills the other ranks whenever one ends: another end named is no SIGKILL (stop
        // 82's code review: a segfault, NCCL's watchdog abort, the launcher's own SIGTERM, a GPU
        // out-of-memory line cut without its traceback).
        QTest::newRow("return code -11, a segfault")
            << QStringLiteral(
                   "step 10 loss 2.31\n[INFO] [launch.py:315:sigkill_handler] Killing subprocess 230\n"
                   "[ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py'] exits with return code = -11\n")
            << false << QString();
        QTest::newRow("NCCL's watchdog abort")
            << QStringLiteral(
                   "[rank1]:[E ProcessGroupNCCL.cpp:563] [Rank 1] Watchdog caught collective operation timeout\n"
                   "terminate called after throwing an instance of 'c10::DistBackendError'\n"
                   "[INFO] [launch.py:315:sigkill_handler] Killing subprocess 230\n")
            << false << QString();
        QTest::newRow("the launcher's own SIGTERM")
            << QStringLiteral(
                   "step 10 loss 2.31\n[INFO] [launch.py:315:sigkill_handler] Killing subprocess 230\n"
                   "[INFO] [launch.py:347:sigkill_handler] Main process received SIGTERM, exiting\n")
            << false << QString();
        QTest::newRow("a cut GPU message without its traceback") << QStringLiteral(
                                                                        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to all\n"
                                                                        "[INFO] [launch.py:315:sigkill_handler] Killing subprocess 230\n")
                                                                 << false << QString();
        QTest::newRow("after a CUDA out-of-memory, the kills are clean-up")
            << QStringLiteral(
                   "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB (GPU 0; 23.65 GiB total capacity; "
                   "20.00 GiB already allocated; 0.50 GiB free; 21.00 GiB reserved in total by PyTorch)\n"
                   "[INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n"
                   "[ERROR] [launch.py:324:sigkill_handler] ['python', 'train.py'] exits with return code = -9\n")
            << false << QString();
    }
    void host_kills() {
        QFETCH(QString, text);
        QFETCH(bool, host_kill);
        QFETCH(QString, message);
        if (!host_kill && !text.contains(QStringLiteral("Tried to allocate 1"))) {
            QVERIFY_THROWS_EXCEPTION(InputError, read_oom_log(text.toStdString(), "run.log"));
            return;
        }
        const OomLog log = read_oom_log(text.toStdString(), "run.log");
        QCOMPARE(log.events.size(), std::size_t(1));
        QCOMPARE(log.events.front().source == OomSource::HostKill, host_kill);
        if (host_kill) QCOMPARE(QString::fromStdString(log.events.front().message), message);
    }
    // A message cut before its figures under a traceback (awsome-distributed-ai#220: "Tried to all")
    // is read for its frames, sizes unknown; without a traceback there is nothing to read.
    void a_cut_message_stands_on_its_traceback() {
        const std::string text = read_text_file(test_data_path("oom/awsome220_fsdp_llama70b_cut_message.log"));
        const OomLog log = read_oom_log(text, "cut.log");
        QCOMPARE(log.events.size(), std::size_t(1));
        QVERIFY(log.events.front().figures_cut);
        QCOMPARE(log.events.front().tried_bytes, 0.0);
        QCOMPARE(log.moment, OomMoment::InStep);
        QCOMPARE(log.phase, StepPhase::OptimizerStep);
        QVERIFY_THROWS_EXCEPTION(InputError, read_oom_log("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to all\n", "bare.log"));
    }
    // The line before a kill is the one before the kill's own line (stop 82's code review: it was the
    // kill line itself for torchrun's and the kernel's words).
    void the_line_before_the_kill() {
        const OomLog log = read_oom_log(
            "{'loss': 1.2, 'learning_rate': 1e-05, 'epoch': 0.1}\n"
            "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 5031) of binary: python\n",
            "run.log");
        QCOMPARE(log.line_before_kill, std::string("{'loss': 1.2, 'learning_rate': 1e-05, 'epoch': 0.1}"));
        QCOMPARE(host_phase_of_line(log.line_before_kill), std::optional<HostPhase>(HostPhase::Training));
    }
    // The host moment a line names (oom_diagnosis.h host_phase_of_line).
    void host_moment_of_a_line_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("phase");  // -1: none
        QTest::newRow("see_memory_usage before the optimizer states")
            << QStringLiteral("Before initializing optimizer states") << int(HostPhase::Initialize);
        QTest::newRow("from_pretrained's shards")
            << QStringLiteral("Loading checkpoint shards:  50%|█████     | 1/2") << int(HostPhase::Loading);
        QTest::newRow("the Trainer's loss") << QStringLiteral("{'loss': 1.7, 'learning_rate': 1e-05, 'epoch': 1.0}")
                                            << int(HostPhase::Training);
        QTest::newRow("a save") << QStringLiteral("Saving model checkpoint to out/checkpoint-500") << int(HostPhase::CheckpointSave);
        QTest::newRow("DeepSpeed's resume: none of the planner's")
            << QStringLiteral("[Torch] Loading checkpoint from /ckpt/global_step10/bf16_zero_pp_rank_0_mp_rank_00_optim_states.pt...")
            << -1;
    }
    void host_moment_of_a_line() {
        QFETCH(QString, line);
        QFETCH(int, phase);
        const std::optional<HostPhase> got = host_phase_of_line(line.toStdString());
        QCOMPARE(got ? int(*got) : -1, phase);
    }
    // srun --label's task ids are stripped, a config dump under them still read (stop 82's code review).
    void srun_labels_are_stripped_from_the_setup() {
        const std::string text =
            "0: [2024-01-01 10:00:00,000] [INFO] [config.py:1000:print]   json = {\n"
            "0:     \"train_micro_batch_size_per_gpu\": 4,\n"
            "0:     \"zero_optimization\": {\n"
            "0:         \"stage\": 3\n"
            "0:     }\n"
            "0: }\n"
            "0: torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity; "
            "75.00 GiB already allocated; 1.00 GiB free; 77.00 GiB reserved in total by PyTorch)\n";
        const OomLog log = read_oom_log(text, "srun.log");
        QVERIFY(!log.events.front().rank);  // a task, not a rank
        const LogSetup setup = setup_from_log(text, log, "srun.log");
        QCOMPARE(setup.scenario.zero.stage, 3);
        QCOMPARE(setup.scenario.training.micro_batch, std::int64_t(4));
    }
    // see_memory_usage's host line: psutil's used memory in GiB and its share of the host.
    void memory_usage_reads_the_host_line() {
        const OomLog log = read_oom_log(
            "[INFO] [utils.py:829:see_memory_usage] Before initializing optimizer states\n"
            "[INFO] [utils.py:830:see_memory_usage] MA 11.76 GB         Max_MA 11.76 GB         CA 11.77 GB         Max_CA 12 GB \n"
            "[INFO] [utils.py:838:see_memory_usage] CPU Virtual Memory:  used = 28.43 GB, percent = 22.6%\n"
            "[INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n",
            "run.log");
        QVERIFY(log.memory_usage.has_value());
        QCOMPARE(log.memory_usage->host_used_bytes.value_or(0), 28.43 * kBytesPerGiB);
        QCOMPARE(log.memory_usage->host_used_percent.value_or(0), 22.6);
        QVERIFY(log.line_before_kill.find("CPU Virtual Memory") != std::string::npos);
    }

    void no_message_is_an_error() { QVERIFY_THROWS_EXCEPTION(InputError, read_oom_log("step 1 loss 2.3\n", "run.log")); }
};

ZP_TEST_APPLESS_MAIN(TestOomLog)
#include "tst_oom_log.moc"
