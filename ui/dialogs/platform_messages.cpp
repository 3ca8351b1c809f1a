#include "ui/dialogs/platform_messages.h"

#include <QByteArray>
#include <QLatin1String>

#include <atomic>
#include <cstdio>

namespace zp::ui {

bool isPlatformChatter(QtMsgType type, const char* category, const QString& message) {
    if (type == QtCriticalMsg || type == QtFatalMsg) return false;
    if (category && QLatin1String(category).startsWith(QLatin1String("qt."))) return true;
    // Printed with plain qWarning(), so in the "default" category like an application's own.
    static const QLatin1String kUncategorised[] = {
        QLatin1String("QStandardPaths: "),               // XDG_RUNTIME_DIR not set or with the wrong permissions
        QLatin1String("This plugin does not support "),  // offscreen: propagateSizeHints(), raise(), ...
    };
    for (const QLatin1String& prefix : kUncategorised)
        if (message.startsWith(prefix)) return true;
    return false;
}

namespace {
std::atomic<QtMessageHandler> g_previous{nullptr};

void dropChatter(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (isPlatformChatter(type, context.category, message)) return;
    if (const QtMessageHandler previous = g_previous.load()) {
        previous(type, context, message);
    } else {
        std::fprintf(stderr, "%s\n", qFormatLogMessage(type, context, message).toLocal8Bit().constData());
    }
}
}  // namespace

QuietPlatformMessages::QuietPlatformMessages() : previous_(qInstallMessageHandler(dropChatter)) { g_previous.store(previous_); }

QuietPlatformMessages::~QuietPlatformMessages() {
    qInstallMessageHandler(previous_);
    g_previous.store(nullptr);
}

}  // namespace zp::ui
