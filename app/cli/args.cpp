#include "app/cli/args.h"

#include "core/base/errors.h"
#include "core/base/suggest.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace zp::cli {

std::optional<std::string> Args::get(std::string_view key) const {
    const auto it = values.find(key);
    if (it == values.end()) return std::nullopt;
    return it->second;
}

namespace {
std::string_view without_dashes(std::string_view option) { return option.substr(std::min(option.find_first_not_of('-'), option.size())); }

// "unknown option '--gpux' (did you mean '--gpus'?); see zero-planner --help". Names are compared
// without their dashes, which every option shares (-x is not a typo of -h, -- of nothing);
// the typos allowed are counted on the option as typed, as for every other name.
[[noreturn]] void unknown_option(const std::string& key, const std::set<std::string>& known_values,
                                 const std::set<std::string>& known_flags) {
    // Options a release retired, with what replaced them: a script written for the older one is
    // told why, not only that the name is unknown.
    if (key == "--fragmentation")
        throw InputError(
            "--fragmentation was retired in 0.2: per-GPU memory is the step's composition at the moment that decides the fit, "
            "and the allocator's reserve comes from the step (README, One memory model); drop the option");
    std::vector<std::string_view> names;
    std::vector<const std::string*> options;
    for (const auto* set : {&known_values, &known_flags})
        for (const std::string& o : *set) {
            names.push_back(without_dashes(o));
            options.push_back(&o);
        }
    std::optional<std::string> near;
    if (const auto name = closest_name(without_dashes(key), names, typo_allowance(key)))
        for (std::size_t i = 0; i < names.size() && !near; ++i)
            if (names[i] == *name) near = *options[i];
    throw InputError("unknown option '" + key + "'" + (near ? " (did you mean '" + *near + "'?)" : std::string()) +
                     "; see zero-planner --help");
}
// The word after an option that takes a value, or a clear error: none left, or an option where the
// value should be (`--model --gpus 8` would otherwise take "--gpus" as the model and blame "8").
const std::string& value_after(const std::vector<std::string>& argv, std::size_t i, const std::string& key,
                               const std::set<std::string>& known_values, const std::set<std::string>& known_flags) {
    if (i + 1 >= argv.size()) throw InputError("option " + key + " needs a value");
    const std::string& next = argv[i + 1];
    const std::string next_key = next.substr(0, next.find('='));
    if (next.size() > 1 && next[0] == '-' && (known_values.count(next_key) || known_flags.count(next_key)))
        throw InputError("option " + key + " needs a value, but the next word is the option " + next_key + ": put the value right after " +
                         key);
    return next;
}
}  // namespace

Args parse_args(const std::vector<std::string>& argv, const std::set<std::string>& known_values, const std::set<std::string>& known_flags) {
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
            if (!inline_value) value = value_after(argv, i++, key, known_values, known_flags);
            if (a.values.count(key)) throw InputError("option " + key + " is given twice");
            a.values[key] = value;
        } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
            // A short option: a flag (-h) or one that takes the next word (-o FILE); never -o=FILE.
            if (known_flags.count(arg)) {
                a.flags.insert(arg);
                continue;
            }
            if (!known_values.count(arg)) unknown_option(arg, known_values, known_flags);
            const std::string& value = value_after(argv, i++, arg, known_values, known_flags);
            if (a.values.count(arg)) throw InputError("option " + arg + " is given twice");
            a.values[arg] = value;
        } else {
            a.positionals.push_back(arg);
        }
    }
    return a;
}

}  // namespace zp::cli
