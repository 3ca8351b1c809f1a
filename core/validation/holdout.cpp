#include "core/validation/holdout.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/json_errors.h"
#include "core/base/median.h"
#include "core/hardware/host_rates.h"
#include "core/memory/allocator.h"
#include "core/presets/gpu_presets.h"
#include "core/time/compute_time.h"
#include "core/time/step_time.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

namespace zp::validation {

namespace {

double gemm_efficiency_of(const char* preset) { return gpu_time_traits(gpu_preset(preset)).gemm_efficiency; }

constexpr const char* kNotRuntime = "a compile-time constant with no runtime path yet: its rows are listed, its held-out error is unknown";

}  // namespace

namespace {

// The constants, their values read from the code (not restated), where they live, and how
// --holdout treats them; the rows they were read off come from the fitted-constants document.
std::vector<FittedConstant> code_constants() {
    const auto c = [](const char* name, double value, const char* code, const char* generation, const char* not_refitted, bool time) {
        FittedConstant k;
        k.name = name;
        k.value = value;
        k.code = code;
        k.generation = generation;
        k.not_refitted = not_refitted;
        k.time_constant = time;
        return k;
    };
    return {
        c("GEMM efficiency, Volta", gemm_efficiency_of("v100-32gb"), "core/presets/gpu_presets.cpp kVoltaGemm", "Volta", "", true),
        c("GEMM efficiency, Ampere", gemm_efficiency_of("a100-80gb"), "core/presets/gpu_presets.cpp kAmpereGemm", "Ampere", "", true),
        c("host seconds per kernel", compute_model::kHostSecondsPerKernel, "core/time/compute_time.h kHostSecondsPerKernel", "",
          kNotRuntime, true),
        c("ZeRO-3 host seconds per module hook", zero3_costs::kHookSecondsPerModule, "core/time/step_time.h kHookSecondsPerModule", "",
          kNotRuntime, true),
        c("hidden-width passes replicated under tensor parallelism", compute_model::kHiddenPassesReplicated,
          "core/time/compute_time.h kHiddenPassesReplicated", "", "read off a figure that is not a bundled row", true),
        c("attention GEMMs on heads not 16-byte aligned", compute_model::kUnalignedHeadGemmShare,
          "core/time/compute_time.h kUnalignedHeadGemmShare", "", "read off a figure that is not a bundled row", true),
        c("CPU Adam share of host memory bandwidth", host_rates::kHostMemoryEfficiency, "core/hardware/host_rates.h kHostMemoryEfficiency",
          "", "read off a figure that is not a bundled row", true),
        c("allocator cached share, ZeRO-0/1/2", kAllocatorShares.cached, "core/memory/allocator.h kAllocatorShares", "", kNotRuntime,
          false),
        c("allocator unreleasable share, ZeRO-0/1/2", kAllocatorShares.unreleasable, "core/memory/allocator.h kAllocatorShares", "",
          kNotRuntime, false),
        c("allocator cached share, ZeRO-3", kAllocatorSharesZero3.cached, "core/memory/allocator.h kAllocatorSharesZero3", "", kNotRuntime,
          false),
        c("allocator cached share, activations", kAllocatorSharesActivations.cached, "core/memory/allocator.h kAllocatorSharesActivations",
          "", kNotRuntime, false),
    };
}

}  // namespace

std::vector<FittedConstant> fitted_constants(std::string_view json_text, const std::string& source_name) {
    const nlohmann::json doc = parse_json_text(json_text, source_name);
    if (!doc.is_object() || !doc.contains("constants") || !doc["constants"].is_array())
        throw InputError(source_name + ": expected an object with a 'constants' array");
    std::vector<FittedConstant> out = code_constants();
    std::vector<bool> seen(out.size(), false);
    for (std::size_t i = 0; i < doc["constants"].size(); ++i) {
        const nlohmann::json& e = doc["constants"][i];
        const std::string where = source_name + ": constants[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("name") || !e["name"].is_string() || !e.contains("rows") || !e["rows"].is_array())
            throw InputError(where + ": needs 'name' (text) and 'rows' (an array of case ids)");
        const std::string name = e["name"].get<std::string>();
        auto it = std::find_if(out.begin(), out.end(), [&](const FittedConstant& k) { return k.name == name; });
        if (it == out.end()) throw InputError(where + ": '" + name + "' is not a fitted constant of the planner");
        const auto index = static_cast<std::size_t>(it - out.begin());
        if (seen[index]) throw InputError(where + ": '" + name + "' appears twice");
        seen[index] = true;
        for (const nlohmann::json& id : e["rows"]) {
            if (!id.is_string()) throw InputError(where + ": rows must be case ids (text)");
            it->rows.push_back(id.get<std::string>());
        }
        if (e.contains("why") && e["why"].is_string()) it->why = e["why"].get<std::string>();
    }
    for (std::size_t i = 0; i < out.size(); ++i)
        if (!seen[i]) throw InputError(source_name + ": says nothing of the fitted constant '" + out[i].name + "'");
    return out;
}

std::string source_key(std::string_view source) {
    const std::size_t cut = std::min(source.find('('), source.find(','));
    std::string_view head = source.substr(0, cut);
    // A paper is its authors and year ("Narayanan et al. 2021"), not its first two words.
    if (head.find(" et al.") != std::string_view::npos) {
        while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
        return std::string(head);
    }
    std::string key;
    int words = 0;
    std::size_t i = 0;
    while (i < head.size() && words < 2) {
        while (i < head.size() && head[i] == ' ') ++i;
        const std::size_t end = std::min(head.find(' ', i), head.size());
        if (end > i) {
            key += (key.empty() ? "" : " ") + std::string(head.substr(i, end - i));
            ++words;
        }
        i = end;
    }
    return key;
}

namespace {

bool is_step_time(Quantity q) { return q == Quantity::StepSeconds || q == Quantity::SamplesPerSecond || q == Quantity::TflopsPerGpu; }

std::string generation_of(const MeasuredCase& c) { return gpu_time_traits(c.scenario.cluster.gpu).generation; }

// The case with its compute-efficiency scale multiplied by `k`: Assumptions::mfu / kReferenceMfu
// divides every compute term (core/time/compute_time.h), the path `calibrate` fits a run by; on a
// generation's rows it moves the GEMM efficiency by the factor k, with the other compute terms.
MeasuredCase scaled(const MeasuredCase& c, double k) {
    MeasuredCase out = c;
    out.scenario.assumptions.mfu *= k;
    return out;
}

// The median |ln(predicted / measured)| of the rows at scale k.
double misfit(const std::vector<const MeasuredCase*>& rows, double k) {
    std::vector<MeasuredCase> cases;
    for (const MeasuredCase* c : rows) cases.push_back(scaled(*c, k));
    std::vector<double> errors;
    for (const CaseResult& r : validate_cases(std::move(cases)).rows) errors.push_back(std::abs(std::log(r.ratio)));
    return median(errors);
}

// The scale in [1/3, 3] with the least misfit: a log grid, then a finer one around its best point
// (the median is flat in places, so no derivative is used). Ties keep the scale nearest 1.
double best_scale(const std::vector<const MeasuredCase*>& rows) {
    const auto search = [&](double lo, double hi, int steps) {
        double best = 1, best_misfit = INFINITY;
        for (int i = 0; i <= steps; ++i) {
            const double k = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * i / steps);
            const double m = misfit(rows, k);
            if (m < best_misfit - 1e-12 || (std::abs(m - best_misfit) <= 1e-12 && std::abs(std::log(k)) < std::abs(std::log(best)))) {
                best = k;
                best_misfit = m;
            }
        }
        return best;
    };
    const double coarse = search(1.0 / 3.0, 3.0, 110);  // steps of 2%
    return search(coarse / 1.02, coarse * 1.02, 40);    // steps of 0.1%
}

struct RefitConstant {
    const FittedConstant* constant;
    std::vector<const MeasuredCase*> rows;  // its representable step-time rows
};

}  // namespace

HoldoutReport validate_holdout(const std::vector<MeasuredCase>& cases, const std::vector<FittedConstant>& constants) {
    HoldoutReport report;
    std::vector<RefitConstant> refittable;
    std::map<std::string, std::vector<const FittedConstant*>> not_refitted_by_source;  // source key -> constants
    for (const FittedConstant& k : constants) {
        RefitConstant rc{&k, {}};
        for (const MeasuredCase& c : cases) {
            if (std::find(k.rows.begin(), k.rows.end(), c.id) == k.rows.end() || !c.not_representable.empty()) continue;
            if (k.generation.empty()) not_refitted_by_source[source_key(c.source)].push_back(&k);
            else if (is_step_time(c.measurement.quantity) && generation_of(c) == k.generation) rc.rows.push_back(&c);
        }
        if (!k.generation.empty()) refittable.push_back(rc);
    }

    // Per re-fitted constant and left-out source: the scale it takes without that source's rows.
    std::map<std::pair<std::string, std::string>, double> scale_without;  // (constant, source key) -> k
    for (const RefitConstant& rc : refittable) {
        std::vector<std::string> ids;
        for (const MeasuredCase* c : rc.rows) ids.push_back(c->id);
        report.refits.push_back({rc.constant->name, "", rc.constant->value * best_scale(rc.rows), ids});
        std::set<std::string> sources;
        for (const MeasuredCase* c : rc.rows) sources.insert(source_key(c->source));
        for (const std::string& s : sources) {
            std::vector<const MeasuredCase*> rest;
            std::vector<std::string> rest_ids;
            for (const MeasuredCase* c : rc.rows)
                if (source_key(c->source) != s) {
                    rest.push_back(c);
                    rest_ids.push_back(c->id);
                }
            const double k = rest.empty() ? 1.0 : best_scale(rest);
            scale_without[{rc.constant->name, s}] = k;
            report.refits.push_back({rc.constant->name, s, rc.constant->value * k, rest_ids});
        }
    }

    for (const MeasuredCase& c : cases) {
        if (!c.not_representable.empty()) continue;
        const std::string key = source_key(c.source);
        const std::vector<CaseResult> in = validate_cases({c}).rows;
        double k = 1;
        std::string refitted;
        for (const RefitConstant& rc : refittable) {
            auto it = scale_without.find({rc.constant->name, key});
            if (it == scale_without.end() || !is_step_time(c.measurement.quantity) || generation_of(c) != rc.constant->generation) continue;
            k = it->second;
            refitted = rc.constant->name + " " + format_fixed(rc.constant->value, 3) + " -> " + format_fixed(rc.constant->value * k, 3);
        }
        const std::vector<CaseResult> out = k == 1 ? in : validate_cases({scaled(c, k)}).rows;
        std::string not_refitted;
        if (auto it = not_refitted_by_source.find(key); it != not_refitted_by_source.end())
            for (const FittedConstant* f : it->second)
                if (f->time_constant == is_step_time(c.measurement.quantity)) not_refitted += (not_refitted.empty() ? "" : "; ") + f->name;
        for (std::size_t i = 0; i < in.size() && i < out.size(); ++i) {
            HoldoutRow r;
            r.id = c.id;
            r.source = key;
            r.quantity = in[i].quantity;
            r.in_sample_ratio = in[i].ratio;
            r.held_out_ratio = out[i].ratio;
            r.in_sample_ok = in[i].ok;
            r.held_out_ok = out[i].ok;
            r.refitted = refitted;
            r.not_refitted = not_refitted;
            report.rows.push_back(r);
        }
    }

    for (const QuantityInfo& info : quantity_table()) {
        if (std::any_of(report.groups.begin(), report.groups.end(), [&](const HoldoutGroup& g) { return g.group == info.group; })) continue;
        HoldoutGroup g;
        g.group = info.group;
        std::vector<double> in_errors, out_errors;
        for (const HoldoutRow& r : report.rows) {
            if (std::string(quantity_info(r.quantity).group) != info.group) continue;
            ++g.count;
            g.in_sample_ok += r.in_sample_ok;
            g.held_out_ok += r.held_out_ok;
            g.not_refitted += !r.not_refitted.empty();
            if (r.quantity == Quantity::Fit) continue;
            in_errors.push_back(std::abs(r.in_sample_ratio - 1));
            out_errors.push_back(std::abs(r.held_out_ratio - 1));
        }
        g.in_sample_median = median(in_errors);
        g.held_out_median = median(out_errors);
        if (g.count > 0) report.groups.push_back(g);
    }
    return report;
}

}  // namespace zp::validation
