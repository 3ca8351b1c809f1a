#pragma once
// A small, Qt-free command-line parser: "--key value", "--key=value", flags and positionals.
// Qt-free so the core + CLI build (ZP_BUILD_GUI=OFF) and the option-parser fuzz target need no Qt.
// The command word is not its business: callers take it off the front first (cli.cpp).
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace zp::cli {

struct Args {
    std::vector<std::string> positionals;       // words that are not options, in order
    std::map<std::string, std::string> values;  // "--gpus" -> "8"
    std::set<std::string> flags;                // "--json"

    bool has(const std::string& key) const { return values.count(key) != 0; }
    std::optional<std::string> get(const std::string& key) const;
    bool flag(const std::string& key) const { return flags.count(key) != 0; }
};

// Known flags take no value; every other "--name" takes one; "-o FILE" is always accepted.
// Throws InputError on an option that is not in `known_values` or `known_flags` (naming the
// nearest known one when it is close), a missing value or a repeated option.
Args parse_args(const std::vector<std::string>& argv, const std::set<std::string>& known_values, const std::set<std::string>& known_flags);

}  // namespace zp::cli
