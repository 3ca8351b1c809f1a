#pragma once
// ZeRO-3's NVMe parameter swap buffers (offload_param device nvme): each rank's partition of a
// parameter is read into, and initialised in, one pinned buffer of offload_param.buffer_size
// elements (swap_tensor/partitioned_param_swapper.py get_buffer: "assert numel <=
// self.elements_per_buffer, More elements ... than buffer size"; partition_parameters.py
// _partition_param calls it at zero.Init with the parameter's partition, its size padded to the
// partition's ranks and divided by them). DeepSpeed's default, 1e8 elements, is smaller than one
// rank's share of a large embedding on few GPUs (Llama-3.1 405B: 128,256 x 16,384 over 8 ranks is
// 262,668,288), so the planner sizes the buffers to the largest partition.
#include "core/model/scenario.h"

namespace zp {

// One rank's partition of a parameter of `elements` over `ranks`: padded to a multiple of the ranks
// and divided (partition_parameters.py _partition_param: _aligned_size // _partition_world_size).
double param_partition_elems(double elements, std::int64_t ranks);

// Elements of one rank's partition of the model's largest module (the largest layer's parameters,
// weight and bias: at least its largest tensor), over the ranks ZeRO-3 partitions it over.
double largest_param_partition_elems(const Scenario& s);

// offload_param.buffer_size the plan uses and exports: the setup's (DeepSpeed's 1e8 unless set),
// raised to the largest partition where that is larger.
double offload_param_buffer_elems(const Scenario& s);

}  // namespace zp
