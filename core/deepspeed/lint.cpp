#include "core/deepspeed/lint.h"

#include "core/deepspeed/batch_rule.h"
#include "core/memory/buffers.h"
#include "core/model/enum_names.h"
#include "core/model/errors.h"
#include "core/io/json_errors.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace zp {

using nlohmann::json;

const char* to_string(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    }
    return "error";
}

bool LintResult::has_errors() const {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
}
bool LintResult::has_warnings() const {
    return std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) { return d.severity == Severity::Warning; });
}

namespace {

// Keys DeepSpeed's pydantic models accept (extra="forbid"); DeepSpeed at the 2025 mirror:
// runtime/zero/config.py (fields and their stage3_ aliases), runtime/zero/offload_config.py,
// runtime/constants.py (fp16, bf16).
const std::vector<std::string> kZeroKeys = {
    "stage", "contiguous_gradients", "reduce_scatter", "reduce_bucket_size", "use_multi_rank_bucket_allreduce",
    "allgather_partitions", "allgather_bucket_size", "overlap_comm", "load_from_fp32_weights", "elastic_checkpoint",
    "offload_param", "offload_optimizer", "sub_group_size", "cpu_offload_param", "cpu_offload_use_pin_memory", "cpu_offload",
    "stage3_prefetch_bucket_size", "stage3_param_persistence_threshold", "stage3_model_persistence_threshold",
    "stage3_max_live_parameters", "stage3_max_reuse_distance", "stage3_gather_16bit_weights_on_model_save",
    "stage3_module_granularity_threshold", "stage3_use_all_reduce_for_fetch_params", "stage3_gather_fp16_weights_on_model_save",
    "ignore_unused_parameters", "legacy_stage1", "round_robin_gradients", "zero_hpz_partition_size", "zero_quantized_weights",
    "zero_quantized_nontrainable_weights", "zero_quantized_gradients", "zeropp_loco_param", "mics_shard_size",
    "mics_hierarchical_params_gather", "memory_efficient_linear", "pipeline_loading_checkpoint", "override_module_apply",
    "log_trace_cache_warnings"};
const std::vector<std::string> kOffloadParamKeys = {"device", "nvme_path", "buffer_count", "buffer_size", "max_in_cpu", "pin_memory"};
const std::vector<std::string> kOffloadOptimizerKeys = {"device", "nvme_path", "buffer_count", "pin_memory", "pipeline_read",
                                                        "pipeline_write", "fast_init", "ratio"};
const std::vector<std::string> kFp16Keys = {"enabled", "auto_cast", "loss_scale", "initial_scale_power", "loss_scale_window",
                                            "hysteresis", "consecutive_hysteresis", "min_loss_scale", "fp16_master_weights_and_grads"};
const std::vector<std::string> kBf16Keys = {"enabled", "immediate_grad_update"};
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
    "use_data_before_expert_parallelism", "dataloader_drop_last", "zero_quantized_weights", "gradient_accumulation_dtype"};

// pydantic int fields (and DeepSpeed's integer scalars).
const std::set<std::string> kIntegerPaths = {
    "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "steps_per_print",
    "zero_optimization.stage", "zero_optimization.reduce_bucket_size", "zero_optimization.allgather_bucket_size",
    "zero_optimization.sub_group_size", "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold", "zero_optimization.stage3_model_persistence_threshold",
    "zero_optimization.stage3_max_live_parameters", "zero_optimization.stage3_max_reuse_distance",
    "zero_optimization.offload_param.buffer_count", "zero_optimization.offload_param.buffer_size",
    "zero_optimization.offload_param.max_in_cpu", "zero_optimization.offload_optimizer.buffer_count", "fp16.initial_scale_power",
    "fp16.loss_scale_window", "fp16.hysteresis"};
const std::set<std::string> kBooleanPaths = {
    "zero_optimization.overlap_comm", "zero_optimization.contiguous_gradients", "zero_optimization.reduce_scatter",
    "zero_optimization.allgather_partitions", "zero_optimization.offload_param.pin_memory",
    "zero_optimization.offload_optimizer.pin_memory", "fp16.enabled", "bf16.enabled", "wall_clock_breakdown",
    "zero_optimization.stage3_gather_16bit_weights_on_model_save"};

struct Deprecated {
    const char* key;
    const char* replacement;
};
const Deprecated kDeprecated[] = {
    {"cpu_offload", "offload_optimizer: {\"device\": \"cpu\"}"},
    {"cpu_offload_param", "offload_param: {\"device\": \"cpu\"}"},
    {"cpu_offload_use_pin_memory", "\"pin_memory\": true inside offload_optimizer / offload_param"},
    {"stage3_gather_fp16_weights_on_model_save", "stage3_gather_16bit_weights_on_model_save"},
};

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// Detects duplicate keys, which Python's json keeps silently but DeepSpeed rejects
// (runtime/config.py dict_raise_error_on_duplicate_keys).
class DuplicateFinder : public nlohmann::json_sax<json> {
public:
    std::vector<std::string> duplicates;
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override {
        frames_.push_back({path_for_child(), {}, true});
        return true;
    }
    bool key(string_t& k) override {
        Frame& f = frames_.back();
        if (!f.keys.insert(k).second) duplicates.push_back(join(f.path, k));
        pending_key_ = k;
        return true;
    }
    bool end_object() override {
        frames_.pop_back();
        return value();
    }
    bool start_array(std::size_t) override {
        frames_.push_back({path_for_child(), {}, false});
        return true;
    }
    bool end_array() override {
        frames_.pop_back();
        return value();
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Frame {
        std::string path;
        std::set<std::string> keys;
        bool object;
    };
    static std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }
    std::string path_for_child() const {
        if (frames_.empty()) return "";
        const Frame& f = frames_.back();
        return f.object ? join(f.path, pending_key_) : f.path + "[]";
    }
    bool value() { return true; }
    std::vector<Frame> frames_;
    std::string pending_key_;
};

class Linter {
public:
    Linter(const json& j, std::optional<std::int64_t> world) : j_(j), world_(world) {}

    void add(Severity s, std::string path, std::string message, std::string suggestion = {}) {
        out.diagnostics.push_back({s, std::move(path), std::move(message), std::move(suggestion)});
    }

    void run() {
        if (!j_.is_object()) {
            add(Severity::Error, "", "a DeepSpeed config must be a JSON object, got " + std::string(j_.type_name()));
            return;
        }
        check_keys(j_, "", kTopKeys, Severity::Warning, "DeepSpeed ignores unknown top-level keys silently, so a typo here does nothing");
        if (is_object("zero_optimization")) {
            const json& z = j_.at("zero_optimization");
            check_keys(z, "zero_optimization", kZeroKeys, Severity::Error, "DeepSpeed rejects unknown keys here (extra fields forbidden)");
            for (const char* sub : {"offload_param", "offload_optimizer"})
                if (z.contains(sub) && z.at(sub).is_object())
                    check_keys(z.at(sub), std::string("zero_optimization.") + sub,
                               std::string(sub) == "offload_param" ? kOffloadParamKeys : kOffloadOptimizerKeys, Severity::Error,
                               "DeepSpeed rejects unknown keys here (extra fields forbidden)");
        }
        if (is_object("fp16")) check_keys(j_.at("fp16"), "fp16", kFp16Keys, Severity::Error, "DeepSpeed rejects unknown keys here");
        if (is_object("bf16")) check_keys(j_.at("bf16"), "bf16", kBf16Keys, Severity::Error, "DeepSpeed rejects unknown keys here");
        check_types(j_, "");
        check_batch();
        check_contradictions();
        check_deprecated();
        check_performance();
    }

    LintResult out;

private:
    bool is_object(const char* key) const { return j_.contains(key) && j_.at(key).is_object(); }

    void check_keys(const json& obj, const std::string& path, const std::vector<std::string>& known, Severity severity, const std::string& why) {
        for (const auto& [key, value] : obj.items()) {
            if (std::find(known.begin(), known.end(), key) != known.end()) continue;
            const std::string near = nearest_key(key, known);
            const std::string full = path.empty() ? key : path + "." + key;
            add(severity, full, "unknown key '" + key + "'" + (path.empty() ? "" : " in " + path) + ": " + why,
                near.empty() ? std::string() : "did you mean '" + near + "'?");
        }
    }

    void check_types(const json& obj, const std::string& path) {
        if (!obj.is_object()) return;
        for (const auto& [key, value] : obj.items()) {
            const std::string full = path.empty() ? key : path + "." + key;
            if (value.is_string() && value.get<std::string>() == "auto") {
                add(Severity::Info, full, "\"auto\": filled in by the Hugging Face Trainer or Accelerate, not by DeepSpeed itself");
                continue;
            }
            if (kIntegerPaths.count(full)) {
                if (value.is_number_float()) {
                    const double d = value.get<double>();
                    if (!std::isfinite(d) || std::fabs(d) > 9e15)
                        add(Severity::Error, full, "must be an integer DeepSpeed can hold, got " + value.dump());
                    else if (d != std::floor(d))
                        add(Severity::Error, full, "Input should be a valid integer, got a number with a fractional part (" + value.dump() + ")",
                            "write a whole number such as " + std::to_string(static_cast<long long>(std::floor(d))));
                    else
                        add(Severity::Info, full, "written as a float (" + value.dump() + "); DeepSpeed accepts it, an integer is clearer",
                            "write " + std::to_string(static_cast<long long>(d)));
                } else if (!value.is_number_integer()) {
                    add(Severity::Error, full, "must be an integer, got " + std::string(value.type_name()) + " " + value.dump());
                } else if (value.is_number_integer() && value.get<std::int64_t>() < 0) {
                    add(Severity::Error, full, "must not be negative, got " + value.dump());
                }
            } else if (kBooleanPaths.count(full) && !value.is_boolean()) {
                add(Severity::Error, full, "must be true or false, got " + value.dump());
            }
            if (value.is_object()) check_types(value, full);
        }
    }

    std::optional<std::int64_t> batch_value(const char* key) {
        if (!j_.contains(key) || j_.at(key).is_null()) return std::nullopt;
        const json& v = j_.at(key);
        if (v.is_number_integer()) return v.get<std::int64_t>();
        if (v.is_number_float() && std::isfinite(v.get<double>()) && std::fabs(v.get<double>()) < 9e15) return static_cast<std::int64_t>(v.get<double>());
        auto_batch_ = auto_batch_ || (v.is_string() && v.get<std::string>() == "auto");
        return std::nullopt;
    }

    // DeepSpeed runtime/config.py _set_batch_related_parameters and _batch_assertion.
    void check_batch() {
        auto train = batch_value("train_batch_size");
        auto micro = batch_value("train_micro_batch_size_per_gpu");
        auto gas = batch_value("gradient_accumulation_steps");
        if (auto_batch_) return;  // the Trainer fills and checks them
        if (!world_) {
            if (train && micro && gas && (*micro) * (*gas) > 0 && *train % ((*micro) * (*gas)) != 0)
                add(Severity::Error, "train_batch_size", "train_batch_size " + std::to_string(*train) + " is not micro batch x gradient accumulation (" +
                    std::to_string(*micro) + " x " + std::to_string(*gas) + ") times any whole number of GPUs",
                    "give --world-size to check it against your GPU count");
            return;
        }
        const BatchRule r = deepspeed_batch_rule(train, micro, gas, *world_);
        if (r.error.empty()) return;
        std::string suggestion;
        if (r.micro > 0 && r.gas > 0 && r.train > 0)
            suggestion = "set train_batch_size to " + std::to_string(r.micro * r.gas * *world_) + " or drop it and let DeepSpeed compute it";
        add(Severity::Error, r.field, r.error, suggestion);
    }

    int stage() const {
        if (!is_object("zero_optimization")) return 0;
        const json& z = j_.at("zero_optimization");
        return z.contains("stage") && z.at("stage").is_number_integer() ? z.at("stage").get<int>() : 0;
    }

    void check_contradictions() {
        const int st = stage();
        if (is_object("zero_optimization")) {
            const json& z = j_.at("zero_optimization");
            const auto device = [&](const char* sub) -> std::string {
                if (!z.contains(sub) || !z.at(sub).is_object() || !z.at(sub).contains("device") || !z.at(sub).at("device").is_string()) return "none";
                return z.at(sub).at("device").get<std::string>();
            };
            if (device("offload_param") != "none" && st != 3)
                add(Severity::Error, "zero_optimization.offload_param", "offload_param is valid only with ZeRO stage 3 (stage is " + std::to_string(st) + ")",
                    "remove offload_param or set stage 3");
            if (z.contains("offload_optimizer") && z.at("offload_optimizer").is_object() && z.at("offload_optimizer").contains("ratio") &&
                z.at("offload_optimizer").at("ratio").is_number() && z.at("offload_optimizer").at("ratio").get<double>() < 1.0 && st != 3)
                add(Severity::Error, "zero_optimization.offload_optimizer.ratio", "Partial offloading only supported for ZeRO Stage 3.",
                    "use ratio 1.0 or stage 3");
            for (const char* sub : {"offload_param", "offload_optimizer"}) {
                const std::string dev = device(sub);
                if (dev != "none" && dev != "cpu" && dev != "nvme")
                    add(Severity::Error, std::string("zero_optimization.") + sub + ".device", "device must be none, cpu or nvme, got '" + dev + "'");
                if (dev == "nvme" && (!z.at(sub).contains("nvme_path") || z.at(sub).at("nvme_path").is_null()))
                    add(Severity::Error, std::string("zero_optimization.") + sub + ".nvme_path", std::string(sub) + " device nvme needs nvme_path",
                        "add \"nvme_path\": \"/local_nvme\" (a fast local NVMe mount)");
                if (dev == "nvme" && std::string(sub) == "offload_optimizer" && st != 3)
                    add(Severity::Warning, "zero_optimization.offload_optimizer.device",
                        "at stage " + std::to_string(st) + " DeepSpeed offloads the optimizer to the CPU, not to NVMe (stage_1_and_2.py)",
                        "use stage 3 for NVMe offload, or device cpu");
            }
        }
        const auto enabled = [&](const char* k) {
            return is_object(k) && j_.at(k).contains("enabled") && j_.at(k).at("enabled").is_boolean() && j_.at(k).at("enabled").get<bool>();
        };
        if (enabled("fp16") && enabled("bf16"))
            add(Severity::Error, "bf16.enabled", "bfloat16 and fp16 modes cannot be simultaneously enabled", "enable one of them");
        if (is_object("optimizer") && j_.at("optimizer").contains("params") && j_.at("optimizer").at("params").is_object() &&
            j_.at("optimizer").at("params").contains("max_grad_norm"))
            add(Severity::Error, "optimizer.params.max_grad_norm",
                "'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter 'gradient_clipping'",
                "move it to the top level as \"gradient_clipping\"");
    }

    void check_deprecated() {
        if (!is_object("zero_optimization")) return;
        const json& z = j_.at("zero_optimization");
        for (const Deprecated& d : kDeprecated)
            if (z.contains(d.key))
                add(Severity::Warning, std::string("zero_optimization.") + d.key, std::string("'") + d.key + "' is deprecated", std::string("use ") + d.replacement);
    }

    double number_at(const json& obj, const char* key, double fallback) const {
        if (!obj.contains(key) || !obj.at(key).is_number()) return fallback;
        return obj.at(key).get<double>();
    }

    void check_performance() {
        if (!is_object("zero_optimization")) return;
        const json& z = j_.at("zero_optimization");
        const int st = stage();
        ZeroSetup setup;
        setup.stage = st;
        // DeepSpeed's defaults when a key is missing.
        setup.reduce_bucket_elems = number_at(z, "reduce_bucket_size", deepspeed::defaults::kReduceBucketElems);
        setup.allgather_bucket_elems = number_at(z, "allgather_bucket_size", deepspeed::defaults::kAllgatherBucketElems);
        setup.overlap_comm = z.contains("overlap_comm") && z.at("overlap_comm").is_boolean() ? z.at("overlap_comm").get<bool>()
                                                                                            : deepspeed::defaults::overlap_comm_for_stage(st);
        Training t;
        t.precision = is_object("fp16") || is_object("bf16") ? Precision::Bf16 : Precision::Fp32;
        if ((st == 1 || st == 2) && setup.overlap_comm) {
            const double bytes = buffer_bytes(ModelSpec{}, t, setup).buckets;
            if (bytes >= 8e9)
                add(Severity::Warning, "zero_optimization.reduce_bucket_size",
                    "overlap_comm holds about " + std::to_string(static_cast<int>(std::lround(bytes / 1e9))) +
                        " GB per GPU of communication buckets: 2 bytes x (reduce_bucket_size + allgather_bucket_size) x 4.5",
                    "use 2e8 buckets (3.6 GB) or turn overlap_comm off if this GPU runs out of memory");
        }
        if ((st == 2 || st == 3) && !setup.overlap_comm)
            add(Severity::Warning, "zero_optimization.overlap_comm",
                "overlap_comm is off: gradient communication waits for the backward pass instead of running beside it", "set \"overlap_comm\": true");
        for (const char* key : {"reduce_bucket_size", "allgather_bucket_size", "stage3_prefetch_bucket_size"})
            if (z.contains(key) && z.at(key).is_number() && z.at(key).get<double>() > 0 && z.at(key).get<double>() < 1e7)
                add(Severity::Warning, std::string("zero_optimization.") + key,
                    std::string(key) + " " + z.at(key).dump() + " is so small that communication is serialised into many tiny collectives",
                    "use at least 5e7 elements");
        for (const char* sub : {"offload_param", "offload_optimizer"})
            if (z.contains(sub) && z.at(sub).is_object() && z.at(sub).contains("device") && z.at(sub).at("device") != "none" &&
                !(z.at(sub).contains("pin_memory") && z.at(sub).at("pin_memory") == true))
                add(Severity::Warning, std::string("zero_optimization.") + sub + ".pin_memory",
                    "pin_memory is off: offload copies go through pageable memory at a fraction of PCIe speed", "set \"pin_memory\": true");
    }

    const json& j_;
    std::optional<std::int64_t> world_;
    bool auto_batch_ = false;
};

}  // namespace

std::string nearest_key(const std::string& key, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = std::string::npos;
    for (const std::string& c : candidates) {
        std::size_t d = edit_distance(key, c);
        if (c.rfind(key, 0) == 0) d = std::min<std::size_t>(d, 1);  // the key is the start of a valid one: a cut-off name
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    return best_distance <= std::max<std::size_t>(3, key.size() / 3) ? best : std::string();
}

LintResult lint_ds_config(std::string_view text, std::optional<std::int64_t> world_size, const std::string& source_name) {
    const json j = parse_json_text(text, source_name);
    Linter linter(j, world_size);
    DuplicateFinder dup;
    json::sax_parse(text.begin(), text.end(), &dup);
    for (const std::string& path : dup.duplicates)
        linter.add(Severity::Error, path, "duplicate key '" + path + "': DeepSpeed rejects configs with duplicate keys", "keep one of them");
    linter.run();
    return linter.out;
}

nlohmann::json diagnostics_json(const LintResult& r) {
    json a = json::array();
    for (const Diagnostic& d : r.diagnostics)
        a.push_back({{"severity", to_string(d.severity)}, {"path", d.path}, {"message", d.message}, {"suggestion", d.suggestion}});
    return a;
}

Scenario apply_ds_config(const json& c, Scenario s) {
    if (!c.is_object()) return s;
    const auto integer = [](const json& obj, const char* key) -> std::optional<std::int64_t> {
        if (!obj.is_object() || !obj.contains(key) || !obj.at(key).is_number()) return std::nullopt;
        const double d = obj.at(key).get<double>();
        if (!std::isfinite(d) || d < 0 || d > 9e15) return std::nullopt;
        return static_cast<std::int64_t>(d);
    };
    if (auto v = integer(c, "train_micro_batch_size_per_gpu"); v && *v > 0) {
        s.training.micro_batch = *v;
        s.training.auto_micro_batch = false;
    }
    if (auto v = integer(c, "train_batch_size"); v && *v > 0) s.training.global_batch = *v;
    else if (auto g = integer(c, "gradient_accumulation_steps"); g && *g > 0)
        s.training.global_batch = s.training.micro_batch * *g * s.cluster.world_size();
    const auto enabled = [&](const char* k) {
        return c.contains(k) && c.at(k).is_object() && c.at(k).contains("enabled") && c.at(k).at("enabled") == true;
    };
    if (enabled("bf16")) s.training.precision = Precision::Bf16;
    else if (enabled("fp16")) s.training.precision = Precision::Fp16;
    else if (c.contains("bf16") || c.contains("fp16")) s.training.precision = Precision::Fp32;
    if (c.contains("optimizer") && c.at("optimizer").is_object() && c.at("optimizer").contains("type") && c.at("optimizer").at("type").is_string()) {
        std::string type = c.at("optimizer").at("type").get<std::string>();
        std::transform(type.begin(), type.end(), type.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
        if (type == "sgd") {
            const json& p = c.at("optimizer").contains("params") ? c.at("optimizer").at("params") : json::object();
            s.training.optimizer = p.is_object() && p.contains("momentum") && p.at("momentum") != 0 ? Optimizer::SgdMomentum : Optimizer::Sgd;
        } else {
            try {
                s.training.optimizer = parse_optimizer(type);
            } catch (const InputError&) {
            }
        }
    }
    if (c.contains("zero_optimization") && c.at("zero_optimization").is_object()) {
        const json& z = c.at("zero_optimization");
        if (auto v = integer(z, "stage"); v && *v <= 3) s.zero.stage = static_cast<int>(*v);
        if (z.contains("overlap_comm") && z.at("overlap_comm").is_boolean()) s.zero.overlap_comm = z.at("overlap_comm").get<bool>();
        if (auto v = integer(z, "reduce_bucket_size")) s.zero.reduce_bucket_elems = static_cast<double>(*v);
        if (auto v = integer(z, "allgather_bucket_size")) s.zero.allgather_bucket_elems = static_cast<double>(*v);
        if (auto v = integer(z, "stage3_prefetch_bucket_size")) s.zero.stage3_prefetch_bucket_elems = static_cast<double>(*v);
        if (auto v = integer(z, "stage3_max_live_parameters")) s.zero.stage3_max_live_parameters = static_cast<double>(*v);
        if (auto v = integer(z, "stage3_param_persistence_threshold")) s.zero.stage3_param_persistence_threshold = static_cast<double>(*v);
        if (auto v = integer(z, "sub_group_size")) s.zero.sub_group_size = static_cast<double>(*v);
        const auto device = [&](const char* sub) {
            if (!z.contains(sub) || !z.at(sub).is_object() || !z.at(sub).contains("device") || !z.at(sub).at("device").is_string())
                return OffloadDevice::None;
            try {
                return parse_offload_device(z.at(sub).at("device").get<std::string>());
            } catch (const InputError&) {
                return OffloadDevice::None;
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
    }
    if (c.contains("activation_checkpointing") && c.at("activation_checkpointing").is_object()) {
        s.training.checkpointing = Checkpointing::Full;
        s.training.auto_checkpointing = false;
        const json& a = c.at("activation_checkpointing");
        s.training.cpu_checkpointing = a.contains("cpu_checkpointing") && a.at("cpu_checkpointing") == true;
    }
    return s;
}

}  // namespace zp
