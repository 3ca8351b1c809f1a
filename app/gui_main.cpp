#include "app/gui_main.h"

#include "app/cli/args.h"
#include "app/cli/cli.h"
#include "app/cli/number_parse.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_report.h"
#include "core/model/default_scenario.h"
#include "core/deepspeed/config_export.h"
#include "core/model/errors.h"
#include "core/io/file_io.h"
#include "core/search/recommender.h"
#include "ui/main_window.h"
#include "ui/screenshot.h"
#include "zp_version.h"

#include <QApplication>
#include <QDir>
#include <QMessageBox>

#include <cstdlib>
#include <iostream>
#include <vector>

namespace zp::app {
namespace {

void set_application_names() {
    QCoreApplication::setOrganizationName(QStringLiteral("ZeRO Planner"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("zero-planner.org"));
    QCoreApplication::setApplicationName(QStringLiteral("zero-planner"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ZP_VERSION));
}

// Offscreen rendering with pinned DPI, so pictures do not depend on the desktop.
void prepare_offscreen() {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_FONT_DPI", "96");
    qputenv("QT_SCALE_FACTOR", "1");
    qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
}

// The one way pictures are made: offscreen, pinned appearance, written atomically.
int render_offscreen(int argc, char** argv, const Scenario& s, const QString& view, const QSize& size, const QString& path) {
    prepare_offscreen();
    QApplication app(argc, argv);
    set_application_names();
    ui::pinAppearance(app);
    QString error;
    if (!ui::saveScreenshot(s, view, size, path, &error)) {
        std::cerr << "zero-planner: " << error.toStdString() << "\n";
        return cli::kExitBadInput;
    }
    return cli::kExitOk;
}

QSize parse_size(const std::string& text) {
    const auto x = text.find('x');
    if (x == std::string::npos) throw InputError("--size must be WIDTHxHEIGHT, e.g. 1480x920, got '" + text + "'");
    const auto w = cli::parse_positive_int(text.substr(0, x), "--size width", 8000);
    const auto h = cli::parse_positive_int(text.substr(x + 1), "--size height", 8000);
    if (w < 200 || h < 150) throw InputError("--size must be at least 200x150, got '" + text + "'");
    return {static_cast<int>(w), static_cast<int>(h)};
}

int screenshot_command(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    Scenario scenario;
    std::string out, view = "window";
    QSize size(1480, 920);
    try {
        std::set<std::string> values = cli::scenario_option_names();
        values.insert({"--out", "--view", "--size"});
        const cli::Args a = cli::parse_args(args, values, {"--help", "-h"});
        if (a.flag("--help") || a.flag("-h")) {
            std::cout << cli::help_text();
            return cli::kExitOk;
        }
        if (!a.positionals.empty()) throw InputError("unexpected argument '" + a.positionals.front() + "'");
        if (!a.has("--out")) throw InputError("screenshot needs --out FILE.png");
        out = *a.get("--out");
        view = a.get("--view").value_or("window");
        if (auto s = a.get("--size")) size = parse_size(*s);
        scenario = cli::scenario_from_args(a);
    } catch (const InputError& e) {
        std::cerr << "zero-planner: " << e.what() << "\n";
        return cli::kExitBadInput;
    }
    return render_offscreen(argc, argv, scenario, QString::fromStdString(view), size, QString::fromStdString(out));
}

// No display: say what the window would have shown, and leave its picture and config behind.
int headless_start(int argc, char** argv) {
    const Scenario s = default_scenario();
    const Plan plan = recommend(s);
    const QString folder = QDir::current().absoluteFilePath(QStringLiteral("zero-planner-output"));
    std::cout << "No display (neither DISPLAY nor WAYLAND_DISPLAY is set): showing the default plan here instead of the window.\n"
              << cli::scenario_header(s, false) << cli::plan_text(s, plan);
    if (!QDir().mkpath(folder)) {
        std::cerr << "zero-planner: cannot create " << folder.toStdString() << "\n";
        return cli::kExitBadInput;
    }
    const QString png = folder + QStringLiteral("/window.png");
    if (const int rc = render_offscreen(argc, argv, s, QStringLiteral("window"), QSize(1480, 920), png); rc != cli::kExitOk) return rc;
    Scenario best = s;
    if (plan.feasible) {
        best.zero = plan.best.zero;
        best.training.micro_batch = plan.best.micro_batch;
        best.training.checkpointing = plan.best.checkpointing;
    }
    const std::string config_path = (folder + QStringLiteral("/ds_config.json")).toStdString();
    try {
        write_file_atomically(config_path, deepspeed_config_text(best));
    } catch (const InputError& e) {
        std::cerr << "zero-planner: " << e.what() << "\n";
        return cli::kExitBadInput;
    }
    std::cout << "\nWrote " << png.toStdString() << " and " << config_path << "\n"
              << "Run zero-planner under a display (or xvfb-run zero-planner) for the window.\n";
    return cli::kExitOk;
}

}  // namespace

int gui_main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "screenshot") return screenshot_command(argc - 1, argv + 1);
    const bool has_display = qEnvironmentVariableIsSet("DISPLAY") || qEnvironmentVariableIsSet("WAYLAND_DISPLAY");
    const bool platform_forced = qEnvironmentVariableIsSet("QT_QPA_PLATFORM");
    if (!has_display && !platform_forced) return headless_start(argc, argv);

    QApplication app(argc, argv);
    set_application_names();
    ui::MainWindow window;
    if (argc > 1) {
        QString error;
        const QString path = QString::fromLocal8Bit(argv[1]);
        if (!window.openSession(path, &error)) QMessageBox::warning(&window, QObject::tr("Cannot open session"), error);
    }
    window.show();
    return app.exec();
}

}  // namespace zp::app
