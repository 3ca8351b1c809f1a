#include "app/single_instance.h"

#include <QDir>
#include <QLocalServer>
#include <QLocalSocket>
#include <QStandardPaths>

namespace zp::app {

namespace {
// The protocol: the path in UTF-8 and a newline; the window answers "ok\n" once it has it.
constexpr char kAck[] = "ok\n";
// Long enough for a window busy redrawing; a window that never answers is taken as gone.
constexpr int kTimeoutMs = 3000;
}  // namespace

QString SingleInstance::socketPath() {
    return QDir(QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation)).filePath(QStringLiteral("zero-planner.socket"));
}

bool SingleInstance::forward(const QString& path) {
    QLocalSocket socket;
    socket.connectToServer(socketPath());
    if (!socket.waitForConnected(kTimeoutMs)) return false;  // nobody listens (or a dead window's socket)
    socket.write(path.toUtf8() + '\n');
    if (!socket.waitForBytesWritten(kTimeoutMs)) return false;
    QByteArray reply;
    while (!reply.endsWith('\n') && socket.waitForReadyRead(kTimeoutMs)) reply += socket.readAll();
    return reply == kAck;
}

bool SingleInstance::running() {
    QLocalSocket socket;
    socket.connectToServer(socketPath());
    return socket.waitForConnected(kTimeoutMs);
}

SingleInstance::SingleInstance(QObject* parent) : QObject(parent), server_(new QLocalServer(this)) {
    connect(server_, &QLocalServer::newConnection, this, [this] {
        while (QLocalSocket* socket = server_->nextPendingConnection()) {
            connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
            connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
                if (!socket->canReadLine()) return;
                const QString path = QString::fromUtf8(socket->readLine()).chopped(1);
                socket->write(kAck);
                socket->flush();
                socket->disconnectFromServer();
                emit openRequested(path);
            });
        }
    });
}

bool SingleInstance::listen() {
    server_->setSocketOptions(QLocalServer::UserAccessOption);
    if (server_->listen(socketPath())) return true;
    // forward() found nobody there: the socket is a killed window's.
    QLocalServer::removeServer(socketPath());
    return server_->listen(socketPath());
}

}  // namespace zp::app
