#pragma once
// Host RAM and NVMe per node for a ZeRO setup (docs/design.md §4.6).
#include "core/model/scenario.h"

namespace zp {

struct HostBytes {
    double cpu_per_node = 0;
    double nvme_per_node = 0;
};

// Model states only (activation checkpoints kept on the CPU are added by estimate_memory).
HostBytes host_bytes(const ModelSpec& m, const Cluster& c, const Training& t, const ZeroSetup& z, double buffer_factor);

}  // namespace zp
