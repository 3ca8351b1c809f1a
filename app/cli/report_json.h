#pragma once
// The JSON documents `--json` prints: estimate and compare rows, recommend's plan. They are the
// command line's contract (docs/design.md §8.4; tests/cli/golden/*.json pin them byte for byte); only the CLI uses
// them, the window shows the same figures straight from the core.
#include "core/search/recommender.h"

#include <nlohmann/json_fwd.hpp>

namespace zp {

nlohmann::json model_summary_json(const ModelSpec& m);
nlohmann::json per_gpu_json(const MemoryBreakdown& m);
nlohmann::json step_json(const StepTime& s);
nlohmann::json setup_json(const ZeroSetup& z);
nlohmann::json estimate_json(const Scenario& s, const Candidate& c);  // estimate / compare rows
// One entry per moment of the step (core/memory/step_timeline.h, every layer) for `s` as it stands.
nlohmann::json timeline_json(const Scenario& s);
// A node's host memory phase by phase, its peak and when (core/memory/host_memory.h).
nlohmann::json host_json(const HostMemory& h);
nlohmann::json plan_json(const Scenario& s, const Plan& p);

}  // namespace zp
