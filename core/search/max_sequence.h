#pragma once
// "How long can my sequences be?" For each ZeRO setup, the longest sequence whose training step
// fits: the step's required GPU peak (the one memory model, core/memory/memory_model.h), the host
// RAM (with activation checkpoints offloaded there, Training::cpu_checkpointing) and NVMe, and the
// kernels' int32 indexing (Training::int64_kernel_indexing). docs/design.md §4.17.
#include "core/search/recommender.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace zp {

// What stops the next length.
enum class SequenceLimit {
    GpuMemory,    // the step's peak no longer fits the GPU
    HostMemory,   // host RAM (offloaded optimizer, parameters and activation checkpoints)
    Nvme,         // NVMe swap space
    KernelIndex,  // a rank's [tokens x hidden] tensor reaches 2^31 elements under int32-indexed kernels
    Ceiling       // the planner's own upper bound on a sequence (limits::kSeqLen)
};
const char* to_string(SequenceLimit l);  // "GPU memory", "host RAM", ...

struct SequenceCeiling {
    SetupKey setup;
    std::int64_t ulysses = 1;      // the DeepSpeed-Ulysses degree it was measured at
    Parallelism parallel;          // the layout it was measured at (tensor, pipeline, Ulysses, experts)
    std::int64_t max_seq_len = 0;  // the longest multiple of sequence_granularity that fits; 0: not even one
    SequenceLimit limit = SequenceLimit::GpuMemory;
    Candidate at_max;  // the step at max_seq_len (meaningful when max_seq_len > 0)
};

struct SequenceSearch {
    std::int64_t granularity = 1;            // at the scenario's own Ulysses degree
    bool ulysses_searched = false;           // the degree was on auto: each setup's at the degree that reaches furthest
    bool layouts_searched = false;           // tensor, pipeline or expert sizes on auto: each setup's at the layout that reaches furthest
    std::vector<SequenceCeiling> per_setup;  // zero_setups() order, the setups the engine and layout run
    int longest = -1;                        // index into per_setup of the longest (the faster on a tie); -1: none fits
};

// Lengths step in multiples of 256 x the Ulysses degree (ArcticTraining projects/sequence-
// parallelism/USAGE.md: "try to have it divisible by 256*sequence_parallel_size"; Ulysses needs
// the sequence divisible by its degree, ulysses_sp.py).
inline constexpr std::int64_t kSequenceGranuleTokens = 256;  // per unit of Ulysses degree
std::int64_t sequence_granularity(const Scenario& s);

// The scenario `s` at `seq` tokens, set up as the search measures it: a recompute policy on auto
// becomes full recompute and a micro batch on auto becomes 1 (the least memory a length can take);
// a global batch the layout cannot split is raised to the next one it can.
Scenario at_sequence_length(const Scenario& s, std::int64_t seq);

// The longest sequence for the setup `s` has (its stage and offload devices).
SequenceCeiling longest_sequence(const Scenario& s);
// `s` at the layout `c` was measured at (the search's own when a size was on auto).
Scenario at_ceiling_degree(const Scenario& s, const SequenceCeiling& c);
// The same for every setup the engine and the layout run; with the Ulysses degree on auto
// (Parallelism::auto_ulysses), each setup's longest over every degree the layout takes; with tensor,
// pipeline or expert sizes on auto, over every layout the recommender searches (searched_layouts),
// as a plan at that length would be laid out.
SequenceSearch longest_sequences(const Scenario& s);
// What the room a plan leaves allows (the headroom the plan leads with): the longest sequence its
// candidate `c` fits on `s`, with the candidate's setup, micro batch and recompute kept.
SequenceCeiling longest_sequence_of(const Scenario& s, const Candidate& c);

// The largest micro batch the candidate `c`'s setup fits on `s`, with its recompute, buckets, layout
// and sequence kept (what the spare allows, beside longest_sequence_of). The search
// itself stops at the fastest micro batch, which with recompute off is often the one the activations
// just fit; this says how much further the memory goes. A micro batch that does not divide the
// sequences per GPU is measured at the next global batch it splits (DeepSpeed's batch rule:
// train_batch_size = micro batch x accumulation x data-parallel ranks, core/model/batch_rule.h).
struct MicroBatchCeiling {
    std::int64_t max_micro_batch = 0;                // the largest that fits; 0: not even 1
    std::int64_t global_batch = 0;                   // the global batch at max_micro_batch (the scenario's, or raised to split)
    SequenceLimit limit = SequenceLimit::GpuMemory;  // what stops the next one (Ceiling: limits::kMicroBatch)
    double next_required_bytes = 0;  // per GPU, what the next micro batch must fit (0 at the ceiling or past int32 indexing)
};
MicroBatchCeiling largest_micro_batch_of(const Scenario& s, const Candidate& c);

// Both, as the card, `recommend` and the report lead with them: the room candidate `c` leaves. A
// figure is absent when the layout refuses a batch or length on the way (InputError).
struct PlanRoom {
    std::optional<MicroBatchCeiling> micro;
    std::optional<SequenceCeiling> longest;
};
PlanRoom room_of(const Scenario& s, const Candidate& c);

// `tokens` as a sequence length the search would try: the nearest multiple of the granularity,
// from one granule to the planner's longest (what the window's target line snaps to).
std::int64_t nearest_sequence_length(const Scenario& s, double tokens);

// The step at `points` lengths from one granule to `up_to` (the view's curves): length, whether it
// fits, step seconds and tokens per second.
struct SequencePoint {
    std::int64_t seq_len = 0;
    bool fits = false;
    double step_seconds = 0;
    double tokens_per_second = 0;
    double required_gpu_bytes = 0;
};
std::vector<SequencePoint> sequence_sweep(const Scenario& s, std::int64_t up_to, int points);

// What the window's Sequence length view draws: the longest sequence of each of `setups` (a
// setup the engine or the layout does not run has none), and for `chosen` the step against the
// length up to a third past the larger of its longest and the scenario's own length (the target).
// With the Ulysses degree on auto, each setup's longest is over every degree the layout takes, as
// longest_sequences has it, and the chosen setup's step is drawn at its degree.
struct SequenceOverview {
    std::vector<SequenceCeiling> per_setup;  // one per `setups`, in order
    std::vector<bool> runs;                  // whether the engine and the layout run that setup
    SequenceCeiling chosen;                  // the chosen setup's longest
    std::vector<SequencePoint> sweep;        // the chosen setup's step against the length
    std::int64_t granularity = 1;            // at the chosen setup's Ulysses degree
    std::int64_t target_seq_len = 0;         // the scenario's own length
    bool ulysses_searched = false;           // the degree was on auto (SequenceCeiling::ulysses says which)
    bool layouts_searched = false;           // tensor, pipeline or expert sizes on auto (SequenceCeiling::parallel says which)
};
SequenceOverview sequence_overview(const Scenario& s, const std::vector<ZeroSetup>& setups, const SetupKey& chosen, int points);

}  // namespace zp
