#pragma once
// PyTorch's caching allocator on top of the step timeline (core/memory/step_timeline.h): how much
// it reserves (torch.cuda.max_memory_reserved; nvidia-smi adds the CUDA context) and how much of
// that it cannot give back when an allocation fails, which is what must fit.
//
// Why a share of the *cycling* bytes. The allocator keeps freed blocks for reuse
// (c10/cuda/CUDACachingAllocator.cpp): bytes allocated for the whole run are one set of blocks,
// but activations, their gradients, gradient buckets, loss tensors, optimizer temporaries and
// (ZeRO-3) gathered parameters are allocated and freed every step in blocks of many sizes, and a
// block freed in one phase serves another phase's request only if it is large enough (blocks
// are split, never merged across segments). So the reserve grows with the bytes that cycle, and
// more under ZeRO-3, whose every module's parameters are gathered and released in their own
// sizes each micro step. On an out-of-memory the allocator frees its unused cached segments and
// retries (release_cached_blocks), so only segments still partly in use, split by the cycling
// blocks, stay reserved: a smaller share, the one the fit is decided on.
//
// Activations are the exception: every micro step allocates them in the same sizes and order
// (the same layers, the same tokens), so the allocator serves each from the block its twin freed
// the micro step before (best-fit reuse in the same size class) and caches little beyond them.
// The blocks that spread the cache are the ones whose sizes vary: ZeRO-3's gathered modules,
// buckets, the loss's tensors, optimizer temporaries. So activations get their own, smaller share.
//
// The shares are global (not per run): core/model/allocator_shares.h holds their FITTED defaults,
// which the Assumptions carry; the reserve is capped at the card, since the allocator cannot
// reserve more than the GPU has.
#include "core/memory/step_timeline.h"

#include <vector>

namespace zp {

// The stage's shares of the cycling bytes other than activations.
inline const AllocatorShares& allocator_shares(const Assumptions& a, int stage) { return stage == 3 ? a.allocator_zero3 : a.allocator; }

// The stage's shares, taken once: activations at theirs, the other cycling bytes at the stage's.
// With expandable segments (Training::expandable_segments, PYTORCH_CUDA_ALLOC_CONF=
// expandable_segments:True) the cache is one growing virtual segment per stream
// (CUDACachingAllocator.cpp ExpandableSegment); when a request fails, release_cached_blocks unmaps
// every free page of it (2 MiB granularity), so no free block is stranded in a partly used
// segment: nothing of the cache is unreleasable. The reserve grows as before until then.
struct CyclingShares {
    double cached_other, cached_activations, unreleasable_other, unreleasable_activations;
    CyclingShares(const Assumptions& a, int stage, bool expandable_segments = false)
        : cached_other(allocator_shares(a, stage).cached),
          cached_activations(a.allocator_activations.cached),
          unreleasable_other(expandable_segments ? 0.0 : allocator_shares(a, stage).unreleasable),
          unreleasable_activations(expandable_segments ? 0.0 : a.allocator_activations.unreleasable) {}
    // The scenario's: its assumptions, stage and expandable segments.
    explicit CyclingShares(const Scenario& s) : CyclingShares(s.assumptions, s.zero.stage, s.training.expandable_segments) {}
};

// One moment's reserve and requirement, both without the CUDA context. Reserved: the reserve if
// nothing had been reserved before it, allocated plus the cached share of the cycling bytes plus
// the blocks whose free waits on another stream (StepMoment::deferred_free_bytes), capped at
// `reservable_bytes` (the card minus the context). Required: what the allocator must
// hold for the next request to succeed, allocated plus the unreleasable share.
struct MomentReserve {
    double allocated, reserved, required;
};
inline MomentReserve moment_reserve(const StepMoment& m, const CyclingShares& k, double reservable_bytes) {
    const double allocated = m.allocated_bytes();
    const double activations = m.activations_bytes;
    const double other = allocated - m.persistent_bytes - activations;
    const double reserved = allocated + (k.cached_other * other + k.cached_activations * activations) + m.deferred_free_bytes;
    return {allocated, reserved < reservable_bytes ? reserved : reservable_bytes,
            allocated + (k.unreleasable_other * other + k.unreleasable_activations * activations)};
}

inline double reserved_bytes(const StepMoment& m, const CyclingShares& k, double reservable_bytes) {
    return moment_reserve(m, k, reservable_bytes).reserved;
}
inline double required_bytes(const StepMoment& m, const CyclingShares& k) { return moment_reserve(m, k, 0).required; }

struct StepPeak {
    StepMoment moment;                              // the moment of the largest allocation
    double allocated_bytes = 0;                     // torch.cuda.max_memory_allocated
    double reserved_bytes = 0;                      // torch.cuda.max_memory_reserved (no CUDA context)
    double required_bytes = 0;                      // the largest required_bytes over the step (no CUDA context)
    StepPhase required_phase = StepPhase::StartUp;  // where that is: the phase that would fail
    StepMoment required_moment;                     // that moment, with its slices: the one that decides the fit
    double required_allocated_bytes = 0;            // what is allocated at that moment
};

// Reserved memory only grows over a step (the allocator does not return segments unless a
// request fails), so the peak reserve is the largest of the moments' reserves. Fed one moment
// at a time (add), so the search needs no stored timeline.
class StepPeakAccumulator {
public:
    StepPeakAccumulator(const CyclingShares& shares, double reservable_bytes) : shares_(shares), reservable_(reservable_bytes) {}
    void add(const StepMoment& m) {
        const MomentReserve r = moment_reserve(m, shares_, reservable_);
        if (r.allocated > peak_.allocated_bytes) {
            peak_.allocated_bytes = r.allocated;
            peak_.moment = m;
        }
        if (r.reserved > peak_.reserved_bytes) peak_.reserved_bytes = r.reserved;
        if (r.required > peak_.required_bytes) {
            peak_.required_bytes = r.required;
            peak_.required_phase = m.phase;
            peak_.required_moment = m;
            peak_.required_allocated_bytes = r.allocated;
        }
    }
    StepPeak result() const;

private:
    CyclingShares shares_;
    double reservable_;
    StepPeak peak_;
};

StepPeak step_peak(const std::vector<StepMoment>& timeline, const Scenario& s, double reservable_bytes);

// The same peak straight from the scenario, without storing the timeline (the search's path;
// defined in step_timeline.cpp beside the moments it walks).
StepPeak step_peak(const Scenario& s, const TimelineInputs& in, double reservable_bytes);
// Its required_bytes alone, from the same moments and shares (the same value to the bit), without
// the moments' slices, the reserve or the allocated peak: the GPU figure the search reads of a
// candidate (memory_model.h memory_peaks).
double step_peak_required_bytes(const Scenario& s, const TimelineInputs& in);

// What the allocator can reserve on one GPU of `s`: the card less the CUDA context.
double reservable_gpu_bytes(const Scenario& s);

// The reserve after each moment of `timeline` (a timeline of `s`) as nvidia-smi would show it:
// the running maximum of reserved_bytes (it only grows over a step), at least what is allocated,
// plus the CUDA context. What the JSON timeline and the window's step view draw.
std::vector<double> reserved_along(const Scenario& s, const std::vector<StepMoment>& timeline);

}  // namespace zp
