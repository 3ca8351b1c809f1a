#include "core/base/release_number.h"

#include <charconv>

namespace zp {

std::optional<std::array<int, 3>> parse_release_number(std::string_view text) {
    std::array<int, 3> parts{};
    const char* p = text.data();
    const char* const end = text.data() + text.size();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (p == end || *p < '0' || *p > '9') return std::nullopt;  // from_chars takes a sign ("-0" would pass)
        const auto [next, ec] = std::from_chars(p, end, parts[i]);
        if (ec != std::errc{} || parts[i] < 0) return std::nullopt;
        p = next;
        if (p == end) return i >= 1 ? std::optional(parts) : std::nullopt;  // at least major.minor
        if (*p != '.' || i + 1 == parts.size()) return std::nullopt;
        ++p;
    }
    return std::nullopt;
}

}  // namespace zp
