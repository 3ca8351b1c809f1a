#pragma once
// One plan as a report that can be shared without the planner (docs/design.md §10.1): the scenario in rows, the
// recommendation with its reasons (the plan's `why`, as `recommend` prints it), the memory table
// of every setup (the figures `compare` prints) and the recommended setup's config file (ds_config.json, or Accelerate's for an FSDP plan), all as
// strings. Pure: core/report/report_markdown.h writes it as Markdown, the window's PDF
// (ui/export/report_pdf.h) draws it, and `zero-planner report` does either.
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

// recommend(s), compare_rows(s) and the export of the recommended setup, as text. Throws
// InputError as recommend() does.
Report make_report(const Scenario& s);

}  // namespace zp
