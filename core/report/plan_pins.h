#pragma once
// Pinned plans (the Compare panel: plans kept to set beside the live one): up to kMaxPins named, fully specified scenarios
// kept beside the live one and saved in the session file (format version 9, "pins").
//
// In the file each pin is {"name": "...", "session": {...}}, the pin's scenario as a whole
// session document with its own "version": a later format step upgrades it when it is read, as
// it upgrades the file itself, so no migration has to reach inside the list.
#include "core/model/scenario.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

inline constexpr std::size_t kMaxPins = 4;

struct PlanPin {
    std::string name;   // "8 x A100 80GB ZeRO-3"; the user may rename it
    Scenario scenario;  // the plan as pinned: its setup, micro batch and recompute fixed

    friend bool operator==(const PlanPin&, const PlanPin&) = default;
};

// A pin's name from its setup: "<GPUs> x <GPU> <setup>", the GPU without its form factor:
// "8 x A100 80GB ZeRO-3", "16 x H100 80GB ZeRO-3+CPU".
std::string default_pin_name(const Scenario& s);

// A session file: the live scenario and its pins.
struct SessionFile {
    Scenario scenario;
    std::vector<PlanPin> pins;
};

// Reads a session of any supported version (core/io/scenario_json.h) with its pins; a file
// before version 9 has none. Throws InputError naming the source and, for a pin, its place
// ("plan.zplan: pins[1].name must be a string"), and for more than kMaxPins pins.
SessionFile parse_session_file(std::string_view text, const std::string& source_name);
// The session text with the pins; without pins it is session_text(scenario) byte for byte.
std::string session_file_text(const SessionFile& f);

}  // namespace zp
