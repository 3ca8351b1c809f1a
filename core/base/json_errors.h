#pragma once
// Parsing JSON text the user gave us, with errors people can act on: line and column for
// syntax errors (nlohmann reports a byte offset), and a nesting limit so hostile input
// cannot exhaust the stack.
#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace zp {

struct TextPosition {
    std::size_t line = 1;    // 1-based
    std::size_t column = 1;  // 1-based, in bytes
};

TextPosition position_of_offset(std::string_view text, std::size_t byte_offset);

inline constexpr int kMaxJsonDepth = 256;  // real configs nest 3-4 levels

// Throws InputError "<source>: invalid JSON at line L, column C: <reason>".
nlohmann::json parse_json_text(std::string_view text, const std::string& source_name);

}  // namespace zp
