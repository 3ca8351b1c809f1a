#pragma once
// One window per user for sessions opened from the file manager (packaging/*.desktop runs
// `zero-planner %f`): a start finds the running window through a local socket in the user's
// runtime directory ($XDG_RUNTIME_DIR/zero-planner.socket), hands it the file's absolute path
// and exits 0; the running window opens it, asking about unsaved edits as File > Open does. A
// plain `zero-planner` raises the running window. The first window listens; a socket a killed
// window left behind is taken over.
#include <QObject>
#include <QString>

class QLocalServer;

namespace zp::app {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    static QString socketPath();

    // Sends `path` (absolute; empty: show the window) to a running window. True when it answered.
    static bool forward(const QString& path);
    // Whether a window listens (a probe that sends nothing).
    static bool running();

    explicit SingleInstance(QObject* parent = nullptr);
    // Becomes the window others forward to. False when the socket cannot be made.
    bool listen();

signals:
    // A later start's file (empty: no file, show the window).
    void openRequested(const QString& path);

private:
    QLocalServer* server_;
};

}  // namespace zp::app
