#pragma once
// One exception type for input the user can fix: the message says what was wrong and what is
// accepted. Callers (CLI, GUI) show it as one line; nothing else is thrown on bad input.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace zp {

// The message as one whole line: control characters that came in with the user's input (a NUL
// or a newline in a file name or an option value) are shown as \xNN. Otherwise what() would end
// at the NUL (an empty message, found by fuzz_cli) or print a second line.
inline std::string one_line(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            out += c;
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    return out;
}

class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(one_line(message)) {}
};

}  // namespace zp
