#pragma once
// The slices of a GPU's memory, in the order the window stacks its bars (bottom first): one
// table that the text report, the JSON report and the memory view iterate. Adding a slice
// here adds a row, a JSON key and a bar (the window adds its colour and translated name).
#include "core/memory/memory_breakdown.h"

#include <array>
#include <span>
#include <string_view>

namespace zp {

enum class SliceId { Params, Gradients, OptimizerStates, Activations, Buffers, Overhead };

// A figure reported on its own inside a slice (overhead is the CUDA context plus the allocator's
// cache it cannot free at the deciding moment).
struct MemoryPart {
    std::string_view key;   // JSON key under per_gpu_bytes
    std::string_view name;  // row name in the text report
    double (*bytes)(const MemoryBreakdown&);
};

struct MemorySlice {
    SliceId id;
    std::string_view key;     // JSON key under per_gpu_bytes: "optimizer_states"
    std::string_view name;    // row name in the text report: "optimizer states"
    std::string_view column;  // column heading of the compare table: "optim"
    double (*bytes)(const MemoryBreakdown&);
    std::span<const MemoryPart> parts;  // listed instead of the slice in the text report, beside it in JSON
};

inline constexpr std::array<MemoryPart, 2> kOverheadParts{{
    {"cuda_context", "CUDA context", [](const MemoryBreakdown& m) { return m.cuda_context_bytes; }},
    {"allocator_cache", "allocator cache", [](const MemoryBreakdown& m) { return m.allocator_cache_bytes; }},
}};

inline constexpr std::array<MemorySlice, 6> kMemorySlices{{
    {SliceId::Params, "params", "parameters", "params", [](const MemoryBreakdown& m) { return m.params_bytes; }, {}},
    {SliceId::Gradients, "gradients", "gradients", "grads", [](const MemoryBreakdown& m) { return m.gradients_bytes; }, {}},
    {SliceId::OptimizerStates,
     "optimizer_states",
     "optimizer states",
     "optim",
     [](const MemoryBreakdown& m) { return m.optimizer_states_bytes; },
     {}},
    {SliceId::Activations, "activations", "activations", "activ", [](const MemoryBreakdown& m) { return m.activations_bytes; }, {}},
    {SliceId::Buffers, "buffers", "buffers", "buffers", [](const MemoryBreakdown& m) { return m.buffers_bytes; }, {}},
    {SliceId::Overhead, "overhead", "overhead", "overhd", [](const MemoryBreakdown& m) { return m.overhead_bytes(); }, kOverheadParts},
}};

// The slices in stacking order; kMemorySlices[i].id == SliceId(i).
constexpr std::span<const MemorySlice> memory_slices() { return kMemorySlices; }
constexpr const MemorySlice& memory_slice(SliceId id) { return kMemorySlices[static_cast<std::size_t>(id)]; }

namespace detail {
constexpr bool slices_in_id_order() {
    for (std::size_t i = 0; i < kMemorySlices.size(); ++i)
        if (kMemorySlices[i].id != static_cast<SliceId>(i)) return false;
    return true;
}
}  // namespace detail
static_assert(detail::slices_in_id_order(), "kMemorySlices lists the slices in SliceId order");

}  // namespace zp
