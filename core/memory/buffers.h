#pragma once
// Communication buckets and the ZeRO-3 gathered working set, per GPU (docs/design.md §4.4).
#include "core/model/scenario.h"

namespace zp {

// ZeRO-3's gathered parameters at each point of a step, in bytes (step_timeline.cpp reads them
// moment by moment). Inside the layer stack the module computing is a layer's linear, at most the
// largest of them (layer_modules.h), with its gradient in backward; at the head and the embedding
// it is the vocabulary matrix. The prefetch runs ahead by the bucket, or by the next module whole:
// the vocabulary matrix after the last layer's forward and after the first layer's backward.
struct Zero3Gathered {
    double layer = 0;                // the largest layer module's 16-bit weight
    double layer_gradient = 0;       // ... and its gradient in backward (0 with a frozen base)
    double vocabulary = 0;           // the embedding / LM head matrix
    double vocabulary_gradient = 0;  // ... and its gradient in backward
    double layer_prefetch = 0;       // in flight while a layer module computes
    double vocabulary_prefetch = 0;  // in flight when the next module is the vocabulary matrix
    // What the reuse distance and the prefetch read (core/model/layer_modules.h), computed here once
    // with the layer's modules: one layer's gathered Linears (elements, the whole model's), and
    // whether the prefetch fills stage3_max_live_parameters.
    double layer_elems = 0;
    bool prefetch_fills_max_live = false;
};

struct BufferBytes {
    double buckets = 0;           // gradient reduce / parameter all-gather buckets
    double gathered = 0;          // ZeRO-3: DeepSpeed's estimator term, the model's largest module (4 Lp) + the prefetch
    Zero3Gathered gathered_at;    // ZeRO-3: what is gathered where the step is, which the step timeline adds
    double dequantized = 0;       // QLoRA: one Linear's 4/8-bit weight dequantised to the compute dtype
    double quantized_reduce = 0;  // ZeRO++ qgZ: a bucket's int4 all-to-all buffers and its dequantised output (backward)
    double total() const { return buckets + gathered + dequantized + quantized_reduce; }
};

// Hugging Face DeepSpeed guide: "overlap_comm uses 4.5x the allgather_bucket_size and
// reduce_bucket_size values": 5e8 each costs 5e8 x 2 bytes x 2 x 4.5 = 9 GB.
inline constexpr double kOverlapCommBucketFactor = 4.5;

BufferBytes buffer_bytes(const ModelSpec& m, const Training& t, const ZeroSetup& z);

// The same for `s` under its fine-tuning method and ZeRO++ switches. With a frozen base, ZeRO-3's gathered largest
// module makes no gradient (2 Lp, not 4 Lp). A quantised base is dequantised Linear by Linear,
// in forward and again in backward (bitsandbytes MatMul4Bit: dequantize_4bit(B).to(A.dtype)
// then F.linear; Int8 backward dequantises CB), the largest Linear at a time.
BufferBytes buffer_bytes(const Scenario& s);

}  // namespace zp
