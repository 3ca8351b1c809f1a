#pragma once
// The session file (.zplan): a Scenario as JSON with a format version. Everything needed to
// reproduce a view; fields left out take the default scenario's values. The fields are listed
// once, in core/io/session_fields.h; versions and migrations are in core/io/session_version.h.
#include "core/io/session_version.h"
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace zp {

nlohmann::json scenario_to_json(const Scenario& s);
// Reads any version from kOldestSessionVersion to kSessionVersion (older ones are migrated).
// Throws InputError naming the field ("training.seq_len must be an integer >= 1, got \"x\"") or
// the version (a newer one: "session format version 3 is newer than this zero-planner reads").
Scenario scenario_from_json(const nlohmann::json& j, const std::string& source_name);
Scenario parse_session(std::string_view text, const std::string& source_name);
std::string session_text(const Scenario& s);  // pretty-printed, newline-terminated

}  // namespace zp
