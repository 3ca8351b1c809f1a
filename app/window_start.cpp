#include "app/window_start.h"

#include "app/cli/cli.h"
#include "app/cli/start.h"
#include "app/single_instance.h"
#include "core/io/scenario_json.h"
#include "ui/document/autosave.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStatusBar>

#include <iostream>
#include <memory>

namespace zp::app {

namespace {

bool hook(const char* name) { return qgetenv(name) == "1"; }

// ZP_PRINT_SESSION's line.
void printSession(const ui::PlannerDocument& doc, const char* event) {
    QJsonObject o;
    o[QStringLiteral("event")] = QString::fromLatin1(event);
    o[QStringLiteral("modified")] = doc.isModified();
    o[QStringLiteral("file")] = doc.filePath();
    o[QStringLiteral("session")] = QJsonDocument::fromJson(QByteArray::fromStdString(session_text(doc.scenario()))).object();
    std::cout << QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString() << std::endl;
}

}  // namespace

int run_window(const cli::Start& start) {
    // A session file or a plain start goes to the window already open. A start with scenario
    // options describes a plan of its own and gets a window of its own.
    const bool forwardable = !start.scenario;
    if (forwardable) {
        const QString path =
            start.session_path.empty() ? QString() : QFileInfo(QString::fromStdString(start.session_path)).absoluteFilePath();
        if (SingleInstance::forward(path)) return cli::kExitOk;
    }
    // The first window listens and keeps the autosave; a second one (started with options while
    // the first is open) does neither, so the two never write over each other's files. A socket
    // that cannot be made costs only the forwarding, not the autosave.
    SingleInstance instance;
    const bool primary = forwardable || !SingleInstance::running();
    if (primary && !instance.listen()) qWarning("zero-planner: cannot listen on %s", qPrintable(SingleInstance::socketPath()));

    ui::MainWindow window(ui::MainWindow::Persistent);
    ui::PlannerDocument* doc = window.document();
    if (start.scenario) {
        if (hook("ZP_OPTIONS_AS_EDIT")) doc->edit(*start.scenario, QCoreApplication::translate("WindowStart", "Command-line options"));
        else window.startUntitled(*start.scenario);
    }
    window.show();

    std::unique_ptr<ui::Autosave> autosave;
    if (primary) {
        ui::offerRestore(doc, &window, ui::Autosave::defaultPath());
        autosave = std::make_unique<ui::Autosave>(doc, ui::Autosave::defaultPath());
        QObject::connect(autosave.get(), &ui::Autosave::writeFailed, &window,
                         [&window](const QString& error) { window.statusBar()->showMessage(error, 10000); });
        // The window closed normally (saved, or the edits discarded when asked): nothing to offer back.
        QObject::connect(qApp, &QCoreApplication::aboutToQuit, autosave.get(), &ui::Autosave::discard);
    }
    // A session named on the command line (how the file manager opens a .zplan) goes the way of
    // File > Open: confirmSave first (a restored last session is unmodified, so nothing is
    // asked), and a message box says why when the file cannot be read.
    if (!start.session_path.empty()) window.openFile(QString::fromStdString(start.session_path));

    const bool print = hook("ZP_PRINT_SESSION");
    // Queued: the dialogs openFile may show do not run inside the socket's signal.
    QObject::connect(
        &instance, &SingleInstance::openRequested, &window,
        [&window, doc, print](const QString& path) {
            window.setWindowState(window.windowState() & ~Qt::WindowMinimized);
            window.raise();
            window.activateWindow();
            if (!path.isEmpty()) window.openFile(path);
            if (print) printSession(*doc, "open");
        },
        Qt::QueuedConnection);
    if (print) printSession(*doc, "start");
    return QApplication::exec();
}

}  // namespace zp::app
