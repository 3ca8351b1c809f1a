#pragma once
// The JSON documents of the command-line contract (docs/design.md §8.4), built in one place;
// only the CLI prints them, and tests/cli/golden pins them byte for byte.
#include "core/search/recommender.h"

#include <nlohmann/json.hpp>

namespace zp {

nlohmann::json model_summary_json(const ModelSpec& m);
nlohmann::json per_gpu_json(const MemoryBreakdown& m);
nlohmann::json step_json(const StepTime& s);
nlohmann::json setup_json(const ZeroSetup& z);
nlohmann::json estimate_json(const Scenario& s, const Candidate& c);  // estimate / compare rows
nlohmann::json plan_json(const Plan& p);

}  // namespace zp
