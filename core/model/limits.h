#pragma once
// The input limits, defined once. validate() (core/model/scenario.cpp, core/model/model_spec.cpp)
// checks them, the command line parses its options against them (app/cli/scenario_options.cpp),
// and the window's controls take their ranges from them (ui/controls/*_group.cpp), so a value one
// of them accepts is never refused or clamped by another. Each limit is in the unit people type:
// GiB, GB/s, Gbit/s, fractions; validate() converts the scenario's bytes before comparing.
//
// Why these numbers: they are sanity bounds, not hardware facts. They keep every count far from
// int64 overflow and every estimate finite, and stay well beyond anything real (the largest
// published training runs use tens of thousands of GPUs, sequences of a few million tokens).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>

namespace zp::limits {

// The valid values of one input: [min, max], with either end optionally excluded.
template <class T>
struct Range {
    T min;
    T max;
    bool min_open = false;  // min itself is not valid: (min, ...
    bool max_open = false;  // max itself is not valid: ..., max)

    // False for NaN; for doubles, infinity is outside every range (max is finite).
    constexpr bool contains(T v) const { return (min_open ? v > min : v >= min) && (max_open ? v < max : v <= max); }
};

using CountRange = Range<std::int64_t>;
using RealRange = Range<double>;

inline constexpr double kUnbounded = std::numeric_limits<double>::max();
inline constexpr RealRange kPositive{0, kUnbounded, true, false};
inline constexpr RealRange kNonNegative{0, kUnbounded};

// --- Cluster -------------------------------------------------------------------------------
// World size: nodes x GPUs per node.
inline constexpr CountRange kWorldSize{1, 1'000'000};
inline constexpr CountRange kNodes{1, kWorldSize.max};
inline constexpr CountRange kGpusPerNode{1, 1024};
inline constexpr CountRange kNicsPerNode{0, 1024};  // 0: one per GPU
inline constexpr RealRange kGpuMemoryGib{0.5, 1e6};
inline constexpr RealRange kPeakTflops = kPositive;
inline constexpr RealRange kPeakTflopsFp8 = kNonNegative;  // 0: the GPU has no FP8 tensor cores
inline constexpr RealRange kPeakTflopsFp4 = kNonNegative;  // 0: the GPU has no FP4 tensor cores
// A sample from the data pipeline, seconds (an hour a sample is no training run).
inline constexpr RealRange kDataSecondsPerSample{0.0, 3600.0};
inline constexpr RealRange kIntraNodeGBytesPerS{0.001, 1e6};  // per GPU, one direction
inline constexpr RealRange kInterNodeGbitsPerS{0.001, 1e7};   // per node
inline constexpr RealRange kPcieGBytesPerS{0.001, 1e6};       // per GPU to host
inline constexpr RealRange kCpuRamGib{0, 1e9};                // per node
inline constexpr RealRange kNvmeGib{0, 1e10};                 // per node
inline constexpr RealRange kNvmeGBytesPerS{0.001, 1e6};       // per node
inline constexpr RealRange kCpuAdamParamsPerSecond = kPositive;

// --- Training ------------------------------------------------------------------------------
inline constexpr CountRange kSeqLen{1, std::int64_t{1} << 27};
inline constexpr CountRange kMicroBatch{1, 65536};
// 0 stands for "automatic" (effective_global_batch in core/model/scenario.h).
inline constexpr CountRange kGlobalBatch{0, std::int64_t{1} << 40};
inline constexpr std::int64_t kAutomaticGlobalBatch = 0;
inline constexpr CountRange kDataloaderWorkers{0, 1024};  // per training process
// Cross-entropy metrics the loop computes over the logits each micro step (Composer's train metrics: 2).
inline constexpr CountRange kLogitMetrics{0, 16};

// --- ZeRO ----------------------------------------------------------------------------------
inline constexpr CountRange kZeroStage{0, 3};
// Bucket and buffer sizes, elements: an integer in DeepSpeed's config, here at most 1e15, below
// what a JSON number holds exactly (2^53) and far above any model (1e300 printed 90-digit GiB).
inline constexpr RealRange kBucketElems{0, 1e15};
// TiledLinear's tile factor (ZeroSetup::linear_tile_factor): 1 = off; at most the hidden size
// (tiling.py: in_splits within [1, in_features]), checked against the model in validate.
inline constexpr CountRange kLinearTileFactor{1, 65536};

// --- Assumptions ---------------------------------------------------------------------------
inline constexpr RealRange kHeadroom{0, 1, false, true};  // fraction of GPU memory kept free
// Model FLOPs utilisation, the compute scale: from 0.1% (what `calibrate` searches down to:
// core/calibration/calibrate.cpp; below it a step is not a training run's) to 100%.
inline constexpr RealRange kMfu{0.001, 1};
// The share of communication hidden behind the backward with overlap_comm (a fraction), and the
// latency of one collective launch (nccl-tests small messages: tens of microseconds; a second
// would be no collective library's), and the tokens to train on (for days and GPU-hours).
inline constexpr RealRange kCommOverlapFraction{0, 1};
inline constexpr RealRange kCollectiveLatencySeconds{0, 1};
inline constexpr RealRange kTokenBudget{1, 1e18};
inline constexpr RealRange kCudaContextGib{0, 1024};
inline constexpr RealRange kHostProcessGib{0, 1024};  // host memory of one training process or dataloader worker

// --- Model (core/model/model_spec.cpp validate) ---------------------------------------------
// Each dimension is bounded before anything counts parameters in int64; the total is bounded
// separately (kParams) in double precision.
inline constexpr CountRange kLayers{1, 100000};
inline constexpr CountRange kModelWidth{1, std::int64_t{1} << 20};       // hidden, heads, kv_heads, head_dim
inline constexpr CountRange kModelTable{1, std::int64_t{16} << 20};      // ffn, vocab
inline constexpr CountRange kPositions{0, std::int64_t{16} << 20};       // 0: no position table (RoPE, ALiBi)
inline constexpr CountRange kRelativeBuckets{0, std::int64_t{1} << 20};  // T5 relative attention
inline constexpr CountRange kExperts{1, 4096};
inline constexpr CountRange kNormsPerLayer{0, 16};
inline constexpr RealRange kParams{1, 1e15};
// A model synthesized from a size alone (synthesize_model, --params, the window's size): at least
// its smallest shape's own count, 2 layers of hidden 256 and a 51,200-token vocabulary
// (tst_model_spec checks the figure against parameter_count).
inline constexpr RealRange kSynthesizedParams{14'682'624, kParams.max};

// --- Fine-tuning (core/model/trainable_params.cpp validate_finetune) -------------------------
// LoRA's rank r, alpha and dropout (PEFT LoraConfig r, lora_alpha, lora_dropout). Sanity bounds
// as above: published adapters use r 4-256 and alpha up to a few times r; dropout 1 would drop
// every adapter input.
inline constexpr CountRange kLoraRank{1, 65536};
inline constexpr RealRange kLoraAlpha{1e-6, 1e6};
inline constexpr RealRange kLoraDropout{0, 0.999};

// --- Helpers -------------------------------------------------------------------------------

// A limit as a person reads it: 1000000, 0.5, 1e+20.
inline std::string format_limit(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}
inline std::string format_limit(std::int64_t v) { return std::to_string(v); }

// What follows "must be" in an error message: "between 1 and 65536", "in [0, 1)",
// "a positive number", "zero or more".
template <class T>
std::string describe(const Range<T>& r) {
    if constexpr (std::is_floating_point_v<T>) {
        if (r.max == kUnbounded && r.min == 0) return r.min_open ? "a positive number" : "zero or more";
    }
    if (!r.min_open && !r.max_open) return "between " + format_limit(r.min) + " and " + format_limit(r.max);
    return std::string("in ") + (r.min_open ? "(" : "[") + format_limit(r.min) + ", " + format_limit(r.max) + (r.max_open ? ")" : "]");
}

// The range multiplied by `factor` (fractions shown as percent: scaled(r, 100)).
constexpr RealRange scaled(const RealRange& r, double factor) { return {r.min * factor, r.max * factor, r.min_open, r.max_open}; }

// The smallest and largest valid values that are whole multiples of `step`: the closed range
// a control with that resolution can offer (a spin box with 0 decimals offers (0, 1] as 1).
inline double lowest_on_grid(const RealRange& r, double step) {
    double k = std::ceil(r.min / step - 1e-9);
    if (!r.contains(k * step)) k += 1;
    return k * step;
}
inline double highest_on_grid(const RealRange& r, double step) {
    double k = std::floor(r.max / step + 1e-9);
    if (!r.contains(k * step)) k -= 1;
    return k * step;
}

}  // namespace zp::limits
