#pragma once
// Offscreen renders (`zero-planner screenshot`, the start without a display) made Qt's platform
// layer talk about itself on stderr: "QStandardPaths: XDG_RUNTIME_DIR not set, ...", "This
// plugin does not support propagateSizeHints()". None of it is for the user, and a headless
// start should print only the plan. QuietPlatformMessages drops those lines while it lives and
// passes every other message to the handler it replaced.
#include <QString>
#include <QtGlobal>

namespace zp::ui {

// Qt talking about its platform: a debug, info or warning message in one of Qt's own logging
// categories (qt.*), or one of the uncategorised platform warnings above. Critical and fatal
// messages, and everything else, are not chatter.
bool isPlatformChatter(QtMsgType type, const char* category, const QString& message);

class QuietPlatformMessages {
public:
    QuietPlatformMessages();
    ~QuietPlatformMessages();
    QuietPlatformMessages(const QuietPlatformMessages&) = delete;
    QuietPlatformMessages& operator=(const QuietPlatformMessages&) = delete;

private:
    QtMessageHandler previous_;
};

}  // namespace zp::ui
