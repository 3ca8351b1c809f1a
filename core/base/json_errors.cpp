#include "core/base/json_errors.h"

#include "core/base/errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace zp {

TextPosition position_of_offset(std::string_view text, std::size_t byte_offset) {
    TextPosition pos;
    // nlohmann reports the count of bytes read, including the offending one: point at that byte.
    const std::size_t end = byte_offset == 0 ? 0 : std::min(byte_offset - 1, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++pos.line;
            pos.column = 1;
        } else {
            ++pos.column;
        }
    }
    return pos;
}

namespace {

std::string at(std::string_view text, std::size_t offset, const std::string& source_name) {
    const TextPosition pos = position_of_offset(text, offset);
    return source_name + ": invalid JSON at line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

// Returns the byte offset (1-based, like nlohmann) where nesting first exceeds the limit, or 0.
std::size_t depth_violation(std::string_view text) {
    int depth = 0;
    JsonStringScan strings;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (strings.in_string(c)) continue;
        if (c == '{' || c == '[') {
            if (++depth > kMaxJsonDepth) return i + 1;
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return 0;
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, const std::string& source_name) {
    if (const std::size_t offset = depth_violation(text))
        throw InputError(at(text, offset, source_name) + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        // e.what(): "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error while
        // parsing object - unexpected '}'; expected string literal". Keep the reason after "syntax error".
        std::string reason = e.what();
        if (const auto p = reason.find("syntax error"); p != std::string::npos) reason = reason.substr(p);
        throw InputError(at(text, e.byte, source_name) + ": " + reason);
    } catch (const nlohmann::json::exception& e) {
        // out_of_range 406: a number such as 1e500 that no double can hold.
        std::string reason = e.what();
        if (const auto p = reason.find("] "); p != std::string::npos) reason = reason.substr(p + 2);
        // nlohmann gives no position here; the number it names ("parsing '1e309'") is found in the
        // text so that the message points at it as a syntax error's does.
        const auto open = reason.find('\''), close = open == std::string::npos ? open : reason.find('\'', open + 1);
        if (close != std::string::npos && close > open + 1)
            if (const auto where = text.find(reason.substr(open + 1, close - open - 1)); where != std::string_view::npos)
                throw InputError(at(text, where + 1, source_name) + ": " + reason + " (no double holds it)");
        throw InputError(source_name + ": invalid JSON: " + reason);
    }
}

}  // namespace zp
