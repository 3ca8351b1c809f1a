#pragma once
// The Qt side of a start (app/cli/start.h): the window, the `screenshot` command, and the
// start without a display.
namespace zp::cli {
struct Start;
}

namespace zp::app {

// argv: the program's own (Qt is given its name only).
int gui_main(char** argv, const cli::Start& start);

}  // namespace zp::app
