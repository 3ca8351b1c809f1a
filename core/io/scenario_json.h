#pragma once
// The session file (.zplan): a Scenario as JSON with a version field. Everything needed to
// reproduce a view; fields left out take the default scenario's values.
#include "core/model/scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace zp {

inline constexpr int kSessionVersion = 1;

nlohmann::json scenario_to_json(const Scenario& s);
// Throws InputError naming the field ("training.seq_len must be a positive integer, got \"x\"").
Scenario scenario_from_json(const nlohmann::json& j, const std::string& source_name);
Scenario parse_session(std::string_view text, const std::string& source_name);
std::string session_text(const Scenario& s);  // pretty-printed, newline-terminated

}  // namespace zp
