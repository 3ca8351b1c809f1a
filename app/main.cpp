// zero-planner: the headless subcommands run without Qt; everything else starts the window.
#include "app/cli/cli.h"

#include <iostream>
#include <string>
#include <vector>

#ifdef ZP_WITH_GUI
#include "app/gui_main.h"
#endif

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    const std::string first = args.empty() ? std::string() : args.front();
    const bool meta = first == "--help" || first == "-h" || first == "--version";
    if (zp::cli::is_headless_command(first) || meta) return zp::cli::run(args, std::cout, std::cerr);
#ifdef ZP_WITH_GUI
    if (!first.empty() && first != "screenshot" && first[0] == '-') return zp::cli::run(args, std::cout, std::cerr);
    return zp::app::gui_main(argc, argv);
#else
    if (!first.empty() && first != "screenshot") return zp::cli::run(args, std::cout, std::cerr);
    std::cerr << "zero-planner: this build has no window (ZP_BUILD_GUI=OFF); use a command, see --help\n";
    return zp::cli::kExitBadInput;
#endif
}
