#pragma once
// File > Open Recent: the sessions last opened or saved, newest first, at most kMaxFiles, kept in
// QSettings ("recent/files") so every window and the next start share them. A file that has gone
// is removed, with a message, when it is chosen.
#include <QObject>
#include <QStringList>

class QMenu;
class QWidget;

namespace zp::ui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxFiles = 8;

    // persistent: the list lives in QSettings; otherwise in memory only (screenshots, tests).
    // `parent` is the window its menu and messages belong to.
    RecentFiles(bool persistent, QWidget* parent);

    QStringList files() const;
    // To the top of the list, as an absolute path; a file already listed moves up.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();

    // The Open Recent submenu: a numbered entry per file (its path in the status bar and tool
    // tip), then Clear Menu; disabled while empty.
    QMenu* menu() const { return menu_; }
    // What choosing `path` in the menu does: opens it when it exists, else removes it and says so.
    void choose(const QString& path);

signals:
    void openRequested(const QString& path);

private:
    void store(const QStringList& files);
    void rebuildMenu();

    bool persistent_;
    QStringList memory_;  // the list when not persistent
    QMenu* menu_;
};

}  // namespace zp::ui
