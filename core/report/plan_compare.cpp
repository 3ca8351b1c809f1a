#include "core/report/plan_compare.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/deepspeed/config_diff.h"
#include "core/deepspeed/config_export.h"
#include "core/model/enum_names.h"
#include "core/search/recommender.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cmath>

namespace zp {

PlanFigures plan_figures(const Scenario& s) {
    PlanFigures f;
    try {
        const Candidate c = evaluate(s);
        f.setup = short_setup_label(c.zero);
        f.fits = c.fit.all();
        f.micro_batch = c.micro_batch;
        f.gradient_accumulation_steps = c.gradient_accumulation_steps;
        f.checkpointing = c.checkpointing;
        f.peak_reserved_bytes = c.memory.peak_reserved_bytes;
        f.peak_required_bytes = c.memory.peak_required_bytes;
        f.peak_phase = c.memory.peak.phase;
        f.host_bytes_per_node = c.memory.cpu_bytes_per_node;
        f.nvme_bytes_per_node = c.memory.nvme_bytes_per_node;
        f.step_seconds = c.step.seconds;
        f.tokens_per_second = c.step.tokens_per_second;
        f.token_budget = s.assumptions.token_budget;
        f.gpu_hours = c.step.budget_gpu_hours;
        f.valid = true;
    } catch (const InputError& e) {
        f.error = e.what();
        return f;
    }
    try {
        // A PyTorch FSDP plan has no ds_config: every key of the other plan's config differs.
        if (!is_fsdp(s.fsdp)) f.ds_config = std::make_shared<const nlohmann::ordered_json>(deepspeed_config(s));
    } catch (const InputError&) {
        // No config for this plan: every key of the other plan's config differs.
    }
    return f;
}

std::span<const CompareMetric> compare_metrics() {
    static constexpr std::array kAll{CompareMetric::Setup,           CompareMetric::Batch,        CompareMetric::Fits,
                                     CompareMetric::PeakRequired,    CompareMetric::PeakReserved, CompareMetric::PeakPhase,
                                     CompareMetric::HostRam,         CompareMetric::Nvme,         CompareMetric::StepTime,
                                     CompareMetric::TokensPerSecond, CompareMetric::GpuHours};
    return kAll;
}

namespace {

std::string gib_text(double bytes) { return format_fixed(bytes_to_gib(bytes), 2) + " GiB"; }

// The metric's value when it is a number compared by difference (GiB) or ratio (the rest).
bool is_bytes(CompareMetric m) {
    return m == CompareMetric::PeakReserved || m == CompareMetric::PeakRequired || m == CompareMetric::HostRam || m == CompareMetric::Nvme;
}
double number(const PlanFigures& f, CompareMetric m) {
    switch (m) {
    case CompareMetric::PeakReserved: return f.peak_reserved_bytes;
    case CompareMetric::PeakRequired: return f.peak_required_bytes;
    case CompareMetric::HostRam: return f.host_bytes_per_node;
    case CompareMetric::Nvme: return f.nvme_bytes_per_node;
    case CompareMetric::StepTime: return f.step_seconds;
    case CompareMetric::TokensPerSecond: return f.tokens_per_second;
    case CompareMetric::GpuHours: return f.gpu_hours;
    default: return 0;
    }
}

}  // namespace

std::string metric_text(const PlanFigures& f, CompareMetric m) {
    if (!f.valid) return "n/a";
    switch (m) {
    case CompareMetric::Setup: return f.setup;
    case CompareMetric::Batch:
        return std::to_string(f.micro_batch) + " x " + std::to_string(f.gradient_accumulation_steps) + ", " +
               (f.checkpointing == Checkpointing::None ? std::string("no") : std::string(to_string(f.checkpointing))) + " recompute";
    case CompareMetric::Fits: return f.fits ? "yes" : "no";
    case CompareMetric::PeakPhase: return to_string(f.peak_phase);
    case CompareMetric::StepTime: return format_seconds(f.step_seconds);
    case CompareMetric::TokensPerSecond:
    case CompareMetric::GpuHours: return format_count(number(f, m));
    default: return gib_text(number(f, m));
    }
}

bool metric_differs(const PlanFigures& a, const PlanFigures& b, CompareMetric m) { return metric_text(a, m) != metric_text(b, m); }

std::string metric_delta(const PlanFigures& pin, const PlanFigures& live, CompareMetric m) {
    if (!pin.valid || !live.valid || !metric_differs(pin, live, m)) return {};
    const double a = number(pin, m), b = number(live, m);
    if (is_bytes(m)) {
        const double gib = bytes_to_gib(a - b);
        return (gib >= 0 ? "+" : "-") + format_fixed(std::fabs(gib), 2) + " GiB";
    }
    if (m == CompareMetric::StepTime || m == CompareMetric::TokensPerSecond || m == CompareMetric::GpuHours) {
        if (!(b > 0) || !std::isfinite(a)) return {};
        const double percent = (a / b - 1.0) * 100.0;
        return (percent >= 0 ? "+" : "-") + format_fixed(std::fabs(percent), 1) + "%";
    }
    return {};
}

std::vector<ConfigKeyRow> config_key_rows(const PlanFigures& live, const std::vector<PlanFigures>& pins) {
    std::vector<ConfigKeyRow> rows;
    const auto find = [&rows](const std::string& key) -> ConfigKeyRow* {
        for (ConfigKeyRow& r : rows)
            if (r.key == key) return &r;
        return nullptr;
    };
    // A plan with no config (it cannot be exported) differs in every key of the other's.
    const auto config = [](const PlanFigures& f) { return f.ds_config ? *f.ds_config : nlohmann::ordered_json::object(); };
    for (std::size_t p = 0; p < pins.size(); ++p) {
        for (const ConfigDifference& d : config_diff(config(live), config(pins[p]))) {
            ConfigKeyRow* row = find(d.key);
            if (!row) {
                // Pins that do not differ at this key have the live plan's value.
                rows.push_back({d.key, std::vector<std::string>(pins.size() + 1, d.before)});
                row = &rows.back();
            }
            row->values[p + 1] = d.after;
        }
    }
    return rows;
}

}  // namespace zp
