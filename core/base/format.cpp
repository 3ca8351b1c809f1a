#include "core/base/format.h"

#include "core/base/units.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <system_error>

namespace zp {

std::string format_fixed(double value, int decimals) {
    if (!std::isfinite(value)) return "n/a";
    // std::to_chars rounds the exact binary value as printf's "%.*f" does, without the format
    // parser: the recommender formats its explanations on every search.
    char buf[400];  // |value| < 1.8e308 has at most 309 integer digits
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, std::clamp(decimals, 0, 60));
    if (ec != std::errc()) return "n/a";
    return std::string(buf, end);
}

std::string format_general(double value) {
    if (!std::isfinite(value)) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

std::string format_bytes(double bytes) {
    constexpr double kGibPerTib = 1024.0;
    const double gib = bytes_to_gib(bytes);
    if (std::fabs(gib) >= kGibPerTib) return format_fixed(gib / kGibPerTib, 1) + " TiB";
    return format_fixed(gib, 1) + " GiB";
}

std::string format_count(double value) {
    if (!std::isfinite(value)) return "n/a";
    const std::string digits = format_fixed(std::fabs(value), 0);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (value < 0 ? "-" : "") + out;
}

std::string format_compact(double value) {
    if (!std::isfinite(value)) return "n/a";
    static const char* const suffixes[] = {"", "k", "M", "G", "T"};
    double scaled = std::fabs(value);
    for (const char* suffix : suffixes) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", scaled);
        // Move to the next unit when rounding reached 1000 ("999.95" prints as "1e+03").
        if (std::strtod(buf, nullptr) < 1000.0) return (value < 0 ? "-" : "") + std::string(buf) + suffix;
        if (*suffix == 'T') return (value < 0 ? "-" : "") + format_fixed(scaled, 0) + suffix;
        scaled /= 1000.0;
    }
    return "n/a";
}

std::string format_seconds(double seconds) {
    if (!std::isfinite(seconds)) return "n/a";
    if (seconds < 1.0) return format_fixed(seconds * 1000.0, 0) + " ms";
    if (seconds < 120.0) return format_fixed(seconds, 2) + " s";
    if (seconds < 7200.0) return format_fixed(seconds / 60.0, 1) + " min";
    if (seconds < 172800.0) return format_fixed(seconds / 3600.0, 1) + " h";
    return format_fixed(seconds / 86400.0, 1) + " days";
}

}  // namespace zp
