#pragma once
// Which pipeline stage's rank decides whether a pipelined plan fits, so that what draws one rank
// (the step view's timeline) draws that one: estimate_memory's peak is the larger of the first
// stage's (the embedding, p micro batches in flight) and the last stage's (the output layer, the
// logits and the loss), docs/design.md §4.11.
#include "core/model/scenario.h"

#include <cstdint>

namespace zp {

// The stage (0-based) whose peak estimate_memory reports: the last when its required peak is
// larger, else the first (estimate_memory keeps the first on a tie). The named stage when
// Parallelism::pipeline_rank is set; -1 without pipelining.
std::int64_t fit_deciding_stage(const Scenario& s);

// `s` with Parallelism::pipeline_rank set to fit_deciding_stage (unchanged without pipelining).
Scenario at_fit_deciding_stage(const Scenario& s);

}  // namespace zp
