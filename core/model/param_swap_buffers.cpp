#include "core/model/param_swap_buffers.h"

#include "core/model/mics.h"
#include "core/model/model_spec.h"

#include <algorithm>
#include <cmath>

namespace zp {

double param_partition_elems(double elements, std::int64_t ranks) {
    return std::ceil(elements / static_cast<double>(std::max<std::int64_t>(ranks, 1)));
}

double largest_param_partition_elems(const Scenario& s) {
    // The tensor-parallel split is left out: a vocabulary-parallel embedding's share is smaller,
    // so this is at least the partition on every rank.
    return param_partition_elems(static_cast<double>(largest_layer_params(s.model)), zero_shard_size(s));
}

double offload_param_buffer_elems(const Scenario& s) {
    return std::max(s.zero.offload_param_buffer_size, largest_param_partition_elems(s));
}

}  // namespace zp
