// The command-line parser (app/cli/args.cpp): positionals, "--key value", "--key=value", flags,
// short options such as "-o FILE", and the errors args.h promises (unknown option, missing value, repeated option). The
// command word is taken off before parse_args (app/cli/start.cpp), so the rows start after it.
// Every row is literal: the argv typed and the parse or the error expected.
#include "app/cli/args.h"
#include "core/base/errors.h"

#include "test_main.h"

using namespace zp::cli;

namespace {
// The caller names every option, short ones too (app/cli/options.h): "-o" takes a value because it is listed.
const std::set<std::string> kValues = {"--model", "--gpus", "--format", "--world-size", "--headroom", "-o"};
const std::set<std::string> kFlags = {"--json", "--help", "-h"};

std::vector<std::string> to_argv(const QStringList& list) {
    std::vector<std::string> v;
    for (const QString& s : list) v.push_back(s.toStdString());
    return v;
}

// The parse as one line: positionals|key=value ...|flags, in sorted key order.
QString describe(const Args& a) {
    QStringList positionals, values, flags;
    for (const std::string& p : a.positionals) positionals << QString::fromStdString(p);
    for (const auto& [k, v] : a.values) values << QString::fromStdString(k + "=" + v);
    for (const std::string& f : a.flags) flags << QString::fromStdString(f);
    return positionals.join(QLatin1Char(' ')) + QLatin1Char('|') + values.join(QLatin1Char(' ')) + QLatin1Char('|') +
           flags.join(QLatin1Char(' '));
}
}  // namespace

class TestArgs : public QObject {
    Q_OBJECT
private slots:
    // clang-format off
    void parses_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("parsed");  // positionals|values|flags
        QTest::newRow("nothing") << QStringList{} << "||";
        QTest::newRow("--key value") << QStringList{QStringLiteral("--gpus"), QStringLiteral("8")}
                                     << "|--gpus=8|";
        QTest::newRow("--key=value") << QStringList{QStringLiteral("--gpus=8")} << "|--gpus=8|";
        QTest::newRow("--key=value keeps later '=' in the value")
            << QStringList{QStringLiteral("--model=a=b")} << "|--model=a=b|";
        QTest::newRow("--key= is an empty value") << QStringList{QStringLiteral("--model=")} << "|--model=|";
        QTest::newRow("a value may start with a dash: --gpus -8")
            << QStringList{QStringLiteral("--gpus"), QStringLiteral("-8")} << "|--gpus=-8|";
        QTest::newRow("flags") << QStringList{QStringLiteral("--json"), QStringLiteral("-h")}
                               << "||--json -h";
        QTest::newRow("-o FILE") << QStringList{QStringLiteral("--format"), QStringLiteral("deepspeed"),
                                                QStringLiteral("-o"), QStringLiteral("ds.json")}
                                 << "|--format=deepspeed -o=ds.json|";
        QTest::newRow("a positional and an option")
            << QStringList{QStringLiteral("ds_config.json"), QStringLiteral("--world-size"), QStringLiteral("16")}
            << "ds_config.json|--world-size=16|";
        QTest::newRow("a lone dash is a positional (stdin)") << QStringList{QStringLiteral("-")} << "-||";
        QTest::newRow("several positionals") << QStringList{QStringLiteral("a.json"), QStringLiteral("b.json")}
                                             << "a.json b.json||";
    }
    // clang-format on
    void parses() {
        QFETCH(QStringList, argv);
        QFETCH(QString, parsed);
        QCOMPARE(describe(parse_args(to_argv(argv), kValues, kFlags)), parsed);
    }

    void get_has_flag() {
        const Args a = parse_args({"--gpus=8", "--json"}, kValues, kFlags);
        QCOMPARE(a.get("--gpus"), std::optional<std::string>("8"));
        QCOMPARE(a.get("--model"), std::optional<std::string>());
        QVERIFY(a.has("--gpus"));
        QVERIFY(!a.has("--json"));  // a flag is not a value
        QVERIFY(a.flag("--json"));
        QVERIFY(!a.flag("--gpus"));
    }

    // clang-format off
    void errors_data() {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("knownBug");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--nope"), QStringLiteral("1")}
                                        << "unknown option '--nope'; see zero-planner --help" << "";
        QTest::newRow("unknown option with =") << QStringList{QStringLiteral("--nope=1")}
                                               << "unknown option '--nope'; see zero-planner --help" << "";
        QTest::newRow("unknown short option") << QStringList{QStringLiteral("-x")}
                                              << "unknown option '-x'; see zero-planner --help" << "";
        QTest::newRow("-o=FILE is not -o FILE") << QStringList{QStringLiteral("-o=ds.json")}
                                                << "unknown option '-o=ds.json'; see zero-planner --help" << "";
        QTest::newRow("a bare --") << QStringList{QStringLiteral("--")}
                                   << "unknown option '--'; see zero-planner --help" << "";
        QTest::newRow("missing value at the end") << QStringList{QStringLiteral("--gpus")}
                                                  << "option --gpus needs a value" << "";
        QTest::newRow("missing value before another option")
            << QStringList{QStringLiteral("--model"), QStringLiteral("--json")} << "option --model needs a value"
            << "parses as --model=--json: a value-taking option swallows the next option";
        QTest::newRow("-o without a file") << QStringList{QStringLiteral("-o")} << "option -o needs a value"
                                           << "";
        QTest::newRow("-o followed by an option") << QStringList{QStringLiteral("-o"), QStringLiteral("--json")}
                                                  << "option -o needs a value"
                                                  << "parses as -o=--json, like --model --json";
        QTest::newRow("a flag given a value") << QStringList{QStringLiteral("--json=yes")}
                                              << "option --json takes no value" << "";
        QTest::newRow("repeated option") << QStringList{QStringLiteral("--gpus"), QStringLiteral("8"),
                                                        QStringLiteral("--gpus"), QStringLiteral("16")}
                                         << "option --gpus is given twice" << "";
        QTest::newRow("repeated option, both spellings")
            << QStringList{QStringLiteral("--gpus=8"), QStringLiteral("--gpus"), QStringLiteral("8")}
            << "option --gpus is given twice" << "";
        QTest::newRow("repeated -o") << QStringList{QStringLiteral("-o"), QStringLiteral("a"), QStringLiteral("-o"),
                                                    QStringLiteral("b")}
                                     << "option -o is given twice" << "";
        QTest::newRow("repeated flag") << QStringList{QStringLiteral("--json"), QStringLiteral("--json")}
                                       << "option --json is given twice"
                                       << "accepted: args.h promises an error on any repeated option, args.cpp checks values only";
    }
    // clang-format on
    void errors() {
        QFETCH(QStringList, argv);
        QFETCH(QString, error);
        QFETCH(QString, knownBug);
        QString actual;
        try {
            parse_args(to_argv(argv), kValues, kFlags);
        } catch (const zp::InputError& e) {
            actual = QString::fromStdString(e.what());
        }
        if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable(knownBug), Continue);
        QCOMPARE(actual, error);
    }
};

ZP_TEST_APPLESS_MAIN(TestArgs)
#include "tst_args.moc"
