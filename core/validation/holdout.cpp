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
double flash_attention_efficiency_of(const char* preset) { return gpu_time_traits(gpu_preset(preset)).flash_attention_efficiency; }

// The unreleasable share moves only the fit calls, which are right or wrong: no ratio to fit it to.
constexpr const char* kDecidesFits =
    "it decides fit calls, right or wrong, with no ratio to fit it to: its rows are listed, its held-out error is unknown";

}  // namespace

namespace {

// The constants, their values read from the code (not restated), where they live, and how
// --holdout treats them; the rows they were read off come from the fitted-constants document.
std::vector<FittedConstant> code_constants() {
    const auto c = [](const char* name, double value, const char* code, RefitKnob knob, const char* generation, const char* not_refitted,
                      bool time) {
        FittedConstant k;
        k.name = name;
        k.value = value;
        k.code = code;
        k.knob = knob;
        k.generation = generation;
        k.not_refitted = not_refitted;
        k.time_constant = time;
        return k;
    };
    const Assumptions defaults;
    using enum RefitKnob;
    return {
        c("GEMM efficiency, Volta", gemm_efficiency_of("v100-32gb"), "core/presets/gpu_presets.cpp kVoltaGemm", GemmEfficiency, "Volta", "",
          true),
        c("GEMM efficiency, Ampere", gemm_efficiency_of("a100-80gb"), "core/presets/gpu_presets.cpp kAmpereGemm", GemmEfficiency, "Ampere",
          "", true),
        c("GEMM efficiency, Hopper", gemm_efficiency_of("h100-80gb"), "core/presets/gpu_presets.cpp kHopperGemm", GemmEfficiency, "Hopper",
          "", true),
        c("flash attention efficiency, Ampere", flash_attention_efficiency_of("a100-80gb"), "core/presets/gpu_presets.cpp kAmpereFlash",
          None, "", "read off a figure that is not a bundled row", true),
        c("flash attention efficiency, Hopper", flash_attention_efficiency_of("h100-80gb"), "core/presets/gpu_presets.cpp kHopperFlash",
          None, "", "read off a figure that is not a bundled row", true),
        c("MPT's Triton flash attention against FlashAttention-2", compute_model::kTritonFlashShare,
          "core/time/compute_time.h kTritonFlashShare", TritonFlashShare, "", "", true),
        c("host seconds per kernel", defaults.host_seconds_per_kernel, "core/model/host_overheads.h kHostSecondsPerKernel",
          HostSecondsPerKernel, "", "", true),
        c("ZeRO-3 host seconds per module hook", defaults.zero3_hook_seconds_per_module,
          "core/model/host_overheads.h kHookSecondsPerModule", Zero3HookSecondsPerModule, "", "", true),
        c("hidden-width passes replicated under tensor parallelism", compute_model::kHiddenPassesReplicated,
          "core/time/compute_time.h kHiddenPassesReplicated", None, "", "read off a figure that is not a bundled row", true),
        c("attention GEMMs on heads not 16-byte aligned", compute_model::kUnalignedHeadGemmShare,
          "core/time/compute_time.h kUnalignedHeadGemmShare", None, "", "read off a figure that is not a bundled row", true),
        c("CPU Adam share of host memory bandwidth", host_rates::kHostMemoryEfficiency, "core/hardware/host_rates.h kHostMemoryEfficiency",
          None, "", "read off a figure that is not a bundled row", true),
        c("allocator cached share, ZeRO-0/1/2", defaults.allocator.cached, "core/model/allocator_shares.h kAllocatorShares",
          AllocatorCached, "", "", false),
        c("allocator unreleasable share, ZeRO-0/1/2", defaults.allocator.unreleasable, "core/model/allocator_shares.h kAllocatorShares",
          None, "", kDecidesFits, false),
        c("allocator cached share, ZeRO-3", defaults.allocator_zero3.cached, "core/model/allocator_shares.h kAllocatorSharesZero3",
          AllocatorCachedZero3, "", "", false),
        c("allocator cached share, activations", defaults.allocator_activations.cached,
          "core/model/allocator_shares.h kAllocatorSharesActivations", AllocatorCachedActivations, "", "", false),
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
    while (!key.empty() && (key.back() == ';' || key.back() == ':' || key.back() == '.')) key.pop_back();
    return key;
}

namespace {

bool is_step_time(Quantity q) { return q == Quantity::StepSeconds || q == Quantity::SamplesPerSecond || q == Quantity::TflopsPerGpu; }

std::string generation_of(const MeasuredCase& c) { return gpu_time_traits(c.scenario.cluster.gpu).generation; }

// The case with the constant's knob turned by the factor k. GemmEfficiency: the GPU's GEMM
// efficiency times k, the constant itself and nothing else; not Assumptions::mfu, the path
// `calibrate` fits a run by, which divides every compute term (attention, the memory-bound
// kernels, the optimizer) and so re-fitted another quantity under the constant's name (until
// 2026-11-28: the Volta re-fit read 0.505 where the GEMM efficiency that fits is 0.51-0.52).
// `out` takes the knob's assumption at k times `base`'s (out is base, or a copy of it that differs
// at most in other knobs' fields): the re-fits set a factor on their one working copy of the rows
// instead of copying every row for each factor they try.
void set_scaled(MeasuredCase& out, const MeasuredCase& base, RefitKnob knob, double k) {
    Assumptions& a = out.scenario.assumptions;
    const Assumptions& b = base.scenario.assumptions;
    switch (knob) {
    case RefitKnob::GemmEfficiency: a.gemm_efficiency_scale = b.gemm_efficiency_scale * k; break;
    // Only a run that names an older kernel than FlashAttention-2 has a share to turn.
    case RefitKnob::TritonFlashShare:
        if (b.flash_attention_scale != 1.0) a.flash_attention_scale = b.flash_attention_scale * k;
        break;
    case RefitKnob::HostSecondsPerKernel: a.host_seconds_per_kernel = b.host_seconds_per_kernel * k; break;
    case RefitKnob::Zero3HookSecondsPerModule: a.zero3_hook_seconds_per_module = b.zero3_hook_seconds_per_module * k; break;
    case RefitKnob::AllocatorCached: a.allocator.cached = b.allocator.cached * k; break;
    case RefitKnob::AllocatorCachedZero3: a.allocator_zero3.cached = b.allocator_zero3.cached * k; break;
    case RefitKnob::AllocatorCachedActivations: a.allocator_activations.cached = b.allocator_activations.cached * k; break;
    case RefitKnob::None: break;
    }
}

// The rows one representable case gives (validate_cases' for it).
std::vector<CaseResult> case_rows(const MeasuredCase& c) {
    std::vector<CaseResult> rows;
    append_case_rows(c, rows);
    return rows;
}

// The factors a re-fit searches between (best_scale).
constexpr double kScaleLow = 1.0 / 3.0, kScaleHigh = 3.0;

// The rows a constant moves: the prediction changes by this share or more somewhere in the range
// the re-fit searches, at either of its ends. A row it does not move carries nothing of it. Both
// ends: a reserve capped at the card does not move when a cached share grows, only when it shrinks
// (the ZeRO-0/1/2 share at 2.8 capped BigScience's two nvidia-smi rows, N19 and N20, so doubling
// it left them out, and the share was re-fitted on one row alone).
constexpr double kMovesRow = 0.02;

bool is_reserve(Quantity q) { return q == Quantity::Reserved || q == Quantity::NvidiaSmi; }

// Whether the constant is re-fitted on (and its re-fit applied to) the row.
bool refits_row(const FittedConstant& k, const MeasuredCase& c) {
    if (!k.refitted() || !c.not_representable.empty()) return false;
    if (!(k.reserve_constant() ? is_reserve(c.measurement.quantity) : is_step_time(c.measurement.quantity))) return false;
    if (k.knob == RefitKnob::GemmEfficiency) return generation_of(c) == k.generation;
    const std::vector<CaseResult> base = case_rows(c);
    if (base.empty()) return false;
    MeasuredCase at_end = c;
    for (const double end : {kScaleLow, kScaleHigh}) {
        set_scaled(at_end, c, k.knob, end);
        const std::vector<CaseResult> moved = case_rows(at_end);
        if (!moved.empty() && std::abs(std::log(moved.front().ratio / base.front().ratio)) >= std::log1p(kMovesRow)) return true;
    }
    return false;
}

// The mean |ln(predicted / measured)| of the rows (representable: refits_row) with the knob at k,
// set on `work`, the rows' working copy. The mean, not the median: a median is flat between rows
// and jumps across them, so one row more moved Volta's fit from 0.493 to 0.51 (the second set's
// V100 row joining its 29 rows); the mean moves with every row a little.
double misfit(const std::vector<MeasuredCase>& rows, std::vector<MeasuredCase>& work, RefitKnob knob, double k) {
    std::vector<CaseResult> results;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        set_scaled(work[i], rows[i], knob, k);
        append_case_rows(work[i], results);
    }
    double sum = 0;
    for (const CaseResult& r : results) sum += std::abs(std::log(r.ratio));
    return results.empty() ? 0.0 : sum / static_cast<double>(results.size());
}

// The factor in [1/3, 3] with the least misfit: a log grid, then a finer one around its best point
// (the absolute values have kinks, so no derivative is used). Ties keep the factor nearest 1.
double best_scale(const std::vector<MeasuredCase>& rows, RefitKnob knob) {
    std::vector<MeasuredCase> work = rows;
    const auto search = [&](double lo, double hi, int steps) {
        double best = 1, best_misfit = INFINITY;
        for (int i = 0; i <= steps; ++i) {
            const double k = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * i / steps);
            const double m = misfit(rows, work, knob, k);
            if (m < best_misfit - 1e-12 || (std::abs(m - best_misfit) <= 1e-12 && std::abs(std::log(k)) < std::abs(std::log(best)))) {
                best = k;
                best_misfit = m;
            }
        }
        return best;
    };
    const double coarse = search(kScaleLow, kScaleHigh, 110);  // steps of 2%
    return search(coarse / 1.02, coarse * 1.02, 40);           // steps of 0.1%
}

struct RefitConstant {
    const FittedConstant* constant;
    std::vector<const MeasuredCase*> rows;  // the representable rows it is re-fitted on
    bool moves(const MeasuredCase* c) const { return std::find(rows.begin(), rows.end(), c) != rows.end(); }
};

// Sweeps of the joint fit below: on the bundled rows a third changes no figure --holdout prints.
constexpr int kSweeps = 2;

// The constants' factors fitted together without one source's rows, by coordinate descent: each
// constant's factor the best on its rows with the others at theirs, two sweeps. Fitted one at a
// time with the others at their code values, constants that move the same rows (a launch-bound
// V100 row moves with Volta's GEMM efficiency and the host time per kernel; the LoRA and QLoRA
// reserves with ZeRO-3's and the activations' cached shares) would each take up the same misfit,
// and applied together overshoot. On every row (left_out empty) all constants are fitted, from
// f = 1; without a source, the constants that move its rows are fitted again from f (the
// every-row fit) and the others keep theirs: none of them was fitted on that source's rows, though
// one that shares rows with a constant that was saw that constant at its every-row value (a second-
// order leak, kept for speed: a whole joint fit per source took 1.9 s where this takes 0.7). A
// constant none of whose rows is left takes its code value (factor 1).
std::vector<double> joint_factors(const std::vector<RefitConstant>& rcs, const std::string& left_out, std::vector<double> f) {
    std::vector<std::size_t> fitted;
    for (std::size_t j = 0; j < rcs.size(); ++j)
        if (left_out.empty() ||
            std::any_of(rcs[j].rows.begin(), rcs[j].rows.end(), [&](const MeasuredCase* c) { return source_key(c->source) == left_out; }))
            fitted.push_back(j);
    for (int sweep = 0; sweep < kSweeps; ++sweep)
        for (std::size_t j : fitted) {
            std::vector<MeasuredCase> rows;
            for (const MeasuredCase* c : rcs[j].rows) {
                if (!left_out.empty() && source_key(c->source) == left_out) continue;
                MeasuredCase& x = rows.emplace_back(*c);
                for (std::size_t i = 0; i < rcs.size(); ++i)
                    if (i != j && rcs[i].moves(c)) set_scaled(x, x, rcs[i].constant->knob, f[i]);
            }
            f[j] = rows.empty() ? 1.0 : best_scale(rows, rcs[j].constant->knob);
        }
    return f;
}

}  // namespace

HoldoutReport validate_holdout(const std::vector<MeasuredCase>& cases, const std::vector<FittedConstant>& constants) {
    HoldoutReport report;
    std::vector<RefitConstant> refittable;
    std::map<std::string, std::vector<const FittedConstant*>> not_refitted_by_source;  // source key -> constants
    for (const FittedConstant& k : constants) {
        if (!k.refitted()) {
            for (const MeasuredCase& c : cases)
                if (c.not_representable.empty() && std::find(k.rows.begin(), k.rows.end(), c.id) != k.rows.end())
                    not_refitted_by_source[source_key(c.source)].push_back(&k);
            continue;
        }
        RefitConstant rc{&k, {}};
        for (const MeasuredCase& c : cases)
            if (refits_row(k, c)) rc.rows.push_back(&c);
        refittable.push_back(rc);
    }

    // Per left-out source: every re-fitted constant's factor without that source's rows, fitted
    // together (joint_factors); and once on every row, the constants' automatic fit.
    std::map<std::pair<std::string, std::string>, double> scale_without;  // (constant, source key) -> k
    std::map<std::string, std::vector<const FittedConstant*>> alone_in;   // source key -> constants only its rows move
    std::set<std::string> sources;
    for (const RefitConstant& rc : refittable)
        for (const MeasuredCase* c : rc.rows) sources.insert(source_key(c->source));
    const std::vector<double> every_row = joint_factors(refittable, "", std::vector<double>(refittable.size(), 1.0));
    std::map<std::string, std::vector<double>> factors_without;
    for (const std::string& s : sources) factors_without[s] = joint_factors(refittable, s, every_row);
    for (std::size_t j = 0; j < refittable.size(); ++j) {
        const RefitConstant& rc = refittable[j];
        std::vector<std::string> ids;
        for (const MeasuredCase* c : rc.rows) ids.push_back(c->id);
        report.refits.push_back({rc.constant->name, "", rc.constant->value * every_row[j], ids});
        std::set<std::string> own;
        for (const MeasuredCase* c : rc.rows) own.insert(source_key(c->source));
        for (const std::string& s : own) {
            std::vector<std::string> rest_ids;
            for (const MeasuredCase* c : rc.rows)
                if (source_key(c->source) != s) rest_ids.push_back(c->id);
            // No row of another source moves it: nothing to re-fit it on, so the source's rows
            // keep the code's value and say that their held-out error is unknown.
            const double k = factors_without[s][j];
            if (!rest_ids.empty()) scale_without[{rc.constant->name, s}] = k;
            else alone_in[s].push_back(rc.constant);
            report.refits.push_back({rc.constant->name, s, rc.constant->value * k, rest_ids});
        }
    }

    for (const MeasuredCase& c : cases) {
        if (!c.not_representable.empty()) continue;
        const std::string key = source_key(c.source);
        const std::vector<CaseResult> in = case_rows(c);
        MeasuredCase held_out = c;
        bool moved = false;
        std::string refitted;
        for (const RefitConstant& rc : refittable) {
            auto it = scale_without.find({rc.constant->name, key});
            if (it == scale_without.end() || !rc.moves(&c)) continue;
            set_scaled(held_out, held_out, rc.constant->knob, it->second);
            moved = moved || it->second != 1;
            refitted += (refitted.empty() ? "" : "; ") + rc.constant->name + " " + format_compact(rc.constant->value) + " -> " +
                        format_compact(rc.constant->value * it->second);
        }
        if (!moved) refitted.clear();
        const std::vector<CaseResult> out = moved ? case_rows(held_out) : in;
        std::string not_refitted;
        if (auto it = not_refitted_by_source.find(key); it != not_refitted_by_source.end())
            for (const FittedConstant* f : it->second)
                if (f->time_constant == is_step_time(c.measurement.quantity)) not_refitted += (not_refitted.empty() ? "" : "; ") + f->name;
        if (auto it = alone_in.find(key); it != alone_in.end())
            for (const RefitConstant& rc : refittable)
                if (std::find(it->second.begin(), it->second.end(), rc.constant) != it->second.end() && rc.moves(&c))
                    not_refitted += (not_refitted.empty() ? "" : "; ") + rc.constant->name + " (no other source's row moves it)";
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
