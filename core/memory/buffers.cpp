#include "core/memory/buffers.h"

#include <algorithm>

namespace zp {

BufferBytes buffer_bytes(const ModelSpec& m, const Training& t, const ZeroSetup& z) {
    const double elem = t.precision == Precision::Fp32 ? 4.0 : 2.0;  // communication dtype
    BufferBytes b;
    switch (z.stage) {
    case 0:
        // Data parallelism all-reduces gradients in reduce_bucket_size buckets.
        b.buckets = elem * z.reduce_bucket_elems;
        break;
    case 1:
    case 2:
        // ZeRO-1/2 allocate the reduce (ipg) and all-gather buckets at full size, whatever the
        // model size; overlap_comm multiplies them (see kOverlapCommBucketFactor).
        b.buckets = elem * (z.reduce_bucket_elems + z.allgather_bucket_elems) * (z.overlap_comm ? kOverlapCommBucketFactor : 1.0);
        break;
    default: {
        // ZeRO-3: the gathered largest module, 16-bit parameter + gradient = 4 Lp as in DeepSpeed's
        // estimate_zero3_model_states_mem_needs, plus the prefetch bucket (capped by
        // stage3_max_live_parameters) and the gradient reduce bucket.
        const double largest = static_cast<double>(largest_layer_params(m));
        const double prefetch = std::min(z.stage3_prefetch_bucket_elems, z.stage3_max_live_parameters);
        b.gathered = 2.0 * elem * largest + elem * prefetch;
        b.buckets = elem * z.reduce_bucket_elems;
        break;
    }
    }
    return b;
}

}  // namespace zp
