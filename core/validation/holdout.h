#pragma once
// The constants of the model that were read off measured rows, and `validate --holdout`: each
// re-fitted leaving out one cited source at a time, that source's rows then predicted with the
// re-fitted value. In-sample accuracy (validate) flatters a constant scored on the rows it was
// read off; the held-out error is what a run nobody measured can expect.
#include "core/validation/validate.h"

#include <string>
#include <string_view>
#include <vector>

namespace zp::validation {

// What --holdout turns to re-fit a constant, each a runtime path of the model:
//   GemmEfficiency             Assumptions::gemm_efficiency_scale, which multiplies the GEMM
//                              efficiency of every GPU and nothing else (re-fitted on one GPU
//                              generation's rows: that generation's constant);
//   TritonFlashShare           the share of FlashAttention-2's rate a run's older kernel reaches
//                              (Assumptions::flash_attention_scale), on the rows that name one;
//   HostSecondsPerKernel       Assumptions::host_seconds_per_kernel;
//   Zero3HookSecondsPerModule  Assumptions::zero3_hook_seconds_per_module;
//   AllocatorCached, AllocatorCachedZero3, AllocatorCachedActivations
//                              the cached share of Assumptions::allocator, allocator_zero3 and
//                              allocator_activations (the reserve: reserved and nvidia-smi rows).
// None: not re-fitted (FittedConstant::not_refitted says why).
enum class RefitKnob {
    None,
    GemmEfficiency,
    TritonFlashShare,
    HostSecondsPerKernel,
    Zero3HookSecondsPerModule,
    AllocatorCached,
    AllocatorCachedZero3,
    AllocatorCachedActivations
};

struct FittedConstant {
    std::string name;               // "GEMM efficiency, Volta"
    double value = 0;               // as the code has it
    std::string code;               // where the code has it
    std::vector<std::string> rows;  // the case ids it was read off (from the fitted-constants document)
    std::string why;                // what those rows are, as the document says
    RefitKnob knob = RefitKnob::None;
    // GemmEfficiency: the GPU generation ("Volta") whose step-time rows it is re-fitted on. The host
    // times are re-fitted on the step-time rows they move, the cached shares on the reserved and
    // nvidia-smi rows they move: 2% or more when the constant doubles.
    std::string generation;
    std::string not_refitted;
    bool time_constant = false;  // true: it moves step-time rows; false: GPU memory and fit rows
    bool reserve_constant() const {
        return knob == RefitKnob::AllocatorCached || knob == RefitKnob::AllocatorCachedZero3 ||
               knob == RefitKnob::AllocatorCachedActivations;
    }
    bool refitted() const { return knob != RefitKnob::None; }
    // The rows it is re-fitted on, in words ("the Volta step-time rows"); empty when it is not.
    std::string refit_on() const {
        if (knob == RefitKnob::GemmEfficiency) return "the " + generation + " step-time rows";
        if (reserve_constant()) return "the reserved and nvidia-smi rows it moves";
        return refitted() ? "the step-time rows it moves" : "";
    }
};

// The model's fitted constants (values from the code) with the rows each was read off, from a
// fitted-constants document (tests/data/anchors/fitted_constants.json:
// {"constants": [{"name": "...", "rows": ["<case id>", ...], "why": "..."}]}). The rows live in the
// data beside the runs, so no code here names a case. Throws InputError naming the source for a
// malformed document, a name the code does not have, or a constant the document leaves out.
std::vector<FittedConstant> fitted_constants(std::string_view json_text, const std::string& source_name);

// The constant fitted to its rows without one source (or with all of them: left_out empty).
struct Refit {
    std::string constant;
    std::string left_out;           // source key; empty: every row (the automatic fit of the constant)
    double value = 0;               // the constant's own value when no row is left to fit
    std::vector<std::string> rows;  // the rows it was fitted to
};

struct HoldoutRow {
    std::string id;
    std::string source;  // its source key
    Quantity quantity = Quantity::Allocated;
    double in_sample_ratio = 0;  // predicted / measured as validate has it (fits: predicted / usable)
    double held_out_ratio = 0;   // with the constants re-fitted without this row's source
    bool in_sample_ok = false;
    bool held_out_ok = false;
    std::string refitted;      // "GEMM efficiency, Volta 0.450 -> 0.431"; empty: no constant of the row was read off its source
    std::string not_refitted;  // a constant read off this source that is not re-fitted automatically (its held-out error is unknown)
};

struct HoldoutGroup {
    std::string group;  // QuantityInfo::group
    int count = 0;
    int in_sample_ok = 0;
    int held_out_ok = 0;
    int not_refitted = 0;         // rows whose source a non-re-fitted constant was read off
    double in_sample_median = 0;  // median |ratio - 1|; 0 for fits
    double held_out_median = 0;
};

struct HoldoutReport {
    std::vector<Refit> refits;  // per re-fitted constant: all rows, then each source left out
    std::vector<HoldoutRow> rows;
    std::vector<HoldoutGroup> groups;
};

// The source a case cites, as a key: its `source` text up to the first parenthesis or comma, at
// most two words ("github.com/deepspeedai/DeepSpeed docs/_tutorials/zero.md", "Narayanan et"), so
// the rows of one page, issue or paper fall out together.
std::string source_key(std::string_view source);

HoldoutReport validate_holdout(const std::vector<MeasuredCase>& cases, const std::vector<FittedConstant>& constants);

}  // namespace zp::validation
