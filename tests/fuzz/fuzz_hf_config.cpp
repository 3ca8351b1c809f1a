// libFuzzer: Hugging Face config.json import, then the memory model on what it produced.
#include "core/base/errors.h"
#include "core/io/hf_config.h"
#include "core/memory/memory_model.h"
#include "core/presets/default_scenario.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        zp::Scenario s = zp::default_scenario();
        s.model = zp::import_hf_config(text);
        zp::validate(s);
        const zp::MemoryBreakdown m = zp::estimate_memory(s);
        if (!std::isfinite(m.total_bytes()) || m.total_bytes() < 0) std::abort();  // an accepted model must give a sane number
    } catch (const zp::InputError&) {
    }
    return 0;
}
