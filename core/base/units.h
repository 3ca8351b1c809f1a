#pragma once
// Units used across the core. Bytes are the unit of every memory figure; names carry units.
#include <cstdint>

namespace zp {

inline constexpr double kBytesPerGiB = 1024.0 * 1024.0 * 1024.0;  // 2^30, what we display as "GiB"
inline constexpr double kBytesPerGB = 1e9;                        // 10^9, the ZeRO paper's "GB"

constexpr double bytes_to_gib(double bytes) { return bytes / kBytesPerGiB; }
constexpr double gib_to_bytes(double gib) { return gib * kBytesPerGiB; }

}  // namespace zp
