#include "core/deepspeed/config_import.h"

#include "core/base/errors.h"
#include "core/base/json_comments.h"
#include "core/base/json_errors.h"
#include "core/base/units.h"
#include "core/deepspeed/config_domains.h"
#include "core/deepspeed/config_schema.h"
#include "core/model/enum_names.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <utility>

namespace zp {

using nlohmann::json;

namespace {

// `obj[key]` as a count: a finite, non-negative JSON number within the range JSON carries exactly;
// anything else is left to the linter and imports nothing.
std::optional<std::int64_t> integer(const json& obj, const char* key) {
    if (!obj.is_object() || !obj.contains(key)) return std::nullopt;
    // A whole number written as text ("3") is the number to DeepSpeed (pydantic's lax mode).
    if (obj.at(key).is_string()) {
        const auto v = ds_schema::lax_integer(obj.at(key));
        if (!v || *v < 0) return std::nullopt;
        return v;
    }
    if (!obj.at(key).is_number()) return std::nullopt;
    const double d = obj.at(key).get<double>();
    if (!std::isfinite(d) || d < 0 || d > kJsonSafeInteger) return std::nullopt;
    return static_cast<std::int64_t>(d);
}

// `obj[key]` as a bool, read as pydantic's lax mode reads it (0/1, "true", "yes", ...: ds_schema::lax_boolean).
std::optional<bool> flag(const json& obj, const char* key) {
    if (!obj.is_object() || !obj.contains(key)) return std::nullopt;
    return ds_schema::lax_boolean(obj.at(key));
}

// A bf16 or fp16 block whose "enabled" is "auto".
bool precision_auto(const json& c) {
    for (const char* block : {"bf16", "fp16"})
        if (c.contains(block) && c.at(block).is_object() && c.at(block).value("enabled", json()) == "auto") return true;
    return false;
}

// The batch sizes, with DeepSpeed-Ulysses' degree first, and the precision blocks.
void import_batch_and_precision(const json& c, Scenario& s) {
    // DeepSpeed-Ulysses' degree first: the batch rule below counts the world over it (runtime/config.py).
    if (auto v = integer(c, "sequence_parallel_size"); v && *v > 0) s.parallel.ulysses = *v;
    if (auto v = integer(c, "train_micro_batch_size_per_gpu"); v && *v > 0) {
        s.training.micro_batch = *v;
        s.training.auto_micro_batch = false;
    }
    if (auto v = integer(c, "train_batch_size"); v && *v > 0) s.training.global_batch = *v;
    else if (auto g = integer(c, "gradient_accumulation_steps"); g && *g > 0)
        s.training.global_batch = s.training.micro_batch * *g * data_parallel_size(s);
    // "enabled": "auto" is the Trainer's or Accelerate's to fill from --bf16 / --fp16
    // (transformers integrations/deepspeed.py trainer_config_process): the scenario's precision stays.
    if (ds_schema::block_enabled(c, "bf16")) s.training.precision = Precision::Bf16;
    else if (ds_schema::block_enabled(c, "fp16")) s.training.precision = Precision::Fp16;
    else if (precision_auto(c)) {
    } else if (c.contains("bf16") || c.contains("fp16")) s.training.precision = Precision::Fp32;
    // bf16's low-precision master weights (PR #7700): a config that sets both keys is planned with
    // them; the master weights alone (DeepSpeed runs them with ZeRO-Offload only, which the planner
    // does not model) keep fp32 master weights, and lint says so.
    const bool bf16 = ds_schema::block_enabled(c, "bf16");
    const auto on = [&](const char* key) { return bf16 && c.at("bf16").contains(key) && c.at("bf16").at(key) == true; };
    s.zero.bf16_master_weights = on("bf16_master_weights_and_grads") && on("bf16_optimizer_states");
    // fp32 gradient accumulation under bf16: DeepSpeed's BF16_Optimizer (config_export.cpp), read back.
    if (bf16 && c.contains("/data_types/grad_accum_dtype"_json_pointer) && c.at("/data_types/grad_accum_dtype"_json_pointer) == "fp32")
        s.training.gradient_accumulation = GradientAccumulation::Bf16Optimizer;
}

// The optimizer's type and whose kernel runs it.
void import_optimizer(const json& c, Scenario& s) {
    // Whose optimizer kernel (engine.py _configure_basic_optimizer): no "optimizer" block means the
    // client's torch.optim one; in the block, "torch_adam": true, Adagrad and SGD are torch.optim too.
    s.training.fused_optimizer = c.contains("optimizer");
    if (c.contains("optimizer") && c.at("optimizer").is_object()) {
        const json& block = c.at("optimizer");
        const json params = block.contains("params") && block.at("params").is_object() ? block.at("params") : json::object();
        if (params.contains("torch_adam") && params.at("torch_adam") == true) s.training.fused_optimizer = false;
        if (block.contains("type") && block.at("type").is_string()) {
            const std::string type = ds_schema::ascii_lower(block.at("type").get<std::string>());
            if (type == "adagrad" || type == "sgd") s.training.fused_optimizer = false;
        }
    }
    if (c.contains("optimizer") && c.at("optimizer").is_object() && c.at("optimizer").contains("type") &&
        c.at("optimizer").at("type").is_string()) {
        const std::string type = ds_schema::ascii_lower(c.at("optimizer").at("type").get<std::string>());
        if (type == "sgd") {
            const json& p = c.at("optimizer").contains("params") ? c.at("optimizer").at("params") : json::object();
            s.training.optimizer =
                p.is_object() && p.contains("momentum") && p.at("momentum") != 0 ? Optimizer::SgdMomentum : Optimizer::Sgd;
        } else {
            try {
                s.training.optimizer = parse_optimizer(type);
            } catch (const InputError&) {
            }
        }
    }
}

// The zero_optimization block: stage, buckets, ZeRO++, MiCS, offload and the save switch.
void import_zero(const json& z, Scenario& s) {
    // A block without "stage" is stage 0 to DeepSpeed (runtime/zero/config.py: `stage: ZeroStageEnum = 0`).
    if (!z.contains("stage")) s.zero.stage = 0;
    else if (auto v = integer(z, "stage"); v && *v <= 3) s.zero.stage = static_cast<int>(*v);
    if (auto b = flag(z, "overlap_comm")) s.zero.overlap_comm = *b;
    if (auto b = flag(z, "use_multi_rank_bucket_allreduce")) s.zero.multi_rank_bucket_allreduce = *b;
    if (auto v = integer(z, "reduce_bucket_size")) s.zero.reduce_bucket_elems = static_cast<double>(*v);
    if (auto v = integer(z, "allgather_bucket_size")) s.zero.allgather_bucket_elems = static_cast<double>(*v);
    if (auto v = integer(z, "stage3_prefetch_bucket_size")) s.zero.stage3_prefetch_bucket_elems = static_cast<double>(*v);
    if (auto v = integer(z, "stage3_max_live_parameters")) s.zero.stage3_max_live_parameters = static_cast<double>(*v);
    if (auto v = integer(z, "stage3_param_persistence_threshold")) s.zero.stage3_param_persistence_threshold = static_cast<double>(*v);
    if (auto v = integer(z, "sub_group_size")) s.zero.sub_group_size = static_cast<double>(*v);
    if (auto v = integer(z, "zero_hpz_partition_size"); v && *v >= 1) s.zero.hpz_partition_size = *v;
    // MiCS: DeepSpeed's default -1 (and any value up to 0) is off, 1 here (engine.py: MiCS when mics_shard_size > 0).
    if (z.contains("mics_shard_size") && z.at("mics_shard_size").is_number_integer())
        s.zero.mics_shard_size = std::max<std::int64_t>(z.at("mics_shard_size").get<std::int64_t>(), 1);
    for (auto [key, target] : {std::pair{"zero_quantized_weights", &s.zero.quantized_weights},
                               std::pair{"zero_quantized_gradients", &s.zero.quantized_gradients},
                               std::pair{"mics_hierarchical_params_gather", &s.zero.mics_hierarchical_params_gather}})
        if (auto b = flag(z, key)) *target = *b;
    // A config that names a ZeRO++ key fixes ZeRO++ (the search no longer chooses it).
    for (const char* key : {"zero_hpz_partition_size", "zero_quantized_weights", "zero_quantized_gradients"})
        if (z.contains(key)) s.zero.auto_zeropp = false;
    // The deprecated cpu_offload / cpu_offload_param are read as their blocks (offload_device_name).
    const auto device = [&](const char* sub) {
        try {
            return parse_offload_device(ds_schema::offload_device_name(z, sub));
        } catch (const InputError&) {
            return OffloadDevice::None;  // the linter reports an unknown device; the import keeps none
        }
    };
    s.zero.offload_optimizer = s.zero.stage >= 1 ? device("offload_optimizer") : OffloadDevice::None;
    s.zero.offload_param = s.zero.stage == 3 ? device("offload_param") : OffloadDevice::None;
    if (z.contains("offload_param") && z.at("offload_param").is_object()) {
        if (auto v = integer(z.at("offload_param"), "buffer_count")) s.zero.offload_param_buffer_count = *v;
        if (auto v = integer(z.at("offload_param"), "buffer_size")) s.zero.offload_param_buffer_size = static_cast<double>(*v);
    }
    if (z.contains("offload_optimizer") && z.at("offload_optimizer").is_object())
        if (auto v = integer(z.at("offload_optimizer"), "buffer_count")) s.zero.offload_optimizer_buffer_count = *v;
    // pin_memory: read only from a block that offloads (a block with device none pins nothing);
    // when both do, the optimizer's decides (the parameters' follows it in practice). A block
    // without the key takes DeepSpeed's default, true since v0.19.5.
    const std::pair<const char*, OffloadDevice> blocks[] = {{"offload_param", s.zero.offload_param},
                                                            {"offload_optimizer", s.zero.offload_optimizer}};
    for (const auto& [sub, dev] : blocks)
        if (dev != OffloadDevice::None && z.contains(sub))
            if (auto b = flag(z.at(sub), "pin_memory")) s.zero.pin_memory = *b;
    // Left out, DeepSpeed does not gather (zero/config.py: gather_16bit_weights_on_model_save False).
    s.zero.gather_16bit_weights_on_model_save = false;
    for (const char* key : {"stage3_gather_16bit_weights_on_model_save", "stage3_gather_fp16_weights_on_model_save"})
        if (auto b = flag(z, key)) s.zero.gather_16bit_weights_on_model_save = *b;
}

}  // namespace

DsConfigSets ds_config_sets(const json& file) {
    DsConfigSets out;
    if (!file.is_object()) return out;
    const json c = ds_schema::with_zero_block(file);
    // The stage is the file's unless it is written in a form the import does not read ("auto"):
    // a missing block or key is DeepSpeed's stage 0 (import_zero).
    const bool block = c.contains("zero_optimization") && c.at("zero_optimization").is_object();
    out.zero = !block || !c.at("zero_optimization").contains("stage") || integer(c.at("zero_optimization"), "stage").has_value();
    out.micro_batch = integer(c, "train_micro_batch_size_per_gpu").value_or(0) > 0;
    out.precision = (c.contains("bf16") || c.contains("fp16")) && !precision_auto(c);
    out.optimizer = c.contains("optimizer") && c.at("optimizer").is_object();
    return out;
}

json parse_ds_config_text(std::string_view text, const std::string& source_name) {
    return parse_json_text(blank_comments_and_trailing_commas(text).json, source_name);
}

Scenario apply_ds_config(const json& file, Scenario s) {
    if (!file.is_object()) return s;
    const json c = ds_schema::with_zero_block(file);  // the deprecated boolean form as DeepSpeed reads it
    import_batch_and_precision(c, s);
    import_optimizer(c, s);
    // No zero_optimization block is ZeRO off: get_zero_config reads an empty block, stage 0, and
    // nothing offloaded (runtime/zero/config.py). A stage or offload option given beside the file wins.
    import_zero(c.contains("zero_optimization") && c.at("zero_optimization").is_object() ? c.at("zero_optimization") : json::object(), s);
    if (c.contains("activation_checkpointing") && c.at("activation_checkpointing").is_object()) {
        s.training.checkpointing = Checkpointing::Full;
        s.training.auto_checkpointing = false;
        const json& a = c.at("activation_checkpointing");
        s.training.cpu_checkpointing = a.contains("cpu_checkpointing") && a.at("cpu_checkpointing") == true;
        s.training.partition_activations = a.contains("partition_activations") && a.at("partition_activations") == true;
    }
    return s;
}

}  // namespace zp
