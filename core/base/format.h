#pragma once
// Numbers in words for messages: "96.2 GiB", "1.7 TiB", "12,345 tokens/s".
#include <string>

namespace zp {

std::string format_bytes(double bytes);  // GiB below 1 TiB, TiB above, one decimal
std::string format_fixed(double value, int decimals);
std::string format_general(double value);     // printf %g: "0.95", "1e-08", "3" (Python literals in the exports)
std::string format_count(double value);       // thousands separators, no decimals
std::string format_compact(double value);     // three significant digits and k/M/G/T: "24.4k", "1.5M" (plot labels)
std::string format_seconds(double seconds);   // "1.23 s", "45 ms", "3.2 days"
std::string format_percent(double fraction);  // one decimal: 0.1234 -> "12.3%" (validate's tables)
double round_to(double value, int decimals);  // a figure for JSON output: round_to(0.123456, 4) == 0.1235

// The unit format_seconds writes a duration in (an axis reads its ticks in the unit of its top).
enum class DurationUnit { Milliseconds, Seconds, Minutes, Hours, Days };
DurationUnit duration_unit(double seconds);
double seconds_per(DurationUnit unit);
// `seconds` written in `unit` as format_seconds writes that unit ("1.9 min" for 112.65 s in minutes),
// or with `decimals` where given: captions beside an axis that reads in one unit.
std::string format_seconds_in(double seconds, DurationUnit unit, int decimals = -1);

}  // namespace zp
