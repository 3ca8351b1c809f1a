#pragma once
// Pairs of measured runs that differ in one switch (the DeepSpeed ZeRO++ tutorial's run with and
// without ZeRO++): what the switch changes, measured and predicted. A ratio of two step times
// cancels what both runs share (the compute, the GPU, the model FLOPs) and checks the part the
// switch changes; a difference of two peaks checks the bytes the switch adds. Declared in the
// measured-runs document itself (its "pairs" array), so nothing here knows a case by its id.
#include "core/validation/validate.h"

#include <string>
#include <string_view>
#include <vector>

namespace zp::validation {

// How a pair compares its two rows: base / variant (step times: the speed-up), or variant - base
// (peaks: the bytes the switch adds).
enum class PairCompare { Ratio, Difference };

// {"name": "...", "base": "<case id>", "variant": "<case id>", "compare": "ratio"|"difference",
//  "tolerance": 0.15, "why_tolerance": "..."}
struct PairSpec {
    std::string name;
    std::string base;     // case id without the switch
    std::string variant;  // case id with it
    PairCompare compare = PairCompare::Ratio;
    double tolerance = 0;       // |predicted / measured - 1| within this counts as right
    std::string why_tolerance;  // the file's justification, shown by validate --json
};

struct PairResult {
    PairSpec spec;
    Quantity quantity = Quantity::StepSeconds;  // the rows' (both must measure the same)
    double measured = 0;                        // ratio, or bytes / seconds for a difference
    double predicted = 0;
    double error = 0;  // predicted / measured - 1
    bool ok = false;
};

// The document's "pairs" (none when it has no such array). Throws InputError naming the source,
// the pair and the field for a malformed entry.
std::vector<PairSpec> parse_measured_pairs(std::string_view json_text, const std::string& source_name);

// Each pair from the report's rows of its two cases. Throws InputError when a case is missing, is
// not representable, or the two measure different quantities.
std::vector<PairResult> validate_pairs(const ValidationReport& report, const std::vector<PairSpec>& pairs);

}  // namespace zp::validation
