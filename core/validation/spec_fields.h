#pragma once
// Fields of the check entries a measured-runs document declares besides its cases ("pairs",
// "means"): each missing or malformed one is an InputError naming the entry and the field.
#include <nlohmann/json_fwd.hpp>

#include <string>

namespace zp::validation {

std::string spec_text(const nlohmann::json& entry, const char* key, const std::string& where);

// The entry's "tolerance": |predicted / measured - 1| within it counts as right.
double spec_tolerance(const nlohmann::json& entry, const std::string& where);

}  // namespace zp::validation
