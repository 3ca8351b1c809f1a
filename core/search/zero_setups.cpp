#include "core/search/zero_setups.h"

#include <array>

namespace zp {
namespace {

using D = OffloadDevice;
constexpr std::array<ZeroSetupRow, 12> kRows{{
    {{0, D::None, D::None}, true},
    {{1, D::None, D::None}, true},
    {{2, D::None, D::None}, true},
    {{3, D::None, D::None}, true},
    {{1, D::Cpu, D::None}, false},
    {{2, D::Cpu, D::None}, true},
    {{3, D::Cpu, D::None}, false},
    {{3, D::Cpu, D::Cpu}, true},
    {{3, D::Nvme, D::None}, false},
    {{3, D::Nvme, D::Cpu}, false},
    {{3, D::Cpu, D::Nvme}, false},
    {{3, D::Nvme, D::Nvme}, true},
}};

std::vector<ZeroSetup> setups_where(bool overview_only) {
    std::vector<ZeroSetup> v;
    for (const ZeroSetupRow& row : kRows) {
        if (overview_only && !row.in_overview) continue;
        ZeroSetup z;
        z.stage = row.key.stage;
        z.offload_optimizer = row.key.offload_optimizer;
        z.offload_param = row.key.offload_param;
        v.push_back(z);
    }
    return v;
}

std::string device_label(OffloadDevice d) { return d == OffloadDevice::Cpu ? "CPU" : "NVMe"; }

}  // namespace

std::span<const ZeroSetupRow> zero_setup_rows() { return kRows; }

const std::vector<ZeroSetup>& zero_setups() {
    static const std::vector<ZeroSetup> setups = setups_where(false);
    return setups;
}

const std::vector<ZeroSetup>& overview_setups() {
    static const std::vector<ZeroSetup> setups = setups_where(true);
    return setups;
}

std::string setup_label(const SetupKey& k) {
    std::string s = k.stage == 0 ? "DDP (ZeRO-0)" : "ZeRO-" + std::to_string(k.stage);
    if (k.offload_optimizer != OffloadDevice::None && k.offload_param == OffloadDevice::None)
        s += " + " + device_label(k.offload_optimizer) + " optimizer";
    else if (k.offload_optimizer != OffloadDevice::None && k.offload_optimizer == k.offload_param)
        s += " + " + device_label(k.offload_optimizer) + " optimizer and params";
    else if (k.offload_optimizer != OffloadDevice::None)
        s += " + " + device_label(k.offload_optimizer) + " optimizer, " + device_label(k.offload_param) + " params";
    return s;
}

std::string short_setup_label(const SetupKey& k) {
    std::string s = k.stage == 0 ? "DDP" : "ZeRO-" + std::to_string(k.stage);
    if (k.offload_optimizer == OffloadDevice::Cpu || k.offload_param == OffloadDevice::Cpu) s += "+CPU";
    if (k.offload_optimizer == OffloadDevice::Nvme || k.offload_param == OffloadDevice::Nvme) s += "+NVMe";
    return s;
}

std::string zeropp_words(const ZeroPlusPlus& z) {
    std::string out;
    const auto add = [&](const std::string& part) { out += (out.empty() ? "" : ", ") + part; };
    if (z.hpz_partition_size > 1) add("hpZ over " + std::to_string(z.hpz_partition_size) + " GPUs");
    if (z.quantized_weights) add("int8 weight gathers (qwZ)");
    if (z.quantized_gradients) add("int4 gradient reduce (qgZ)");
    return out;
}

}  // namespace zp
