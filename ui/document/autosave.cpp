#include "ui/document/autosave.h"

#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/io/session_version.h"
#include "ui/document/planner_document.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>

namespace zp::ui {

namespace {

QString companionPath(const QString& path) { return path + QStringLiteral(".file"); }

// The core's checked write-then-rename, like File > Save (see PlannerDocument::save for why not QSaveFile).
void writeFile(const QString& path, const std::string& text) { write_file_atomically(path.toStdString(), text); }

bool nobodyCanAnswer() {
    const QString platform = QGuiApplication::platformName();
    return platform == QLatin1String("offscreen") || platform == QLatin1String("minimal");
}

}  // namespace

QString Autosave::defaultPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("autosave.zplan"));
}

Autosave::Autosave(PlannerDocument* doc, const QString& path, int delayMs, QObject* parent) : QObject(parent), doc_(doc), path_(path) {
    timer_.setSingleShot(true);
    timer_.setInterval(delayMs);
    connect(&timer_, &QTimer::timeout, this, &Autosave::onTimer);
    connect(doc, &PlannerDocument::scenarioChanged, this, &Autosave::schedule);
    connect(doc, &PlannerDocument::filePathChanged, this, &Autosave::schedule);
    // Saved, or undone back to the file: nothing is left to lose.
    connect(doc, &PlannerDocument::modifiedChanged, this, [this](bool modified) {
        if (modified || discarded_) return;
        timer_.stop();
        removeAutosave(path_);
    });
    if (doc->isModified()) schedule();  // edits made before it was there (a restore, the command line)
}

// Not restarted by every edit: a long slider drag is written a few seconds after it began, and
// again after it ends.
void Autosave::schedule() {
    if (!discarded_ && !timer_.isActive()) timer_.start();
}

void Autosave::onTimer() {
    QString error;
    if (!writeNow(&error)) emit writeFailed(error);
}

bool Autosave::writeNow(QString* error) {
    timer_.stop();
    if (discarded_) return true;
    if (!doc_->isModified()) {
        removeAutosave(path_);
        return true;
    }
    try {
        if (!QDir().mkpath(QFileInfo(path_).absolutePath()))
            throw InputError("cannot create " + QFileInfo(path_).absolutePath().toStdString());
        // The file name first: a session without it would be restored untitled, which is safe;
        // a name without its session would restore an older autosave onto the wrong file.
        writeFile(companionPath(path_), doc_->filePath().toStdString());
        writeFile(path_, doc_->sessionText());  // the scenario and its pins
        return true;
    } catch (const InputError& e) {
        *error = tr("Cannot autosave: %1").arg(QString::fromStdString(e.what()));
        return false;
    }
}

void Autosave::discard() {
    timer_.stop();
    discarded_ = true;
    removeAutosave(path_);
}

std::optional<AutosavedSession> readAutosave(const QString& path, QString* error, bool* newer) {
    if (!QFileInfo::exists(path)) return std::nullopt;
    AutosavedSession s;
    try {
        SessionFile f = parse_session_file(read_text_file(path.toStdString()), "autosave.zplan");
        s.scenario = std::move(f.scenario);
        s.pins = std::move(f.pins);
    } catch (const NewerSessionError& e) {
        *error = QString::fromStdString(e.what());
        if (newer) *newer = true;
        return std::nullopt;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return std::nullopt;
    }
    QFile companion(companionPath(path));
    if (companion.open(QIODevice::ReadOnly)) s.file = QString::fromUtf8(companion.readAll());
    return s;
}

void removeAutosave(const QString& path) {
    QFile::remove(path);
    QFile::remove(companionPath(path));
}

RestoreAnswer askRestore(QWidget* parent, const AutosavedSession& session) {
    const QByteArray answer = qgetenv("ZP_RESTORE_AUTOSAVE");
    if (answer == "restore") return RestoreAnswer::Restore;
    if (answer == "discard") return RestoreAnswer::Discard;
    if (nobodyCanAnswer()) return RestoreAnswer::Later;
    QMessageBox box(QMessageBox::Question, QCoreApplication::translate("Autosave", "Restore Unsaved Work"),
                    session.file.isEmpty()
                        ? QCoreApplication::translate("Autosave", "ZeRO Planner did not quit normally. Restore the unsaved edits?")
                        : QCoreApplication::translate("Autosave", "ZeRO Planner did not quit normally. Restore the unsaved edits to %1?")
                              .arg(QFileInfo(session.file).fileName()),
                    QMessageBox::NoButton, parent);
    box.setInformativeText(QCoreApplication::translate("Autosave", "Discard deletes them."));
    QPushButton* restore = box.addButton(QCoreApplication::translate("Autosave", "&Restore"), QMessageBox::AcceptRole);
    box.addButton(QCoreApplication::translate("Autosave", "&Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.exec();
    return box.clickedButton() == restore ? RestoreAnswer::Restore : RestoreAnswer::Discard;
}

void restoreSession(PlannerDocument* doc, const AutosavedSession& session) {
    QString ignored;  // a file gone or changed beyond reading: the edits come back untitled
    if (!session.file.isEmpty()) doc->open(session.file, &ignored);
    doc->editSession(session.scenario, session.pins, QCoreApplication::translate("Autosave", "Restore unsaved edits"));
}

std::optional<RestoreAnswer> offerRestore(PlannerDocument* doc, QWidget* parent, const QString& path) {
    QString error;
    bool newer = false;
    const std::optional<AutosavedSession> session = readAutosave(path, &error, &newer);
    if (!session) {
        if (!error.isEmpty()) {
            qWarning("zero-planner: the autosaved session cannot be read: %s", qPrintable(error));
            // Kept for the newer zero-planner that wrote it; anything else cannot be restored.
            if (!newer) removeAutosave(path);
        }
        return std::nullopt;
    }
    const RestoreAnswer answer = askRestore(parent, *session);
    if (answer == RestoreAnswer::Restore) restoreSession(doc, *session);
    else if (answer == RestoreAnswer::Discard) removeAutosave(path);
    return answer;
}

}  // namespace zp::ui
