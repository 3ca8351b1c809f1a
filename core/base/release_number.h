#pragma once
// A release's number as a project tags it: "4.46", "0.14.2" (major.minor, and a patch that reads as
// 0 when absent). DeepSpeed's (core/model/deepspeed_release.h) and transformers'
// (core/model/transformers_release.h) are read the same way.
#include <array>
#include <optional>
#include <string_view>

namespace zp {

// {major, minor, patch}; nullopt for anything else: "latest", "4", "4.x", "5.0.0rc1", "4.57.0.dev0",
// "1.2.3.4", a negative or empty part.
std::optional<std::array<int, 3>> parse_release_number(std::string_view text);

}  // namespace zp
