#include "core/validation/spec_fields.h"

#include "core/base/errors.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zp::validation {

std::string spec_text(const nlohmann::json& entry, const char* key, const std::string& where) {
    if (!entry.contains(key) || !entry.at(key).is_string() || entry.at(key).get<std::string>().empty())
        throw InputError(where + "." + key + " must be a non-empty string");
    return entry.at(key).get<std::string>();
}

double spec_tolerance(const nlohmann::json& entry, const std::string& where) {
    if (!entry.contains("tolerance") || !entry.at("tolerance").is_number() || !(entry.at("tolerance").get<double>() > 0) ||
        !std::isfinite(entry.at("tolerance").get<double>()))
        throw InputError(where + ".tolerance must be a positive number (a fraction: 0.15 = 15%)");
    return entry.at("tolerance").get<double>();
}

}  // namespace zp::validation
