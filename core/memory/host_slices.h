#pragma once
// The slices of a node's host memory, in the order the window stacks its host bars (bottom
// first): one table for the text report, the JSON report and the host view, as memory_slices.h
// is for the GPU.
#include "core/memory/host_memory.h"

#include <array>
#include <span>
#include <string_view>

namespace zp {

struct HostSlice {
    std::string_view key;   // JSON key under host.phases[].bytes: "optimizer_states"
    std::string_view name;  // row name in the text report: "optimizer states"
    double (*bytes)(const HostSlices&);
};

inline constexpr std::array<HostSlice, 6> kHostSlices{{
    {"processes", "processes", [](const HostSlices& h) { return h.processes; }},
    {"model_copy", "model copy", [](const HostSlices& h) { return h.model_copy; }},
    {"parameters", "parameters", [](const HostSlices& h) { return h.parameters; }},
    {"gradients", "gradients", [](const HostSlices& h) { return h.gradients; }},
    {"optimizer_states", "optimizer states", [](const HostSlices& h) { return h.optimizer_states; }},
    {"buffers", "buffers", [](const HostSlices& h) { return h.buffers; }},
}};

constexpr std::span<const HostSlice> host_slices() { return kHostSlices; }

}  // namespace zp
