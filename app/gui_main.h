#pragma once
// Starting the window, the `screenshot` command, and the no-display start.
namespace zp::app {

int gui_main(int argc, char** argv);

}  // namespace zp::app
