#pragma once
// The only file access in the core: reading a text file the user named, and writing one
// atomically (write a temporary beside it, flush, rename), so a failed write never leaves a
// half-written or emptied file.
#include <string>
#include <string_view>

namespace zp {

inline constexpr std::size_t kMaxInputFileBytes = 16u * 1024u * 1024u;  // configs are kilobytes

// Throws InputError: "<path>: no such file", "is a directory", "cannot be read: <reason>",
// "is larger than 16 MiB", "is UTF-16 text" (every file the planner reads is UTF-8 or ASCII).
std::string read_text_file(const std::string& path);

// UTF-16 text: a byte-order mark, or ASCII characters each beside a NUL (PowerShell 5's default
// for > and Out-File). JSON, YAML and the logs the planner reads are UTF-8.
bool is_utf16(std::string_view bytes);

// Throws InputError with the reason; the destination is untouched on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace zp
