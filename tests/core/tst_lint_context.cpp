// The linter's checks that need the node or the model (core/deepspeed/lint.h LintContext): ZeRO++
// hpZ against the GPUs per node, DeepSpeed-Ulysses' sequence_parallel_size against the heads, the
// key/value heads and the sequence. One row per rule, passing and failing, named after its source;
// without the context none of these runs.
#include "core/deepspeed/fsdp_lint.h"
#include "core/deepspeed/lint.h"
#include "core/presets/default_scenario.h"
#include "core/presets/model_presets.h"
#include "lint_diagnostics.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;

namespace {

std::optional<std::int64_t> given(qint64 v) { return v > 0 ? std::optional<std::int64_t>(v) : std::nullopt; }

}  // namespace

class TestLintContext : public QObject {
    Q_OBJECT
private slots:
    void rules_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("error");  // empty: no error or warning on the path
        const QString hpz = QStringLiteral("zero_optimization.zero_hpz_partition_size");
        const QString sp = QStringLiteral("sequence_parallel_size");
        const QString hpz16 = QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "zero_hpz_partition_size": 16}})");
        const QString hpz8 = QString::fromUtf8(R"({"zero_optimization": {"stage": 3, "zero_hpz_partition_size": 8}})");
        // ZeRO++ tutorial: zero_hpz_partition_size "ideal is number of ranks (gpus) per node".
        QTest::newRow("ZeRO++ tutorial: hpZ 16 on nodes of 8 spans nodes")
            << hpz16 << qint64(8) << qint64(0) << qint64(0) << qint64(0) << hpz << QString::fromUtf8("does not divide the 8 GPUs per node");
        QTest::newRow("ZeRO++ tutorial: hpZ 16 on nodes of 16")
            << hpz16 << qint64(16) << qint64(0) << qint64(0) << qint64(0) << hpz << QString();
        QTest::newRow("hpZ 8 on nodes of 8") << hpz8 << qint64(8) << qint64(0) << qint64(0) << qint64(0) << hpz << QString();
        QTest::newRow("hpZ 16 without --gpus-per-node: not checked")
            << hpz16 << qint64(0) << qint64(0) << qint64(0) << qint64(0) << hpz << QString();
        // ulysses_sp.py UlyssesSPAttentionHF: "Attention head count ... is not divisible by SP size".
        const QString sp4 = QString::fromUtf8(R"({"sequence_parallel_size": 4})");
        const QString sp8 = QString::fromUtf8(R"({"sequence_parallel_size": 8})");
        const QString sp64 = QString::fromUtf8(R"({"sequence_parallel_size": 64})");
        QTest::newRow("ulysses_sp.py: 32 heads, SP 8") << sp8 << qint64(0) << qint64(32) << qint64(32) << qint64(0) << sp << QString();
        QTest::newRow("ulysses_sp.py: 12 heads, SP 8") << sp8 << qint64(0) << qint64(12) << qint64(12) << qint64(0) << sp
                                                       << QString::fromUtf8("does not divide the 12 attention heads");
        QTest::newRow("sequence/layer.py: 32 heads, SP 64 (heads must exceed SP)")
            << sp64 << qint64(0) << qint64(32) << qint64(32) << qint64(0) << sp << QString::fromUtf8("is not below the 32 attention heads");
        // The same class, GQA: "KV attention head count ... is not divisible by SP size ... or vice versa".
        QTest::newRow("ulysses_sp.py GQA: 8 kv heads, SP 4 divides them")
            << sp4 << qint64(0) << qint64(32) << qint64(8) << qint64(0) << sp << QString();
        QTest::newRow("ulysses_sp.py GQA: 8 kv heads, SP 16 a multiple (replicated)")
            << QString::fromUtf8(R"({"sequence_parallel_size": 16})") << qint64(0) << qint64(32) << qint64(8) << qint64(0) << sp
            << QString();
        QTest::newRow("ulysses_sp.py GQA: 6 kv heads, SP 4 neither")
            << sp4 << qint64(0) << qint64(24) << qint64(6) << qint64(0) << sp << QString::fromUtf8("one must divide the other");
        // UlyssesSPDataLoaderAdapter: "batch's seqlen=... isn't divisible by sp-size".
        QTest::newRow("ulysses_sp.py: seq 4096, SP 8") << sp8 << qint64(0) << qint64(0) << qint64(0) << qint64(4096) << sp << QString();
        QTest::newRow("ulysses_sp.py: seq 4100, SP 8") << sp8 << qint64(0) << qint64(0) << qint64(0) << qint64(4100) << sp
                                                       << QString::fromUtf8("does not divide the sequence length 4100");
        QTest::newRow("12 heads, SP 8 without the model: not checked")
            << sp8 << qint64(0) << qint64(0) << qint64(0) << qint64(0) << sp << QString();
    }
    void rules() {
        QFETCH(QString, config);
        QFETCH(qint64, gpusPerNode);
        QFETCH(qint64, heads);
        QFETCH(qint64, kvHeads);
        QFETCH(qint64, seq);
        QFETCH(QString, path);
        QFETCH(QString, error);
        LintContext ctx;
        ctx.gpus_per_node = given(gpusPerNode);
        ctx.heads = given(heads);
        ctx.kv_heads = given(kvHeads);
        ctx.seq_len = given(seq);
        const LintResult r = lint_ds_config(config.toStdString(), std::nullopt, "ds_config.json", {}, ctx);
        if (error.isEmpty())
            QVERIFY2(!has_diagnostic(r, QStringLiteral("error"), path, QString()) &&
                         !has_diagnostic(r, QStringLiteral("warning"), path, QString()),
                     diagnostics_json(r).dump().c_str());
        else QVERIFY2(has_diagnostic(r, QStringLiteral("error"), path, error), diagnostics_json(r).dump().c_str());
    }

    // One check of the degree against the model for both files (check_ulysses_against_model): a
    // ds_config's sequence_parallel_size and an Accelerate config's parallelism_config_sp_size get the
    // same findings, each at its own key (Llama-3-8B: 32 heads, 8 key/value heads; AT-USAGE "The number
    // of query attention heads has to be divisible by this number").
    void one_heads_check_for_both_files_data() {
        QTest::addColumn<qint64>("sp");
        QTest::addColumn<qint64>("errors");
        QTest::newRow("SP 8: divides 32 heads and 8 key/value heads") << qint64(8) << qint64(0);
        QTest::newRow("SP 16: a multiple of the key/value heads") << qint64(16) << qint64(0);
        QTest::newRow("SP 12: neither the heads nor the key/value heads") << qint64(12) << qint64(2);
        QTest::newRow("SP 64: above the heads") << qint64(64) << qint64(1);
    }
    void one_heads_check_for_both_files() {
        QFETCH(qint64, sp);
        QFETCH(qint64, errors);
        LintContext c;
        c.heads = 32;
        c.kv_heads = 8;
        const std::string n = std::to_string(sp);
        const LintResult ds = lint_ds_config("{\"sequence_parallel_size\": " + n + "}", std::nullopt, "ds_config.json", {}, c);
        const LintResult acc = lint_accelerate_deepspeed_config(
            "distributed_type: DEEPSPEED\nparallelism_config:\n  parallelism_config_sp_size: " + n + "\n", "accelerate.yaml", c);
        std::vector<std::string> from_ds, from_acc;
        for (const Diagnostic& d : ds.diagnostics)
            if (d.path == "sequence_parallel_size") from_ds.push_back(d.message.substr(std::string("sequence_parallel_size").size()));
        for (const Diagnostic& d : acc.diagnostics)
            if (d.path == "parallelism_config.parallelism_config_sp_size")
                from_acc.push_back(d.message.substr(std::string("parallelism_config_sp_size").size()));
        QCOMPARE(qint64(from_ds.size()), errors);
        QCOMPARE(from_acc, from_ds);
    }

    // The window lints an imported config against the plan's node and model (lint_context_of):
    // Llama-3-8B has 32 heads and 8 key/value heads, so SP 16 passes the heads and the key/value
    // heads (a multiple), SP 12 fails both.
    void context_of_a_plan() {
        Scenario s = default_scenario();
        s.model = model_preset("llama-3-8b").spec;
        s.cluster.gpus_per_node = 4;
        s.training.seq_len = 8192;
        const LintContext c = lint_context_of(s);
        QCOMPARE(c.gpus_per_node, std::optional<std::int64_t>(4));
        QCOMPARE(c.heads, std::optional<std::int64_t>(32));
        QCOMPARE(c.kv_heads, std::optional<std::int64_t>(8));
        QCOMPARE(c.seq_len, std::optional<std::int64_t>(8192));
        const std::string hpz8 = R"({"zero_optimization": {"stage": 3, "zero_hpz_partition_size": 8}})";
        QVERIFY(lint_ds_config(hpz8, std::nullopt, "ds_config.json", {}, c).has_errors());  // 8 does not divide nodes of 4
        QVERIFY(!lint_ds_config(R"({"sequence_parallel_size": 16})", std::nullopt, "ds_config.json", {}, c).has_errors());
        QVERIFY(lint_ds_config(R"({"sequence_parallel_size": 12})", std::nullopt, "ds_config.json", {}, c).has_errors());
    }
};

ZP_TEST_APPLESS_MAIN(TestLintContext)
#include "tst_lint_context.moc"
