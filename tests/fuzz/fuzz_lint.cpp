// libFuzzer: the ds_config linter on arbitrary bytes. Bad input must end in InputError, never a crash.
#include "core/base/errors.h"
#include "core/deepspeed/lint.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)zp::lint_ds_config(text, 8);
        (void)zp::lint_ds_config(text, std::nullopt);
    } catch (const zp::InputError&) {
    }
    return 0;
}
