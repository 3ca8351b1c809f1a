#pragma once
// The JSON documents `--json` prints: estimate and compare rows, recommend's plan. They are the
// command line's contract (docs/design.md §8.4; tests/cli/golden/*.json pin them byte for byte); only the CLI uses
// them, the window shows the same figures straight from the core.
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
