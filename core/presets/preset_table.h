#pragma once
// Lookup by name in a preset table, written once for the GPU, model and cluster presets (each
// preset type has a `name` member: what --gpu, --model and --cluster accept).
#include "core/base/errors.h"

#include <concepts>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

template <class P>
concept NamedPreset = requires(const P& p) {
    { p.name } -> std::convertible_to<std::string>;
};

// "a, b, c": the names in table order, for help texts and error messages.
template <NamedPreset P>
std::string preset_names(const std::vector<P>& presets, std::string_view separator = ", ") {
    std::string names;
    for (const P& p : presets) {
        if (!names.empty()) names += separator;
        names += p.name;
    }
    return names;
}

// The preset called `name`; otherwise throws InputError
// "unknown <kind> '<name>'; known <kinds>: a, b, c".
template <NamedPreset P>
const P& find_preset(const std::vector<P>& presets, std::string_view name, std::string_view kind, std::string_view kinds) {
    for (const P& p : presets)
        if (p.name == name) return p;
    throw InputError("unknown " + std::string(kind) + " '" + std::string(name) + "'; known " + std::string(kinds) + ": " +
                     preset_names(presets));
}

// One row of a preset kind's sources: where the figures of the preset called `preset` come from
// (gpu_source, cluster_source, model_source).
struct PresetSource {
    const char* preset;
    const char* source;
};

// The source of the preset called `name`; "" when no row names it.
inline const char* find_source(std::span<const PresetSource> rows, std::string_view name) {
    for (const PresetSource& r : rows)
        if (name == r.preset) return r.source;
    return "";
}

}  // namespace zp
