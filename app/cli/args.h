#pragma once
// A small, Qt-free command-line parser: "--key value", "--key=value", flags and positionals.
// Qt-free so the core + CLI build (ZP_BUILD_GUI=OFF) and the option-parser fuzz target need no Qt.
// The command word is not its business: callers take it off the front first (cli.cpp).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace zp::cli {

struct Args {
    std::vector<std::string> positionals;                    // words that are not options, in order
    std::map<std::string, std::string, std::less<>> values;  // --gpus -> 8
    std::set<std::string, std::less<>> flags;                // --json

    // By name, or by the option itself (app/cli/options.h converts to its name).
    bool has(std::string_view key) const { return values.find(key) != values.end(); }
    std::optional<std::string> get(std::string_view key) const;
    bool flag(std::string_view key) const { return flags.find(key) != flags.end(); }
};

// Known flags take no value; every other known option (--name, or a short one such as -o)
// takes one. The names are the caller's (app/cli/options.h): this lexer knows none of its own.
// Throws InputError on an option that is not in `known_values` or `known_flags` (naming the
// nearest known one when it is close), a missing value or a repeated option.
Args parse_args(const std::vector<std::string>& argv, const std::set<std::string>& known_values, const std::set<std::string>& known_flags);

}  // namespace zp::cli
