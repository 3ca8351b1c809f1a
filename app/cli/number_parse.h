#pragma once
// Numbers as people type them on a command line, with the option name in every error.
#include "core/model/limits.h"

#include <cstdint>
#include <string>

namespace zp::cli {

// "7e9", "7B", "70b", "1.5T", "125M", "2851e6" -> an exact positive count. Suffixes K, M, B (or G), T.
std::int64_t parse_count(const std::string& text, const std::string& option);
std::int64_t parse_positive_int(const std::string& text, const std::string& option, std::int64_t max);
double parse_number(const std::string& text, const std::string& option, double min, double max);
// A number in `r` (core/model/limits.h): "--headroom must be a number in [0, 1), got '1'".
double parse_number(const std::string& text, const std::string& option, const limits::RealRange& r);
// A whole number in `r`: "--logit-metrics must be a number from 0 to 16, got '17'", then
// "--logit-metrics must be a whole number, got '1.5'".
std::int64_t parse_whole_number(const std::string& text, const std::string& option, const limits::CountRange& r);
bool parse_on_off(const std::string& text, const std::string& option);

}  // namespace zp::cli
