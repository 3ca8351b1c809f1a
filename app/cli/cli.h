#pragma once
// The headless subcommands of zero-planner (docs/design.md §8): estimate, compare, recommend,
// ds-estimate, export, lint, session. Qt-free; app/main.cpp hands everything except the GUI and
// `screenshot` here.
#include <iosfwd>
#include <string>
#include <vector>

namespace zp::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // lint: the config has errors
inline constexpr int kExitBadInput = 2;

bool is_headless_command(const std::string& command);

// argv without the program name. Writes the result to `out` and a one-line reason to `err`.
int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err);

std::string help_text();
std::string version_text();

}  // namespace zp::cli
