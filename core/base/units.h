#pragma once
// Units used across the core. Bytes are the unit of every memory figure; names carry units.
#include <cstdint>

namespace zp {

inline constexpr double kBytesPerMiB = 1024.0 * 1024.0;           // 2^20
inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;  // 2^30, what we display as "GiB"
inline constexpr double kBytesPerTiB = 1024.0 * kBytesPerGiB;     // 2^40
inline constexpr double kBytesPerGB = 1e9;                        // 10^9, the ZeRO paper's "GB"

// The largest whole number the readers accept from a JSON document (sessions, ds_config.json,
// measured runs): a JSON number is read as an IEEE double, which holds every integer up to 2^53
// (9.007e15) exactly (RFC 8259 Sec. 6); 9e15 stays below that and reads as a round limit.
inline constexpr double kJsonSafeInteger = 9e15;

constexpr double bytes_to_gib(double bytes) { return bytes / kBytesPerGiB; }
constexpr double gib_to_bytes(double gib) { return gib * kBytesPerGiB; }

}  // namespace zp
