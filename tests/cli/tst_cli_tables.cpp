// The vocabulary tables the command line, the window and the reports iterate: the commands
// (app/cli/cli.h), the export formats (core/deepspeed/export_formats.h), the memory slices
// (core/memory/memory_slices.h); the closest-name rule behind every "did you mean"
// (core/base/suggest.h); and what a start decides (app/cli/start.h). Literal lists below, not
// the tables themselves, say what is expected, so a table that loses or renames a row fails.
#include "app/cli/cli.h"
#include "app/cli/report_json.h"
#include "app/cli/start.h"
#include "core/base/file_io.h"
#include "core/base/suggest.h"
#include "core/deepspeed/export_formats.h"
#include "core/io/scenario_json.h"
#include "core/memory/memory_slices.h"
#include "core/presets/default_scenario.h"
#include "core/report/plan_pins.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <yaml-cpp/yaml.h>
#include <QTemporaryDir>
#include "test_main.h"
#include "test_text.h"

#include <set>
#include <sstream>

using namespace zp;
using zp::test::q;

namespace {

std::vector<std::string> to_std(const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& s : list) out.push_back(s.toStdString());
    return out;
}

const QStringList kCommands = {QStringLiteral("estimate"),    QStringLiteral("compare"),   QStringLiteral("recommend"),
                               QStringLiteral("ds-estimate"), QStringLiteral("export"),    QStringLiteral("session"),
                               QStringLiteral("lint"),        QStringLiteral("calibrate"), QStringLiteral("validate"),
                               QStringLiteral("diagnose"),    QStringLiteral("presets"),   QStringLiteral("screenshot"),
                               QStringLiteral("report")};
const QStringList kFormats = {QStringLiteral("deepspeed"),  QStringLiteral("hf-trainer"), QStringLiteral("hf-args"),
                              QStringLiteral("accelerate"), QStringLiteral("launch"),     QStringLiteral("peft"),
                              QStringLiteral("megatron")};
const QStringList kSliceKeys = {QStringLiteral("params"),      QStringLiteral("gradients"), QStringLiteral("optimizer_states"),
                                QStringLiteral("activations"), QStringLiteral("buffers"),   QStringLiteral("overhead")};

const cli::DisplayEnvironment kDisplay{true, false, ""};
const cli::DisplayEnvironment kOffscreen{false, false, "offscreen"};

// The scenario a window or export shows: the default one with its recommended setup.
Scenario planned_scenario() {
    const Scenario s = default_scenario();
    return with_candidate(s, recommend(s).best);
}

}  // namespace

class TestCliTables : public QObject {
    Q_OBJECT
private slots:
    // Exporting a setup that does not fit warns with the figure the fit is decided on: the step's
    // peak that must fit, and where in the step it is (LLaMA-7B ZeRO-2 with torch.optim on 8 x
    // V100 32GB dies in the optimizer step, tutorial 05).
    void export_warns_with_the_peak() {
        const std::vector<std::string> argv = {"export",    "--model",       "llama-2-7b", "--gpus",          "8",    "--gpu",
                                               "v100-32gb", "--stage",       "2",          "--precision",     "fp16", "--seq",
                                               "1024",      "--micro-batch", "1",          "--checkpointing", "full", "--fused-optimizer",
                                               "off"};
        std::ostringstream out, err;
        QCOMPARE(cli::run(argv, out, err), 0);
        const QString warning = QString::fromStdString(err.str());
        QVERIFY2(warning.startsWith(QStringLiteral("zero-planner: warning: ZeRO-2 does not fit: it needs 31.8 GiB per GPU at its peak "
                                                   "(optimizer step), 30.4 GiB usable")),
                 qPrintable(warning));
        QVERIFY(QString::fromStdString(out.str()).contains(QStringLiteral("\"stage\": 2")));
        QVERIFY(!QString::fromStdString(out.str()).contains(QStringLiteral("\"optimizer\"")));  // torch.optim: no block
    }

    // ---- commands ---------------------------------------------------------------------
    void command_table_lists_the_commands() {
        QStringList names;
        for (const cli::Command& c : cli::commands()) names << q(c.name);
        QCOMPARE(names, kCommands);
    }

    void every_command_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("rc");
        const QString model = QStringLiteral("--model"), gpt2 = QStringLiteral("gpt2");
        QTest::newRow("estimate") << QStringLiteral("estimate") << QStringList{model, gpt2} << cli::kExitOk;
        QTest::newRow("compare") << QStringLiteral("compare") << QStringList{model, gpt2} << cli::kExitOk;
        QTest::newRow("recommend") << QStringLiteral("recommend") << QStringList{model, gpt2} << cli::kExitOk;
        QTest::newRow("ds-estimate") << QStringLiteral("ds-estimate")
                                     << QStringList{QStringLiteral("--params"),        QStringLiteral("2851e6"),
                                                    QStringLiteral("--largest-layer"), QStringLiteral("32e6"),
                                                    QStringLiteral("--stage"),         QStringLiteral("3")}
                                     << cli::kExitOk;
        QTest::newRow("export") << QStringLiteral("export") << QStringList{model, gpt2} << cli::kExitOk;
        QTest::newRow("session") << QStringLiteral("session") << QStringList{model, gpt2} << cli::kExitOk;
        QTest::newRow("lint") << QStringLiteral("lint")
                              << QStringList{QStringLiteral(ZP_TEST_DATA_DIR "/lint/clean_stage3.json"), QStringLiteral("--world-size"),
                                             QStringLiteral("8")}
                              << cli::kExitOk;
        QTest::newRow("validate") << QStringLiteral("validate") << QStringList{} << cli::kExitOk;  // the bundled measured runs
        QTest::newRow("diagnose") << QStringLiteral("diagnose")
                                  << QStringList{QStringLiteral(ZP_TEST_DATA_DIR "/oom/llamafactory7532_zero3_torch_adamw.log")}
                                  << cli::kExitOk;
        QTest::newRow("presets") << QStringLiteral("presets") << QStringList{QStringLiteral("models")} << cli::kExitOk;
        // Rendered by app/gui_main.cpp: run() has no handler for it, the start decides it.
        QTest::newRow("screenshot") << QStringLiteral("screenshot") << QStringList{QStringLiteral("--out"), QStringLiteral("x.png")}
                                    << cli::kExitBadInput;
        QTest::newRow("report") << QStringLiteral("report")
                                << QStringList{QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("-o"),
                                               QStringLiteral("x.md")}
                                << cli::kExitBadInput;
    }
    // Every command is found by its name, dispatches, is in the help, and is what a one-letter
    // typo of it suggests.
    void every_command() {
        QFETCH(QString, name);
        QFETCH(QStringList, args);
        QFETCH(int, rc);
        const std::string n = name.toStdString();
        const cli::Command* c = cli::find_command(n);
        QVERIFY(c);
        QCOMPARE(q(c->name), name);

        std::vector<std::string> argv{n};
        for (const std::string& a : to_std(args)) argv.push_back(a);
        std::ostringstream out, err;
        QCOMPARE(cli::run(argv, out, err), rc);
        const cli::Start start = cli::decide_start(argv, kDisplay);
        if (c->kind == cli::CommandKind::Headless) {
            QVERIFY(c->handler);
            QVERIFY(cli::is_headless_command(n));
            QVERIFY2(!out.str().empty(), err.str().c_str());
            QCOMPARE(start.kind, cli::StartKind::Command);
        } else {
            QVERIFY(!c->handler);
            QVERIFY(!cli::is_headless_command(n));
            QVERIFY2(err.str().find("needs the window") != std::string::npos, err.str().c_str());
            QCOMPARE(start.kind, name == QLatin1String("report") ? cli::StartKind::Report : cli::StartKind::Screenshot);
        }

        const QString help = QString::fromStdString(cli::help_text());
        QVERIFY2(help.contains(QStringLiteral("\n  ") + q(c->usage) + QLatin1Char(' ')), qPrintable(q(c->usage)));
        QVERIFY(help.contains(q(c->summary.substr(0, c->summary.find('\n')))));

        const std::string typo = n.substr(0, n.size() - 1);
        QCOMPARE(QString::fromStdString(cli::unknown_command_message(typo)),
                 QStringLiteral("unknown command '%1' (did you mean '%2'?)").arg(QString::fromStdString(typo), name));
    }

    void unknown_commands() {
        QVERIFY(!cli::find_command("estimat"));
        QVERIFY(!cli::find_command(""));
        QVERIFY(!cli::is_headless_command("foo"));
        QCOMPARE(QString::fromStdString(cli::unknown_command_message("foo")),
                 QStringLiteral("unknown command 'foo'; commands: ") + kCommands.join(QStringLiteral(", ")));
        std::ostringstream out, err;
        QCOMPARE(cli::run({"estimat", "--model", "gpt2"}, out, err), cli::kExitBadInput);
        QCOMPARE(QString::fromStdString(err.str()), QStringLiteral("zero-planner: unknown command 'estimat' (did you mean 'estimate'?)\n"));
        QVERIFY(out.str().empty());
    }

    // ---- starts -------------------------------------------------------------------------
    void start_errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("mistyped") << QStringList{QStringLiteral("estimat"), QStringLiteral("--model"), QStringLiteral("gpt2")}
                                  << QStringLiteral("unknown command 'estimat' (did you mean 'estimate'?)");
        QTest::newRow("stray word") << QStringList{QStringLiteral("foo")} << QStringLiteral("unknown command 'foo'; commands: ");
        QTest::newRow("command second") << QStringList{QStringLiteral("--model"), QStringLiteral("gpt2"), QStringLiteral("compare")}
                                        << QStringLiteral("the command comes first: zero-planner compare");
        QTest::newRow("invalid option value") << QStringList{QStringLiteral("--gpus"), QStringLiteral("0")} << QStringLiteral("--gpus");
        QTest::newRow("unknown option") << QStringList{QStringLiteral("--gpux"), QStringLiteral("8")}
                                        << QStringLiteral("unknown option '--gpux' (did you mean '--gpu'?)");
        QTest::newRow("missing session") << QStringList{QStringLiteral("nowhere/plan.zplan")}
                                         << QStringLiteral("nowhere/plan.zplan: no such file");
        QTest::newRow("screenshot without --out") << QStringList{QStringLiteral("screenshot")} << QStringLiteral("needs --out");
        QTest::newRow("report without -o") << QStringList{QStringLiteral("report"), QStringLiteral("--format"), QStringLiteral("pdf")}
                                           << QStringLiteral("report needs -o FILE");
        QTest::newRow("report in an unknown format") << QStringList{QStringLiteral("report"), QStringLiteral("--format"),
                                                                    QStringLiteral("docx"), QStringLiteral("-o"), QStringLiteral("x.docx")}
                                                     << QStringLiteral("--format must be pdf or md, got 'docx'");
        // Found by fuzz_cli: a NUL at the start of the name ended what() there, an empty error.
        QTest::newRow("a NUL in a session name")
            << QStringList{QString::fromLatin1("\0x.zplan", 8)} << QStringLiteral("\\x00x.zplan: no such file");
        QTest::newRow("a newline in a session name stays one line")
            << QStringList{QStringLiteral("a\nb.zplan")} << QStringLiteral("a\\x0ab.zplan: no such file");
    }
    // The same error with and without a display: no window, no headless plan.
    void start_errors() {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        for (const cli::DisplayEnvironment& env : {kDisplay, kOffscreen}) {
            const cli::Start s = cli::decide_start(to_std(args), env);
            QCOMPARE(s.kind, cli::StartKind::Error);
            QVERIFY2(QString::fromStdString(s.error).startsWith(error) || QString::fromStdString(s.error).contains(error), s.error.c_str());
        }
    }

    void start_help_and_version_anywhere() {
        for (const QStringList& args : {QStringList{QStringLiteral("--help")}, QStringList{QStringLiteral("-h")},
                                        QStringList{QStringLiteral(ZP_TEST_DATA_DIR "/bad/negative_seq.zplan"), QStringLiteral("--help")},
                                        QStringList{QStringLiteral("--model"), QStringLiteral("gpt2"), QStringLiteral("--version")},
                                        QStringList{QStringLiteral("screenshot"), QStringLiteral("--help")}}) {
            QCOMPARE(cli::decide_start(to_std(args), kDisplay).kind, cli::StartKind::Command);
            std::ostringstream out, err;
            QCOMPARE(cli::run(to_std(args), out, err), cli::kExitOk);
            QVERIFY(!out.str().empty());
        }
    }

    void start_without_arguments() {
        const cli::Start window = cli::decide_start({}, kDisplay);
        QCOMPARE(window.kind, cli::StartKind::Window);
        QVERIFY(!window.scenario);  // the window's own start: the last session or the default
        QVERIFY(window.session_path.empty());
        const cli::Start headless = cli::decide_start({}, kOffscreen);
        QCOMPARE(headless.kind, cli::StartKind::Headless);
        QVERIFY(headless.scenario);
        QCOMPARE(session_text(*headless.scenario), session_text(default_plan_scenario()));
        QCOMPARE(QString::fromStdString(headless.no_display_reason), QStringLiteral("QT_QPA_PLATFORM=offscreen"));
    }

    void start_with_options() {
        const std::vector<std::string> args{"--model", "gpt2", "--gpus", "16", "--params", "13B"};
        QCOMPARE(cli::decide_start(args, kDisplay).kind, cli::StartKind::Error);  // --params contradicts --model
        for (const cli::DisplayEnvironment& env : {kDisplay, kOffscreen}) {
            const cli::Start s = cli::decide_start({"--model", "gpt2", "--gpus", "16"}, env);
            QCOMPARE(s.kind, env.x11 ? cli::StartKind::Window : cli::StartKind::Headless);
            QVERIFY(s.scenario);
            QCOMPARE(QString::fromStdString(s.scenario->model.name), QStringLiteral("gpt2"));
            QCOMPARE(s.scenario->cluster.world_size(), std::int64_t(16));
            QVERIFY(s.session_path.empty());
        }
        const cli::Start synthesized = cli::decide_start({"--params", "13B"}, kOffscreen);
        QVERIFY(synthesized.notes.synthesized);
    }

    // `session --session F` keeps F's pinned plans (and with --gpus changes only the live scenario).
    void session_command_keeps_the_pins() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SessionFile f;
        f.scenario = default_scenario();
        Scenario pinned = default_scenario();
        pinned.cluster.nodes = 2;
        f.pins.push_back({"two nodes", pinned});
        const std::string in = (dir.path() + QStringLiteral("/in.zplan")).toStdString();
        const std::string out_path = (dir.path() + QStringLiteral("/out.zplan")).toStdString();
        write_file_atomically(in, session_file_text(f));
        std::ostringstream out, err;
        QCOMPARE(cli::run({"session", "--session", in, "--gpus", "16", "-o", out_path}, out, err), cli::kExitOk);
        const SessionFile back = parse_session_file(read_text_file(out_path), "out.zplan");
        QVERIFY(back.pins == f.pins);
        QCOMPARE(back.scenario.cluster.world_size(), std::int64_t(16));
        // Without --session there are no pins, and the text is session_text's.
        std::ostringstream plain;
        QCOMPARE(cli::run({"session", "--gpus", "16"}, plain, err), cli::kExitOk);
        // ... and a new plan searches the layouts (search_layouts_by_default), as the window's does.
        Scenario fresh = back.scenario;
        search_layouts_by_default(fresh);
        QCOMPARE(QString::fromStdString(plain.str()), QString::fromStdString(session_text(fresh)));
    }

    void start_with_a_session_file() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        Scenario saved = default_scenario();
        saved.cluster.nodes = 3;
        const std::string path = (dir.path() + QStringLiteral("/plan.zplan")).toStdString();
        write_file_atomically(path, session_text(saved));

        const cli::Start window = cli::decide_start({path}, kDisplay);
        QCOMPARE(window.kind, cli::StartKind::Window);
        QCOMPARE(window.session_path, path);  // opened as the window's file
        QVERIFY(!window.scenario);

        const cli::Start headless = cli::decide_start({path}, kOffscreen);
        QCOMPARE(headless.kind, cli::StartKind::Headless);
        QCOMPARE(headless.scenario->cluster.nodes, std::int64_t(3));

        const cli::Start changed = cli::decide_start({path, "--gpus", "16"}, kDisplay);
        QCOMPARE(changed.kind, cli::StartKind::Window);
        QVERIFY(changed.session_path.empty());  // a new scenario, not the file's
        QCOMPARE(changed.scenario->cluster.world_size(), std::int64_t(16));

        QCOMPARE(cli::decide_start({path, "--session", path}, kDisplay).kind, cli::StartKind::Error);
        // Not a .zplan: a stray word, even when the file exists.
        const std::string other = (dir.path() + QStringLiteral("/plan.json")).toStdString();
        write_file_atomically(other, session_text(saved));
        QCOMPARE(cli::decide_start({other}, kDisplay).kind, cli::StartKind::Error);
    }

    void no_display_reason_data() {
        QTest::addColumn<bool>("x11");
        QTest::addColumn<bool>("wayland");
        QTest::addColumn<QString>("platform");
        QTest::addColumn<QString>("reason");
        QTest::newRow("nothing") << false << false << QString() << QStringLiteral("neither DISPLAY nor WAYLAND_DISPLAY is set");
        QTest::newRow("X11") << true << false << QString() << QString();
        QTest::newRow("Wayland") << false << true << QString() << QString();
        QTest::newRow("offscreen") << false << false << QStringLiteral("offscreen") << QStringLiteral("QT_QPA_PLATFORM=offscreen");
        QTest::newRow("offscreen beside X11") << true << false << QStringLiteral("offscreen")
                                              << QStringLiteral("QT_QPA_PLATFORM=offscreen");
        QTest::newRow("offscreen with options")
            << false << false << QStringLiteral("offscreen:fontengine=freetype") << QStringLiteral("QT_QPA_PLATFORM=offscreen");
        QTest::newRow("minimal") << false << false << QStringLiteral("minimal") << QStringLiteral("QT_QPA_PLATFORM=minimal");
        QTest::newRow("forced eglfs") << false << false << QStringLiteral("eglfs") << QString();
    }
    void no_display_reason() {
        QFETCH(bool, x11);
        QFETCH(bool, wayland);
        QFETCH(QString, platform);
        QFETCH(QString, reason);
        QCOMPARE(QString::fromStdString(cli::no_display_reason({x11, wayland, platform.toStdString()})), reason);
    }

    // The test hook that runs a real window process offscreen (tests/ui/tst_keep_work.cpp).
    void forced_window_starts_offscreen() {
        const cli::DisplayEnvironment forced{false, false, "offscreen", true};
        QCOMPARE(cli::no_display_reason(forced), std::string());
        QCOMPARE(cli::decide_start({}, forced).kind, cli::StartKind::Window);
        QCOMPARE(cli::decide_start({}, kOffscreen).kind, cli::StartKind::Headless);
    }

    void screenshot_request() {
        const cli::Start s =
            cli::decide_start({"screenshot", "--out", "a.png", "--view", "memory", "--size", "800x600", "--gpus", "16"}, kOffscreen);
        QCOMPARE(s.kind, cli::StartKind::Screenshot);
        QCOMPARE(QString::fromStdString(s.screenshot.out), QStringLiteral("a.png"));
        QCOMPARE(QString::fromStdString(s.screenshot.view), QStringLiteral("memory"));
        QCOMPARE(s.screenshot.width, 800);
        QCOMPARE(s.screenshot.height, 600);
        QCOMPARE(s.screenshot.scale, 1);
        QCOMPARE(cli::decide_start({"screenshot", "--out", "a.png", "--scale", "2"}, kOffscreen).screenshot.scale, 2);
        for (const char* bad : {"0", "3", "1.5", "x"})
            QCOMPARE(cli::decide_start({"screenshot", "--out", "a.png", "--scale", bad}, kOffscreen).kind, cli::StartKind::Error);
        QCOMPARE(s.screenshot.scenario.cluster.world_size(), std::int64_t(16));
        const cli::Start stray = cli::decide_start({"screenshot", "stray", "--out", "a.png"}, kOffscreen);
        QCOMPARE(stray.kind, cli::StartKind::Error);
        QVERIFY2(stray.error.find("unexpected argument 'stray'") != std::string::npos, stray.error.c_str());
        QCOMPARE(cli::decide_start({"screenshot", "--out", "a.png", "--size", "100x100"}, kOffscreen).kind, cli::StartKind::Error);
    }

    // ---- export formats ---------------------------------------------------------------
    void export_table_lists_the_formats() {
        QStringList ids, labels;
        std::set<std::string_view> files;
        for (const ExportFormat& f : export_formats()) {
            ids << q(f.id);
            labels << q(f.label);
            QVERIFY(!f.label.empty());
            QVERIFY2(files.insert(f.file_name).second, qPrintable(q(f.file_name) + QStringLiteral(" is the default of two formats")));
        }
        QCOMPARE(ids, kFormats);
        QCOMPARE(labels.removeDuplicates(), 0);
        QCOMPARE(QString::fromStdString(export_format_ids()), kFormats.join(QStringLiteral(", ")));
        QVERIFY(!find_export_format("yaml"));
        QVERIFY(!find_export_format(""));
    }

    // Issue 16's spellings of the ZeRO++ and pipeline-schedule options, read into the scenario the
    // session command writes: --zeropp off|hpz|hpz+qwz+qgz, --hpz-size, --pp-schedule 1f1b|interleaved:V.
    void layout_spellings_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<qlonglong>("hpz");
        QTest::addColumn<bool>("quantized");
        QTest::addColumn<qlonglong>("virtualStages");
        const auto words = [](std::initializer_list<const char*> list) {
            QStringList out{QStringLiteral("--model"), QStringLiteral("llama-2-13b"), QStringLiteral("--gpus"), QStringLiteral("32")};
            for (const char* w : list) out << QString::fromLatin1(w);
            return out;
        };
        QTest::newRow("--zeropp hpz: the secondary partition over the node only")
            << words({"--stage", "3", "--zeropp", "hpz"}) << 8LL << false << 1LL;
        QTest::newRow("--zeropp hpz+qwz+qgz: all three") << words({"--stage", "3", "--zeropp", "hpz+qwz+qgz"}) << 8LL << true << 1LL;
        QTest::newRow("--zeropp on: the same as all three") << words({"--stage", "3", "--zeropp", "on"}) << 8LL << true << 1LL;
        QTest::newRow("--zeropp off") << words({"--stage", "3", "--zeropp", "off"}) << 1LL << false << 1LL;
        QTest::newRow("--hpz-size 4 beside --zeropp hpz+qwz+qgz")
            << words({"--stage", "3", "--zeropp", "hpz+qwz+qgz", "--hpz-size", "4"}) << 4LL << true << 1LL;
        QTest::newRow("--pp-schedule interleaved:5")
            << words({"--tp", "2", "--pp", "4", "--stage", "1", "--pp-schedule", "interleaved:5"}) << 1LL << false << 5LL;
        QTest::newRow("--pp-schedule 1f1b") << words({"--tp", "2", "--pp", "4", "--stage", "1", "--pp-schedule", "1f1b"}) << 1LL << false
                                            << 1LL;
    }
    void layout_spellings() {
        QFETCH(QStringList, options);
        QFETCH(qlonglong, hpz);
        QFETCH(bool, quantized);
        QFETCH(qlonglong, virtualStages);
        std::vector<std::string> args{"session"};
        for (const QString& o : options) args.push_back(o.toStdString());
        std::ostringstream out, err;
        QCOMPARE(cli::run(args, out, err), cli::kExitOk);
        const Scenario s = parse_session(out.str(), "session.zplan");
        QCOMPARE(static_cast<qlonglong>(s.zero.hpz_partition_size), hpz);
        QCOMPARE(s.zero.quantized_weights, quantized);
        QCOMPARE(s.zero.quantized_gradients, quantized);
        QCOMPARE(static_cast<qlonglong>(s.parallel.virtual_stages), virtualStages);
    }

    void every_format_data() {
        QTest::addColumn<QString>("id");
        for (const QString& id : kFormats) QTest::newRow(qPrintable(id)) << id;
    }
    void every_format() {
        QFETCH(QString, id);
        const ExportFormat* f = find_export_format(id.toStdString());
        QVERIFY(f);
        QCOMPARE(q(f->id), id);
        const Scenario s = planned_scenario();
        const std::string text = f->render(s);
        QVERIFY(!text.empty());
        QVERIFY(text.ends_with('\n'));
        const std::string file(f->file_name);
        if (file.ends_with(".json")) {
            QVERIFY(nlohmann::json::parse(text).is_object());
        } else if (file.ends_with(".yaml")) {
            QVERIFY(YAML::Load(text).IsMap());
        } else if (id == QStringLiteral("peft")) {
            // Builds the model and ends with what the planner counts.
            QVERIFY(text.find(".from_pretrained(MODEL, ") != std::string::npos);
            QVERIFY(text.find("# trainable params: ") != std::string::npos);
        } else if (file.ends_with(".py")) {
            // Points at the HF Trainer's config, whose default name it carries.
            QVERIFY(text.find("TrainingArguments(") != std::string::npos);
            QVERIFY(text.find("deepspeed=\"" + std::string(find_export_format("hf-trainer")->file_name) + "\"") != std::string::npos);
        } else if (file.ends_with(".sh")) {
            QVERIFY(text.starts_with("#!/usr/bin/env bash\n"));
            // Megatron-DeepSpeed reads it through --deepspeed_config, a training script through --deepspeed.
            const std::string config_flag = id == QStringLiteral("megatron") ? "--deepspeed_config " : "--deepspeed ";
            QVERIFY(text.find(config_flag + std::string(find_export_format("deepspeed")->file_name)) != std::string::npos);
        } else {
            QFAIL(qPrintable(QStringLiteral("no syntax check for ") + q(f->file_name)));
        }
        if (f->after_writing) QVERIFY(f->after_writing(s, "out/my_config.json").find("out/my_config.json") != std::string::npos);
    }

    void export_command_uses_the_table() {
        for (const ExportFormat& f : export_formats()) {
            std::ostringstream out, err;
            QCOMPARE(cli::run({"export", "--format", std::string(f.id)}, out, err), cli::kExitOk);
            QCOMPARE(out.str(), f.render(planned_scenario()));
        }
        std::ostringstream out, err;
        QCOMPARE(cli::run({"export", "--format", "yaml"}, out, err), cli::kExitBadInput);
        QCOMPARE(QString::fromStdString(err.str()),
                 QStringLiteral("zero-planner: --format must be one of %1; got 'yaml'\n").arg(kFormats.join(QStringLiteral(", "))));
    }

    // ---- memory slices ----------------------------------------------------------------
    void memory_slice_table() {
        QStringList keys;
        std::set<std::string_view> unique;
        for (std::size_t i = 0; i < memory_slices().size(); ++i) {
            const MemorySlice& slice = memory_slices()[i];
            keys << q(slice.key);
            QVERIFY(unique.insert(slice.key).second);
            QCOMPARE(static_cast<std::size_t>(slice.id), i);
            QCOMPARE(&memory_slice(slice.id), &slice);
            QVERIFY(!slice.name.empty() && !slice.column.empty() && slice.column.size() <= 7);  // compare's 8-wide columns
            for (const MemoryPart& part : slice.parts) QVERIFY(unique.insert(part.key).second);
        }
        QCOMPARE(keys, kSliceKeys);
        QVERIFY(!unique.count("total"));
    }

    void slices_sum_to_the_total_data() {
        QTest::addColumn<int>("setup");
        for (std::size_t i = 0; i < zero_setups().size(); ++i) QTest::newRow(setup_label(zero_setups()[i]).c_str()) << static_cast<int>(i);
    }
    void slices_sum_to_the_total() {
        QFETCH(int, setup);
        const MemoryBreakdown m = evaluate(with_setup(default_scenario(), zero_setups()[static_cast<std::size_t>(setup)])).memory;
        double sum = 0;
        for (const MemorySlice& slice : memory_slices()) {
            sum += slice.bytes(m);
            if (slice.parts.empty()) continue;
            double parts = 0;
            for (const MemoryPart& part : slice.parts) parts += part.bytes(m);
            QCOMPARE(parts, slice.bytes(m));
        }
        QVERIFY(m.total_bytes() > 0);
        QVERIFY(std::abs(sum - m.total_bytes()) <= 1e-9 * m.total_bytes());
        QVERIFY(std::abs(m.total_bytes() - m.peak_required_bytes) <= 1e-9 * m.peak_required_bytes);  // one memory model
        QCOMPARE(memory_slice(SliceId::OptimizerStates).bytes(m), m.optimizer_states_bytes);
        // The JSON report has exactly the slices, their parts, the parameters' frozen/trainable
        // split, the total, the moment that decides it and the step's peak.
        std::set<std::string> expected{"total",         "deciding_phase", "deciding_cause", "peak_allocated", "peak_reserved",
                                       "peak_required", "peak_phase",     "peak_cause",     "params_frozen",  "params_trainable"};
        for (const MemorySlice& slice : memory_slices()) {
            expected.insert(std::string(slice.key));
            for (const MemoryPart& part : slice.parts) expected.insert(std::string(part.key));
        }
        std::set<std::string> actual;
        const nlohmann::json json = per_gpu_json(m);
        for (const auto& [key, value] : json.items()) actual.insert(key);
        QCOMPARE(actual, expected);
    }

    // ---- closest name -----------------------------------------------------------------
    void edit_distance_basics() {
        QCOMPARE(edit_distance("kitten", "sitting"), std::size_t(3));
        QCOMPARE(edit_distance("", "abc"), std::size_t(3));
        QCOMPARE(edit_distance("abc", ""), std::size_t(3));
        QCOMPARE(edit_distance("same", "same"), std::size_t(0));
        QCOMPARE(edit_distance("estimte", "estimate"), std::size_t(1));
        QCOMPARE(edit_distance("comapre", "compare"), std::size_t(2));                              // a swap is two edits
        QCOMPARE(name_distance("stage3_prefetch", "stage3_prefetch_bucket_size"), std::size_t(1));  // cut off
        QCOMPARE(name_distance("", "anything"), std::size_t(1));                                    // every name starts with ""
        QCOMPARE(typo_allowance("foo"), std::size_t(1));
        QCOMPARE(typo_allowance("estimat"), std::size_t(2));
        QCOMPARE(typo_allowance(""), std::size_t(1));
    }

    void closest_name_data() {
        QTest::addColumn<QString>("word");
        QTest::addColumn<QStringList>("candidates");
        QTest::addColumn<int>("max");           // -1: typo_allowance(word)
        QTest::addColumn<QString>("expected");  // empty: no suggestion
        const QStringList commands = kCommands;
        QTest::newRow("missing letter") << QStringLiteral("estimat") << commands << -1 << QStringLiteral("estimate");
        QTest::newRow("wrong letter") << QStringLiteral("estimte") << commands << -1 << QStringLiteral("estimate");
        QTest::newRow("swapped letters") << QStringLiteral("comapre") << commands << -1 << QStringLiteral("compare");
        QTest::newRow("cut off") << QStringLiteral("recomm") << commands << -1 << QStringLiteral("recommend");
        QTest::newRow("nothing close") << QStringLiteral("foo") << commands << -1 << QString();
        QTest::newRow("too far for its length") << QStringLiteral("plan") << commands << -1 << QString();
        QTest::newRow("exact") << QStringLiteral("lint") << commands << 0 << QStringLiteral("lint");
        QTest::newRow("max 0 allows no typo") << QStringLiteral("lnt") << commands << 0 << QString();
        QTest::newRow("tie: the earlier") << QStringLiteral("ab") << QStringList{QStringLiteral("ax"), QStringLiteral("xb")} << 1
                                          << QStringLiteral("ax");
        QTest::newRow("nearest wins over earlier")
            << QStringLiteral("abcd") << QStringList{QStringLiteral("abxy"), QStringLiteral("abcx")} << 3 << QStringLiteral("abcx");
        QTest::newRow("no candidates") << QStringLiteral("estimate") << QStringList{} << 5 << QString();
        QTest::newRow("one letter keeps nothing of another") << QStringLiteral("x") << QStringList{QStringLiteral("h")} << 1 << QString();
        QTest::newRow("the empty word suggests nothing") << QString() << commands << 3 << QString();
        QTest::newRow("option") << QStringLiteral("--modle") << QStringList{QStringLiteral("--gpus"), QStringLiteral("--model")} << -1
                                << QStringLiteral("--model");
    }
    void closest_name() {
        QFETCH(QString, word);
        QFETCH(QStringList, candidates);
        QFETCH(int, max);
        QFETCH(QString, expected);
        const std::string w = word.toStdString();
        const std::vector<std::string> c = to_std(candidates);
        const std::optional<std::string> got = max < 0 ? zp::closest_name(w, c) : zp::closest_name(w, c, static_cast<std::size_t>(max));
        QCOMPARE(got ? QString::fromStdString(*got) : QString(), expected);
        QCOMPARE(got.has_value(), !expected.isEmpty());
    }
};

ZP_TEST_APPLESS_MAIN(TestCliTables)
#include "tst_cli_tables.moc"
