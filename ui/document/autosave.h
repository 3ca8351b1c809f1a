#pragma once
// Never lose work (a crash or a kill loses at most the last few seconds of edits): the open
// session's unsaved edits are written to the application data directory a few seconds after an
// edit, in the .zplan format File > Save writes; a clean quit, a save, or undoing back to what was
// saved removes the file. A window that starts while one is left behind (the last one crashed or
// was killed) offers it back.
//
// Two files: `autosave.zplan`, the session, and `autosave.zplan.file`, the session file the
// edits belong to (empty when untitled), so the session format stays as it is.
#include "core/model/scenario.h"
#include "core/report/plan_pins.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <optional>
#include <vector>

class QWidget;

namespace zp::ui {

class PlannerDocument;

class Autosave : public QObject {
    Q_OBJECT
public:
    // At most this long after an edit the file holds it: short enough that a crash loses a few
    // seconds of work, long enough that a slider drag is not a write per pixel.
    static constexpr int kDelayMs = 3000;

    // <AppDataLocation>/autosave.zplan (~/.local/share/zeroplanner/zero-planner/autosave.zplan).
    static QString defaultPath();

    Autosave(PlannerDocument* doc, const QString& path, int delayMs = kDelayMs, QObject* parent = nullptr);

    QString path() const { return path_; }
    // Writes the unsaved edits now (the timer calls this); with none, removes the files.
    bool writeNow(QString* error);
    // A clean quit: the files go and nothing more is written.
    void discard();

signals:
    // An autosave could not be written (a full disk, a read-only home): the window says so.
    void writeFailed(const QString& error);

private:
    void schedule();
    void onTimer();

    PlannerDocument* doc_;
    QString path_;
    QTimer timer_;
    bool discarded_ = false;
};

// What an earlier window left behind.
struct AutosavedSession {
    Scenario scenario;
    QString file;               // the session file the edits were made to; empty when untitled
    std::vector<PlanPin> pins;  // the pinned plans (session format 9)
};

// The session an earlier window left at `path`, or nullopt when there is none or it cannot be
// read (then *error says why, and *newer whether a newer zero-planner wrote it).
std::optional<AutosavedSession> readAutosave(const QString& path, QString* error, bool* newer = nullptr);
void removeAutosave(const QString& path);

enum class RestoreAnswer { Restore, Discard, Later };

// Asks whether to restore. ZP_RESTORE_AUTOSAVE=restore|discard answers without a dialog (tests,
// scripts); on a platform nobody can answer on (offscreen, minimal) it is Later: the file stays
// for the next start and nothing waits.
RestoreAnswer askRestore(QWidget* parent, const AutosavedSession& session);

// The edits come back as one undo step, modified: on top of their file when it still opens (Save
// writes there), else on top of the session shown now (untitled).
void restoreSession(PlannerDocument* doc, const AutosavedSession& session);

// At a window's start: when an earlier window left an autosave at `path`, asks, then restores or
// removes it. Returns the answer, or nullopt when there was nothing to offer.
std::optional<RestoreAnswer> offerRestore(PlannerDocument* doc, QWidget* parent, const QString& path);

}  // namespace zp::ui
