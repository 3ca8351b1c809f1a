#pragma once
// One exception type for input the user can fix: the message says what was wrong and what is
// accepted. Callers (CLI, GUI) show it as one line; nothing else is thrown on bad input.
#include <stdexcept>
#include <string>

namespace zp {

class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace zp
