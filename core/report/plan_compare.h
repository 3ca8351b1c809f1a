#pragma once
// Comparing plans side by side (the Compare panel): the figures of one fully specified plan (a pin,
// or the live plan with its chosen setup), each figure as text, a pin's difference to the live
// plan, and the ds_config.json keys in which the plans differ. Every number the panel shows is
// made here; the panel lays the text out.
#include "core/model/scenario.h"
#include "core/model/step_phase.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace zp {

struct PlanFigures {
    bool valid = false;  // false when the plan cannot be evaluated (the batch does not split): `error` says why
    std::string error;
    std::string setup;  // short_setup_label(): "ZeRO-3+CPU"
    bool fits = false;
    std::int64_t micro_batch = 1;
    std::int64_t gradient_accumulation_steps = 1;
    Checkpointing checkpointing = Checkpointing::None;
    // Per GPU: what must fit (peak required, MemoryBreakdown::total_bytes), the step's peak reserved
    // (what nvidia-smi shows), and the moment the step peaks.
    double peak_reserved_bytes = 0;
    double peak_required_bytes = 0;
    StepPhase peak_phase = StepPhase::StartUp;
    // Per node.
    double host_bytes_per_node = 0;
    double nvme_bytes_per_node = 0;
    double step_seconds = 0;
    double tokens_per_second = 0;
    double token_budget = 0;  // Assumptions::token_budget: the tokens gpu_hours trains on
    double gpu_hours = 0;     // StepTime::budget_gpu_hours
    // deepspeed_config(); null when it cannot be exported. Held by pointer so that the header needs
    // only json_fwd.hpp (planner_document.h, in 32 units, includes this one).
    std::shared_ptr<const nlohmann::ordered_json> ds_config;
};

// evaluate() of `s` as it stands (its setup, micro batch and recompute), and its ds_config.
PlanFigures plan_figures(const Scenario& s);

enum class CompareMetric {
    Setup,
    Batch,  // micro batch x accumulation steps and the recompute policy
    Fits,
    PeakReserved,
    PeakRequired,
    PeakPhase,
    HostRam,
    Nvme,
    StepTime,
    TokensPerSecond,
    GpuHours,
};
// Every metric, in the order the panel lists them.
std::span<const CompareMetric> compare_metrics();

// The figure as text: "41.20 GiB", "backward", "1.23 s", "12,345" (tokens/s, GPU-hours), "yes",
// "1 x 8, no recompute" (micro batch x accumulation steps; "selective" or "full" recompute);
// "n/a" for an invalid plan.
std::string metric_text(const PlanFigures& f, CompareMetric m);
// Whether the two plans' texts differ.
bool metric_differs(const PlanFigures& a, const PlanFigures& b, CompareMetric m);
// The pin against the live plan for a number: "+3.10 GiB" (memory), "-12.3%" (time, tokens/s,
// GPU-hours); empty when the figures are equal, either plan is invalid or the metric is words.
std::string metric_delta(const PlanFigures& pin, const PlanFigures& live, CompareMetric m);

// One ds_config.json key in which some pin differs from the live plan: its value in the live
// plan, then in each pin, as compact JSON; an empty string where the key is not set.
struct ConfigKeyRow {
    std::string key;
    std::vector<std::string> values;  // [0] live, [1 + i] pin i
};
// The keys of config_diff(live, pin) over every pin, each once, in order of first appearance.
std::vector<ConfigKeyRow> config_key_rows(const PlanFigures& live, const std::vector<PlanFigures>& pins);

}  // namespace zp
