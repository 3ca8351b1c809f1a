#pragma once
// Figures a source states only as a mean over several of its runs: the ZeRO paper's "15
// PetaFlops ... on average for models with 8B to 100B parameters" over its Table 5 runs, its
// "over 40 TFlops per GPU on average" over the data-parallel runs of Table 10. Declared in the
// document's "means" array, each with its runs as cases without a measurement of their own; the
// planner's mean over the runs is compared with the stated one.
#include "core/validation/validate.h"

#include <string>
#include <string_view>
#include <vector>

namespace zp::validation {

// {"name": "...", "source": "...", "quote": "...", "measured": {"value": 37.5, "unit": "TFLOPs ...",
//  "what": "tflops_per_gpu"}, "tolerance": 0.15, "why_tolerance": "...", "runs": [<case without
//  "measured">, ...]}
struct MeanSpec {
    std::string name;
    std::string source;
    std::string quote;
    double measured = 0;  // in the quantity's base unit (TFLOP/s, seconds, samples/s)
    double tolerance = 0;
    std::string why_tolerance;
    std::vector<MeasuredCase> runs;  // each carries the mean as its measurement (parsing needs one); not compared alone
};

struct MeanResult {
    std::string name;
    Quantity quantity = Quantity::TflopsPerGpu;
    double measured = 0;
    double predicted = 0;  // the mean of the runs' predictions
    double error = 0;      // predicted / measured - 1
    double tolerance = 0;
    bool ok = false;
    std::vector<CaseResult> runs;  // each run's prediction
};

// The document's "means" (none when it has no such array). Throws InputError naming the source,
// the mean and the field for a malformed entry, and for runs the planner cannot represent. A run
// without a "source" of its own has the mean's, so `facts` (as parse_measured_runs applies them)
// that name that source fill its runs too.
std::vector<MeanSpec> parse_measured_means(std::string_view json_text, const std::string& source_name, const SourceFacts* facts = nullptr);

std::vector<MeanResult> validate_means(const std::vector<MeanSpec>& means);

}  // namespace zp::validation
