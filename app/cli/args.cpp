#include "app/cli/args.h"

#include "core/io/suggest.h"
#include "core/model/errors.h"

#include <vector>

namespace zp::cli {

std::optional<std::string> Args::get(const std::string& key) const {
    const auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

namespace {
// "unknown option '--gpux' (did you mean '--gpus'?); see zero-planner --help"
[[noreturn]] void unknown_option(const std::string& key, const std::set<std::string>& known_values, const std::set<std::string>& known_flags) {
    std::vector<std::string> known(known_values.begin(), known_values.end());
    known.insert(known.end(), known_flags.begin(), known_flags.end());
    const auto near = closest_name(key, known);
    throw InputError("unknown option '" + key + "'" + (near ? " (did you mean '" + *near + "'?)" : std::string()) + "; see zero-planner --help");
}
}  // namespace

Args parse_args(const std::vector<std::string>& argv, const std::set<std::string>& known_values,
                const std::set<std::string>& known_flags) {
    Args a;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
            std::string key = arg, value;
            bool inline_value = false;
            if (const auto eq = arg.find('='); eq != std::string::npos) {
                key = arg.substr(0, eq);
                value = arg.substr(eq + 1);
                inline_value = true;
            }
            if (known_flags.count(key)) {
                if (inline_value) throw InputError("option " + key + " takes no value");
                a.flags.insert(key);
                continue;
            }
            if (!known_values.count(key)) unknown_option(key, known_values, known_flags);
            if (!inline_value) {
                if (i + 1 >= argv.size()) throw InputError("option " + key + " needs a value");
                value = argv[++i];
            }
            if (a.values.count(key)) throw InputError("option " + key + " is given twice");
            a.values[key] = value;
        } else if (arg == "-o") {
            if (i + 1 >= argv.size()) throw InputError("option -o needs a file name");
            if (a.values.count("-o")) throw InputError("option -o is given twice");
            a.values["-o"] = argv[++i];
        } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
            if (known_flags.count(arg)) {
                a.flags.insert(arg);
                continue;
            }
            unknown_option(arg, known_values, known_flags);
        } else {
            a.positionals.push_back(arg);
        }
    }
    return a;
}

}  // namespace zp::cli
