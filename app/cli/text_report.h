#pragma once
// The human-readable output of the subcommands.
#include "core/search/recommender.h"

#include <string>
#include <vector>

namespace zp::cli {

// The scenario in a few lines; `host_note` (ScenarioNotes::host: the node --gpu assumed) under
// the cluster line when there is one.
// `setups_searched`: recommend's and compare's header, whose setups are the rows below (the
// scenario's own stage is not the plan's): FSDP's strategy is not named.
// `file_warnings`: what the linter warns of an imported file (ScenarioNotes::ds_config_warnings), one line each.
std::string scenario_header(const Scenario& s, bool synthesized, const std::string& host_note = {}, bool setups_searched = false,
                            const std::vector<std::string>& file_warnings = {});
std::string estimate_text(const Scenario& s, const Candidate& c);
std::string compare_text(const Scenario& s, const std::vector<Candidate>& rows);
std::string plan_text(const Scenario& s, const Plan& p);

}  // namespace zp::cli
