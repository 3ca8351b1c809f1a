#pragma once
// The only file access in the core: reading a text file the user named, and writing one
// atomically (write a temporary beside it, flush, rename), so a failed write never leaves a
// half-written or emptied file.
#include <string>

namespace zp {

inline constexpr std::size_t kMaxInputFileBytes = 16u * 1024u * 1024u;  // configs are kilobytes

// Throws InputError: "<path>: no such file", "is a directory", "cannot be read: <reason>",
// "is larger than 16 MiB".
std::string read_text_file(const std::string& path);

// Throws InputError with the reason; the destination is untouched on failure.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace zp
