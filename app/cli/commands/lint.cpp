// `zero-planner lint FILE`: a ds_config.json checked against DeepSpeed (core/deepspeed/lint.h), or an
// Accelerate YAML against Accelerate (core/deepspeed/fsdp_lint.h).
#include "app/cli/commands/commands.h"

#include "app/cli/number_parse.h"
#include "app/cli/options.h"
#include "app/cli/report_json.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/deepspeed/fsdp_lint.h"
#include "core/deepspeed/lint.h"
#include "core/model/enum_names.h"
#include "core/model/limits.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace zp::cli {

int cmd_lint(const Args& a, std::ostream& out, std::ostream&) {
    // The options first: `lint --world-size FILE` took the file as the world size, and the word it
    // says was wrong is the option's value, not a missing FILE.
    std::optional<std::int64_t> world;
    if (auto w = a.get(opt::world_size)) world = parse_positive_int(*w, option_text(opt::world_size), limits::kWorldSize.max);
    if (a.positionals.size() != 1) throw InputError("lint needs exactly one FILE: zero-planner lint ds_config.json [--world-size N]");
    const std::string& path = a.positionals.front();
    std::optional<FineTune> finetune;
    if (a.has(opt::finetune)) finetune = finetune_from_args(a);
    const std::string text = read_text_file(path);
    // An Accelerate YAML (distributed_type FSDP and its fsdp_config, or DEEPSPEED and its
    // deepspeed_config and parallelism_config) is linted as Accelerate reads it
    // (core/deepspeed/fsdp_lint.h); anything else as a ds_config.json.
    const auto ends_with = [&](std::string_view suffix) {
        return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const bool accelerate = ends_with(".yaml") || ends_with(".yml") || looks_like_accelerate_config(text);
    const bool accelerate_deepspeed = accelerate && is_accelerate_deepspeed_config(text);
    const LintResult r = accelerate ? lint_accelerate_config(text, path, lint_context_from_args(a))
                                    : lint_ds_config(text, world, path, finetune, lint_context_from_args(a));
    if (a.flag(opt::json)) {
        out << diagnostics_json(r).dump(2) << "\n";
    } else {
        for (const Diagnostic& d : r.diagnostics) {
            out << path << ": " << to_string(d.severity) << ": " << (d.path.empty() ? "" : d.path + ": ") << d.message;
            if (!d.suggestion.empty()) out << " (" << d.suggestion << ")";
            out << "\n";
        }
        std::size_t errors = 0, warnings = 0;
        for (const Diagnostic& d : r.diagnostics) {
            errors += d.severity == Severity::Error;
            warnings += d.severity == Severity::Warning;
        }
        out << path << ": " << errors << " error" << (errors == 1 ? "" : "s") << ", " << warnings << " warning"
            << (warnings == 1 ? "" : "s")
            << (accelerate_deepspeed ? std::string(" (Accelerate DeepSpeed config)")
                : accelerate         ? std::string(" (Accelerate FSDP config)")
                : world              ? " (world size " + std::to_string(*world) + ")"
                                     : std::string(" (no --world-size: batch rule checked for consistency only)"))
            << "\n";
    }
    return r.has_errors() ? kExitFindings : kExitOk;
}

}  // namespace zp::cli
