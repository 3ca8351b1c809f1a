#include "core/model/param_swap_buffers.h"

#include "core/model/mics.h"
#include "core/model/model_spec.h"

#include <algorithm>
#include <cmath>

namespace zp {

double largest_param_partition_elems(const Scenario& s) {
    // The tensor-parallel split is left out: a vocabulary-parallel embedding's share is smaller,
    // so this is at least the partition on every rank.
    const double largest = static_cast<double>(largest_layer_params(s.model));
    return std::ceil(largest / static_cast<double>(std::max<std::int64_t>(zero_shard_size(s), 1)));
}

double offload_param_buffer_elems(const Scenario& s) {
    return std::max(s.zero.offload_param_buffer_size, largest_param_partition_elems(s));
}

}  // namespace zp
