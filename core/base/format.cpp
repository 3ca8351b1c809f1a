#include "core/base/format.h"

#include "core/base/units.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace zp {

std::string format_fixed(double value, int decimals) {
    if (!std::isfinite(value)) return "n/a";
    // std::to_chars rounds the exact binary value as printf's "%.*f" does, without the format
    // parser: the recommender formats its explanations on every search.
    char buf[400];  // |value| < 1.8e308 has at most 309 integer digits
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, std::clamp(decimals, 0, 60));
    if (ec != std::errc()) return "n/a";
    // A value that rounds to zero has no sign: -0.0 (a spin box given "-0") and -0.04 at one
    // decimal print "0.0", as no figure or difference is "minus nothing".
    const std::string_view text(buf, static_cast<std::size_t>(end - buf));
    if (text.size() > 1 && text.front() == '-' && text.find_first_not_of("0.", 1) == std::string_view::npos)
        return std::string(text.substr(1));
    return std::string(text);
}

std::string format_general(double value) {
    if (!std::isfinite(value)) return "n/a";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

std::string format_bytes(double bytes) {
    constexpr double kGibPerTib = 1024.0;
    if (!std::isfinite(bytes)) return "n/a";  // no unit after "n/a"
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
    return (value < 0 && out != "0" ? "-" : "") + out;  // -0.4 rounds to 0, which has no sign
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

namespace {

// Where a duration moves to the next unit: at two of it, so that a figure never reads as "1.0 h"
// for 61 minutes and stays at most three digits in the unit below (119 s, 119.9 min, 47.9 h).
// The planner's own reading choice; the CLI goldens and the window show these units.
constexpr double kSecondsPerMinute = 60.0;
constexpr double kSecondsPerHour = 3600.0;
constexpr double kSecondsPerDay = 86400.0;
constexpr double kShowMinutesFromSeconds = 2 * kSecondsPerMinute;  // 120 s
constexpr double kShowHoursFromSeconds = 2 * kSecondsPerHour;      // 7200 s
constexpr double kShowDaysFromSeconds = 2 * kSecondsPerDay;        // 172800 s

}  // namespace

DurationUnit duration_unit(double seconds) {
    if (seconds < 1.0) return DurationUnit::Milliseconds;
    if (seconds < kShowMinutesFromSeconds) return DurationUnit::Seconds;
    if (seconds < kShowHoursFromSeconds) return DurationUnit::Minutes;
    if (seconds < kShowDaysFromSeconds) return DurationUnit::Hours;
    return DurationUnit::Days;
}

double seconds_per(DurationUnit unit) {
    switch (unit) {
    case DurationUnit::Milliseconds: return 1e-3;
    case DurationUnit::Seconds: return 1.0;
    case DurationUnit::Minutes: return kSecondsPerMinute;
    case DurationUnit::Hours: return kSecondsPerHour;
    case DurationUnit::Days: return kSecondsPerDay;
    }
    return 1.0;
}

std::string format_seconds(double seconds) { return format_seconds_in(seconds, duration_unit(seconds)); }

std::string format_seconds_in(double seconds, DurationUnit unit, int decimals) {
    if (!std::isfinite(seconds)) return "n/a";
    if (decimals >= 0 && unit != DurationUnit::Milliseconds) {
        const char* name = unit == DurationUnit::Seconds   ? " s"
                           : unit == DurationUnit::Minutes ? " min"
                           : unit == DurationUnit::Hours   ? " h"
                                                           : " days";
        return format_fixed(seconds / seconds_per(unit), decimals) + name;
    }
    // Milliseconds by multiplying, as before the unit was named (x / 1e-3 rounds differently).
    const double in_unit = unit == DurationUnit::Milliseconds ? seconds * 1000.0 : seconds / seconds_per(unit);
    switch (unit) {
    case DurationUnit::Milliseconds: return format_fixed(in_unit, 0) + " ms";
    case DurationUnit::Seconds: return format_fixed(in_unit, 2) + " s";
    case DurationUnit::Minutes: return format_fixed(in_unit, 1) + " min";
    case DurationUnit::Hours: return format_fixed(in_unit, 1) + " h";
    case DurationUnit::Days: return (in_unit >= 1000 ? format_count(in_unit) : format_fixed(in_unit, 1)) + " days";
    }
    return format_fixed(seconds, 2) + " s";
}

std::string format_percent(double fraction) { return format_fixed(100 * fraction, 1) + "%"; }

double round_to(double value, int decimals) {
    const double f = std::pow(10.0, decimals);
    return std::round(value * f) / f;
}

}  // namespace zp
