#include "app/gui_main.h"

#include "app/window_start.h"

#include "app/cli/cli.h"
#include "app/cli/start.h"
#include "app/cli/text_report.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/deepspeed/config_export.h"
#include "core/search/scenario_edits.h"
#include "ui/dialogs/platform_messages.h"
#include "ui/document/planner_document.h"
#include "ui/export/screenshot.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "zp_version.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <filesystem>
#include <iostream>

namespace zp::app {
namespace {

// Qt is given the program name only: every argument is ours and already parsed (Qt would take
// --session for its X11 session manager).
constexpr int kQtArgc = 1;

// QSettings go to ~/.config/zeroplanner/zero-planner.conf (no space in the folder name). The
// desktop file name is the app id packaging installs the .desktop file under (ZP_APP_ID in
// packaging/CMakeLists.txt), so Wayland matches the window with its entry and icon.
void set_application_names() {
    QCoreApplication::setOrganizationName(QStringLiteral("zeroplanner"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("zeroplanner.github.io"));
    QCoreApplication::setApplicationName(QStringLiteral("zero-planner"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ZP_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.zeroplanner.ZeroPlanner"));
}

// Offscreen rendering with pinned DPI, so pictures do not depend on the desktop; `scale` device
// pixels per point (screenshot --scale).
void prepare_offscreen(int scale = 1) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_FONT_DPI", "96");
    qputenv("QT_SCALE_FACTOR", QByteArray::number(scale));
    qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
}

// The application pictures and reports are made in: offscreen, with the pinned appearance, and
// without Qt's notes about the offscreen platform on stderr.
class OffscreenApplication {
public:
    explicit OffscreenApplication(char** argv, int scale = 1) : app_((prepare_offscreen(scale), argc_), argv) {
        set_application_names();
        ui::pinAppearance(app_);
    }

private:
    const ui::QuietPlatformMessages quiet_;
    int argc_ = kQtArgc;
    QApplication app_;
};

// The one way pictures are made: in an OffscreenApplication, written atomically.
int render_offscreen(char** argv, const Scenario& s, const QString& view, const QSize& size, const QString& path,
                     const QString& logText = QString(), const QString& logName = QString(), int scale = 1,
                     const std::vector<PlanPin>& pins = {}, const QString& lang = QString()) {
    const OffscreenApplication app(argv, scale);
    // Pictures speak the system's language (LANG=zh_CN.UTF-8 zero-planner screenshot), not the one
    // chosen in Preferences: a command's output follows its environment, unless --lang names one
    // of the window's translations. `report` stays English, as the command line's text and the
    // core's sentences it holds.
    if (lang.isEmpty()) {
        ui::applyLanguage(QLocale::system());
    } else {
        QStringList codes;
        for (const ui::Language& l : ui::availableLanguages())
            if (!l.code.isEmpty()) codes << l.code;
        if (!codes.contains(lang)) {
            std::cerr << "zero-planner: --lang must be one of " << codes.join(QStringLiteral(", ")).toStdString() << ", got '"
                      << lang.toStdString() << "'\n";
            return cli::kExitBadInput;
        }
        ui::applyLanguage(QLocale(lang));
    }
    QString error;
    if (!ui::saveScreenshot(s, view, size, path, &error, logText, logName, pins)) {
        std::cerr << "zero-planner: " << error.toStdString() << "\n";
        return cli::kExitBadInput;
    }
    return cli::kExitOk;
}

// `zero-planner report`: the window's File > Export Report..., offscreen, at the screenshot's size.
int report(char** argv, const cli::ReportRequest& r) {
    const OffscreenApplication app(argv);
    ui::applyLanguage(QLocale(QLocale::English, QLocale::UnitedStates));  // English whatever LANG says (see render_offscreen)
    ui::MainWindow window(ui::MainWindow::Ephemeral);
    window.document()->reset(r.scenario);
    window.resize(1480, 920);
    window.setAttribute(Qt::WA_DontShowOnScreen, true);
    window.show();
    QCoreApplication::processEvents();
    QString error;
    if (!window.exportReport(QString::fromStdString(r.out), r.markdown, &error)) {
        std::cerr << "zero-planner: " << error.toStdString() << "\n";
        return cli::kExitBadInput;
    }
    return cli::kExitOk;
}

int screenshot(char** argv, const cli::ScreenshotRequest& r) {
    return render_offscreen(argv, r.scenario, QString::fromStdString(r.view), QSize(r.width, r.height), QString::fromStdString(r.out),
                            QString::fromStdString(r.log_text), QString::fromStdString(r.log_name), r.scale, r.pins,
                            QString::fromStdString(r.lang));
}

// No display: say what the window would have shown, and leave its picture and config behind. Both
// files or neither: the picture is rendered beside its name and renamed once the config is
// written; the plan is printed once both are there (a failure prints only its reason).
int headless_start(char** argv, const cli::Start& start) {
    namespace fs = std::filesystem;
    const Scenario& s = *start.scenario;
    const Plan plan = recommend(s);
    const QString folder = QDir::current().absoluteFilePath(QStringLiteral("zero-planner-output"));
    const auto fail = [](const std::string& why) {
        std::cerr << "zero-planner: " << why << "\n";
        return cli::kExitBadInput;
    };
    if (QFileInfo(folder).exists() && !QFileInfo(folder).isDir())
        return fail(folder.toStdString() + " is a file; the window's picture and ds_config.json go into a folder of that name: " +
                    "move the file, or start zero-planner from another folder");
    if (!QDir().mkpath(folder))
        return fail("cannot create " + folder.toStdString() + ": the current folder is not writable; start zero-planner from one that is");
    const QString png = folder + QStringLiteral("/window.png");
    const QString png_partial = folder + QStringLiteral("/.window.png.partial");
    if (const int rc = render_offscreen(argv, s, QStringLiteral("window"), QSize(1480, 920), png_partial); rc != cli::kExitOk) return rc;
    const Scenario best = plan.feasible ? with_candidate(s, plan.best) : s;
    const std::string config_path = (folder + QStringLiteral("/ds_config.json")).toStdString();
    std::error_code ec;
    try {
        write_file_atomically(config_path, deepspeed_config_text(best));
    } catch (const InputError& e) {
        fs::remove(png_partial.toStdString(), ec);
        return fail(e.what());
    }
    fs::rename(png_partial.toStdString(), png.toStdString(), ec);
    if (ec) {
        fs::remove(png_partial.toStdString(), ec);
        return fail(png.toStdString() + ": cannot write: " + ec.message());
    }
    std::cout << "No display (" << start.no_display_reason << "): showing the plan here instead of the window.\n"
              << cli::scenario_header(s, start.notes.synthesized, start.notes.host) << cli::plan_text(s, plan);
    std::cout << "\nWrote " << png.toStdString() << " and " << config_path << "\n"
              << "Run zero-planner under a display (or xvfb-run zero-planner) for the window.\n";
    return cli::kExitOk;
}

int window(char** argv, const cli::Start& start) {
    int argc = kQtArgc;
    QApplication app(argc, argv);
    set_application_names();
    ui::applyLanguage(ui::preferredLocale());
    return run_window(start);
}

}  // namespace

int gui_main(char** argv, const cli::Start& start) {
    switch (start.kind) {
    case cli::StartKind::Screenshot: return screenshot(argv, start.screenshot);
    case cli::StartKind::Report: return report(argv, start.report);
    case cli::StartKind::Headless: return headless_start(argv, start);
    case cli::StartKind::Window: return window(argv, start);
    case cli::StartKind::Command:
    case cli::StartKind::Error: break;
    }
    return cli::kExitBadInput;  // app/main.cpp handles these
}

}  // namespace zp::app
