#pragma once
// The recommender (docs/design.md §6): search every ZeRO stage, offload device, recompute policy,
// micro batch and bucket setting (and with ZeRO++ on auto across nodes, the ZeRO++ switches);
// keep what fits GPU, host RAM and NVMe; pick the fastest, preferring the simpler setup within 2%.
#include "core/memory/memory_model.h"
#include "core/search/zero_setups.h"
#include "core/time/step_time.h"

#include <optional>
#include <string>
#include <vector>

namespace zp {

struct Candidate {
    Engine engine = Engine::DeepSpeed;  // the engine it runs under (the search's choice with --engine auto)
    bool hybrid_shard = false;          // under FSDP: hybrid sharding (FsdpSetup::hybrid_shard)
    ZeroSetup zero;
    Parallelism parallel;  // the layout it runs on (the scenario's own unless the search chose it)
    Checkpointing checkpointing = Checkpointing::None;
    std::int64_t micro_batch = 1;
    std::int64_t gradient_accumulation_steps = 1;
    MemoryBreakdown memory;
    StepTime step;
    Fit fit;
};

// Why the candidate's setup cannot run where it is asked (Fit::refusal), in the recommender's words;
// "" when it runs.
std::string setup_refusal_words(const Scenario& s, const Candidate& c);

struct Rejection {
    std::string setup;   // "ZeRO-1", "ZeRO-3 + CPU offload", ...
    std::string reason;  // "needs 96.2 GiB per GPU, 76.0 GiB available"
    // The same two, translatable (core/base/phrase.h): english(setup_phrase) == setup, ...
    Phrase setup_phrase;
    Phrase reason_phrase;
};

struct Plan {
    bool feasible = false;
    Candidate best;                        // meaningful only when feasible
    std::vector<Candidate> alternatives;   // the fastest feasible candidate of every other setup, fastest first
    std::vector<Rejection> rejected;       // every setup that lost, with why
    std::vector<std::string> why;          // why the best won, in plain words
    std::vector<std::string> suggestions;  // when nothing fits: what would
    // why and suggestions, translatable (core/base/phrase.h): english(why_phrases[i]) == why[i].
    std::vector<Phrase> why_phrases;
    std::vector<Phrase> suggestion_phrases;
    std::int64_t candidates_evaluated = 0;  // the searched space: every candidate, estimated or bounded out
    std::int64_t candidates_estimated = 0;  // of them, the ones whose memory was estimated (see SearchPruning)
    // For every zero_setups() entry, in that order: its fastest feasible candidate, or when none
    // fits, its candidate with the least GPU memory (what the window draws for that setup).
    std::vector<Candidate> per_setup;
    std::vector<bool> per_setup_feasible;
};

// How the search skips candidates. Bounds: along the micro batches of one setup, bucket and
// recompute policy that accumulate gradients (gradient accumulation > 1), every fit dimension
// grows with the micro batch (activations and logits on the GPU, CPU checkpoints on the host; the
// rest does not depend on it), so the first micro batch that does not fit ends that line; the
// micro batch without accumulation is always estimated (its buffers differ); and the host side is
// computed once per setup and accumulation regime, the model states once per setup and the
// activations once per micro batch and recompute policy (MemoryMemo). Once a setup has a feasible
// point, a candidate slower than that setup's fastest and below the simplest-within share (0.98)
// of the fastest found so far can be neither a setup's bar nor the plan's choice: a
// recompute policy and micro batch whose fastest possible step (step_seconds_lower_bound) is that
// slow is skipped whole, and any other candidate's step time comes first, its memory only when it
// is not that slow. A line's least-memory bucket is estimated first, and when it does not fit the
// line is skipped unless it could hold the setup's least-memory point. A layout search's two
// threads share those bars (recommender.cpp FoundSoFar). Exhaustive estimates every
// candidate from scratch: the property test that both give the same plan (tst_robustness) keeps
// the bound and the memo honest. BoundsLaterLayoutsFirst is Bounds on one thread with the layouts
// searched last first, so that every bar a layout meets comes from a layout after it (merged in
// layout order, a later layout's point replaces an earlier one only when strictly better): the
// tests compare it with Exhaustive too.
enum class SearchPruning { Bounds, Exhaustive, BoundsLaterLayoutsFirst };

// Which model-parallel sizes the search chooses ("auto") instead of taking the scenario's: the
// scenario's own Parallelism::auto_* flags, or more.
struct SearchSpace {
    bool auto_tensor = false;    // every tensor size that fits a node and divides the heads (Megatron SP on when > 1)
    bool auto_pipeline = false;  // every pipeline size that divides the GPUs left and is at most the layers
    bool auto_expert = false;    // every expert-parallel size that divides the routed experts and the data-parallel size
    bool auto_ulysses = false;   // every DeepSpeed-Ulysses degree that validate_parallelism accepts (divides heads, sequence, GPUs)
    // ZeRO++ (ZeroSetup::auto_zeropp): on a cluster of more than one node, each stage-3 candidate
    // also with hpZ over the node and with hpZ + qwZ + qgZ (kZeroppChoices) where they take effect
    // (effective_zeropp); elsewhere, and inside one node, ZeRO++ off.
    bool auto_zeropp = false;
};

// The layouts a search covers: the scenario's own, or with auto sizes every factorisation
// tensor x pipeline x data of the GPUs that validate_parallelism accepts and whose data-parallel
// size divides the global batch (any, when the batch is chosen), plain data parallelism first.
std::vector<Parallelism> searched_layouts(const Scenario& s, const SearchSpace& space);
// The scenario's own Parallelism::auto_* flags.
SearchSpace search_space_of(const Scenario& s);

// A new plan's layout search, where the user fixes no size: Megatron-DeepSpeed's tensor and
// pipeline sizes are searched for full training across more than one node, where data
// parallelism alone stops being how large models train (BLOOM-176B: TP 4 x PP 12 over 48 nodes),
// and so is ZeRO++ (ZeroSetup::auto_zeropp), which multi-node ZeRO-3 runs turn on because the
// cross-node gathers dominate (arXiv 2306.10209 Sec. 1).
// Inside one node, and for fine-tuning with PEFT (LoRA, QLoRA), which runs under the Trainer or
// Accelerate (peft's docs/source/accelerate/deepspeed.md shards with ZeRO only), the plan stays
// data parallel unless a size is set to auto.
void search_layouts_by_default(Scenario& s);
// default_scenario() as a new plan starts: with search_layouts_by_default.
Scenario default_plan_scenario();

// Searches around `s` (its model, cluster, precision, optimizer, sequence, global batch, flash
// attention and assumptions are kept; stage, offload, recompute, micro batch and buckets are chosen).
// Throws InputError when the global batch cannot be split over the GPUs at all.
// With auto sizes in `space` or in the scenario (search_space_of) it searches the layouts too (searched_layouts): a stage a pipeline
// cannot run (ZeRO-2/3) is not estimated on that layout when another layout runs it, and within
// 2% the layout with less model parallelism wins.
Plan recommend(const Scenario& s, SearchPruning pruning = SearchPruning::Bounds);
Plan recommend(const Scenario& s, const SearchSpace& space, SearchPruning pruning = SearchPruning::Bounds);

// A model with learned absolute positions (ModelSpec::positions: GPT-2's n_positions) planned at a
// longer sequence: its position table has no row past them (transformers' GPT2Model indexes wpe with
// the positions and fails there), said so; empty otherwise.
Phrase past_positions_phrase(const Scenario& s);

// Evaluates one fully specified scenario the way the search does.
Candidate evaluate(const Scenario& s);

// The setup `s` names (stage and offload), on its own layout and engine, at the micro batch and
// recompute the search would give it where Training leaves them to the planner (auto_micro_batch,
// auto_checkpointing): the
// fastest of that setup that fits, or nothing when neither is left open or none fits. What
// `export --stage` writes when the setup as given does not fit.
std::optional<Candidate> fastest_fit_of_setup(const Scenario& s);

}  // namespace zp
