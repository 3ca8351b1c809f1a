// The option table (app/cli/options.h) against what the user sees: every option is listed in
// --help and in the man page help2man makes from it (packaging/CMakeLists.txt), every option name
// is written once in app/cli (the table), the scenario options are the ones 0.1 accepted, --tp
// auto is a typed value, and --version is the project's. Literal lists below, not the table, say
// what is expected where a list is expected.
#include "app/cli/cli.h"
#include "app/cli/options.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include "test_main.h"
#include "test_text.h"

#include <map>
#include <sstream>

using namespace zp;
using zp::test::q;

namespace {

// The table's rows as test rows: one per option.
void option_rows() {
    QTest::addColumn<QString>("name");
    for (const cli::Option* o : cli::all_options()) QTest::newRow(std::string(o->name).c_str()) << q(o->name);
}

const cli::Option& option_named(const QString& name) {
    for (const cli::Option* o : cli::all_options())
        if (q(o->name) == name) return *o;
    qFatal("no option %s", qPrintable(name));
}

// Whether `text` has a line that starts with `name` as an option (after the indent): the name
// followed by a space, a comma or the end of the line, so --hpz is not found in --hpz-size.
bool lists_option(const QString& text, const QString& name) {
    const QRegularExpression line(QStringLiteral("(^|\\n)[ \\t]*") + QRegularExpression::escape(name) + QStringLiteral("([ ,\\n]|$)"));
    return line.match(text).hasMatch();
}

// C++ source without its // comments (a comment may quote an option; the code may not), read
// with string and character literals skipped so a "//" inside one is kept.
QString without_comments(const QString& source) {
    QString code;
    QChar quote;  // the open literal's quote, or null
    for (qsizetype i = 0; i < source.size(); ++i) {
        const QChar c = source[i];
        if (!quote.isNull()) {
            code += c;
            if (c == QLatin1Char('\\') && i + 1 < source.size()) code += source[++i];
            else if (c == quote) quote = QChar();
        } else if (c == QLatin1Char('/') && i + 1 < source.size() && source[i + 1] == QLatin1Char('/')) {
            while (i < source.size() && source[i] != QLatin1Char('\n')) ++i;
            code += QLatin1Char('\n');
        } else {
            if (c == QLatin1Char('"') || c == QLatin1Char('\'')) quote = c;
            code += c;
        }
    }
    return code;
}

// The man page as text: help2man's output with groff's escapes for '-' and fonts undone.
QString man_page_text() {
    static QString text = [] {
        QProcess p;
        p.start(QStringLiteral(ZP_HELP2MAN), {QStringLiteral("--no-info"), QStringLiteral("--name"),
                                              QStringLiteral("plan DeepSpeed ZeRO training runs"), QStringLiteral(ZP_EXE)});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) return QString();
        QString page = QString::fromUtf8(p.readAllStandardOutput());
        page.replace(QStringLiteral("\\-"), QStringLiteral("-"));
        page.remove(QRegularExpression(QStringLiteral("\\\\f[BIRP]")));
        return page;
    }();
    return text;
}

}  // namespace

class TestCliOptions : public QObject {
    Q_OBJECT
private slots:
    void help_lists_every_option_data() { option_rows(); }
    void help_lists_every_option() {
        QFETCH(QString, name);
        const QString help = q(cli::help_text());
        QVERIFY2(lists_option(help, name), qPrintable(name));
        QVERIFY(help.simplified().contains(q(option_named(name).help).simplified()));  // wrapped lines joined
    }

    // The options 0.2's help left out: each on its own line now, with its value.
    void help_lists_the_fine_tuning_options_data() {
        QTest::addColumn<QString>("line");
        QTest::newRow("--finetune") << QStringLiteral("  --finetune full|lora|qlora ");
        QTest::newRow("--lora-rank") << QStringLiteral("  --lora-rank R ");
        QTest::newRow("--lora-alpha") << QStringLiteral("  --lora-alpha A ");
        QTest::newRow("--lora-dropout") << QStringLiteral("  --lora-dropout P ");
        QTest::newRow("--lora-targets") << QStringLiteral("  --lora-targets WHICH ");
        QTest::newRow("--lora-train") << QStringLiteral("  --lora-train LIST ");
        QTest::newRow("--freeze") << QStringLiteral("  --freeze LIST ");
        QTest::newRow("--base-precision") << QStringLiteral("  --base-precision auto|bf16|fp16|int8|nf4|fp4 ");
        QTest::newRow("--double-quant") << QStringLiteral("  --double-quant on|off ");
        QTest::newRow("--quant-storage") << QStringLiteral("  --quant-storage auto|uint8|bf16|fp16|fp32 ");
    }
    void help_lists_the_fine_tuning_options() {
        QFETCH(QString, line);
        QVERIFY2(q(cli::help_text()).contains(QLatin1Char('\n') + line), qPrintable(line));
    }

    void man_page_lists_every_option_data() { option_rows(); }
    void man_page_lists_every_option() {
        QFETCH(QString, name);
        if (QStringLiteral(ZP_HELP2MAN).isEmpty()) QSKIP("help2man is not installed");
        const QString page = man_page_text();
        QVERIFY2(!page.isEmpty(), "help2man failed");
        QVERIFY2(page.contains(QStringLiteral(".SH DESCRIPTION")), "not a man page");
        QVERIFY2(lists_option(page, name), qPrintable(name));
    }

    void version_is_the_projects() {
        std::ostringstream out, err;
        QCOMPARE(cli::run({"--version"}, out, err), cli::kExitOk);
        QCOMPARE(q(out.str()), QStringLiteral("zero-planner 0.2.0\n"));
        QProcess p;
        p.start(QStringLiteral(ZP_EXE), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(p.readAllStandardOutput()), QStringLiteral("zero-planner 0.2.0\n"));
    }

    // Each option name is a string literal once in the code of app/cli: in the table
    // (options.cpp). The parser, the commands and the help use the table's constants. (Messages
    // still name options in their prose, "--zeropp auto lets ...": a name alone is a literal.)
    void each_name_is_written_once_data() { option_rows(); }
    void each_name_is_written_once() {
        QFETCH(QString, name);
        static const std::map<QString, QStringList> literals = [] {
            std::map<QString, QStringList> found;  // literal -> the files, once per occurrence
            const QRegularExpression literal(QStringLiteral("\"(--?[a-z][a-z0-9-]*)\""));
            QDirIterator it(QStringLiteral(ZP_SOURCE_DIR "/app/cli"), {QStringLiteral("*.cpp"), QStringLiteral("*.h")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                QFile f(path);
                if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
                const QString text = without_comments(QString::fromUtf8(f.readAll()));
                for (auto m = literal.globalMatch(text); m.hasNext();) found[m.next().captured(1)] << QFileInfo(path).fileName();
            }
            return found;
        }();
        QVERIFY2(!literals.empty(), ZP_SOURCE_DIR "/app/cli has no option literals: the scan is broken");
        const auto it = literals.find(name);
        QVERIFY2(it != literals.end(), qPrintable(name + QStringLiteral(" is not in options.cpp")));
        QCOMPARE(it->second, QStringList{QStringLiteral("options.cpp")});
    }

    // The options every scenario command accepts, listed: adding or removing one is a change of this list.
    void scenario_options_are_unchanged() {
        const std::set<std::string> expected = {"--session",
                                                "--model",
                                                "--params",
                                                "--hf-config",
                                                "--layers",
                                                "--hidden",
                                                "--heads",
                                                "--kv-heads",
                                                "--ffn",
                                                "--vocab",
                                                "--mlp-activation",
                                                "--residual-dropout",
                                                "--cluster",
                                                "--gpus",
                                                "--gpus-per-node",
                                                "--gpu",
                                                "--gpu-mem",
                                                "--intra-bw",
                                                "--inter-bw",
                                                "--nics",
                                                "--pcie-bw",
                                                "--cpu-ram",
                                                "--nvme",
                                                "--nvme-bw",
                                                "--precision",
                                                "--optimizer",
                                                "--seq",
                                                "--micro-batch",
                                                "--global-batch",
                                                "--checkpointing",
                                                "--flash-attention",
                                                "--attention-softmax",
                                                "--lm-head",
                                                "--cpu-checkpointing",
                                                "--partition-activations",
                                                "--fp8",
                                                "--stage",
                                                "--offload-optimizer",
                                                "--offload-param",
                                                "--overlap-comm",
                                                "--reduce-bucket-size",
                                                "--allgather-bucket-size",
                                                "--max-live-params",
                                                "--headroom",
                                                "--convention",
                                                "--mfu",
                                                "--cuda-context",
                                                "--tokens",
                                                "--zero-init",
                                                "--ds-config",
                                                "--loss-upcast",
                                                "--loss-kernel",
                                                "--grad-accumulation",
                                                "--kv-cache",
                                                "--keep-outputs",
                                                "--logit-metrics",
                                                "--reentrant-recompute",
                                                "--fused-optimizer",
                                                "--optimizer-storage",
                                                "--load-dtype",
                                                "--low-cpu-mem-usage",
                                                "--transformers-release",
                                                "--dataloader-workers",
                                                "--data-seconds-per-sample",
                                                "--pin-memory",
                                                "--deepspeed-release",
                                                "--host-grad-buffer",
                                                "--multi-rank-allreduce",
                                                "--prefetch-to-max-live",
                                                "--hpz-recompute",
                                                "--bf16-master-weights",
                                                "--save-16bit-model",
                                                "--finetune",
                                                "--lora-rank",
                                                "--lora-alpha",
                                                "--lora-dropout",
                                                "--lora-targets",
                                                "--lora-train",
                                                "--base-precision",
                                                "--double-quant",
                                                "--quant-storage",
                                                "--freeze",
                                                "--zeropp",
                                                "--hpz",
                                                "--hpz-size",
                                                "--quantized-weights",
                                                "--quantized-gradients",
                                                "--tp",
                                                "--pp",
                                                "--virtual-stages",
                                                "--pp-schedule",
                                                "--sequence-parallel",
                                                "--pp-send",
                                                "--ep",
                                                "--capacity-factor",
                                                "--sp",
                                                "--mics-shard-size",
                                                "--mics-hierarchical-gather",
                                                "--engine",
                                                "--fsdp-precision",
                                                "--limit-all-gathers",
                                                "--sync-each-batch",
                                                "--hybrid-shard",
                                                "--alst",
                                                "--job",
                                                "--tiled-mlp",
                                                "--expandable-segments",
                                                "--kernel-index",
                                                "--tile-factor"};
        QCOMPARE(expected.size(), std::size_t{109});
        QCOMPARE(cli::scenario_option_names(), expected);
    }

    // Every option is accepted by some command: none is documented but refused everywhere.
    void every_option_is_accepted_data() { option_rows(); }
    void every_option_is_accepted() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        bool accepted = false;
        for (const cli::Command& c : cli::commands()) accepted = accepted || c.options.count(n) || c.flags.count(n);
        QVERIFY2(accepted, qPrintable(name));
    }

    // --tp/--pp/--ep/--sp auto: a typed value the planning commands take and the others refuse
    // with the number parser's message.
    void size_or_auto_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("autoAllowed");
        QTest::addColumn<int>("size");  // 0: auto; -1: refused
        QTest::newRow("auto where the search runs") << QStringLiteral("auto") << true << 0;
        QTest::newRow("a number where the search runs") << QStringLiteral("4") << true << 4;
        QTest::newRow("a number elsewhere") << QStringLiteral("2") << false << 2;
        QTest::newRow("auto elsewhere") << QStringLiteral("auto") << false << -1;
        QTest::newRow("Auto is not auto") << QStringLiteral("Auto") << true << -1;
        QTest::newRow("zero") << QStringLiteral("0") << true << -1;
    }
    void size_or_auto() {
        QFETCH(QString, text);
        QFETCH(bool, autoAllowed);
        QFETCH(int, size);
        try {
            const cli::SizeOrAuto v = cli::parse_size_or_auto(text.toStdString(), cli::opt::tp, 1024, autoAllowed);
            QVERIFY2(size >= 0, "accepted");
            QCOMPARE(v.has_value(), size > 0);
            if (v) QCOMPARE(*v, std::int64_t{size});
        } catch (const InputError& e) {
            QCOMPARE(size, -1);
            const QString what = QString::fromStdString(e.what());
            // "auto" where no search runs names the command that searches; other text the number wanted.
            QVERIFY2(text == QLatin1String("auto") ? what.startsWith(QStringLiteral("--tp auto searches the sizes, which recommend does"))
                                                   : what.startsWith(QStringLiteral("--tp must be a whole number")),
                     e.what());
        }
    }

    // What a planning command was asked, read from the typed values, and the scenario it starts
    // from: sizes on auto at 1 with Megatron's sequence parallelism and the interleaving off.
    void plan_scenario_reads_auto() {
        const std::vector<std::string> argv = {"--model", "llama-2-13b", "--gpus", "32", "--tp", "auto", "--pp", "auto", "--sp", "1"};
        const cli::Args a = cli::parse_args(argv, cli::scenario_option_names(), {});
        cli::SearchAsked asked;
        const Scenario s = cli::plan_scenario_from_args(a, nullptr, &asked);
        QCOMPARE(asked.tensor, std::optional<bool>(true));
        QCOMPARE(asked.pipeline, std::optional<bool>(true));
        QCOMPARE(asked.ulysses, std::optional<bool>(false));
        QCOMPARE(asked.expert, std::optional<bool>());
        QVERIFY(asked.layout());
        QVERIFY(s.parallel.auto_tensor && s.parallel.auto_pipeline && !s.parallel.auto_ulysses);
        QCOMPARE(s.parallel.tensor, std::int64_t{1});
        QCOMPARE(s.parallel.pipeline, std::int64_t{1});
        QCOMPARE(s.parallel.virtual_stages, std::int64_t{1});
        QVERIFY(!s.parallel.sequence_parallel);
        QCOMPARE(a.get(cli::opt::tp), std::optional<std::string>("auto"));  // the arguments as typed
        QVERIFY_THROWS_EXCEPTION(InputError, cli::scenario_from_args(a));   // estimate's parser refuses auto
    }
};

ZP_TEST_APPLESS_MAIN(TestCliOptions)
#include "tst_cli_options.moc"
