#pragma once
// Everything the window shows for one scenario, computed in one call: the memory and time
// bars of the standard setups, per-GPU memory against GPU count for each stage, and the plan.
#include "core/search/max_sequence.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <string>
#include <vector>

namespace zp {

struct ScalingPoint {
    std::int64_t gpus = 1;
    double required_bytes = 0;  // per GPU, the step's peak that must fit (MemoryBreakdown::peak_required_bytes): what is drawn
};

struct ScalingSeries {
    int stage = 0;
    std::vector<ScalingPoint> points;  // 1, 2, 4, ... 4096 GPUs, and the scenario's own count between them
};

struct Overview {
    // overview_setups(), and the plan's best setup where it is not one of them, in the order of
    // zero_setup_rows(): each setup at the micro batch, recompute and buckets the search found
    // best for it (or, when none fits, its least-memory candidate).
    std::vector<Candidate> bars;
    bool step_valid = true;  // false when the batch cannot be split (step fields are zero)
    std::string step_error;
    std::vector<ScalingSeries> scaling;  // stages 0..3 without offload
    Plan plan;
    // When a plan fits: the longest sequence its best candidate takes as it is (micro batch and
    // recompute kept; core/search/max_sequence.h longest_sequence_of); max_seq_len 0 otherwise.
    SequenceCeiling best_longest;
    // The same for the micro batch: the largest the best candidate fits as it is (recompute, buckets,
    // layout and sequence kept; core/search/max_sequence.h largest_micro_batch_of).
    MicroBatchCeiling best_micro;
    bool plan_valid = true;
    std::string plan_error;
};

// Runs the search once; the bars are its per-setup results.
Overview compute_overview(const Scenario& s);

// The setups of `o.bars`, in order, each with every other field at its default (zero_setup);
// overview_setups() when there are no bars.
std::vector<ZeroSetup> bar_setups(const Overview& o);

// With ZeRO++ on auto (ZeroSetup::auto_zeropp), what `chosen` (the setup the window shows and
// exports, the plan's when one fits) runs with: its ZeRO++ switches in words, or "off" and why
// (one node, no plan fits, not ZeRO-3, or the search found it no faster). Empty when ZeRO++ is
// not on auto.
Phrase auto_zeropp_outcome(const Scenario& chosen, const Overview& o);

}  // namespace zp
