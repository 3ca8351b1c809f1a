#include "core/deepspeed/lint.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/json_comments.h"
#include "core/base/json_errors.h"
#include "core/base/suggest.h"
#include "core/base/units.h"
#include "core/deepspeed/config_domains.h"
#include "core/deepspeed/config_schema.h"
#include "core/memory/buffers.h"
#include "core/model/batch_rule.h"
#include "core/model/deepspeed_defaults.h"
#include "core/model/enum_names.h"
#include "core/model/model_spec.h"
#include "core/model/param_swap_buffers.h"
#include "core/model/trainable_params.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
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

// Heuristics of the performance warnings, the planner's own (DeepSpeed warns of neither):
// communication buckets of 8 GB per GPU or more are a tenth of an 80 GB GPU, more than twice the
// 3.6 GB the suggested 2e8-element buckets take (buffers.cpp's 2 bytes x both buckets x 4.5);
// a bucket under 1e7 elements (20 MB in 16 bits) splits a 1B-parameter model's gradients into
// more than 100 collectives, each paying NCCL's launch latency (collectives.h).
// Top-level numbers that are neither integers nor booleans, read like every top-level scalar with
// get_scalar_param (runtime/config.py get_gradient_clipping, get_gradient_predivide_factor).
const std::set<std::string> kTopLevelNumbers = {"gradient_clipping", "gradient_predivide_factor"};

constexpr double kLargeBucketBytesPerGpu = 8e9;
constexpr double kSmallBucketElems = 1e7;

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
    Linter(const json& j, std::optional<std::int64_t> world, std::optional<FineTune> finetune, LintContext context)
        : j_(j), world_(world), finetune_(std::move(finetune)), ctx_(context) {}

    void add(Severity s, std::string path, std::string message, std::string suggestion = {}) {
        out.diagnostics.push_back({s, std::move(path), std::move(message), std::move(suggestion)});
    }

    void run() {
        if (!j_.is_object()) {
            add(Severity::Error, "", "a DeepSpeed config must be a JSON object, got " + std::string(j_.type_name()));
            return;
        }
        check_keys(j_, "", ds_schema::top_level_keys(), Severity::Warning,
                   "DeepSpeed ignores unknown top-level keys silently, so a typo here does nothing");
        if (is_object("zero_optimization")) {
            const json& z = j_.at("zero_optimization");
            check_keys(z, "zero_optimization", ds_schema::zero_optimization_keys(), Severity::Error,
                       "DeepSpeed rejects unknown keys here (extra fields forbidden)");
            for (const char* sub : {"offload_param", "offload_optimizer"})
                if (z.contains(sub) && z.at(sub).is_object())
                    check_keys(z.at(sub), std::string("zero_optimization.") + sub,
                               std::string(sub) == "offload_param" ? ds_schema::offload_param_keys() : ds_schema::offload_optimizer_keys(),
                               Severity::Error, "DeepSpeed rejects unknown keys here (extra fields forbidden)");
        }
        if (is_object("fp16"))
            check_keys(j_.at("fp16"), "fp16", ds_schema::fp16_keys(), Severity::Error, "DeepSpeed rejects unknown keys here");
        if (is_object("bf16"))
            check_keys(j_.at("bf16"), "bf16", ds_schema::bf16_keys(), Severity::Error, "DeepSpeed rejects unknown keys here");
        for (const auto& [block, keys] : ds_schema::monitor_blocks())
            if (is_object(block.c_str())) check_keys(j_.at(block), block, keys, Severity::Error, "DeepSpeed rejects unknown keys here");
        check_types(j_, "");
        check_domains();
        check_sequence_parallel();
        check_batch();
        check_contradictions();
        check_dynamic_loss_scale();
        check_mics();
        check_node();
        check_deprecated();
        check_performance();
        check_finetune();
    }

    LintResult out;

private:
    bool is_object(const char* key) const { return j_.contains(key) && j_.at(key).is_object(); }

    void check_keys(const json& obj, const std::string& path, const std::vector<std::string>& known, Severity severity,
                    const std::string& why) {
        for (const auto& [key, value] : obj.items()) {
            if (std::find(known.begin(), known.end(), key) != known.end()) continue;
            // "_comment" and the like at the top level, which DeepSpeed ignores: a comment by
            // convention (LLaMA-Factory's configs), not a typo ("did you mean 'comet'?" was noise).
            if (path.empty() && !key.empty() && key.front() == '_') continue;
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
                if (ds_schema::hf_filled_auto_paths().count(full))
                    add(Severity::Info, full, "\"auto\": filled in by the Hugging Face Trainer or Accelerate, not by DeepSpeed itself");
                else
                    add(Severity::Error, full,
                        "\"auto\" here is filled in by neither the Hugging Face Trainer nor Accelerate: Accelerate (and the Trainer "
                        "through it) raises \"`" +
                            full +
                            "` not found in kwargs\", and DeepSpeed alone drops it for the field's default "
                            "(runtime/config_utils.py)",
                        full == "bfloat16.enabled"
                            ? std::string("write \"bf16\": {\"enabled\": \"auto\"} (the Trainer fills bf16, not bfloat16)")
                            : std::string("give a value"));
                continue;
            }
            // The top level is read as written (runtime/config.py get_scalar_param: param_dict.get), not
            // through pydantic: "4" stays the text "4" (the batch rule's arithmetic then fails with a
            // TypeError) and any non-empty text is true.
            if (path.empty() && value.is_string() &&
                (ds_schema::integer_paths().count(full) || ds_schema::boolean_paths().count(full) || kTopLevelNumbers.count(full))) {
                const auto as_integer = ds_schema::lax_integer(value);
                const auto as_boolean = ds_schema::lax_boolean(value);
                const std::string fix = as_integer ? "write " + std::to_string(*as_integer)
                                        : as_boolean && ds_schema::boolean_paths().count(full)
                                            ? std::string("write ") + (*as_boolean ? "true" : "false")
                                            : std::string("write it as a JSON number");
                add(Severity::Error, full,
                    "written as text (" + value.dump() +
                        "): DeepSpeed reads top-level keys as written (runtime/config.py get_scalar_param), so it stays text",
                    fix);
                continue;
            }
            if (ds_schema::integer_paths().count(full)) {
                if (value.is_number_float()) {
                    const double d = value.get<double>();
                    if (!std::isfinite(d) || std::fabs(d) > kJsonSafeInteger)
                        add(Severity::Error, full, "must be an integer DeepSpeed can hold, got " + value.dump());
                    else if (d != std::floor(d))
                        add(Severity::Error, full,
                            "Input should be a valid integer, got a number with a fractional part (" + value.dump() + ")",
                            "write a whole number such as " + std::to_string(static_cast<long long>(std::floor(d))));
                    else
                        add(Severity::Info, full, "written as a float (" + value.dump() + "); DeepSpeed accepts it, an integer is clearer",
                            "write " + std::to_string(static_cast<long long>(d)));
                } else if (value.is_string() && ds_schema::lax_integer(value)) {
                    add_integer_as_text(full, value);
                } else if (!value.is_number_integer()) {
                    add(Severity::Error, full, "must be an integer, got " + std::string(value.type_name()) + " " + value.dump());
                } else if (value.is_number_integer() && value.get<std::int64_t>() < 0 && !has_domain(full)) {
                    add(Severity::Error, full, "must not be negative, got " + value.dump());
                }
            } else if (ds_schema::boolean_paths().count(full) && !value.is_boolean()) {
                // pydantic's lax bool: 0/1 and "true"/"false", "yes"/"no", "on"/"off", "t"/"f", "y"/"n", "1"/"0".
                if (const auto b = ds_schema::lax_boolean(value))
                    add(Severity::Info, full, "written as " + value.dump() + "; DeepSpeed reads it as " + (*b ? "true" : "false"),
                        std::string("write ") + (*b ? "true" : "false"));
                else add(Severity::Error, full, "must be true or false, got " + value.dump());
            }
            if (value.is_object()) check_types(value, full);
        }
    }

    static bool has_domain(const std::string& path) {
        const auto& rows = ds_schema::value_domains();
        return std::any_of(rows.begin(), rows.end(), [&](const ds_schema::ValueDomain& d) { return path == d.path; });
    }

    // The values DeepSpeed accepts at each path it constrains (config_domains.h), with its own
    // wording; "auto" is the Trainer's to fill in (an Info from check_types).
    void check_domains() {
        for (const ds_schema::ValueDomain& d : ds_schema::value_domains()) {
            const json* v = &j_;
            std::string rest = d.path;
            while (v && !rest.empty()) {
                const auto dot = rest.find('.');
                const std::string key = rest.substr(0, dot);
                rest = dot == std::string::npos ? std::string() : rest.substr(dot + 1);
                v = v->is_object() && v->contains(key) ? &v->at(key) : nullptr;
            }
            if (!v || v->is_null() || (v->is_string() && v->get<std::string>() == "auto")) continue;
            // An integer path holding no number already has its type error (check_types).
            if (d.names.empty() && !v->is_number() && ds_schema::integer_paths().count(d.path)) continue;
            const std::string problem = ds_schema::domain_violation(d, *v);
            if (problem.empty()) continue;
            std::string valid;
            if (!d.names.empty()) {
                std::string written = v->is_string() ? v->get<std::string>() : std::string();
                if (d.names_ignore_case) written = ds_schema::ascii_lower(written);
                const std::string near = written.empty() ? std::string() : nearest_key(written, d.names);
                valid = near.empty() ? "valid: " + ds_schema::names_list(d.names) + (d.exact_names.empty() ? "" : " or a torch class name")
                                     : "did you mean '" + near + "'?";
            } else {
                valid = d.le ? "valid: " + format_general(*d.ge) + " to " + format_general(*d.le)
                             : "valid: " + format_general(*d.ge) + " or more";
            }
            add(Severity::Error, d.path, problem + " (" + d.source + ")", valid);
        }
    }

    std::optional<std::int64_t> batch_value(const char* key) {
        if (!j_.contains(key) || j_.at(key).is_null()) return std::nullopt;
        const json& v = j_.at(key);
        if (v.is_number_integer()) return v.get<std::int64_t>();
        if (v.is_number_float() && std::isfinite(v.get<double>()) && std::fabs(v.get<double>()) < kJsonSafeInteger)
            return static_cast<std::int64_t>(v.get<double>());
        const bool is_auto = v.is_string() && v.get<std::string>() == "auto";
        auto_batch_ = auto_batch_ || is_auto;
        unreadable_batch_ = unreadable_batch_ || (!is_auto && !v.is_number());  // its type error is reported (check_types)
        return std::nullopt;
    }

    // DeepSpeed-Ulysses' sequence_parallel_size (runtime/config.py DeepSpeedConfig: without an mpu,
    // world_size = dist.get_world_size() / config["sequence_parallel_size"] for the batch rule;
    // runtime/sequence_parallel/parallel_state_sp.py initialize_sequence_parallel: "world_size ... is
    // not divisible by sequence_parallel_size"). The type check above already refused a non-integer.
    void check_sequence_parallel() {
        if (!j_.contains("sequence_parallel_size")) return;
        const json& v = j_.at("sequence_parallel_size");
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() != std::floor(v.get<double>())) return;
        const double sp = v.get<double>();
        if (sp < 0) return;  // "must not be negative" above
        if (sp < 1) {
            add(Severity::Error, "sequence_parallel_size", "must be at least 1 (1: no sequence parallelism), got " + v.dump());
            return;
        }
        if (sp > 1 && sp < kJsonSafeInteger)
            check_ulysses_against_model(static_cast<std::int64_t>(sp), ctx_, "sequence_parallel_size", "sequence_parallel_size",
                                        out.diagnostics);
        if (sp > 1 && ds_schema::block_enabled(j_, "bf16") && !j_.contains("seq_parallel_communication_data_type"))
            add(Severity::Info, "seq_parallel_communication_data_type",
                "not set: with sequence_parallel_size above 1 DeepSpeed reduces the gradients in fp32 (runtime/constants.py "
                "SEQ_PARALLEL_COMMUNICATION_DATA_TYPE_DEFAULT), copying every bf16 reduce bucket to fp32 first (ArcticTraining's "
                "sequence-parallelism USAGE.md: 4 GB more at a reduce_bucket_size of 5e8)",
                "set \"seq_parallel_communication_data_type\": \"bf16\"");
        if (!world_) return;
        if (sp > static_cast<double>(*world_) || *world_ % static_cast<std::int64_t>(sp) != 0) {
            add(Severity::Error, "sequence_parallel_size",
                "sequence_parallel_size " + v.dump() + " does not divide the world size " + std::to_string(*world_) +
                    " (DeepSpeed's parallel_state_sp.py refuses it)",
                "use a divisor of the GPU count that also divides the attention heads");
            return;
        }
        batch_ranks_ = *world_ / static_cast<std::int64_t>(sp);
    }

    // DeepSpeed runtime/config.py _set_batch_related_parameters and _batch_assertion.
    void check_batch() {
        // Elastic training computes the batch keys itself (runtime/config.py DeepSpeedConfig.__init__:
        // compute_elastic_config fills them), and raises ElasticityConfigError when the config also
        // holds one of them, unless elasticity.ignore_non_elastic_batch_info is true.
        if (is_object("elasticity") && j_.at("elasticity").contains("enabled") && j_.at("elasticity").at("enabled") == true) {
            const json& elastic = j_.at("elasticity");
            if (elastic.contains("ignore_non_elastic_batch_info") && elastic.at("ignore_non_elastic_batch_info") == true) return;
            for (const char* key : {"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"})
                if (j_.contains(key))
                    add(Severity::Error, key,
                        std::string(key) +
                            " is set while elasticity is enabled: elastic training computes the batch itself and DeepSpeed "
                            "raises ElasticityConfigError (\"These parameters *will not be used* since elastic training is "
                            "enabled\", runtime/config.py)",
                        "remove it, or set \"ignore_non_elastic_batch_info\": true in elasticity to have it ignored");
            return;
        }
        auto train = batch_value("train_batch_size");
        auto micro = batch_value("train_micro_batch_size_per_gpu");
        auto gas = batch_value("gradient_accumulation_steps");
        if (auto_batch_ || unreadable_batch_) return;  // the Trainer fills and checks them; or a key is not a number
        if (!world_) {
            if (train && micro && gas && (*micro) * (*gas) > 0 && *train % ((*micro) * (*gas)) != 0)
                add(Severity::Error, "train_batch_size",
                    "train_batch_size " + std::to_string(*train) + " is not micro batch x gradient accumulation (" +
                        std::to_string(*micro) + " x " + std::to_string(*gas) + ") times any whole number of GPUs",
                    "give --world-size to check it against your GPU count");
            return;
        }
        // The ranks that split the batch: the world over sequence_parallel_size.
        const std::int64_t ranks = batch_ranks_.value_or(*world_);
        const BatchRule r = deepspeed_batch_rule(train, micro, gas, ranks);
        if (r.error.empty()) return;
        std::string suggestion;
        if (r.micro > 0 && r.gas > 0 && r.train > 0)
            suggestion = "set train_batch_size to " + std::to_string(r.micro * r.gas * ranks) + " or drop it and let DeepSpeed compute it";
        add(Severity::Error, r.field, r.error, suggestion);
    }

    int stage() const {
        if (!is_object("zero_optimization")) return 0;
        const json& z = j_.at("zero_optimization");
        return z.contains("stage") && z.at("stage").is_number_integer() ? z.at("stage").get<int>() : 0;
    }

    // swap_tensor/partitioned_param_swapper.py get_buffer: "assert numel <= self.elements_per_buffer",
    // called at zero.Init with each parameter's partition over the ranks (core/model/param_swap_buffers.h).
    void check_param_swap_buffer(const json& block) {
        if (!ctx_.largest_layer || !world_ || *world_ <= 0) return;
        double buffer = deepspeed::defaults::kOffloadParamBufferElems;
        if (block.contains("buffer_size") && block.at("buffer_size").is_number()) buffer = block.at("buffer_size").get<double>();
        const double partition = param_partition_elems(static_cast<double>(*ctx_.largest_layer), *world_);
        if (partition <= buffer) return;
        add(Severity::Error, "zero_optimization.offload_param.buffer_size",
            "one rank's partition of the model's largest layer is " + format_count(partition) + " elements (" +
                format_count(static_cast<double>(*ctx_.largest_layer)) + " over " + std::to_string(*world_) +
                " ranks), more than buffer_size " + format_count(buffer) +
                ": DeepSpeed asserts \"More elements ... than buffer size\" at zero.Init (partitioned_param_swapper.py get_buffer)",
            "set \"buffer_size\": " + std::to_string(static_cast<std::int64_t>(partition)) +
                " or more (the pinned pool is buffer_count x buffer_size elements)");
    }

    // Stage 0 builds no ZeRO optimizer, but engine.py still asks zero_use_cpu_optimizer() of the
    // offload_optimizer block: an Adam, AdamW, Adagrad or Lion block is built as DeepSpeed's CPU
    // kernel (_configure_basic_optimizer) over parameters that stay on the GPU, and its first step
    // asserts "CPUAdam param is on cuda:0 and must be 'cpu'" (ops/adam/cpu_adam.py); a client
    // optimizer is refused at initialize ("You are using ZeRO-Offload with a client provided
    // optimizer"), or swapped for DeepSpeedCPUAdam by Accelerate and the Trainer, which then asserts.
    // torch.optim's own (torch_adam, SGD) steps on the GPU: the block is ignored.
    void check_offload_at_stage_0(const json& z) {
        const std::string why = z.contains("stage") ? "stage is 0" : "zero_optimization names no stage, which DeepSpeed reads as 0";
        const bool client = !is_object("optimizer");
        bool cpu_kernel = client && !(j_.contains("zero_force_ds_cpu_optimizer") && j_.at("zero_force_ds_cpu_optimizer") == false);
        if (is_object("optimizer") && j_.contains("/optimizer/type"_json_pointer) && j_.at("/optimizer/type"_json_pointer).is_string()) {
            const std::string type = ds_schema::ascii_lower(j_.at("/optimizer/type"_json_pointer).get<std::string>());
            const bool torch_adam =
                j_.contains("/optimizer/params/torch_adam"_json_pointer) && j_.at("/optimizer/params/torch_adam"_json_pointer) == true;
            cpu_kernel = !torch_adam && (type == "adam" || type == "adamw" || type == "adagrad" || type == "lion");
        }
        const std::string cpu_step =
            "DeepSpeed's CPU optimizer over parameters that stay on the GPU, whose first step asserts \"CPUAdam param is on cuda:0 "
            "and must be 'cpu'\" (engine.py zero_use_cpu_optimizer, ops/adam/cpu_adam.py)";
        if (cpu_kernel)
            add(Severity::Error, "zero_optimization.offload_optimizer",
                "offload_optimizer needs ZeRO stage 1 or more (" + why + "): " +
                    (client ? "a script's own optimizer is refused at deepspeed.initialize (\"You are using ZeRO-Offload with a client "
                              "provided optimizer\"), and Accelerate and the Trainer swap it for " +
                                  cpu_step
                            : "the optimizer block is built as " + cpu_step),
                "set \"stage\" to 1, 2 or 3, or remove offload_optimizer");
        else
            add(Severity::Warning, "zero_optimization.offload_optimizer",
                "offload_optimizer takes effect only with ZeRO stage 1 or more (" + why + "): DeepSpeed ignores it",
                "set \"stage\" to 1, 2 or 3, or remove offload_optimizer");
    }

    void check_contradictions() {
        const int st = stage();
        if (is_object("zero_optimization")) {
            const json& z = j_.at("zero_optimization");
            const auto device = [&](const char* sub) { return ds_schema::offload_device_name(z, sub); };
            // The zero config's validators do not refuse it (zero/config.py); below stage 3 nothing reads it.
            if (device("offload_param") != "none" && st != 3)
                add(Severity::Warning, "zero_optimization.offload_param",
                    "offload_param takes effect only with ZeRO stage 3 (stage is " + std::to_string(st) + "): DeepSpeed ignores it",
                    "remove offload_param or set stage 3");
            // Stage 0 as DeepSpeed reads it: no "stage", or 0. A stage written "auto" is Accelerate's
            // to fill (its zero_stage, 2 by default), a malformed one is check_domains' error.
            const bool stage_0 = !z.contains("stage") || (z.at("stage").is_number_integer() && z.at("stage").get<int>() == 0);
            if (device("offload_optimizer") != "none" && stage_0) check_offload_at_stage_0(z);
            const json ratio = z.contains("/offload_optimizer/ratio"_json_pointer) ? z.at("/offload_optimizer/ratio"_json_pointer) : json();
            if (ratio.is_number() && ratio.get<double>() < 1.0 && st != 3)
                add(Severity::Error, "zero_optimization.offload_optimizer.ratio", "Partial offloading only supported for ZeRO Stage 3.",
                    "use ratio 1.0 or stage 3");
            for (const char* sub : {"offload_param", "offload_optimizer"}) {
                const std::string dev = device(sub);
                if (dev == "nvme" && (!z.at(sub).contains("nvme_path") || z.at(sub).at("nvme_path").is_null()))
                    add(Severity::Error, std::string("zero_optimization.") + sub + ".nvme_path",
                        std::string(sub) + " device nvme needs nvme_path", "add \"nvme_path\": \"/local_nvme\" (a fast local NVMe mount)");
                if (dev == "nvme" && std::string(sub) == "offload_param" && st == 3) check_param_swap_buffer(z.at(sub));
                if (dev == "nvme" && std::string(sub) == "offload_optimizer" && st != 3 && st != 0)
                    add(Severity::Warning, "zero_optimization.offload_optimizer.device",
                        "at stage " + std::to_string(st) + " DeepSpeed offloads the optimizer to the CPU, not to NVMe (stage_1_and_2.py)",
                        "use stage 3 for NVMe offload, or device cpu");
            }
            // The stage3_* aliases and sub_group_size (zero/config.py) are read only at stage 3: by
            // stage3.py, partition_parameters.py and engine.py's save_16bit_model behind
            // zero_optimization_partition_weights(). A stage-3 config switched to stage 2 keeps them, unread.
            if (st < 3) {
                std::string unread;
                int count = 0;
                for (const auto& [key, value] : z.items())
                    if (key.starts_with("stage3_") || key == "sub_group_size") unread += (count++ ? ", " : "") + key;
                if (count > 0)
                    add(Severity::Info, "zero_optimization",
                        unread + (count > 1 ? " take" : " takes") + " effect only at ZeRO stage 3 (stage is " + std::to_string(st) +
                            "): DeepSpeed ignores " + (count > 1 ? "them" : "it") + " here",
                        count > 1 ? "remove them, or set stage 3 if that is what you meant"
                                  : "remove it, or set stage 3 if that is what you meant");
            }
            // ZeRO++ (zero/config.py; read only by stage3.py and partition_parameters.py).
            const bool on = (z.contains("zero_quantized_weights") && z.at("zero_quantized_weights") == true) ||
                            (z.contains("zero_quantized_gradients") && z.at("zero_quantized_gradients") == true) ||
                            (z.contains("zero_hpz_partition_size") && z.at("zero_hpz_partition_size").is_number_integer() &&
                             z.at("zero_hpz_partition_size").get<std::int64_t>() > 1);
            if (on && st != 3)
                add(Severity::Warning, "zero_optimization.stage",
                    "ZeRO++ (zero_hpz_partition_size, zero_quantized_weights/gradients) works only at stage 3: at stage " +
                        std::to_string(st) + " DeepSpeed ignores it",
                    "set stage 3 or remove the ZeRO++ keys");
            if (z.contains("zero_hpz_partition_size") && z.at("zero_hpz_partition_size").is_number_integer() && world_) {
                const std::int64_t hpz = z.at("zero_hpz_partition_size").get<std::int64_t>();
                // utils/groups.py _create_zero_param_parallel_group: groups of min(hpz, world size)
                // consecutive ranks (a node), which must divide the world size.
                if (hpz > 1 && *world_ % std::min(hpz, *world_) != 0)
                    add(Severity::Error, "zero_optimization.zero_hpz_partition_size",
                        "zero_hpz_partition_size " + std::to_string(hpz) + " does not divide the world size " + std::to_string(*world_),
                        "use the number of GPUs per node");
            }
        }
        if (ds_schema::block_enabled(j_, "fp16") && ds_schema::block_enabled(j_, "bf16"))
            add(Severity::Error, "bf16.enabled", "bfloat16 and fp16 modes cannot be simultaneously enabled", "enable one of them");
        check_low_precision_master_weights();
        check_zero_optimizer(st);
        check_client_optimizer_offloaded(st);
        // runtime/config.py _do_error_check: a summed gradient reduction is refused at stage 3; and
        // engine.py _do_optimizer_sanity_check asserts "Amp and ZeRO are not currently compatible".
        if (st == 3 && j_.contains("gradient_allreduce_op") && j_.at("gradient_allreduce_op").is_string()) {
            if (ds_schema::ascii_lower(j_.at("gradient_allreduce_op").get<std::string>()) == "sum")
                add(Severity::Error, "gradient_allreduce_op", "gradient_allreduce_op='sum' is not supported with ZeRO stage 3",
                    "remove it (the default is 'mean') or use stage 1 or 2");
        }
        if (st >= 1 && ds_schema::block_enabled(j_, "amp"))
            add(Severity::Error, "amp.enabled",
                "Amp and ZeRO are not currently compatible, please use (legacy) fp16 mode which performs similar to amp opt_mode=O2",
                "use \"fp16\" or \"bf16\" instead of \"amp\"");
        // engine.py _configure_basic_optimizer raises this only when DeepSpeed builds the optimizer
        // from the block (no optimizer passed to deepspeed.initialize: the Trainer's and Accelerate's
        // DummyOptim, a plain script), the usual reader of an "optimizer" block: an error that names
        // its exception, a script passing its own (Megatron-DeepSpeed's training.py), whose optimizer
        // "overrides any optimizer definition in the DeepSpeed json config" (deepspeed/__init__.py).
        if (j_.contains("/optimizer/params/max_grad_norm"_json_pointer))
            add(Severity::Error, "optimizer.params.max_grad_norm",
                "'max_grad_norm' is not supported as an optimizer parameter, please switch to using the deepspeed parameter "
                "'gradient_clipping' (raised when DeepSpeed builds the optimizer from this block, as under the Trainer and "
                "Accelerate; a script passing its own optimizer to deepspeed.initialize, as Megatron-DeepSpeed does, has the block "
                "ignored)",
                "move it to the top level as \"gradient_clipping\"");
    }

    // Optimizer offload with no "optimizer" block: the script's optimizer steps the partition, and
    // engine.py _configure_optimizer raises ZeRORuntimeException ("You are using ZeRO-Offload with a
    // client provided optimizer") for one that is not DeepSpeedCPUAdam or DeepSpeedCPULion while
    // zero_force_ds_cpu_optimizer is true, its default (since v0.8.3). Accelerate (0.18 on, and the
    // Trainer through it) swaps a torch optimizer for DeepSpeedCPUAdam first
    // (accelerator.py _prepare_deepspeed -> utils/deepspeed.py map_pytorch_optim_to_deepspeed, lr and
    // weight decay kept), so only a script calling deepspeed.initialize with torch.optim itself is
    // refused: an Info, as the file cannot say which script reads it (a real-config review: seven
    // Trainer and Accelerate configs were warned of a refusal that does not happen).
    void check_client_optimizer_offloaded(int st) {
        if (st < 1 || j_.contains("optimizer") || !is_object("zero_optimization")) return;
        const json& z = j_.at("zero_optimization");
        if (ds_schema::offload_device_name(z, "offload_optimizer") == "none") return;  // the deprecated cpu_offload included
        const bool legacy = !z.contains("offload_optimizer");
        if (j_.contains("zero_force_ds_cpu_optimizer") && j_.at("zero_force_ds_cpu_optimizer") == false) return;
        add(Severity::Info, legacy ? "zero_optimization.cpu_offload" : "zero_optimization.offload_optimizer",
            "the optimizer is offloaded and the config has no \"optimizer\" block, so the script's optimizer steps the partition: "
            "Accelerate and the Trainer swap a torch AdamW for DeepSpeedCPUAdam (map_pytorch_optim_to_deepspeed), but a script "
            "passing a torch.optim optimizer to deepspeed.initialize itself is refused (\"You are using ZeRO-Offload with a "
            "client provided optimizer\", engine.py)",
            "in such a script, pass deepspeed.ops.adam.DeepSpeedCPUAdam, or add an \"optimizer\" block (Adam or AdamW: DeepSpeed "
            "builds DeepSpeedCPUAdam)");
    }

    // The optimizer block's type against ZeRO (stage >= 1): engine.py _configure_basic_optimizer
    // builds FusedLamb for "Lamb" and torch.optim's class for a name DeepSpeed does not know
    // ("SGD"), neither in zero/utils.py ZERO_SUPPORTED_OPTIMIZERS (torch Adam, AdamW and Adagrad,
    // FusedAdam, the CPU Adam/Adagrad/Lion, FusedLion), so _do_optimizer_sanity_check asserts unless
    // zero_allow_untested_optimizer is true; the 1-bit optimizers assert "not compatible with ZeRO".
    void check_zero_optimizer(int st) {
        if (st < 1 || !j_.contains("/optimizer/type"_json_pointer) || !j_.at("/optimizer/type"_json_pointer).is_string()) return;
        // A name neither DeepSpeed nor torch.optim has is reported once, by its domain (check_domains).
        for (const Diagnostic& d : out.diagnostics)
            if (d.path == "optimizer.type") return;
        const std::string type = ds_schema::ascii_lower(j_.at("/optimizer/type"_json_pointer).get<std::string>());
        if (type == "onebitadam" || type == "zerooneadam" || type == "onebitlamb") {
            add(Severity::Error, "optimizer.type",
                j_.at("/optimizer/type"_json_pointer).get<std::string>() + " is not compatible with ZeRO",
                "use stage 0, or Adam/AdamW with ZeRO");
            return;
        }
        const bool supported = type == "adam" || type == "adamw" || type == "adagrad" || type == "lion" || type == "muon";
        if (!supported && !(j_.contains("zero_allow_untested_optimizer") && j_.at("zero_allow_untested_optimizer") == true))
            add(Severity::Error, "optimizer.type",
                "You are using an untested ZeRO Optimizer. Please add <\"zero_allow_untested_optimizer\": true> in the configuration "
                "file to use it.",
                "add \"zero_allow_untested_optimizer\": true");
    }

    // A whole number written as text ("8"): pydantic's lax mode (DeepSpeed's models do not set
    // strict) reads it as that number.
    void add_integer_as_text(const std::string& path, const json& value) {
        add(Severity::Info, path, "written as text (" + value.dump() + "); DeepSpeed reads it as the number, an integer is clearer",
            "write " + std::to_string(*ds_schema::lax_integer(value)));
    }

    bool block_true(const char* block, const char* key) const {
        return is_object(block) && j_.at(block).contains(key) && j_.at(block).at(key) == true;
    }

    // 16-bit master weights and gradients, and bf16 optimizer states (PR #7700): runtime/config.py
    // _do_error_check asserts ZeRO stage 1-3 for each and bf16_master_weights_and_grads under
    // bf16_optimizer_states; base_optimizer.py _configure_master_weights then requires ZeRO-Offload
    // with DeepSpeedCPUAdam (stage_1_and_2.py _enforce_cpu_offload, stage3.py
    // _enforce_optimizer_offload) unless bf16 master weights keep bf16 optimizer states on the GPU.
    void check_low_precision_master_weights() {
        const bool fp16_master = block_true("fp16", "fp16_master_weights_and_grads");
        const bool bf16_master = block_true("bf16", "bf16_master_weights_and_grads");
        const bool bf16_states = block_true("bf16", "bf16_optimizer_states");
        if (!fp16_master && !bf16_master && !bf16_states) return;
        const int st = stage();
        const std::string where = fp16_master ? "fp16.fp16_master_weights_and_grads" : "bf16.bf16_master_weights_and_grads";
        if (st < 1)
            add(Severity::Error, bf16_states && !bf16_master ? "bf16.bf16_optimizer_states" : where,
                "16-bit master weights and optimizer states are only supported with ZeRO Stage 1, 2, or 3",
                "set zero_optimization.stage 1-3");
        if (bf16_states && !bf16_master)
            add(Severity::Error, "bf16.bf16_optimizer_states", "bf16_optimizer_states requires bf16_master_weights_and_grads to be enabled",
                "add \"bf16_master_weights_and_grads\": true to bf16");
        const bool offloaded =
            is_object("zero_optimization") && ds_schema::offload_device_name(j_.at("zero_optimization"), "offload_optimizer") != "none";
        if ((fp16_master || (bf16_master && !bf16_states)) && !offloaded)
            add(Severity::Error, where,
                "the master weights feature requires ZeRO-Offload with DeepSpeedCPUAdam (its fp32 optimizer states cannot stay on the GPU)",
                bf16_master ? "add \"bf16_optimizer_states\": true, or offload_optimizer to the cpu" : "set offload_optimizer to the cpu");
        // The planner models bf16 master weights with bf16 states on the GPU
        // (ZeroSetup::bf16_master_weights); the rest it plans with fp32 master weights.
        if (fp16_master || (bf16_master && (!bf16_states || offloaded)))
            add(Severity::Info, where,
                "the planner's memory and step time for this config assume fp32 master weights, gradients and optimizer states: "
                "it models 16-bit master weights only as bf16 master weights with bf16_optimizer_states on the GPU");
    }

    std::optional<std::int64_t> zero_integer(const char* key) const {
        if (!is_object("zero_optimization")) return std::nullopt;
        const json& z = j_.at("zero_optimization");
        if (!z.contains(key)) return std::nullopt;
        return ds_schema::lax_integer(z.at(key));  // "8" is 8 to DeepSpeed's pydantic models
    }
    bool zero_true(const char* key) const {
        return is_object("zero_optimization") && j_.at("zero_optimization").contains(key) &&
               ds_schema::lax_boolean(j_.at("zero_optimization").at(key)).value_or(false);
    }

    // runtime/precision_config.py DeepSpeedFP16Config._validate_dynamic_loss_scale_params (from
    // ded23491c, #8050, 2026-06; in v0.19.6): with fp16 on and dynamic loss scaling (loss_scale 0,
    // the default) a window or a floor of 0 or less is refused; the scaler divided by the window
    // and collapsed at a floor of 0 before it. Older releases accept them.
    void check_dynamic_loss_scale() {
        if (!ds_schema::block_enabled(j_, "fp16")) return;
        const json& f = j_.at("fp16");
        if (number_at(f, "loss_scale", 0) != 0) return;
        for (const char* key : {"loss_scale_window", "min_loss_scale"})
            if (f.contains(key) && f.at(key).is_number() && f.at(key).get<double>() <= 0)
                add(Severity::Error, std::string("fp16.") + key,
                    std::string("fp16.") + key + " must be > 0 when dynamic loss scaling is enabled (loss_scale=0)",
                    std::string("use DeepSpeed's default, ") + (std::string(key) == "min_loss_scale" ? "1" : "1000") +
                        ", or a static loss_scale");
    }

    // MiCS (runtime/zero/mics.py, mics_utils.py; core/model/mics.h): mics_shard_size is a pydantic int
    // with default -1; engine.py _configure_zero_optimizer runs MiCS when it is above 0, at stage 3 only.
    void check_mics() {
        if (!is_object("zero_optimization")) return;
        const json& z = j_.at("zero_optimization");
        const std::string path = "zero_optimization.mics_shard_size";
        const bool hierarchical = zero_true("mics_hierarchical_params_gather");
        if (z.contains("mics_shard_size") && !z.at("mics_shard_size").is_number_integer()) {
            const json& v = z.at("mics_shard_size");
            if (ds_schema::lax_integer(v)) {
                add_integer_as_text(path, v);
            } else {
                if (!(v.is_string() && v.get<std::string>() == "auto"))
                    add(Severity::Error, path, "must be an integer (-1: MiCS off, DeepSpeed's default), got " + v.dump());
                return;
            }
        }
        const std::int64_t S = zero_integer("mics_shard_size").value_or(-1);
        if (S <= 0) {
            if (hierarchical)
                add(Severity::Warning, "zero_optimization.mics_hierarchical_params_gather",
                    "mics_hierarchical_params_gather does nothing without MiCS (mics_shard_size above 0)",
                    "remove it or set mics_shard_size");
            return;
        }
        const std::string name = "mics_shard_size " + std::to_string(S);
        if (stage() != 3) {
            add(Severity::Warning, path, "MiCS works only at stage 3: at stage " + std::to_string(stage()) + " DeepSpeed ignores " + name,
                "set stage 3 or remove mics_shard_size");
            return;
        }
        if (S == 1)
            add(Severity::Warning, path,
                "mics_shard_size 1 turns MiCS on with groups of one GPU: every GPU keeps all the model states (plain data "
                "parallelism through ZeRO-3's hooks)",
                "use -1 for MiCS off, or the GPUs per node");
        std::optional<std::int64_t> replicas;
        if (world_) {
            // mics_utils.py _generate_mics_config: "dp group size is not dividable by dp_shard_size".
            if (S > *world_ || *world_ % S != 0)
                add(Severity::Error, path,
                    name + " does not divide the world size " + std::to_string(*world_) +
                        " (DeepSpeed's _generate_mics_config: \"dp group size is not dividable by dp_shard_size\")",
                    "use a divisor of the GPU count, such as the GPUs per node");
            else replicas = *world_ / S;
        }
        // mics.py allreduce_mics_shard_grads: "Local sharding has no support for CPU offloading" once
        // there is more than one shard group (the gradient partitions live on the host with offload_optimizer).
        if (ds_schema::offload_device_name(z, "offload_optimizer") != "none" && replicas.value_or(2) > 1)
            add(Severity::Error, path,
                "MiCS with offload_optimizer fails in DeepSpeed's mics.py: \"Local sharding has no support for CPU offloading\"",
                "remove offload_optimizer (and offload_param) or MiCS");
        if (zero_integer("zero_hpz_partition_size").value_or(1) > 1 || zero_true("zero_quantized_weights") ||
            zero_true("zero_quantized_gradients"))
            add(Severity::Warning, path,
                "MiCS replaces ZeRO-3's parameter gather with its own (mics.py), which neither quantizes (qwZ) nor uses hpZ's secondary "
                "partition, and MiCS_Optimizer is built without the ZeRO++ switches",
                "choose MiCS or ZeRO++");
        if (ctx_.gpus_per_node && *ctx_.gpus_per_node > 0) {
            const std::int64_t g = *ctx_.gpus_per_node;
            if (S > g)
                add(Severity::Info, path,
                    "shard groups of " + std::to_string(S) + " GPUs span " + std::to_string((S + g - 1) / g) + " nodes of " +
                        std::to_string(g) + ": every parameter gather crosses the network" +
                        (hierarchical ? " (hierarchically: across nodes, then inside each)" : ""),
                    hierarchical ? std::string() : "set mics_hierarchical_params_gather, or a shard size of " + std::to_string(g));
            else if (g % S != 0)
                add(Severity::Warning, path,
                    "shard groups of " + std::to_string(S) + " consecutive GPUs straddle the nodes of " + std::to_string(g) +
                        ": some gathers cross the network",
                    "use a divisor of the GPUs per node");
            else add(Severity::Info, path, "shard groups of " + std::to_string(S) + " GPUs stay inside a node of " + std::to_string(g));
            // mics_utils.py create_mics_comm_groups with hierarchical_allgather: span_nodes = shard //
            // GPUs per node; asserts "sharding spans on single node, no need for hierarchy allgather".
            const std::int64_t span = S / g;
            if (hierarchical && (span <= 1 || S % span != 0))
                add(Severity::Error, "zero_optimization.mics_hierarchical_params_gather",
                    "mics_hierarchical_params_gather needs shard groups over two or more nodes: DeepSpeed asserts \"sharding spans on "
                    "single node, no need for hierarchy allgather\" (" +
                        name + ", " + std::to_string(g) + " GPUs per node)",
                    "turn it off, or use a shard size of 2 x " + std::to_string(g) + " or more");
        }
    }

    // Constraints that need the node (LintContext::gpus_per_node). ZeRO++ hpZ: utils/groups.py
    // _create_zero_param_parallel_group groups consecutive ranks; the secondary partition belongs
    // inside a node (DeepSpeed's ZeRO++ tutorial: "ideal is number of ranks (gpus) per node").
    void check_node() {
        if (!ctx_.gpus_per_node || *ctx_.gpus_per_node <= 0) return;
        const std::int64_t g = *ctx_.gpus_per_node;
        const std::int64_t hpz = zero_integer("zero_hpz_partition_size").value_or(1);
        if (hpz > 1 && g % hpz != 0)
            add(Severity::Error, "zero_optimization.zero_hpz_partition_size",
                "zero_hpz_partition_size " + std::to_string(hpz) + " does not divide the " + std::to_string(g) +
                    " GPUs per node: hpZ's secondary partition would span nodes, and its backward gathers would cross the network",
                "use " + std::to_string(g) + " (the ZeRO++ tutorial: \"ideal is number of ranks (gpus) per node\")");
    }

    void check_deprecated() {
        if (!is_object("zero_optimization")) return;
        const json& z = j_.at("zero_optimization");
        for (const ds_schema::DeprecatedKey& d : ds_schema::deprecated_zero_keys()) {
            if (!z.contains(d.key)) continue;
            const std::string path = std::string("zero_optimization.") + d.key;
            if (d.new_key && z.contains(d.new_key))
                add(Severity::Error, path,
                    std::string("Cannot provide deprecated parameter '") + d.key + "' and replacing parameter '" + d.new_key +
                        "' together (DeepSpeed's config_utils.py asserts it)",
                    std::string("remove '") + d.key + "'");
            else
                add(Severity::Warning, path,
                    std::string("'") + d.key + "' is deprecated" +
                        (d.new_key ? std::string("; DeepSpeed reads it as ") + d.replacement + ", and so does the planner"
                                   : std::string("; DeepSpeed reads nothing from it")),
                    std::string("use ") + d.replacement);
        }
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
        // DeepSpeed's defaults when a key is missing. An "auto" reduce bucket is the Trainer's and
        // Accelerate's hidden x hidden (trainer_config_finalize), sized only when the model is known:
        // read as DeepSpeed's 5e8, a 4096-wide model's buckets were put at 9 GB for 4.6.
        const bool auto_reduce = z.contains("reduce_bucket_size") && z.at("reduce_bucket_size") == json("auto");
        const bool sized = !auto_reduce || ctx_.hidden;
        setup.reduce_bucket_elems = auto_reduce && ctx_.hidden
                                        ? static_cast<double>(*ctx_.hidden) * static_cast<double>(*ctx_.hidden)
                                        : number_at(z, "reduce_bucket_size", deepspeed::defaults::kReduceBucketElems);
        setup.allgather_bucket_elems = number_at(z, "allgather_bucket_size", deepspeed::defaults::kAllgatherBucketElems);
        const auto overlap = z.contains("overlap_comm") ? ds_schema::lax_boolean(z.at("overlap_comm")) : std::nullopt;
        setup.overlap_comm = overlap.value_or(deepspeed::defaults::overlap_comm_for_stage(st));
        Training t;
        t.precision = is_object("fp16") || is_object("bf16") ? Precision::Bf16 : Precision::Fp32;
        if ((st == 1 || st == 2) && setup.overlap_comm && sized) {
            const double bytes = buffer_bytes(ModelSpec{}, t, setup).buckets;
            ZeroSetup recommended = setup;
            recommended.reduce_bucket_elems = recommended.allgather_bucket_elems = deepspeed::recommended::kBucketElems;
            const auto gb = [](double b) { return std::to_string(static_cast<int>(std::lround(b / 1e9))); };
            if (bytes >= kLargeBucketBytesPerGpu)
                add(Severity::Warning, "zero_optimization.reduce_bucket_size",
                    "overlap_comm holds about " + gb(bytes) +
                        " GB per GPU of communication buckets: " + std::to_string(static_cast<int>(bytes_per_element(t.precision))) +
                        " bytes x (reduce_bucket_size + allgather_bucket_size) x 4.5",
                    "use 2e8 buckets (" + format_fixed(buffer_bytes(ModelSpec{}, t, recommended).buckets / 1e9, 1) +
                        " GB) or turn overlap_comm off if this GPU runs out of memory");
        }
        if ((st == 2 || st == 3) && !setup.overlap_comm)
            add(Severity::Warning, "zero_optimization.overlap_comm",
                "overlap_comm is off: gradient communication waits for the backward pass instead of running beside it",
                "set \"overlap_comm\": true");
        for (const char* key : {"reduce_bucket_size", "allgather_bucket_size", "stage3_prefetch_bucket_size"})
            if (z.contains(key) && z.at(key).is_number() && z.at(key).get<double>() > 0 && z.at(key).get<double>() < kSmallBucketElems)
                add(Severity::Warning, std::string("zero_optimization.") + key,
                    std::string(key) + " " + z.at(key).dump() + " is so small that communication is serialised into many tiny collectives",
                    "use at least 5e7 elements");
        // pin_memory defaults to true since v0.19.5 (zero/offload_config.py, 7dfa67aea; false up to
        // v0.19.4): only a block that turns it off is slow at HEAD.
        for (const char* sub : {"offload_param", "offload_optimizer"})
            if (z.contains(sub) && z.at(sub).is_object() && z.at(sub).contains("device") && z.at(sub).at("device") != "none" &&
                z.at(sub).contains("pin_memory") && ds_schema::lax_boolean(z.at(sub).at("pin_memory")) == false)
                add(Severity::Warning, std::string("zero_optimization.") + sub + ".pin_memory",
                    "pin_memory is off: offload copies go through pageable memory at a fraction of PCIe speed", "set \"pin_memory\": true");
    }

    // Fine-tuning combinations the config alone cannot show. QLoRA under ZeRO-3: bitsandbytes packs
    // the 4-bit weights into tensors of bnb_4bit_quant_storage, and ZeRO-3 flattens and partitions
    // them with the other parameters, which must share one dtype: PEFT's DeepSpeed guide
    // (docs/source/accelerate/deepspeed.md, "QLoRA with DeepSpeed ZeRO3") sets the storage to the
    // compute dtype, bf16 with a bf16 config (trainable_params.cpp resolved_quant_storage).
    void check_finetune() {
        if (!finetune_ || finetune_->method != FineTuneMethod::Qlora || stage() != 3) return;
        const BasePrecision base = finetune_->base_precision;
        if (base != BasePrecision::Nf4 && base != BasePrecision::Fp4 && base != BasePrecision::Auto) return;
        // "enabled": "auto" (a Trainer config): the Trainer sets it from --bf16 / --fp16
        // (integrations/deepspeed.py trainer_config_process), so the compute dtype is not in the file.
        const auto automatic = [&](const char* key) {
            return j_.contains(key) && j_.at(key).is_object() && j_.at(key).value("enabled", json()) == json("auto");
        };
        if (automatic("bf16") || automatic("fp16")) return;
        const Precision compute = ds_schema::block_enabled(j_, "bf16")   ? Precision::Bf16
                                  : ds_schema::block_enabled(j_, "fp16") ? Precision::Fp16
                                                                         : Precision::Fp32;
        const QuantStorage storage = resolved_quant_storage(*finetune_, true, compute);
        const QuantStorage wanted = resolved_quant_storage(FineTune{}, true, compute);
        if (storage == wanted) return;
        add(Severity::Warning, "zero_optimization.stage",
            std::string("QLoRA under ZeRO-3 with bnb_4bit_quant_storage ") + to_string(storage) + ", not the compute dtype " +
                to_string(wanted) + ": ZeRO-3 partitions the packed 4-bit weights with the other parameters, which need one dtype",
            std::string("set bnb_4bit_quant_storage=torch.") +
                (wanted == QuantStorage::Bf16   ? "bfloat16"
                 : wanted == QuantStorage::Fp16 ? "float16"
                                                : "float32") +
                " in BitsAndBytesConfig (PEFT's DeepSpeed guide)");
    }

    const json& j_;
    std::optional<std::int64_t> world_;
    std::optional<FineTune> finetune_;
    LintContext ctx_;
    std::optional<std::int64_t> batch_ranks_;  // world / sequence_parallel_size when the config has a valid one
    bool auto_batch_ = false;
    bool unreadable_batch_ = false;
};

}  // namespace

// DeepSpeed-Ulysses against the model (LintContext), the rules validate_ulysses applies to a plan.
// runtime/sequence_parallel/ulysses_sp.py UlyssesSPAttentionHF raises "Attention head count ... is
// not divisible by SP size" and "KV attention head count ... is not divisible by SP size ... or vice
// versa"; deepspeed/sequence/layer.py DistributedAttention (Megatron-DeepSpeed) instead falls back to
// uneven_heads_all2all when the heads do not divide, provided "Number of heads ... must be larger than
// sequence parallel size", synchronously. UlyssesSPDataLoaderAdapter: "batch's seqlen=... isn't
// divisible by sp-size".
void check_ulysses_against_model(std::int64_t sp, const LintContext& ctx, const std::string& path, const std::string& key,
                                 std::vector<Diagnostic>& out) {
    const std::string name = key + " " + std::to_string(sp);
    const auto add = [&](std::string message, std::string suggestion) {
        out.push_back({Severity::Error, path, std::move(message), std::move(suggestion)});
    };
    if (ctx.heads && *ctx.heads > 0 && *ctx.heads % sp != 0) {
        if (*ctx.heads <= sp)
            add(name + " is not below the " + std::to_string(*ctx.heads) +
                    " attention heads: each rank attends with heads/SP of them (DeepSpeed's Ulysses attention refuses it)",
                "use a divisor of the heads");
        else
            add(name + " does not divide the " + std::to_string(*ctx.heads) +
                    " attention heads: ulysses_sp.py raises \"Attention head count ... is not divisible by SP size\" (Megatron-DeepSpeed's "
                    "DistributedAttention runs uneven heads, synchronously)",
                "use a divisor of the heads");
    }
    if (ctx.kv_heads && *ctx.kv_heads > 0 && *ctx.kv_heads % sp != 0 && sp % *ctx.kv_heads != 0)
        add(name + " and the " + std::to_string(*ctx.kv_heads) +
                " key/value heads: one must divide the other (ulysses_sp.py: \"KV attention head count ... is not divisible by SP size ... "
                "or vice versa\")",
            "use a divisor or a multiple of the key/value heads");
    if (ctx.seq_len && *ctx.seq_len > 0 && *ctx.seq_len % sp != 0)
        add(name + " does not divide the sequence length " + std::to_string(*ctx.seq_len) +
                ": each rank holds seq/SP tokens (ulysses_sp.py: \"batch's seqlen=... isn't divisible by sp-size\")",
            "pad the sequence to a multiple of " + std::to_string(sp));
}

LintContext lint_context_of(const Scenario& s) {
    return {s.cluster.gpus_per_node,       s.model.heads, s.model.kv_heads, s.training.seq_len, s.model.family,
            largest_layer_params(s.model), s.model.hidden};
}

std::string nearest_key(const std::string& key, const std::vector<std::string>& candidates) {
    // Config keys are long snake_case names: allow three typos, or a third of a longer key.
    return closest_name(key, candidates, std::max<std::size_t>(3, key.size() / 3)).value_or(std::string());
}

namespace {

// Comments and trailing commas: DeepSpeed's hjson reader skips them (deepspeed/runtime/config.py,
// DeepSpeedConfig), the Trainer's and Accelerate's json.load stops at them (accelerate/utils/deepspeed.py,
// HfDeepSpeedConfig, which transformers' `--deepspeed` builds).
std::string json_extras_message(const JsonExtras& x) {
    std::string what;
    const auto counted = [](std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
    if (x.comments > 0) what = counted(x.comments, "comment", "comments");
    if (x.trailing_commas > 0) what += (what.empty() ? "" : " and ") + counted(x.trailing_commas, "trailing comma", "trailing commas");
    return what + " (the first at line " + std::to_string(x.first.line) + ", column " + std::to_string(x.first.column) +
           "): DeepSpeed's own reader (hjson) skips them, but transformers' Trainer (--deepspeed) and Accelerate read the file "
           "with json.load and stop at them";
}
constexpr const char* json_extras_suggestion = "remove them if the file goes to the Trainer or Accelerate";

}  // namespace

LintResult lint_ds_config(std::string_view text, std::optional<std::int64_t> world_size, const std::string& source_name,
                          const std::optional<FineTune>& finetune, const LintContext& context) {
    const JsonExtras plain = blank_comments_and_trailing_commas(text);
    const json parsed = parse_json_text(plain.json, source_name);
    // The deprecated boolean zero_optimization is checked as the block DeepSpeed reads it as.
    const json j = ds_schema::with_zero_block(parsed);
    Linter linter(j, world_size, finetune, context);
    if (ds_schema::zero_block_is_boolean(parsed))
        linter.add(
            Severity::Warning, "zero_optimization",
            std::string("\"zero_optimization\": ") + (parsed.at("zero_optimization").get<bool>() ? "true" : "false") +
                " is DeepSpeed's deprecated form (runtime/zero/config.py read_zero_config_deprecated): read as stage " +
                (parsed.at("zero_optimization").get<bool>() ? "1 with allgather_bucket_size from the top-level allgather_size" : "0") +
                "; transformers' Trainer and Accelerate stop at it (HfDeepSpeedConfig reads zero_optimization.stage with dict.get: "
                "AttributeError)",
            std::string("write \"zero_optimization\": {\"stage\": ") +
                (parsed.at("zero_optimization").get<bool>()
                     ? "1, \"allgather_bucket_size\": " + j.at("/zero_optimization/allgather_bucket_size"_json_pointer).dump() + "}"
                     : std::string("0}")));
    if (plain.count() > 0) linter.add(Severity::Warning, "", json_extras_message(plain), json_extras_suggestion);
    // A UTF-8 byte-order mark: hjson (DeepSpeed) and the planner read past it; json.load refuses it
    // ("Unexpected UTF-8 BOM (decode using utf-8-sig)", Python's json/__init__.py loads).
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        linter.add(Severity::Warning, "",
                   "the file starts with a UTF-8 byte-order mark: DeepSpeed's own reader takes it, but transformers' Trainer "
                   "(--deepspeed) and Accelerate read the file with json.load, which refuses it (\"Unexpected UTF-8 BOM\")",
                   "save the file as UTF-8 without a BOM");
    DuplicateFinder dup;
    json::sax_parse(plain.json.begin(), plain.json.end(), &dup);
    for (const std::string& path : dup.duplicates)
        linter.add(Severity::Error, path, "duplicate key '" + path + "': DeepSpeed rejects configs with duplicate keys",
                   "keep one of them");
    linter.run();
    return linter.out;
}

nlohmann::json diagnostics_json(const LintResult& r) {
    json a = json::array();
    for (const Diagnostic& d : r.diagnostics)
        a.push_back({{"severity", to_string(d.severity)}, {"path", d.path}, {"message", d.message}, {"suggestion", d.suggestion}});
    return a;
}

}  // namespace zp
