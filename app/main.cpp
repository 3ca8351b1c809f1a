// zero-planner: the headless subcommands run without Qt; everything else starts the window.
#include "app/cli/cli.h"

#include <iostream>
#include <string>
#include <vector>

#ifdef ZP_WITH_GUI
#include "ui/gui_main.h"
#endif

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string command;
    for (const auto& a : args)
        if (!a.empty() && a[0] != '-') {
            command = a;
            break;
        }
    const bool meta = !args.empty() && command.empty() &&
                      (args[0] == "--help" || args[0] == "-h" || args[0] == "--version");
    if (zp::cli::is_headless_command(command) || meta) return zp::cli::run(args, std::cout, std::cerr);
#ifdef ZP_WITH_GUI
    return zp::ui::gui_main(argc, argv);
#else
    if (!command.empty() && command != "screenshot") return zp::cli::run(args, std::cout, std::cerr);
    std::cerr << "zero-planner: this build has no window (ZP_BUILD_GUI=OFF); use a command, see --help\n";
    return zp::cli::kExitBadInput;
#endif
}
