#pragma once
// The environment every widget test runs in, set before QApplication exists (a test class's
// static initMain(), which QTEST_MAIN calls first): the offscreen platform and 96 DPI, so text
// and pixel sizes are the same on every machine, with or without a display. CTest sets the same
// variables (tests/ui/CMakeLists.txt); this makes running a test binary by hand match.
#include <QByteArray>

namespace zp::test {

inline void use_offscreen_platform() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("QT_FONT_DPI", "96");
}

}  // namespace zp::test
