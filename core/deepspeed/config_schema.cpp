#include "core/deepspeed/config_schema.h"
#include "core/deepspeed/config_domains.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>

namespace zp::ds_schema {

using nlohmann::json;

namespace {

// clang-format off
// Keys DeepSpeed's pydantic models accept (extra="forbid"); DeepSpeed at the mirror's HEAD
// (v0.19.6): runtime/zero/config.py, its fields and their stage3_ aliases, both accepted
// (config_utils.py DeepSpeedConfigModel populate_by_name=True), runtime/zero/offload_config.py,
// runtime/constants.py (fp16, bf16).
const std::vector<std::string> kZeroKeys = {
    "stage", "contiguous_gradients", "reduce_scatter", "reduce_bucket_size", "use_multi_rank_bucket_allreduce",
    "allgather_partitions", "allgather_bucket_size", "overlap_comm", "load_from_fp32_weights", "elastic_checkpoint",
    "offload_param", "offload_optimizer", "zenflow", "sub_group_size", "cpu_offload_param", "cpu_offload_use_pin_memory", "cpu_offload",
    "stage3_prefetch_bucket_size", "stage3_param_persistence_threshold", "stage3_model_persistence_threshold",
    "stage3_max_live_parameters", "stage3_max_reuse_distance", "stage3_gather_16bit_weights_on_model_save",
    "stage3_module_granularity_threshold", "stage3_use_all_reduce_for_fetch_params", "stage3_allgather_sequential",
    "stage3_gather_fp16_weights_on_model_save",
    "prefetch_bucket_size", "param_persistence_threshold", "model_persistence_threshold", "max_live_parameters",
    "max_reuse_distance", "gather_16bit_weights_on_model_save", "module_granularity_threshold", "use_all_reduce_for_fetch_params",
    "allgather_sequential",
    "ignore_unused_parameters", "legacy_stage1", "round_robin_gradients", "zero_hpz_partition_size", "zero_quantized_weights",
    "zero_quantized_nontrainable_weights", "zero_quantized_gradients", "zeropp_loco_param", "mics_shard_size",
    "mics_hierarchical_params_gather", "memory_efficient_linear", "pipeline_loading_checkpoint", "override_module_apply",
    "log_trace_cache_warnings", "enable_sanity_checks", "save_muon_momentum_buffer_in_memory", "leaf_module"};
const std::vector<std::string> kOffloadParamKeys = {"device", "nvme_path", "buffer_count", "buffer_size", "max_in_cpu", "pin_memory"};
const std::vector<std::string> kOffloadOptimizerKeys = {"device", "nvme_path", "buffer_count", "pin_memory", "pipeline_read",
                                                        "pipeline_write", "fast_init", "ratio"};
const std::vector<std::string> kFp16Keys = {"enabled", "auto_cast", "loss_scale", "initial_scale_power", "loss_scale_window",
                                            "hysteresis", "consecutive_hysteresis", "min_loss_scale", "fp16_master_weights_and_grads"};
// bf16: runtime/precision_config.py DeepSpeedBF16Config (check_grad_overflow: PR #6976;
// bf16_master_weights_and_grads and bf16_optimizer_states: PR #7700, 2025-12).
const std::vector<std::string> kBf16Keys = {"enabled", "immediate_grad_update", "check_grad_overflow",
                                            "bf16_master_weights_and_grads", "bf16_optimizer_states"};
// The monitors' and the comms logger's blocks, also DeepSpeedConfigModel (extra fields forbidden):
// monitor/config.py TensorBoardConfig, WandbConfig, CSVConfig, CometConfig; comm/config.py
// CommsLoggerConfig.
const std::vector<std::pair<std::string, std::vector<std::string>>> kMonitorBlocks = {
    {"tensorboard", {"enabled", "output_path", "job_name"}},
    {"wandb", {"enabled", "group", "team", "project"}},
    {"csv_monitor", {"enabled", "output_path", "job_name"}},
    {"comet", {"enabled", "samples_log_interval", "project", "workspace", "api_key", "experiment_name", "experiment_key", "online", "mode"}},
    {"comms_logger", {"enabled", "prof_all", "prof_ops", "verbose", "debug"}}};
// Top-level keys DeepSpeed reads (runtime/constants.py and the feature configs); others are ignored silently.
const std::vector<std::string> kTopKeys = {
    "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "optimizer", "scheduler", "fp16", "bf16",
    "bfloat16", "amp", "gradient_clipping", "zero_optimization", "activation_checkpointing", "aio", "steps_per_print",
    "wall_clock_breakdown", "dump_state", "prescale_gradients", "gradient_predivide_factor", "sparse_gradients",
    "zero_allow_untested_optimizer", "zero_force_ds_cpu_optimizer", "communication_data_type", "seq_parallel_communication_data_type",
    "flops_profiler", "tensorboard", "wandb", "csv_monitor", "comet", "elasticity", "checkpoint", "data_types", "compile",
    "data_efficiency", "curriculum_learning", "autotuning", "pipeline", "comms_logger", "memory_breakdown", "nebula",
    "compression_training", "sparse_attention", "weight_quantization", "quantize_training", "eigenvalue", "progressive_layer_drop",
    "hybrid_engine", "torch_autocast", "tensor_parallel", "disable_allgather", "timers", "graph_harvesting",
    "use_data_before_expert_parallelism", "dataloader_drop_last", "zero_quantized_weights", "gradient_accumulation_dtype",
    "gradient_allreduce_op",  // runtime/constants.py GRADIENT_ALLREDUCE_OP
    // DeepSpeed-Ulysses: runtime/config.py (the batch rule's world_size) and deepspeed/__init__.py
    // initialize (with data_parallel_size, the device mesh); docs/_tutorials/ulysses-alst-sequence-parallelism.md.
    "sequence_parallel_size", "data_parallel_size"};

// pydantic int fields (and DeepSpeed's integer scalars).
const std::set<std::string> kIntegerPaths = {
    "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "steps_per_print", "sequence_parallel_size",
    "zero_optimization.stage", "zero_optimization.reduce_bucket_size", "zero_optimization.allgather_bucket_size",
    "zero_optimization.sub_group_size", "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold", "zero_optimization.stage3_model_persistence_threshold",
    "zero_optimization.stage3_max_live_parameters", "zero_optimization.stage3_max_reuse_distance",
    "zero_optimization.offload_param.buffer_count", "zero_optimization.offload_param.buffer_size",
    "zero_optimization.offload_param.max_in_cpu", "zero_optimization.offload_optimizer.buffer_count",
    "zero_optimization.zero_hpz_partition_size", "fp16.initial_scale_power",
    "fp16.loss_scale_window", "fp16.hysteresis"};
const std::set<std::string> kBooleanPaths = {
    "zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients", "zero_optimization.reduce_scatter",
    "zero_optimization.allgather_partitions", "zero_optimization.use_multi_rank_bucket_allreduce", "zero_optimization.offload_param.pin_memory",
    "zero_optimization.offload_optimizer.pin_memory", "fp16.enabled", "bf16.enabled", "wall_clock_breakdown",
    "zero_optimization.stage3_gather_16bit_weights_on_model_save", "zero_optimization.mics_hierarchical_params_gather",
    "fp16.fp16_master_weights_and_grads", "bf16.bf16_master_weights_and_grads", "bf16.bf16_optimizer_states",
    "bf16.check_grad_overflow", "bf16.immediate_grad_update"};

const DeprecatedKey kDeprecated[] = {
    {"cpu_offload", "offload_optimizer: {\"device\": \"cpu\"}", "offload_optimizer"},
    {"cpu_offload_param", "offload_param: {\"device\": \"cpu\"}", "offload_param"},
    {"cpu_offload_use_pin_memory", "\"pin_memory\": true inside offload_optimizer / offload_param", nullptr},
    {"stage3_gather_fp16_weights_on_model_save", "stage3_gather_16bit_weights_on_model_save", "stage3_gather_16bit_weights_on_model_save"},
};
// clang-format on

}  // namespace

const std::vector<std::string>& zero_optimization_keys() { return kZeroKeys; }
const std::vector<std::string>& offload_param_keys() { return kOffloadParamKeys; }
const std::vector<std::string>& offload_optimizer_keys() { return kOffloadOptimizerKeys; }
const std::vector<std::string>& fp16_keys() { return kFp16Keys; }
const std::vector<std::string>& bf16_keys() { return kBf16Keys; }
const std::vector<std::pair<std::string, std::vector<std::string>>>& monitor_blocks() { return kMonitorBlocks; }
const std::vector<std::string>& top_level_keys() { return kTopKeys; }
bool zero_block_is_boolean(const json& config) {
    return config.is_object() && config.contains("zero_optimization") && config.at("zero_optimization").is_boolean();
}

json with_zero_block(const json& config) {
    if (!zero_block_is_boolean(config)) return config;
    json out = config;
    const bool on = config.at("zero_optimization").get<bool>();
    json block = {{"stage", on ? 1 : 0}};
    if (on) {
        // An integer field DeepSpeed's pydantic model reads a whole float into (5e8 as 500000000).
        const json size = config.contains("allgather_size") ? config.at("allgather_size") : json(500'000'000);
        const bool whole_float = size.is_number_float() && std::isfinite(size.get<double>()) &&
                                 size.get<double>() == std::floor(size.get<double>()) && std::abs(size.get<double>()) < 1e15;
        block["allgather_bucket_size"] = whole_float ? json(static_cast<std::int64_t>(size.get<double>())) : size;
    }
    out["zero_optimization"] = block;
    if (on) out.erase("allgather_size");  // read into the block, not an unknown top-level key
    return out;
}

const std::set<std::string>& hf_filled_auto_paths() {
    static const std::set<std::string> paths = {
        // The Trainer, from TrainingArguments (trainer_config_process).
        "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "train_batch_size", "gradient_clipping", "optimizer.params.lr",
        "optimizer.params.betas", "optimizer.params.eps", "optimizer.params.weight_decay", "scheduler.params.warmup_min_lr",
        "scheduler.params.warmup_max_lr", "fp16.enabled", "amp.enabled", "amp.opt_level", "bf16.enabled",
        // The Trainer, from the model and the step count (trainer_config_finalize): hidden x hidden,
        // 0.9 hidden x hidden and 10 x hidden; Accelerate the same from the model it prepares.
        "zero_optimization.reduce_bucket_size", "zero_optimization.stage3_prefetch_bucket_size",
        "zero_optimization.stage3_param_persistence_threshold", "scheduler.params.total_num_steps", "scheduler.params.warmup_num_steps",
        // Accelerate: its config's fields and the 16-bit save.
        "zero_optimization.stage", "zero_optimization.offload_optimizer.device", "zero_optimization.offload_param.device",
        "zero_optimization.offload_optimizer.nvme_path", "zero_optimization.offload_param.nvme_path",
        "zero_optimization.stage3_gather_16bit_weights_on_model_save"};
    return paths;
}

const std::set<std::string>& integer_paths() { return kIntegerPaths; }
const std::set<std::string>& boolean_paths() { return kBooleanPaths; }
std::span<const DeprecatedKey> deprecated_zero_keys() { return kDeprecated; }

std::string offload_device_name(const json& zero_optimization, const char* sub) {
    if (!zero_optimization.is_object()) return "none";
    if (!zero_optimization.contains(sub))
        for (const DeprecatedKey& d : kDeprecated)
            if (d.new_key && std::string_view(d.new_key) == sub && zero_optimization.contains(d.key))
                return lax_boolean(zero_optimization.at(d.key)).value_or(false) ? "cpu" : "none";
    const json device = zero_optimization.contains(sub) && zero_optimization.at(sub).is_object()
                            ? zero_optimization.at(sub).value("device", json())
                            : json();
    return device.is_string() ? device.get<std::string>() : "none";
}

bool block_enabled(const json& config, const char* key) {
    if (!config.is_object() || !config.contains(key) || !config.at(key).is_object()) return false;
    return lax_boolean(config.at(key).value("enabled", json())).value_or(false);
}

std::optional<std::int64_t> lax_integer(const nlohmann::json& v) {
    if (v.is_number_integer()) return v.get<std::int64_t>();
    if (!v.is_string()) return std::nullopt;
    const std::string t = v.get<std::string>();
    std::size_t i = t.size() > 1 && (t[0] == '-' || t[0] == '+') ? 1 : 0;
    if (i == t.size() || t.size() - i > 15) return std::nullopt;  // within what a double holds exactly
    for (std::size_t k = i; k < t.size(); ++k)
        if (t[k] < '0' || t[k] > '9') return std::nullopt;
    return std::stoll(t);
}

std::optional<bool> lax_boolean(const nlohmann::json& v) {
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_number_integer() && (v.get<std::int64_t>() == 0 || v.get<std::int64_t>() == 1)) return v.get<std::int64_t>() == 1;
    if (!v.is_string()) return std::nullopt;
    const std::string t = ascii_lower(v.get<std::string>());
    for (const char* yes : {"true", "yes", "on", "t", "y", "1"})
        if (t == yes) return true;
    for (const char* no : {"false", "no", "off", "f", "n", "0"})
        if (t == no) return false;
    return std::nullopt;
}

}  // namespace zp::ds_schema
