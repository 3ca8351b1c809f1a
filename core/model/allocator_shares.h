#pragma once
// The shares of PyTorch's caching allocator (core/memory/allocator.h, which says why a share of
// the bytes that cycle within a step): the FITTED defaults of Assumptions::allocator,
// allocator_zero3 and allocator_activations. Global (not per run), read off the measured
// allocated/reserved pairs of tests/data/anchors/measured_runs.json (docs/design.md §4.7 shows the
// fit). They live with the Assumptions so that `validate --holdout` can re-fit the cached shares
// without the rows they were read off (core/validation/holdout.cpp); sessions do not carry them.

namespace zp {

struct AllocatorShares {
    double cached;        // reserved beyond allocated, as a share of the cycling bytes
    double unreleasable;  // of which the allocator cannot free when a request fails
    friend bool operator==(const AllocatorShares&, const AllocatorShares&) = default;
};

// The cycling bytes other than activations: ZeRO-0/1/2 and ZeRO-3. ZeRO-0/1/2's cached share is
// validate --holdout's every-row re-fit (0.675) on BigScience's tr11 ZeRO-1 memory (N19, N20 and
// measured_runs_3.json's B rows). The ZeRO tutorial's ZeRO-2 nvidia-smi reading (M07) is not among
// them: v0.3's shard-by-shard all-gather drives that reserve to the card (step_timeline.cpp
// add_gather_terms), where no share moves it. Until 2026-11-28 2.8, read off M07 alone; until
// 2026-11-29 0.92, on M07 and tr11 together.
inline constexpr AllocatorShares kAllocatorShares{0.675, 0.16};
inline constexpr AllocatorShares kAllocatorSharesZero3{1.9, 0.11};
// Activations, every stage: read off PEFT's LoRA Llama-2 70B ZeRO-3 run on 8 H100s (its
// DeepSpeed guide: 64 GB in nvidia-smi, at 51.7 GiB allocated of which the cycling bytes are
// nearly all activations); the unreleasable share scaled with it as ZeRO-3's is (0.11 / 1.9).
inline constexpr AllocatorShares kAllocatorSharesActivations{0.17, 0.17 * 0.11 / 1.9};

}  // namespace zp
