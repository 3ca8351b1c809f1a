// The linter: a corpus of configs with golden diagnostics (tests/data/lint), DeepSpeed's batch
// rule (tests/data/anchors/deepspeed_batch_rule.json), and key suggestions.
// Covers core/deepspeed/lint.cpp, core/model/batch_rule.cpp and core/deepspeed/config_schema.cpp.
#include "core/base/errors.h"
#include "core/deepspeed/lint.h"
#include "core/model/finetune.h"
#include "test_data.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QtTest>

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

QTEST_APPLESS_MAIN(TestLint)
#include "tst_lint.moc"
