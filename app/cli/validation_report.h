#pragma once
// `zero-planner validate [FILE] [--json]`: the planner against measured runs, as text (a table
// per kind, the aggregates, the cases it cannot represent) or one JSON document.
#include "core/validation/validate.h"

#include <nlohmann/json.hpp>

#include <string>

namespace zp::cli {

// The bundled measured_runs.json: beside the installed executable (<bindir>/../share/zero-planner),
// else in the source tree this binary was built from. Throws InputError saying to pass FILE.
std::string bundled_measured_runs_path();

std::string validation_text(const validation::ValidationReport& r, const std::string& source);
nlohmann::json validation_json(const validation::ValidationReport& r, const std::string& source);

}  // namespace zp::cli
