#include "core/deepspeed/config_domains.h"

#include "core/base/format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace zp::ds_schema {

namespace {

// DeepSpeed's own optimizers (runtime/config.py DEEPSPEED_OPTIMIZERS; runtime/config.py lower-cases
// the type before comparing) and, failing those, any torch.optim attribute by its exact name
// (engine.py _is_supported_optimizer: getattr(torch.optim, name)). The torch.optim optimizer
// classes of PyTorch 2.x (torch/optim/__init__.py).
const std::vector<std::string> kDeepSpeedOptimizers = {"adagrad",     "adam",   "adamw",   "lamb",  "onebitadam", "onebitlamb",
                                                       "zerooneadam", "muadam", "muadamw", "musgd", "lion",       "muon"};
const std::vector<std::string> kTorchOptimizers = {"Adadelta", "Adafactor", "Adagrad", "Adam",    "AdamW", "Adamax", "ASGD",
                                                   "LBFGS",    "NAdam",     "RAdam",   "RMSprop", "Rprop", "SGD",    "SparseAdam"};
// DeepSpeed's schedules (runtime/lr_schedules.py VALID_LR_SCHEDULES, by hasattr(lr_schedules, name))
// and, failing those, torch.optim.lr_scheduler's classes by exact name (engine.py _scheduler_from_config).
const std::vector<std::string> kDeepSpeedSchedulers = {"LRRangeTest", "OneCycle", "WarmupLR", "WarmupDecayLR", "WarmupCosineLR"};
const std::vector<std::string> kTorchSchedulers = {"LambdaLR",
                                                   "MultiplicativeLR",
                                                   "StepLR",
                                                   "MultiStepLR",
                                                   "ConstantLR",
                                                   "LinearLR",
                                                   "ExponentialLR",
                                                   "SequentialLR",
                                                   "CosineAnnealingLR",
                                                   "ChainedScheduler",
                                                   "ReduceLROnPlateau",
                                                   "CyclicLR",
                                                   "CosineAnnealingWarmRestarts",
                                                   "OneCycleLR",
                                                   "PolynomialLR"};
// runtime/config.py DtypeEnum: the names each dtype answers to.
const std::vector<std::string> kDtypeNames = {"torch.float16",  "fp16",    "float16", "half",       "torch.float32",
                                              "fp32",           "float32", "float",   "torch.int8", "int8",
                                              "torch.bfloat16", "bf16",    "bfloat16"};

const std::vector<std::string> kOffloadDevices = {"none", "cpu", "nvme"};

// pydantic v2's message for a ge=0 field.
constexpr const char* kGeZero = "Input should be greater than or equal to 0";

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

std::string with_value(const char* message, const std::string& value) {
    std::string m = message;
    if (const auto at = m.find("{}"); at != std::string::npos) m.replace(at, 2, value);
    return m;
}

}  // namespace

std::string names_list(const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string("'") + names[i] + "'";
    return out;
}

// clang-format off
const std::vector<ValueDomain>& value_domains() {
    static const std::vector<ValueDomain> table = {
        // runtime/zero/config.py: stage: ZeroStageEnum (0 disabled, 1 optimizer states, 2 gradients, 3 weights).
        {"zero_optimization.stage", {}, false, {}, 0.0, 3.0, "Input should be 0, 1, 2 or 3",
         "runtime/zero/config.py ZeroStageEnum", "3", "5"},
        // runtime/zero/offload_config.py OffloadDeviceEnum.
        {"zero_optimization.offload_param.device", kOffloadDevices, false, {}, {}, {}, "Input should be 'none', 'cpu' or 'nvme'",
         "runtime/zero/offload_config.py OffloadDeviceEnum", "\"cpu\"", "\"gpu\""},
        {"zero_optimization.offload_optimizer.device", kOffloadDevices, false, {}, {}, {}, "Input should be 'none', 'cpu' or 'nvme'",
         "runtime/zero/offload_config.py OffloadDeviceEnum", "\"nvme\"", "\"gpu\""},
        {"optimizer.type", kDeepSpeedOptimizers, true, kTorchOptimizers, {}, {}, "{} is not a supported DeepSpeed Optimizer",
         "runtime/engine.py _do_sanity_check: DEEPSPEED_OPTIMIZERS in any case, else torch.optim by name", "\"AdamW\"",
         "\"AdamWW\""},
        {"scheduler.type", kDeepSpeedSchedulers, false, kTorchSchedulers, {}, {}, "DeepSpeed does not recognize LR scheduler {}",
         "runtime/engine.py _scheduler_from_config: lr_schedules, else torch.optim.lr_scheduler by name", "\"WarmupDecayLR\"",
         "\"warmuplr\""},
        {"communication_data_type", {"fp16", "bf16", "fp32"}, true, {}, {}, {},
         "Invalid communication_data_type. Supported data types: ['fp16', 'bf16', 'fp32']. Got: {}",
         "runtime/config.py get_communication_data_type", "\"bf16\"", "\"fp8\""},
        // The same reader for the gradient reduction of a sequence-parallel run (engine.py: with
        // sequence_parallel_size > 1 it replaces communication_data_type; default "fp32", runtime/constants.py).
        {"seq_parallel_communication_data_type", {"fp16", "bf16", "fp32"}, true, {}, {}, {},
         "Invalid communication_data_type. Supported data types: ['fp16', 'bf16', 'fp32']. Got: {}",
         "runtime/config.py get_communication_data_type (SEQ_PARALLEL_COMMUNICATION_DATA_TYPE)", "\"bf16\"", "\"fp8\""},
        {"data_types.grad_accum_dtype", kDtypeNames, false, {}, {}, {}, "'{}' is not a valid DtypeEnum",
         "runtime/config.py DtypeEnum", "\"fp32\"", "\"fp64\""},
        // runtime/config.py get_gradient_allreduce_op (lower-cased; constants.py GRADIENT_ALLREDUCE_OP_SUPPORTED)
        // and get_checkpoint_tag_validation_mode (upper-cased; CHECKPOINT_TAG_VALIDATION_MODES).
        {"gradient_allreduce_op", {"mean", "sum"}, true, {}, {}, {},
         "Invalid gradient_allreduce_op. Supported operations: ['mean', 'sum']. Got: {}", "runtime/config.py get_gradient_allreduce_op",
         "\"Mean\"", "\"avg\""},
        {"checkpoint.tag_validation", {"warn", "ignore", "fail"}, true, {}, {}, {},
         "Checkpoint config contains invalid tag_validation value of {}, expecting one of [WARN, IGNORE, FAIL]",
         "runtime/config.py get_checkpoint_tag_validation_mode", "\"Warn\"", "\"Maybe\""},
        // runtime/zero/config.py and offload_config.py: Field(..., ge=0).
        {"zero_optimization.reduce_bucket_size", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py reduce_bucket_size", "500000000", "-1"},
        {"zero_optimization.allgather_bucket_size", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py allgather_bucket_size", "500000000", "-1"},
        {"zero_optimization.sub_group_size", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py sub_group_size", "1000000000", "-1"},
        {"zero_optimization.stage3_prefetch_bucket_size", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py prefetch_bucket_size", "50000000", "-1"},
        {"zero_optimization.stage3_param_persistence_threshold", {}, false, {}, 0.0, {}, kGeZero,
         "runtime/zero/config.py param_persistence_threshold", "100000", "-1"},
        {"zero_optimization.stage3_model_persistence_threshold", {}, false, {}, 0.0, {}, kGeZero,
         "runtime/zero/config.py model_persistence_threshold", "1000000", "-1"},
        {"zero_optimization.stage3_max_live_parameters", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py max_live_parameters", "1000000000", "-1"},
        {"zero_optimization.stage3_max_reuse_distance", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py max_reuse_distance", "1000000000", "-1"},
        {"zero_optimization.zero_hpz_partition_size", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/config.py zero_hpz_partition_size", "1", "-1"},
        {"zero_optimization.offload_param.buffer_count", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/offload_config.py buffer_count", "5", "-1"},
        {"zero_optimization.offload_param.buffer_size", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/offload_config.py buffer_size", "100000000", "-1"},
        {"zero_optimization.offload_param.max_in_cpu", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/offload_config.py max_in_cpu", "1000000000", "-1"},
        {"zero_optimization.offload_optimizer.buffer_count", {}, false, {}, 0.0, {}, kGeZero, "runtime/zero/offload_config.py buffer_count", "4", "-1"},
        {"zero_optimization.offload_optimizer.ratio", {}, false, {}, 0.0, 1.0, "Input should be greater than or equal to 0 and less than or equal to 1",
         "runtime/zero/offload_config.py ratio", "0.3", "1.5"},
        // runtime/precision_config.py DeepSpeedFP16Config._validate_loss_scale.
        {"fp16.loss_scale", {}, false, {}, 0.0, {}, "fp16.loss_scale must be >= 0 (0 enables dynamic loss scaling)",
         "runtime/precision_config.py DeepSpeedFP16Config", "0", "-1"},
    };
    return table;
}
// clang-format on

std::string domain_violation(const ValueDomain& d, const nlohmann::json& value) {
    if (!d.names.empty()) {
        if (!value.is_string()) return "must be text, one of " + names_list(with(d.names, d.exact_names)) + "; got " + value.dump();
        const std::string v = value.get<std::string>();
        const std::string compared = d.names_ignore_case ? ascii_lower(v) : v;
        if (std::find(d.names.begin(), d.names.end(), compared) != d.names.end()) return {};
        if (std::find(d.exact_names.begin(), d.exact_names.end(), v) != d.exact_names.end()) return {};
        return with_value(d.message, v);
    }
    if (!value.is_number()) return "must be a number, got " + value.dump();
    const double v = value.get<double>();
    if (!std::isfinite(v) || (d.ge && v < *d.ge) || (d.le && v > *d.le)) return with_value(d.message, value.dump());
    return {};
}

std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace zp::ds_schema
