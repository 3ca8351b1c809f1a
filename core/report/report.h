#pragma once
// One plan as a report that can be shared without the planner (docs/design.md §10.1): the scenario in rows, the
// recommendation with its reasons (the plan's `why`, as `recommend` prints it), the memory table
// of every setup (the figures `compare` prints) and the recommended setup's config file (ds_config.json, or Accelerate's for an FSDP plan), all as
// strings. Pure: core/report/report_markdown.h writes it as Markdown, the window's PDF
// (ui/export/report_pdf.h) draws it, and `zero-planner report` does either.
#include "core/base/phrase.h"
#include "core/search/max_sequence.h"
#include "core/search/recommender.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace zp {

// A table of text, as a pipe table or a drawn grid shows it.
struct TextTable {
    std::vector<std::string> header;
    std::vector<bool> right_aligned;  // per column: numbers are right-aligned
    std::vector<std::vector<std::string>> rows;
};

struct Report {
    std::string title;                                             // "llama-2-70b on 16 x H100 80GB"
    std::vector<std::pair<std::string, std::string>> scenario;     // ("Model", "llama-2-70b: 68,976,648,192 parameters, ...")
    bool feasible = false;                                         // something fits
    std::string recommended;                                       // the setup's label; empty when nothing fits
    std::vector<std::pair<std::string, std::string>> key_figures;  // the recommended setup's memory, host, batch, step
    std::vector<std::string> why;                                  // Plan::why, then what decides its step
    TextTable others;                                              // setup, why it lost
    std::vector<std::string> suggestions;                          // when nothing fits: what would
    TextTable memory;                                              // memory_table() of compare_rows()
    std::string config_text;                                       // the recommended setup's config file; empty when nothing fits
    std::string config_file = "ds_config.json";                    // which: ds_config.json, or Accelerate's YAML for an FSDP plan
    std::int64_t candidates_evaluated = 0;
};

// Every zero_setups() entry of `s`, evaluated as `zero-planner compare` does.
std::vector<Candidate> compare_rows(const Scenario& s);

// Per setup: what must fit split as its deciding moment holds it, and its total; the step's peak reserved,
// host RAM and NVMe per node (GiB, two decimals, as compare prints them), the step in seconds,
// tokens/s and whether it fits.
TextTable memory_table(const std::vector<Candidate>& rows);
// The fits column: "yes", or why not in a word: "no: GPU", "no: host RAM", "no: NVMe", or for a
// setup that cannot run at all "no: master weights", "no: not in FSDP", "no: pipeline", "no: experts",
// "no: tensor" (check_fit's Fit::refusal).
std::string fits_word(const Candidate& c);

// Headroom first: the room a plan leaves on each GPU and what that room takes, which the window's
// card, `recommend` and the report lead with (the one wording, translatable), so that a plan that
// fits also says how close to the edge it runs.
// "Fits with 17.0 GiB to spare at its peak (in the loss)": the usable memory less what must fit at
// the moment that decides the fit (MemoryBreakdown::required_phase); within kEdgeShareOfCard of the
// card "Fits at the edge: 75.1 GiB of 76.0 GiB at its peak (in the loss)" (memory_model.h fit_margin).
Phrase headroom_phrase(const Scenario& s, const Candidate& best);
// The largest micro batch (largest_micro_batch_of): "up to 5 (now 4)", "up to 3 (now 1; global
// batch 72)" when it does not split the global batch, or "1 (2 needs 93.0 GiB)" when none larger fits.
Phrase micro_batch_room_phrase(const Candidate& best, const MicroBatchCeiling& m);
// The longest sequence at the plan's micro batch (longest_sequence_of): "up to 7,168 tokens (then GPU memory)".
Phrase sequence_room_phrase(const SequenceCeiling& c);
// The Batch row, short enough for one line of the card: "1 x 8 accum. x 8 GPUs", or with tensor,
// pipeline or sequence parallelism "1 x 32 accum. x 2 groups of 4 GPUs" (the layout is named elsewhere).
Phrase batch_phrase(const Scenario& s, const Candidate& c);
// Why nvidia-smi's figure is not "full": PyTorch's caching allocator keeps freed blocks reserved
// for reuse and, when an allocation finds no free block, frees its cached blocks and retries before
// it reports out of memory (c10/cuda/CUDACachingAllocator.cpp, release_cached_blocks in malloc).
inline constexpr const char* kReservedNote = QT_TRANSLATE_NOOP("Core", "the allocator may grow into the card; it frees on demand");

// The Training line: "bf16, adamw, sequence 4096, global batch 64, flash attention on, loss fp32
// up-cast, fused optimizer" (the optimizer kernel: fused, torch.optim, or bitsandbytes' paged-8bit).
std::string training_row(const Scenario& s);

// recommend(s), compare_rows(s) and the export of the recommended setup, as text. Throws
// InputError as recommend() does.
Report make_report(const Scenario& s);

}  // namespace zp
