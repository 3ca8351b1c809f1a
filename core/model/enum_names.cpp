#include "core/model/enum_names.h"

#include "core/model/errors.h"

#include <array>
#include <string>

namespace zp {
namespace {

template <typename E, std::size_t K>
E parse(std::string_view s, const std::array<E, K>& values, const char* what) {
    std::string accepted;
    for (E v : values) {
        if (s == to_string(v)) return v;
        accepted += (accepted.empty() ? "" : "|") + std::string(to_string(v));
    }
    throw InputError(std::string(what) + " must be one of " + accepted + ", got '" + std::string(s) + "'");
}

}  // namespace

Precision parse_precision(std::string_view s) {
    return parse(s, std::array{Precision::Bf16, Precision::Fp16, Precision::Fp32}, "precision");
}
Optimizer parse_optimizer(std::string_view s) {
    if (s == "sgd_momentum" || s == "momentum") return Optimizer::SgdMomentum;
    return parse(s, std::array{Optimizer::AdamW, Optimizer::Adam, Optimizer::Lamb, Optimizer::Lion, Optimizer::Adagrad,
                               Optimizer::SgdMomentum, Optimizer::Sgd},
                 "optimizer");
}
Checkpointing parse_checkpointing(std::string_view s) {
    return parse(s, std::array{Checkpointing::None, Checkpointing::Selective, Checkpointing::Full}, "checkpointing");
}
OffloadDevice parse_offload_device(std::string_view s) {
    return parse(s, std::array{OffloadDevice::None, OffloadDevice::Cpu, OffloadDevice::Nvme}, "offload device");
}
Convention parse_convention(std::string_view s) {
    return parse(s, std::array{Convention::DeepSpeed, Convention::Paper}, "convention");
}

}  // namespace zp
