#include "core/base/json_comments.h"

#include <algorithm>
#include <optional>

namespace zp {

namespace {

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The end (one past the last byte) of the comment starting at `i`, or nullopt when none starts there
// or a `/*` is never closed (left for the JSON parser to report where it starts).
std::optional<std::size_t> comment_end(std::string_view t, std::size_t i) {
    const bool hash = t[i] == '#';
    const bool line = i + 1 < t.size() && t[i] == '/' && t[i + 1] == '/';
    if (hash || line) {
        const std::size_t eol = t.find_first_of("\r\n", i);  // a CR-only file ends its lines with '\r'
        return eol == std::string_view::npos ? t.size() : eol;
    }
    if (i + 1 < t.size() && t[i] == '/' && t[i + 1] == '*') {
        const std::size_t close = t.find("*/", i + 2);
        if (close == std::string_view::npos) return std::nullopt;
        return close + 2;
    }
    return std::nullopt;
}

}  // namespace

JsonExtras blank_comments_and_trailing_commas(std::string_view text) {
    JsonExtras out;
    out.json.assign(text.begin(), text.end());
    std::string& t = out.json;
    constexpr std::size_t kNone = std::string::npos;
    std::size_t first_offset = kNone;
    const auto note = [&](std::size_t offset) { first_offset = std::min(first_offset, offset); };
    std::size_t pending_comma = kNone;  // a comma followed so far only by space and comments
    JsonStringScan strings;
    char last = '\0';  // the last byte outside space and comments ('"' for a string)
    for (std::size_t i = 0; i < t.size(); ++i) {
        const char c = t[i];
        if (strings.in_string(c)) {
            last = '"';
            pending_comma = kNone;
            continue;
        }
        if (is_json_space(c)) continue;
        if (const auto end = comment_end(text, i)) {
            for (std::size_t k = i; k < *end; ++k)
                if (t[k] != '\n' && t[k] != '\r') t[k] = ' ';
            ++out.comments;
            note(i);
            i = *end - 1;
            continue;
        }
        if ((c == '}' || c == ']') && pending_comma != kNone) {
            t[pending_comma] = ' ';
            ++out.trailing_commas;
            note(pending_comma);
        }
        // Only a comma after a value can trail: "{,}" and "1,,]" stay for the parser to refuse, as hjson does.
        const bool after_value = last != '{' && last != '[' && last != ',' && last != ':' && last != '\0';
        pending_comma = c == ',' && after_value ? i : kNone;
        last = c;
    }
    // position_of_offset takes nlohmann's 1-based count of bytes read.
    if (first_offset != kNone) out.first = position_of_offset(text, first_offset + 1);
    return out;
}

}  // namespace zp
