#pragma once
// `estimate --max-seq` and `recommend --max-seq`: the longest sequence each setup fits
// (core/search/max_sequence.h), as text and as JSON.
#include "core/search/max_sequence.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace zp::cli {

std::string sequence_ceiling_text(const Scenario& s, const SequenceCeiling& c);
std::string sequence_search_text(const Scenario& s, const SequenceSearch& r);
nlohmann::json sequence_ceiling_json(const Scenario& s, const SequenceCeiling& c);
nlohmann::json sequence_search_json(const Scenario& s, const SequenceSearch& r);

}  // namespace zp::cli
