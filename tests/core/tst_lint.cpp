// The linter: a corpus of configs with golden diagnostics (tests/data/lint), DeepSpeed's batch
// rule (tests/data/anchors/deepspeed_batch_rule.json), and key suggestions.
// Covers core/deepspeed/lint.cpp, core/model/batch_rule.cpp and core/deepspeed/config_schema.cpp.
#include "core/base/errors.h"
#include "core/base/json_comments.h"
#include "core/deepspeed/config_domains.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/fsdp_lint.h"
#include "core/deepspeed/lint.h"
#include "core/model/finetune.h"
#include "lint_diagnostics.h"
#include "test_data.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include <QDir>
#include "test_main.h"

using namespace zp;

class TestLint : public QObject {
    Q_OBJECT
private slots:
    // clang-format off
    void corpus_data() {
        QTest::addColumn<QString>("file");
        const QDir dir(QString::fromStdString(test_data_path("lint")));
        for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            if (!f.endsWith(QLatin1String(".expected.json"))) QTest::newRow(qPrintable(f)) << f;
    }
    // clang-format on
    // Severity, path, message and suggestion of every diagnostic, in order, as the golden file says.
    void corpus() {
        QFETCH(QString, file);
        const std::string base = "lint/" + file.chopped(5).toStdString();
        const LintResult r = lint_ds_config(read_text_file(test_data_path(base + ".json")), 8);
        QCOMPARE(QString::fromStdString(diagnostics_json(r).dump(2)),
                 QString::fromStdString(load_test_json(base + ".expected.json").dump(2)));
    }

    // clang-format off
    void deepspeed_batch_rule_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("error");
        const auto cases = load_test_json("anchors/deepspeed_batch_rule.json").at("cases");
        int i = 0;
        for (const auto& c : cases) {
            nlohmann::json cfg = {{"bf16", {{"enabled", true}}}};
            if (!c.at("train_batch_size").is_null()) cfg["train_batch_size"] = c.at("train_batch_size");
            if (!c.at("micro").is_null()) cfg["train_micro_batch_size_per_gpu"] = c.at("micro");
            if (!c.at("gas").is_null()) cfg["gradient_accumulation_steps"] = c.at("gas");
            QTest::newRow(qPrintable(QStringLiteral("deepspeed_batch_rule.json case %1").arg(i++))) << QString::fromStdString(cfg.dump())
                                                                                             << QString::fromStdString(c.value("error", ""));
        }
    }
    // clang-format on
    void deepspeed_batch_rule() {
        QFETCH(QString, config);
        QFETCH(QString, error);
        const LintResult r = lint_ds_config(config.toStdString(), 8);
        QStringList errors;
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::Error) errors << QString::fromStdString(d.message);
        if (error.isEmpty()) QVERIFY2(errors.isEmpty(), qPrintable(errors.join(QLatin1Char('\n'))));
        else QCOMPARE(errors, QStringList{error});
    }

    void syntax_error_has_line_and_column() {
        try {
            lint_ds_config("{\n  \"zero_optimization\": {\n    \"stage\": 2,,\n  }\n}", 8);
            QFAIL("accepted broken JSON");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("line 3, column 16")), e.what());
        }
    }

    // DeepSpeed reads a config file with hjson (deepspeed/runtime/config.py: `hjson.load`): `#`, `//`
    // and `/* */` comments are skipped and a comma before `}` or `]` ignored (hjson.github.io/syntax.html,
    // "Commas"). Blanked to spaces, so every line and column stays the file's own.
    // clang-format off
    void comments_and_trailing_commas_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("blanked");
        QTest::addColumn<int>("comments");
        QTest::addColumn<int>("trailing_commas");
        QTest::addColumn<QString>("first");  // line:column of the first
        QTest::newRow("plain JSON unchanged") << R"({"a": [1, 2], "b": "x"})" << R"({"a": [1, 2], "b": "x"})" << 0 << 0 << "1:1";
        QTest::newRow("hash comment to the line's end") << "{\"a\": 1 # one\n}" << "{\"a\": 1      \n}" << 1 << 0 << "1:9";
        QTest::newRow("slash comment") << "{\n// the batch\n\"a\": 1}" << "{\n            \n\"a\": 1}" << 1 << 0 << "2:1";
        QTest::newRow("block comment keeps its line breaks") << "{/* a\nb */\"a\": 1}" << "{    \n    \"a\": 1}" << 1 << 0 << "1:2";
        QTest::newRow("comment markers inside strings are text") << R"({"a": "x#y//z/*w", "b": "q\"#"})" << R"({"a": "x#y//z/*w", "b": "q\"#"})" << 0 << 0 << "1:1";
        QTest::newRow("trailing comma in an object") << R"({"a": 1,})" << R"({"a": 1 })" << 0 << 1 << "1:8";
        QTest::newRow("trailing comma in an array") << R"({"a": [1, 2, ]})" << R"({"a": [1, 2  ]})" << 0 << 1 << "1:12";
        QTest::newRow("trailing comma before a comment") << "{\"a\": 1, # x\n}" << "{\"a\": 1     \n}" << 1 << 1 << "1:8";
        QTest::newRow("a doubled comma is left to the parser") << R"({"a": 1,,})" << R"({"a": 1,,})" << 0 << 0 << "1:1";
        QTest::newRow("a comma after an opening brace is left") << R"({,})" << R"({,})" << 0 << 0 << "1:1";
        QTest::newRow("an unclosed block comment is left") << R"({"a": 1 /* x})" << R"({"a": 1 /* x})" << 0 << 0 << "1:1";
        QTest::newRow("a comment ends at a lone carriage return") << "{\"a\": 1 # x\r\"b\": 2}" << "{\"a\": 1    \r\"b\": 2}" << 1 << 0 << "1:9";
    }
    // clang-format on
    void comments_and_trailing_commas() {
        QFETCH(QString, text);
        QFETCH(QString, blanked);
        QFETCH(int, comments);
        QFETCH(int, trailing_commas);
        QFETCH(QString, first);
        const JsonExtras x = blank_comments_and_trailing_commas(text.toStdString());
        QCOMPARE(QString::fromStdString(x.json), blanked);
        QCOMPARE(static_cast<int>(x.comments), comments);
        QCOMPARE(static_cast<int>(x.trailing_commas), trailing_commas);
        QCOMPARE(QStringLiteral("%1:%2").arg(x.first.line).arg(x.first.column), first);
    }

    // The linter reads such a file as DeepSpeed does and warns that transformers' Trainer and
    // Accelerate, which read it with json.load (accelerate/utils/deepspeed.py, HfDeepSpeedConfig), stop
    // at it; the import (--ds-config, File > Import) reads it as DeepSpeed does.
    void commented_config_is_read_as_deepspeed_reads_it() {
        const std::string text =
            "{\n  // ZeRO-3 for the 70B run\n  \"zero_optimization\": {\"stage\": 3, \"overlap_comm\": true,},\n  \"bf16\": {\"enabled\": true},\n  \"train_micro_batch_size_per_gpu\": 1,\n}\n";
        const LintResult r = lint_ds_config(text, 8);
        QVERIFY(!r.has_errors());
        QCOMPARE(r.diagnostics.front().severity, Severity::Warning);
        QCOMPARE(
            QString::fromStdString(r.diagnostics.front().message),
            QStringLiteral("1 comment and 2 trailing commas (the first at line 2, column 3): DeepSpeed's own reader (hjson) skips "
                           "them, but transformers' Trainer (--deepspeed) and Accelerate read the file with json.load and stop at them"));
        Scenario s;
        s.zero.stage = 1;
        QCOMPARE(apply_ds_config(parse_ds_config_text(text, "ds_config.json"), s).zero.stage, 3);
    }

    // A UTF-8 byte-order mark: read past, with a warning that json.load (the Trainer, Accelerate)
    // refuses it ("Unexpected UTF-8 BOM").
    void byte_order_mark_is_read_and_warned() {
        const LintResult r = lint_ds_config("\xEF\xBB\xBF{\"train_micro_batch_size_per_gpu\": 1}", 8);
        QVERIFY(!r.has_errors());
        QVERIFY(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                            [](const Diagnostic& d) { return d.message.find("UTF-8 byte-order mark") != std::string::npos; }));
        QVERIFY(!lint_ds_config("{\"train_micro_batch_size_per_gpu\": 1}", 8).has_warnings());
    }

    // PEFT's DeepSpeed guide ("QLoRA with DeepSpeed ZeRO3"): bnb_4bit_quant_storage must be the
    // compute dtype, which the config's bf16/fp16 block names; the planner's CLI refuses the
    // scenario (exit 2), the linter warns about a config used with it.
    void qlora_zero3_quant_storage_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("method");
        QTest::addColumn<int>("storage");
        QTest::addColumn<bool>("warns");
        const QString z3bf16 =
            QStringLiteral(R"({"bf16": {"enabled": true}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1})");
        const QString z3fp16 =
            QStringLiteral(R"({"fp16": {"enabled": true}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1})");
        const QString z2bf16 =
            QStringLiteral(R"({"bf16": {"enabled": true}, "zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 1})");
        const int qlora = static_cast<int>(FineTuneMethod::Qlora), lora = static_cast<int>(FineTuneMethod::Lora);
        QTest::newRow("ZeRO-3 bf16, storage uint8 (bitsandbytes' default)") << z3bf16 << qlora << int(QuantStorage::Uint8) << true;
        QTest::newRow("ZeRO-3 bf16, storage bf16 (PEFT's guide)") << z3bf16 << qlora << int(QuantStorage::Bf16) << false;
        QTest::newRow("ZeRO-3 bf16, storage auto (the planner's exports: bf16)") << z3bf16 << qlora << int(QuantStorage::Auto) << false;
        QTest::newRow("ZeRO-3 fp16, storage bf16") << z3fp16 << qlora << int(QuantStorage::Bf16) << true;
        QTest::newRow("ZeRO-2 keeps whole weights: any storage") << z2bf16 << qlora << int(QuantStorage::Uint8) << false;
        QTest::newRow("LoRA has no quantised base") << z3bf16 << lora << int(QuantStorage::Uint8) << false;
        // A Trainer config ("enabled": "auto", the planner's hf-trainer export): the dtype comes from
        // --bf16 / --fp16, not the file, so the storage cannot be checked against it.
        const QString z3auto = QStringLiteral(
            R"({"bf16": {"enabled": "auto"}, "fp16": {"enabled": "auto"}, "zero_optimization": {"stage": 3}, "train_micro_batch_size_per_gpu": 1})");
        QTest::newRow("ZeRO-3 with the Trainer's auto dtype, storage bf16") << z3auto << qlora << int(QuantStorage::Bf16) << false;
    }
    void qlora_zero3_quant_storage() {
        QFETCH(QString, config);
        QFETCH(int, method);
        QFETCH(int, storage);
        QFETCH(bool, warns);
        FineTune f;
        f.method = static_cast<FineTuneMethod>(method);
        f.base_precision = f.method == FineTuneMethod::Qlora ? BasePrecision::Nf4 : BasePrecision::Auto;
        f.quant_storage = static_cast<QuantStorage>(storage);
        const LintResult r = lint_ds_config(config.toStdString(), 1, "ds_config.json", f);
        QStringList found;
        for (const Diagnostic& d : r.diagnostics)
            if (QString::fromStdString(d.message).contains(QStringLiteral("bnb_4bit_quant_storage"))) {
                found << QString::fromStdString(d.message);
                QCOMPARE(d.severity, Severity::Warning);
            }
        QCOMPARE(!found.isEmpty(), warns);
        // Without the script's settings the config alone says nothing about it.
        for (const Diagnostic& d : lint_ds_config(config.toStdString(), 1).diagnostics)
            QVERIFY(!QString::fromStdString(d.message).contains(QStringLiteral("bnb_4bit_quant_storage")));
    }

    // clang-format off
    // Every row of DeepSpeed's value domains (core/deepspeed/config_domains.cpp), walked: its valid
    // value gives no error at the path, its invalid value one error there, in DeepSpeed's words.
    // An "auto" reduce_bucket_size is the Trainer's hidden x hidden (integrations/deepspeed.py
    // trainer_config_finalize): with the model's width the overlap_comm buckets are sized from it
    // (LLaVA's scripts/zero2.json with a 4096-wide model: 2 x (16.8M + 5e8) x 4.5 = 4.65 GB, under
    // the warning's 8 GB), without it not at all (read as DeepSpeed's 5e8 it was called 9 GB).
    void auto_reduce_bucket_is_hidden_squared_data() {
        QTest::addColumn<int>("hidden");  // 0: no model given
        QTest::addColumn<QString>("allgather");
        QTest::addColumn<bool>("warned");
        QTest::newRow("no model: not sized") << 0 << QStringLiteral("5e8") << false;
        QTest::newRow("4096 wide: 4.65 GB") << 4096 << QStringLiteral("5e8") << false;
        QTest::newRow("4096 wide, 1e9 allgather: 9.2 GB") << 4096 << QStringLiteral("1e9") << true;
        QTest::newRow("32768 wide: 2 x (1.07G + 5e8) x 4.5 = 14.2 GB") << 32768 << QStringLiteral("5e8") << true;
    }
    void auto_reduce_bucket_is_hidden_squared() {
        QFETCH(int, hidden);
        QFETCH(QString, allgather);
        QFETCH(bool, warned);
        const std::string config = R"({"train_batch_size": 8, "bf16": {"enabled": true}, "zero_optimization": {"stage": 2,
            "overlap_comm": true, "reduce_bucket_size": "auto", "allgather_bucket_size": )" + allgather.toStdString() + "}}";
        LintContext ctx;
        if (hidden > 0) ctx.hidden = hidden;
        const LintResult r = lint_ds_config(config, 8, "ds_config.json", std::nullopt, ctx);
        bool found = false;
        for (const Diagnostic& d : r.diagnostics) found = found || (d.path == "zero_optimization.reduce_bucket_size" && d.severity == Severity::Warning);
        QCOMPARE(found, warned);
    }

    // offload_optimizer at stage 0 (no "stage", or 0): engine.py zero_use_cpu_optimizer builds
    // DeepSpeed's CPU kernel for an Adam, AdamW, Adagrad or Lion block or swaps one in for a client
    // optimizer, whose first step asserts on GPU parameters: an error; torch.optim's own kernel
    // (torch_adam, SGD) or zero_force_ds_cpu_optimizer false steps on the GPU: a warning. A stage
    // written "auto" is Accelerate's to fill (its zero_stage, 2 by default): neither.
    void offload_optimizer_at_stage_0_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<int>("severity");  // -1: no diagnostic at zero_optimization.offload_optimizer
        const int error = int(Severity::Error), warning = int(Severity::Warning);
        QTest::newRow("AdamW block, no stage") << QStringLiteral(R"({"optimizer": {"type": "AdamW"}, "zero_optimization": {"offload_optimizer": {"device": "cpu"}}})") << error;
        QTest::newRow("Lion block, stage 0") << QStringLiteral(R"({"optimizer": {"type": "Lion"}, "zero_optimization": {"stage": 0, "offload_optimizer": {"device": "cpu"}}})") << error;
        QTest::newRow("a client optimizer") << QStringLiteral(R"({"zero_optimization": {"offload_optimizer": {"device": "cpu"}}})") << error;
        QTest::newRow("the deprecated cpu_offload") << QStringLiteral(R"({"zero_optimization": {"cpu_offload": true}})") << error;
        QTest::newRow("torch_adam") << QStringLiteral(R"({"optimizer": {"type": "AdamW", "params": {"torch_adam": true}}, "zero_optimization": {"offload_optimizer": {"device": "cpu"}}})") << warning;
        QTest::newRow("zero_force_ds_cpu_optimizer false") << QStringLiteral(R"({"zero_force_ds_cpu_optimizer": false, "zero_optimization": {"offload_optimizer": {"device": "cpu"}}})") << warning;
        QTest::newRow("stage \"auto\": Accelerate's") << QStringLiteral(R"({"zero_optimization": {"stage": "auto", "offload_optimizer": {"device": "cpu"}}})") << -1;
        QTest::newRow("stage 2") << QStringLiteral(R"({"optimizer": {"type": "AdamW"}, "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})") << -1;
    }
    void offload_optimizer_at_stage_0() {
        QFETCH(QString, config);
        QFETCH(int, severity);
        nlohmann::json j = nlohmann::json::parse(config.toStdString());
        j["train_micro_batch_size_per_gpu"] = 1;
        const LintResult r = lint_ds_config(j.dump(), 8, "ds_config.json");
        int got = -1;
        for (const Diagnostic& d : r.diagnostics)
            if (d.path == "zero_optimization.offload_optimizer") got = int(d.severity);
        QCOMPARE(got, severity);
    }

    void value_domains_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("accepted");
        QTest::addColumn<QString>("message");
        for (const auto& d : ds_schema::value_domains()) {
            QString message = QString::fromLatin1(d.message);
            const nlohmann::json invalid = nlohmann::json::parse(d.invalid);
            message.replace(QStringLiteral("{}"), QString::fromStdString(invalid.is_string() ? invalid.get<std::string>() : invalid.dump()));
            QTest::newRow(qPrintable(QStringLiteral("%1 = %2").arg(QLatin1String(d.path), QLatin1String(d.valid))))
                << QString::fromLatin1(d.path) << QString::fromLatin1(d.valid) << true << QString();
            QTest::newRow(qPrintable(QStringLiteral("%1 = %2").arg(QLatin1String(d.path), QLatin1String(d.invalid))))
                << QString::fromLatin1(d.path) << QString::fromLatin1(d.invalid) << false << message;
        }
    }
    void value_domains() {
        QFETCH(QString, path);
        QFETCH(QString, value);
        QFETCH(bool, accepted);
        QFETCH(QString, message);
        // The smallest config that holds the path, at stage 3 (where every ZeRO key applies).
        nlohmann::json config = {{"train_batch_size", 8}, {"zero_optimization", {{"stage", 3}}}};
        std::string pointer = "/" + path.toStdString();
        std::replace(pointer.begin(), pointer.end(), '.', '/');
        config[nlohmann::json::json_pointer(pointer)] = nlohmann::json::parse(value.toStdString());
        const LintResult r = lint_ds_config(config.dump(), 8);
        int errors_here = 0;
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::Error && QString::fromStdString(d.path) == path) {
                ++errors_here;
                QVERIFY2(QString::fromStdString(d.message).contains(message), d.message.c_str());
            }
        QCOMPARE(errors_here, accepted ? 0 : 1);
    }

    // The issue's configs: each an error with DeepSpeed's wording, exit 1 from the command line
    // (tests/cli); torch.optim's classes by their exact name, DeepSpeed's own in any case.
    void value_domain_examples_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("error");
        QTest::newRow("stage 5") << QStringLiteral(R"({"train_batch_size": 8, "zero_optimization": {"stage": 5}})")
                                 << QStringLiteral("Input should be 0, 1, 2 or 3");
        QTest::newRow("optimizer AdamWW") << QStringLiteral(R"({"train_batch_size": 8, "optimizer": {"type": "AdamWW"}})")
                                          << QStringLiteral("AdamWW is not a supported DeepSpeed Optimizer");
        QTest::newRow("torch.optim class in lower case") << QStringLiteral(R"({"train_batch_size": 8, "optimizer": {"type": "rmsprop"}})")
                                                         << QStringLiteral("rmsprop is not a supported DeepSpeed Optimizer");
        QTest::newRow("offload device gpu")
            << QStringLiteral(R"({"train_batch_size": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "gpu"}}})")
            << QStringLiteral("Input should be 'none', 'cpu' or 'nvme'");
        QTest::newRow("negative bucket") << QStringLiteral(R"({"train_batch_size": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": -5}})")
                                         << QStringLiteral("Input should be greater than or equal to 0");
        QTest::newRow("hpZ -1") << QStringLiteral(R"({"train_batch_size": 8, "zero_optimization": {"stage": 3, "zero_hpz_partition_size": -1}})")
                                << QStringLiteral("Input should be greater than or equal to 0");
        // Accelerate's DeepSpeedPlugin.fill_match: an "auto" that neither it nor the Trainer fills.
        QTest::newRow("auto optimizer type") << QStringLiteral(R"({"train_batch_size": 8, "optimizer": {"type": "auto"}})")
                                             << QStringLiteral("`optimizer.type` not found in kwargs");
    }
    void value_domain_examples() {
        QFETCH(QString, config);
        QFETCH(QString, error);
        const LintResult r = lint_ds_config(config.toStdString(), 8);
        QVERIFY(r.has_errors());
        bool found = false;
        for (const Diagnostic& d : r.diagnostics) found = found || QString::fromStdString(d.message).contains(error);
        QVERIFY2(found, qPrintable(QString::fromStdString(diagnostics_json(r).dump())));
    }
    void accepted_names_data() {
        QTest::addColumn<QString>("config");
        QTest::newRow("DeepSpeed's Adam in any case") << QStringLiteral(R"({"train_batch_size": 8, "optimizer": {"type": "ADAM"}})");
        QTest::newRow("torch.optim.RMSprop") << QStringLiteral(R"({"train_batch_size": 8, "optimizer": {"type": "RMSprop"}})");
        QTest::newRow("torch's OneCycleLR") << QStringLiteral(R"({"train_batch_size": 8, "scheduler": {"type": "OneCycleLR"}})");
        QTest::newRow("dtype alias") << QStringLiteral(R"({"train_batch_size": 8, "data_types": {"grad_accum_dtype": "bfloat16"}})");
        QTest::newRow("auto the Trainer fills") << QStringLiteral(R"({"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}})");
    }
    void accepted_names() {
        QFETCH(QString, config);
        QVERIFY2(!lint_ds_config(config.toStdString(), 8).has_errors(), qPrintable(config));
    }

    // An Accelerate config for DeepSpeed with DeepSpeed-Ulysses (core/deepspeed/fsdp_lint.h), one row
    // per rule, each named after its source: the sequence-parallel config of Accelerate's
    // sequence_parallelism.md (ACC-SP) on 8 processes, with one line replaced or added.
    void accelerate_deepspeed_rules_data() {
        QTest::addColumn<QString>("replace");  // "old|new" applied to the clean config; empty: as is
        QTest::addColumn<qint64>("heads");     // the model's attention heads (0: not given)
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("text");  // empty: no error or warning anywhere
        const QString pc = QStringLiteral("parallelism_config.");
        QTest::newRow("ACC-SP's config: clean") << QString() << qint64(32) << QString() << QString() << QString();
        QTest::newRow("launch.py: unknown parallelism_config key")
            << QStringLiteral("  parallelism_config_sp_size: 4|  parallelism_config_sp_size: 4\n  parallelism_config_sp_sise: 4") << qint64(0)
            << QStringLiteral("error") << pc + QStringLiteral("parallelism_config_sp_sise") << QStringLiteral("unknown key");
        QTest::newRow("launch.py: the field name without its prefix")
            << QStringLiteral("  parallelism_config_sp_size: 4|  parallelism_config_sp_size: 4\n  sp_seq_length: 4096") << qint64(0)
            << QStringLiteral("error") << pc + QStringLiteral("sp_seq_length") << QStringLiteral("unknown key");
        QTest::newRow("ParallelismConfig: sp_backend must be deepspeed")
            << QStringLiteral("sp_backend: deepspeed|sp_backend: torch") << qint64(0) << QStringLiteral("error")
            << pc + QStringLiteral("parallelism_config_sp_backend") << QStringLiteral("runs only on sp_backend deepspeed");
        QTest::newRow("ACC-SP: eager can't work here") << QStringLiteral("attn_implementation: flash_attention_2|attn_implementation: eager")
                                                       << qint64(0) << QStringLiteral("error")
                                                       << pc + QStringLiteral("parallelism_config_sp_attn_implementation")
                                                       << QStringLiteral("\"eager can't work here\"");
        QTest::newRow("ACC-SP: sdpa accepted") << QStringLiteral("attn_implementation: flash_attention_2|attn_implementation: sdpa")
                                               << qint64(0) << QString() << QString() << QString();
        QTest::newRow("ACC-SP: flash_attention_3 accepted")
            << QStringLiteral("attn_implementation: flash_attention_2|attn_implementation: flash_attention_3") << qint64(0) << QString()
            << QString() << QString();
        QTest::newRow("DeepSpeedSequenceParallelConfig: an unknown implementation")
            << QStringLiteral("attn_implementation: flash_attention_2|attn_implementation: flash_attention") << qint64(0)
            << QStringLiteral("error") << pc + QStringLiteral("parallelism_config_sp_attn_implementation")
            << QStringLiteral("must be one of sdpa, flash_attention_2, flash_attention_3");
        QTest::newRow("Accelerate 1.14: a hub flash-attn kernel")
            << QStringLiteral("attn_implementation: flash_attention_2|attn_implementation: kernels-community/flash-attn2") << qint64(0)
            << QStringLiteral("warning") << pc + QStringLiteral("parallelism_config_sp_attn_implementation")
            << QStringLiteral("from 1.14 on");
        QTest::newRow("ACC-SP: 1 x 1 x 4 is not 8 processes")
            << QStringLiteral("dp_shard_size: 2|dp_shard_size: 1") << qint64(0) << QStringLiteral("error") << QStringLiteral("parallelism_config")
            << QStringLiteral("dp_replicate 1 x dp_shard 1 x sp 4 = 4, not num_processes 8");
        QTest::newRow("ACC-SP: num_processes counts every machine")
            << QStringLiteral("num_machines: 1|num_machines: 2") << qint64(0) << QString() << QString() << QString();
        QTest::newRow("ACC-SP: dp_replicate 2 x dp_shard 1 x sp 4")
            << QStringLiteral("dp_replicate_size: 1\n  parallelism_config_dp_shard_size: 2|dp_replicate_size: 2\n  parallelism_config_dp_shard_size: 1") << qint64(0) << QString()
            << QString() << QString();
        QTest::newRow("AT-USAGE: 32 heads, sp 4") << QString() << qint64(32) << QString() << QString() << QString();
        QTest::newRow("ulysses_sp.py: 12 heads, sp 8")
            << QStringLiteral("sp_size: 4|sp_size: 8") << qint64(12) << QStringLiteral("error") << pc + QStringLiteral("parallelism_config_sp_size")
            << QStringLiteral("parallelism_config_sp_size 8 does not divide the 12 attention heads");
        QTest::newRow("accelerator.py: sp_size 1 has no effect")
            << QStringLiteral("sp_size: 4|sp_size: 1") << qint64(0) << QStringLiteral("warning") << pc + QStringLiteral("parallelism_config_sp_size")
            << QStringLiteral("this block has no effect");
        QTest::newRow("ParallelismConfig: CP and SP are mutually exclusive")
            << QStringLiteral("dp_shard_size: 2|dp_shard_size: 1\n  parallelism_config_cp_size: 2") << qint64(0) << QStringLiteral("error")
            << pc + QStringLiteral("parallelism_config_cp_size") << QStringLiteral("mutually exclusive");
        QTest::newRow("DeepSpeedSequenceParallelConfig: a fixed length needs sp_seq_length")
            << QStringLiteral("is_variable: true|is_variable: false") << qint64(0) << QStringLiteral("error")
            << pc + QStringLiteral("parallelism_config_sp_seq_length") << QStringLiteral("needs parallelism_config_sp_seq_length");
        QTest::newRow("DS-TUT: seq_length divisible by sequence_parallel_size")
            << QStringLiteral("is_variable: true|is_variable: false\n  parallelism_config_sp_seq_length: 4098") << qint64(0)
            << QStringLiteral("error") << pc + QStringLiteral("parallelism_config_sp_seq_length") << QStringLiteral("is not a multiple of sp_size 4");
        QTest::newRow("_deepspeed_config_checks: zero_stage beside the file")
            << QStringLiteral("  zero3_init_flag: true|  zero3_init_flag: true\n  zero_stage: 3") << qint64(0) << QStringLiteral("error")
            << QStringLiteral("deepspeed_config.zero_stage") << QStringLiteral("When using `deepspeed_config_file`");
        QTest::newRow("_deepspeed_config_checks: mixed_precision beside the file")
            << QStringLiteral("machine_rank: 0|machine_rank: 0\nmixed_precision: bf16") << qint64(0) << QStringLiteral("error")
            << QStringLiteral("mixed_precision") << QStringLiteral("When using `deepspeed_config_file`");
        QTest::newRow("launch.py: a ds_config key under deepspeed_config reaches nothing")
            << QStringLiteral("  zero3_init_flag: true|  zero3_init_flag: true\n  seq_parallel_communication_data_type: bf16") << qint64(0)
            << QStringLiteral("error") << QStringLiteral("deepspeed_config.seq_parallel_communication_data_type")
            << QStringLiteral("DeepSpeed never sees it");
        QTest::newRow("ACC-SP: tested with ZeRO stage 2 and 3")
            << QStringLiteral("  deepspeed_config_file: ds_config.json\n|  zero_stage: 1\n") << qint64(0) << QStringLiteral("warning")
            << QStringLiteral("deepspeed_config.zero_stage") << QStringLiteral("tested to work with DeepSpeed ZeRO stage 2 and 3");
        QTest::newRow("distributed_type must be DEEPSPEED")
            << QStringLiteral("distributed_type: DEEPSPEED|distributed_type: MULTI_GPU\ndeepspeed_config_x: 1") << qint64(0)
            << QString() << QString() << QString();
    }
    void accelerate_deepspeed_rules() {
        QFETCH(QString, replace);
        QFETCH(qint64, heads);
        QFETCH(QString, severity);
        QFETCH(QString, path);
        QFETCH(QString, text);
        QString yaml = QStringLiteral("compute_environment: LOCAL_MACHINE\n"
                                      "deepspeed_config:\n"
                                      "  deepspeed_config_file: ds_config.json\n"
                                      "  zero3_init_flag: true\n"
                                      "distributed_type: DEEPSPEED\n"
                                      "machine_rank: 0\n"
                                      "num_machines: 1\n"
                                      "num_processes: 8\n"
                                      "parallelism_config:\n"
                                      "  parallelism_config_dp_replicate_size: 1\n"
                                      "  parallelism_config_dp_shard_size: 2\n"
                                      "  parallelism_config_sp_size: 4\n"
                                      "  parallelism_config_sp_backend: deepspeed\n"
                                      "  parallelism_config_sp_seq_length_is_variable: true\n"
                                      "  parallelism_config_sp_attn_implementation: flash_attention_2\n");
        if (!replace.isEmpty()) {
            const QStringList parts = replace.split(QLatin1Char('|'));
            QVERIFY2(yaml.contains(parts[0]), qPrintable(parts[0]));
            yaml.replace(parts[0], parts[1]);
        }
        LintContext ctx;
        if (heads > 0) ctx.heads = ctx.kv_heads = heads;
        const std::string source = yaml.toStdString();
        if (std::string_view(QTest::currentDataTag()) == "distributed_type must be DEEPSPEED") {
            // MULTI_GPU is not a DeepSpeed config: lint_accelerate_config leaves it to the FSDP reader,
            // and the DeepSpeed reader itself says what is wrong.
            QVERIFY(!is_accelerate_deepspeed_config(source));
            QVERIFY(has_diagnostic(lint_accelerate_deepspeed_config(source, "a.yaml", ctx), QStringLiteral("error"),
                                   QStringLiteral("distributed_type"), QStringLiteral("only with distributed_type: DEEPSPEED")));
            return;
        }
        QVERIFY(is_accelerate_deepspeed_config(source));
        const LintResult r = lint_accelerate_config(source, "accelerate_config.yaml", ctx);
        if (severity.isEmpty()) QVERIFY2(!r.has_errors() && !r.has_warnings(), diagnostics_json(r).dump(2).c_str());
        else QVERIFY2(has_diagnostic(r, severity, path, text), diagnostics_json(r).dump(2).c_str());
        for (const Diagnostic& d : r.diagnostics) QVERIFY2(!d.message.empty(), d.path.c_str());
    }

    void nearest_key_data() {
        QTest::addColumn<QString>("typo");
        QTest::addColumn<QString>("expected");
        QTest::newRow("cut off") << "stage3_prefetch_bucket" << "stage3_prefetch_bucket_size";
        QTest::newRow("swapped letters") << "overlap_comn" << "overlap_comm";
        QTest::newRow("nothing close") << "learning_rate_schedule" << "";
    }
    // clang-format on
    void nearest_key() {
        QFETCH(QString, typo);
        QFETCH(QString, expected);
        const std::vector<std::string> keys = {"stage", "overlap_comm", "stage3_prefetch_bucket_size", "reduce_bucket_size"};
        QCOMPARE(QString::fromStdString(zp::nearest_key(typo.toStdString(), keys)), expected);
    }
};

ZP_TEST_APPLESS_MAIN(TestLint)
#include "tst_lint.moc"
