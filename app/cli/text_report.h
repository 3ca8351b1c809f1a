#pragma once
// The human-readable output of the subcommands.
#include "core/search/recommender.h"

#include <string>

namespace zp::cli {

std::string scenario_header(const Scenario& s, bool synthesized);
std::string estimate_text(const Scenario& s, const Candidate& c);
std::string compare_text(const Scenario& s, const std::vector<Candidate>& rows);
std::string plan_text(const Scenario& s, const Plan& p);

}  // namespace zp::cli
