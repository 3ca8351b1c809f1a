// zero-planner: app/cli/start.h decides what the arguments start; commands run without Qt,
// the window and its offscreen renders are app/gui_main.cpp's.
#include "app/cli/cli.h"
#include "app/cli/start.h"

#include <iostream>
#include <string>
#include <vector>

#ifdef ZP_WITH_GUI
#include "app/gui_main.h"
#endif

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const zp::cli::Start start = zp::cli::decide_start(args, zp::cli::DisplayEnvironment::from_process());
    switch (start.kind) {
    case zp::cli::StartKind::Command: return zp::cli::run(args, std::cout, std::cerr);
    case zp::cli::StartKind::Error: std::cerr << "zero-planner: " << start.error << "\n"; return zp::cli::kExitBadInput;
    case zp::cli::StartKind::Screenshot:
    case zp::cli::StartKind::Report:
    case zp::cli::StartKind::Window:
    case zp::cli::StartKind::Headless: break;
    }
#ifdef ZP_WITH_GUI
    return zp::app::gui_main(argv, start);
#else
    std::cerr << "zero-planner: this build has no window (ZP_BUILD_GUI=OFF); use a command, see --help\n";
    return zp::cli::kExitBadInput;
#endif
}
