#include "app/cli/args.h"

#include "core/model/errors.h"

namespace zp::cli {

std::optional<std::string> Args::get(const std::string& key) const {
    const auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

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
            if (!known_values.count(key)) throw InputError("unknown option '" + key + "'; see zero-planner --help");
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
        } else if (a.command.empty() && a.positionals.empty() && !arg.empty() && arg[0] != '-') {
            a.command = arg;
        } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
            if (known_flags.count(arg)) {
                a.flags.insert(arg);
                continue;
            }
            throw InputError("unknown option '" + arg + "'; see zero-planner --help");
        } else {
            a.positionals.push_back(arg);
        }
    }
    return a;
}

}  // namespace zp::cli
