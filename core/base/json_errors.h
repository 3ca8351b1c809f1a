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

// Fed JSON text one byte at a time: whether that byte is part of a string (its quotes included),
// for the scans that look at the structure only (the depth limit, core/base/json_comments.h).
class JsonStringScan {
public:
    bool in_string(char c) {
        if (inside_) {
            if (escaped_) escaped_ = false;
            else if (c == '\\') escaped_ = true;
            else if (c == '"') inside_ = false;
            return true;
        }
        inside_ = c == '"';
        return inside_;
    }

private:
    bool inside_ = false, escaped_ = false;
};

// Throws InputError "<source>: invalid JSON at line L, column C: <reason>".
nlohmann::json parse_json_text(std::string_view text, const std::string& source_name);

}  // namespace zp
