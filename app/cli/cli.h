#pragma once
// The commands of zero-planner, in one table: the dispatch, the help text, the "unknown
// command" message and app/main.cpp's choice between running a command and starting the
// window (app/cli/start.h) all read it (docs/design.md §8). Qt-free: the core + CLI build (ZP_BUILD_GUI=OFF) runs
// every Headless command; Window commands are rendered by app/gui_main.cpp.
#include "app/cli/args.h"

#include <iosfwd>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace zp::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // lint: the config has errors
inline constexpr int kExitBadInput = 2;  // bad input or usage: one line on stderr, nothing on stdout

enum class CommandKind {
    Headless,  // runs here, without Qt
    Window,    // renders the window offscreen (app/gui_main.cpp); needs the window build
};

struct Command {
    std::string name;     // what comes first on the command line: "ds-estimate"
    std::string usage;    // the name and its positional arguments, for the help: "lint FILE"
    std::string summary;  // the help text; "\n" continues it on an indented line
    CommandKind kind = CommandKind::Headless;
    std::set<std::string> options;  // value options (the scenario options included where they apply)
    std::set<std::string> flags;    // options without a value
    bool takes_file = false;        // one positional FILE after the options (lint)
    // Headless commands: writes the result to `out`, warnings and nothing else to `err`, returns
    // the exit code; throws InputError on bad input. Null for Window commands.
    int (*handler)(const Args& a, std::ostream& out, std::ostream& err) = nullptr;
};

const std::vector<Command>& commands();              // in the order the help lists them
const Command* find_command(std::string_view name);  // null when `name` is not a command
// Throws InputError when `argv` (the command first) gives -o to a command that writes no file with
// it: it was accepted and ignored, the output going to stdout.
void refuse_output_option(const Command& command, const std::vector<std::string>& argv);
// Throws InputError when `argv` gives an option another command takes: "--holdout is an option of
// validate, not of compare" (it was "unknown option", as if misspelt). Options no command takes
// are left to the parser, which suggests the nearest name.
void refuse_other_commands_options(const Command& command, const std::vector<std::string>& argv);
bool is_headless_command(std::string_view name);
// "unknown command 'estimat' (did you mean 'estimate'?)", or with the list of commands when no
// command is close.
std::string unknown_command_message(std::string_view word);

// argv without the program name, the command first. Writes the result to `out` and a one-line
// reason to `err`; nothing reaches `out` unless the command succeeds.
int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

std::string help_text();
std::string version_text();

}  // namespace zp::cli
