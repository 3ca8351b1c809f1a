#include "core/deepspeed/fsdp_lint.h"

#include "core/base/errors.h"
#include "core/deepspeed/config_schema.h"
#include "core/deepspeed/fsdp_export.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zp {

namespace {

// The values each key takes, as Accelerate spells them (accelerate/utils/constants.py and the
// FullyShardedDataParallelPlugin fields in utils/dataclasses.py; FSDP1 only where marked).
constexpr std::array<std::string_view, 5> kStrategies{"FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2"};
constexpr std::array<std::string_view, 3> kWrapPolicies{"TRANSFORMER_BASED_WRAP", "SIZE_BASED_WRAP", "NO_WRAP"};
constexpr std::array<std::string_view, 3> kBackwardPrefetch{"BACKWARD_PRE", "BACKWARD_POST", "NO_PREFETCH"};
constexpr std::array<std::string_view, 3> kStateDictTypes{"FULL_STATE_DICT", "LOCAL_STATE_DICT", "SHARDED_STATE_DICT"};

enum class Kind { Bool, Strategy, WrapPolicy, BackwardPrefetch, StateDict, Version, ReshardAfterForward, Text, Count };
struct KeyRule {
    std::string_view key;
    Kind kind;
    bool fsdp1_only;
};
constexpr std::array<KeyRule, 16> kKeys{{
    {"fsdp_version", Kind::Version, false},
    {"fsdp_sharding_strategy", Kind::Strategy, true},
    {"fsdp_reshard_after_forward", Kind::ReshardAfterForward, false},
    {"fsdp_offload_params", Kind::Bool, false},
    {"fsdp_auto_wrap_policy", Kind::WrapPolicy, false},
    {"fsdp_transformer_layer_cls_to_wrap", Kind::Text, false},
    {"fsdp_min_num_params", Kind::Count, false},
    {"fsdp_backward_prefetch", Kind::BackwardPrefetch, true},
    {"fsdp_backward_prefetch_policy", Kind::BackwardPrefetch, true},
    {"fsdp_forward_prefetch", Kind::Bool, true},
    {"fsdp_state_dict_type", Kind::StateDict, false},
    {"fsdp_use_orig_params", Kind::Bool, true},
    {"fsdp_sync_module_states", Kind::Bool, true},
    {"fsdp_cpu_ram_efficient_loading", Kind::Bool, false},
    {"fsdp_activation_checkpointing", Kind::Bool, false},
    {"fsdp_ignored_modules", Kind::Text, false},
}};

template <std::size_t N>
std::string one_of(const std::array<std::string_view, N>& names) {
    std::string out;
    for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out;
}

template <std::size_t N>
bool in(const std::array<std::string_view, N>& names, const std::string& v) {
    return std::find(names.begin(), names.end(), v) != names.end();
}

bool is_bool(const YAML::Node& n) {
    if (!n.IsScalar()) return false;
    bool b = false;
    return YAML::convert<bool>::decode(n, b);
}

YAML::Node parse_yaml(std::string_view text, const std::string& source_name) {
    try {
        return YAML::Load(std::string(text));
    } catch (const YAML::ParserException& e) {
        throw InputError(source_name + ": invalid YAML at line " + std::to_string(e.mark.line + 1) + ", column " +
                         std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
}

// parallelism_config: the launcher's --parallelism_config_* arguments (commands/launch.py), which
// utils/launch.py prepare_extend_env_parallelism_config hands to ParallelismConfig.
constexpr std::array<std::string_view, 11> kParallelismKeys{"parallelism_config_dp_replicate_size",
                                                            "parallelism_config_dp_shard_size",
                                                            "parallelism_config_tp_size",
                                                            "parallelism_config_cp_size",
                                                            "parallelism_config_cp_backend",
                                                            "parallelism_config_cp_comm_strategy",
                                                            "parallelism_config_sp_size",
                                                            "parallelism_config_sp_backend",
                                                            "parallelism_config_sp_seq_length",
                                                            "parallelism_config_sp_seq_length_is_variable",
                                                            "parallelism_config_sp_attn_implementation"};
template <std::size_t N>
std::vector<std::string> names_of(const std::array<std::string_view, N>& names) {
    return {names.begin(), names.end()};
}

std::optional<std::int64_t> whole_number(const YAML::Node& n) {
    if (!n || !n.IsScalar()) return std::nullopt;
    const std::string& t = n.Scalar();
    if (t.empty() || t.size() > 15 || !std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
    return std::stoll(t);
}

// parallelism_config's keys, each one the launcher reads; `p` is the block (a map is checked by the caller).
void check_parallelism_keys(const YAML::Node& p, std::vector<Diagnostic>& out) {
    for (const auto& kv : p) {
        const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
        if (in(kParallelismKeys, key)) continue;
        // The ParallelismConfig field name without the launcher's prefix (sp_size) is the usual slip.
        std::string near = in(kParallelismKeys, "parallelism_config_" + key) ? "parallelism_config_" + key : std::string();
        if (near.empty()) near = nearest_key(key, names_of(kParallelismKeys));
        out.push_back({Severity::Error, "parallelism_config." + key,
                       "unknown key: Accelerate's launcher does not read it (commands/launch.py)",
                       near.empty() ? "" : "did you mean '" + near + "'?"});
    }
}

// The parallelism_config block of `top` when there is one and it is a map, its keys checked; a
// block that is not a map is said, and nothing returned.
std::optional<YAML::Node> parallelism_block(const YAML::Node& top, std::vector<Diagnostic>& out) {
    const YAML::Node p = top["parallelism_config"];
    if (!p) return std::nullopt;
    if (!p.IsMap()) {
        out.push_back({Severity::Error, "parallelism_config", "must be a map of parallelism_config_* keys", ""});
        return std::nullopt;
    }
    check_parallelism_keys(p, out);
    return p;
}

class FsdpLinter {
public:
    FsdpLinter(const YAML::Node& fsdp, const LintContext& context) : fsdp_(fsdp), context_(context) {}

    LintResult run(const YAML::Node& top) {
        const std::string type = top["distributed_type"] && top["distributed_type"].IsScalar() ? top["distributed_type"].Scalar() : "";
        if (type != "FSDP")
            add(Severity::Error, "distributed_type",
                type.empty() ? "is missing: Accelerate reads fsdp_config only with distributed_type: FSDP"
                             : "is " + type + ": Accelerate reads fsdp_config only with distributed_type: FSDP",
                "distributed_type: FSDP");
        if (!fsdp_ || !fsdp_.IsMap()) {
            add(Severity::Error, "fsdp_config", "is missing or not a map: FSDP runs with every default (FULL_SHARD, no auto wrap)", "");
            return result_;
        }
        version_ = 1;
        if (const YAML::Node v = fsdp_["fsdp_version"]; v && v.IsScalar() && (v.Scalar() == "2")) version_ = 2;
        for (const auto& kv : fsdp_) check_key(kv.first.IsScalar() ? kv.first.Scalar() : std::string("?"), kv.second);
        check_combinations();
        check_parallelism(top);
        return result_;
    }

private:
    void add(Severity s, const std::string& path, const std::string& message, const std::string& suggestion) {
        result_.diagnostics.push_back({s, path, message, suggestion});
    }

    void check_key(const std::string& key, const YAML::Node& v) {
        const std::string path = "fsdp_config." + key;
        const auto rule = std::find_if(kKeys.begin(), kKeys.end(), [&](const KeyRule& r) { return r.key == key; });
        if (rule == kKeys.end()) {
            std::vector<std::string> names;
            for (const KeyRule& r : kKeys) names.emplace_back(r.key);
            const std::string near = nearest_key(key, names);
            add(Severity::Error, path, "unknown key: Accelerate does not read it", near.empty() ? "" : "did you mean '" + near + "'?");
            return;
        }
        if (rule->fsdp1_only && version_ == 2)
            add(Severity::Warning, path, "FSDP1 only: fsdp_version 2 (fully_shard) does not read it", "remove it");
        if (key == "fsdp_backward_prefetch_policy")
            add(Severity::Warning, path, "the old name of fsdp_backward_prefetch", "rename it fsdp_backward_prefetch");
        const std::string text = v.IsScalar() ? v.Scalar() : std::string();
        switch (rule->kind) {
        case Kind::Bool:
            if (!is_bool(v)) add(Severity::Error, path, "must be true or false, got '" + text + "'", "");
            break;
        case Kind::Strategy: check_strategy(path, v); break;
        case Kind::WrapPolicy:
            if (!in(kWrapPolicies, text))
                add(Severity::Error, path, "must be one of " + one_of(kWrapPolicies) + ", got '" + text + "'", "");
            break;
        case Kind::BackwardPrefetch:
            if (!in(kBackwardPrefetch, text))
                add(Severity::Error, path, "must be one of " + one_of(kBackwardPrefetch) + ", got '" + text + "'", "");
            break;
        case Kind::StateDict:
            if (!in(kStateDictTypes, text) || (version_ == 2 && text == "LOCAL_STATE_DICT"))
                add(Severity::Error, path,
                    "must be one of " +
                        (version_ == 2 ? std::string("FULL_STATE_DICT, SHARDED_STATE_DICT (fsdp_version 2)") : one_of(kStateDictTypes)) +
                        ", got '" + text + "'",
                    "");
            break;
        case Kind::Version:
            if (text != "1" && text != "2") add(Severity::Error, path, "must be 1 or 2, got '" + text + "'", "");
            break;
        case Kind::ReshardAfterForward:
            // FSDP2: a boolean (fully_shard's reshard_after_forward); FSDP1: a strategy name.
            if (version_ == 2) {
                if (!is_bool(v)) add(Severity::Error, path, "must be true or false under fsdp_version 2, got '" + text + "'", "");
            } else {
                check_strategy(path, v);
            }
            break;
        case Kind::Count: {
            bool ok = v.IsScalar() && !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
            if (!ok) add(Severity::Error, path, "must be a whole number of parameters, got '" + text + "'", "");
            break;
        }
        case Kind::Text:
            if (!v.IsScalar()) add(Severity::Error, path, "must be text (comma-separated class names)", "");
            else if (key == "fsdp_transformer_layer_cls_to_wrap") check_layer_class(path, text);
            break;
        }
    }

    void check_strategy(const std::string& path, const YAML::Node& v) {
        const std::string text = v.IsScalar() ? v.Scalar() : std::string();
        // Accelerate takes the name or its 1-based index in FSDP_SHARDING_STRATEGY.
        if (in(kStrategies, text)) return;
        if (text.size() == 1 && text[0] >= '1' && text[0] <= '5') return;
        add(Severity::Error, path, "must be one of " + one_of(kStrategies) + " (or 1-5), got '" + text + "'", "");
    }

    void check_layer_class(const std::string& path, const std::string& text) {
        if (!context_.model_family) return;
        const std::string expected = fsdp_layer_class(*context_.model_family);
        if (expected.empty()) return;
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t end = std::min(text.find(',', start), text.size());
            std::string name = text.substr(start, end - start);
            name.erase(0, name.find_first_not_of(' '));
            name.erase(name.find_last_not_of(' ') + 1);
            start = end + 1;
            if (name.empty() || name == expected) continue;
            add(Severity::Error, path,
                "'" + name + "' is not a layer class of the model (" + *context_.model_family +
                    "): FSDP wraps nothing by it and the whole model "
                    "becomes one unit, gathered whole",
                "fsdp_transformer_layer_cls_to_wrap: " + expected);
        }
    }

    void check_combinations() {
        const YAML::Node ram = fsdp_["fsdp_cpu_ram_efficient_loading"], sync = fsdp_["fsdp_sync_module_states"];
        if (version_ == 1 && ram && is_bool(ram) && ram.as<bool>() && sync && is_bool(sync) && !sync.as<bool>())
            add(Severity::Warning, "fsdp_config.fsdp_sync_module_states",
                "false with fsdp_cpu_ram_efficient_loading: only rank 0 loads the weights, the others must receive them", "set it true");
        const YAML::Node policy = fsdp_["fsdp_auto_wrap_policy"];
        if (policy && policy.IsScalar() && policy.Scalar() == "TRANSFORMER_BASED_WRAP" && !fsdp_["fsdp_transformer_layer_cls_to_wrap"])
            add(Severity::Info, "fsdp_config.fsdp_transformer_layer_cls_to_wrap",
                "not given: Accelerate wraps the model's _no_split_modules (transformers models only)", "");
        // torch's _init_process_group_state: a hybrid strategy without an auto wrap policy raises
        // "Manual wrapping with ... requires explicit specification of process group or device_mesh".
        const YAML::Node strategy = fsdp_["fsdp_sharding_strategy"];
        const bool hybrid = strategy && strategy.IsScalar() && strategy.Scalar().rfind("HYBRID_SHARD", 0) == 0;
        if (version_ == 1 && hybrid && policy && policy.IsScalar() && policy.Scalar() == "NO_WRAP")
            add(Severity::Error, "fsdp_config.fsdp_auto_wrap_policy",
                "NO_WRAP with " + strategy.Scalar() +
                    ": PyTorch raises \"Manual wrapping with ... requires explicit specification of process group or device_mesh\" "
                    "(_init_utils.py _init_process_group_state)",
                "fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP");
    }

    // parallelism_config beside FSDP (Accelerate's parallelism_config.py _validate_accelerator): a mesh
    // of more than one rank runs with FSDP2 only ("ParallelismConfig is only compatible
    // DistributedType.FSDP (version 2) ..."), and its sizes must multiply to num_processes.
    void check_parallelism(const YAML::Node& top) {
        const std::optional<YAML::Node> block = parallelism_block(top, result_.diagnostics);
        if (!block) return;
        const YAML::Node& p = *block;
        if (version_ == 1)
            add(Severity::Error, "parallelism_config",
                "with fsdp_version 1: Accelerate raises \"ParallelismConfig is only compatible DistributedType.FSDP (version 2) ...\"",
                "fsdp_version: 2 for a (replicate, shard) mesh, or fsdp_sharding_strategy: HYBRID_SHARD under FSDP1");
        std::int64_t product = 1;
        for (const char* key : {"parallelism_config_dp_replicate_size", "parallelism_config_dp_shard_size", "parallelism_config_tp_size",
                                "parallelism_config_cp_size", "parallelism_config_sp_size"}) {
            const YAML::Node v = p[key];
            if (!v) continue;
            const auto n = whole_number(v);
            if (!n || *n < 1) {
                add(Severity::Error, std::string("parallelism_config.") + key, "must be a whole number of at least 1", "");
                return;
            }
            product *= *n;
        }
        const auto processes = whole_number(top["num_processes"]);
        if (processes && *processes >= 1 && product != *processes)
            add(Severity::Error, "parallelism_config",
                "the sizes multiply to " + std::to_string(product) + ", not num_processes " + std::to_string(*processes) +
                    ": Accelerate raises \"ParallelismConfig total_size (" + std::to_string(product) + ") does not match num_processes (" +
                    std::to_string(*processes) + ")\"",
                "make dp_replicate_size x dp_shard_size (x tp, cp, sp) = " + std::to_string(*processes));
    }

    YAML::Node fsdp_;
    const LintContext& context_;
    int version_ = 1;
    LintResult result_;
};

// The deepspeed_config keys Accelerate's launcher reads (commands/launch.py, its DeepSpeed arguments);
// any other is copied onto the arguments and read by nothing.
constexpr std::array<std::string_view, 15> kDeepSpeedKeys{"deepspeed_config_file",
                                                          "zero_stage",
                                                          "offload_optimizer_device",
                                                          "offload_param_device",
                                                          "offload_optimizer_nvme_path",
                                                          "offload_param_nvme_path",
                                                          "gradient_accumulation_steps",
                                                          "gradient_clipping",
                                                          "zero3_init_flag",
                                                          "zero3_save_16bit_model",
                                                          "deepspeed_hostfile",
                                                          "deepspeed_exclusion_filter",
                                                          "deepspeed_inclusion_filter",
                                                          "deepspeed_multinode_launcher",
                                                          "deepspeed_moe_layer_cls_names"};
// Beside deepspeed_config_file Accelerate raises "When using `deepspeed_config_file`, the following
// accelerate config variables will be ignored" for these (utils/dataclasses.py
// DeepSpeedPlugin._deepspeed_config_checks), and for a mixed_precision in the file.
constexpr std::array<std::string_view, 8> kFileConflicts{"gradient_accumulation_steps", "gradient_clipping",     "zero_stage",
                                                         "offload_optimizer_device",    "offload_param_device",  "offload_param_nvme_path",
                                                         "offload_optimizer_nvme_path", "zero3_save_16bit_model"};
constexpr std::array<std::string_view, 3> kOffloadDevices{"none", "cpu", "nvme"};
constexpr std::array<std::string_view, 7> kMultinodeLaunchers{"pdsh", "standard", "openmpi", "mvapich", "mpich", "nossh", "slurm"};
// DeepSpeedSequenceParallelConfig (utils/dataclasses.py) and Accelerate's sequence_parallelism.md:
// "sp_attn_implementation is one of sdpa, flash_attention_2 or flash_attention_3"; "eager can't work here".
constexpr std::array<std::string_view, 3> kSpAttention{"sdpa", "flash_attention_2", "flash_attention_3"};

// An Accelerate config for DeepSpeed (distributed_type DEEPSPEED): its deepspeed_config block as the
// launcher reads it and its parallelism_config as Accelerator.prepare runs DeepSpeed-Ulysses with it.
class DeepSpeedAccelerateLinter {
public:
    DeepSpeedAccelerateLinter(const YAML::Node& top, const LintContext& context) : top_(top), context_(context) {}

    LintResult run() {
        const std::string type = scalar(top_["distributed_type"]);
        if (type != "DEEPSPEED")
            add(Severity::Error, "distributed_type",
                (type.empty() ? std::string("is missing") : "is " + type) +
                    ": Accelerate reads deepspeed_config only with distributed_type: DEEPSPEED",
                "distributed_type: DEEPSPEED");
        check_deepspeed_block();
        check_parallelism();
        return result_;
    }

private:
    static std::string scalar(const YAML::Node& n) { return n && n.IsScalar() ? n.Scalar() : std::string(); }
    // A value as a message shows it: its text, or what it is instead.
    static std::string shown(const YAML::Node& n) {
        return !n || n.IsNull() ? "nothing" : n.IsScalar() ? "'" + n.Scalar() + "'" : n.IsSequence() ? "a list" : "a map";
    }
    static std::string key_of(const YAML::Node& k) { return k.IsScalar() ? k.Scalar() : std::string("?"); }

    void add(Severity s, const std::string& path, const std::string& message, const std::string& suggestion) {
        result_.diagnostics.push_back({s, path, message, suggestion});
    }

    void check_deepspeed_block() {
        const YAML::Node ds = top_["deepspeed_config"];
        if (!ds || !ds.IsMap()) return;  // Accelerate's own defaults (ZeRO-2 in `accelerate config`)
        const bool file = ds["deepspeed_config_file"].IsDefined() && scalar(ds["deepspeed_config_file"]) != "none";
        for (const auto& kv : ds) {
            const std::string key = key_of(kv.first), path = "deepspeed_config." + key;
            const std::string text = scalar(kv.second);
            if (!in(kDeepSpeedKeys, key)) {
                const auto& top_keys = ds_schema::top_level_keys();
                if (std::find(top_keys.begin(), top_keys.end(), key) != top_keys.end())
                    add(Severity::Error, path, "a ds_config key: Accelerate's launcher does not read it here, so DeepSpeed never sees it",
                        file ? "move \"" + key + "\" into " + scalar(ds["deepspeed_config_file"])
                             : "write it in a ds_config.json and point deepspeed_config_file at it");
                else {
                    const std::string near = nearest_key(key, names_of(kDeepSpeedKeys));
                    add(Severity::Error, path, "unknown key: Accelerate does not read it",
                        near.empty() ? "" : "did you mean '" + near + "'?");
                }
                continue;
            }
            if (file && in(kFileConflicts, key))
                add(Severity::Error, path,
                    "beside deepspeed_config_file Accelerate raises \"When using `deepspeed_config_file`, the following accelerate config "
                    "variables will be ignored\" (DeepSpeedPlugin._deepspeed_config_checks)",
                    "remove it and set it in the ds_config file");
            if (key == "zero_stage" && (text.size() != 1 || text[0] < '0' || text[0] > '3'))
                add(Severity::Error, path, "must be 0, 1, 2 or 3, got " + shown(kv.second), "");
            else if ((key == "offload_optimizer_device" || key == "offload_param_device") && !in(kOffloadDevices, text))
                add(Severity::Error, path, "must be one of " + one_of(kOffloadDevices) + ", got " + shown(kv.second), "");
            else if ((key == "zero3_init_flag" || key == "zero3_save_16bit_model") && !is_bool(kv.second))
                add(Severity::Error, path, "must be true or false, got " + shown(kv.second), "");
            else if (key == "gradient_accumulation_steps" && whole_number(kv.second).value_or(0) < 1)
                add(Severity::Error, path, "must be a whole number of at least 1, got " + shown(kv.second), "");
            else if (key == "deepspeed_multinode_launcher" && !in(kMultinodeLaunchers, text))
                add(Severity::Error, path, "must be one of " + one_of(kMultinodeLaunchers) + ", got " + shown(kv.second), "");
        }
        if (file && top_["mixed_precision"] && !top_["mixed_precision"].IsNull())
            add(Severity::Error, "mixed_precision",
                "beside deepspeed_config_file Accelerate raises \"When using `deepspeed_config_file`, the following accelerate config "
                "variables will be ignored\" for mixed_precision too (the ds_config's bf16/fp16 block decides)",
                "remove mixed_precision");
    }

    // A size of the parallelism_config: a whole number of at least 1, 1 when missing (the launcher's default).
    std::int64_t size(const YAML::Node& p, const char* key) {
        const YAML::Node v = p[key];
        if (!v) return 1;
        const auto n = whole_number(v);
        if (!n || *n < 1) {
            add(Severity::Error, std::string("parallelism_config.") + key, "must be a whole number of at least 1, got " + shown(v), "");
            return 0;
        }
        return *n;
    }

    void check_parallelism() {
        const std::optional<YAML::Node> block = parallelism_block(top_, result_.diagnostics);
        if (!block) return;
        const YAML::Node& p = *block;
        const std::int64_t sp = size(p, "parallelism_config_sp_size");
        const std::int64_t replicate = size(p, "parallelism_config_dp_replicate_size"), shard = size(p, "parallelism_config_dp_shard_size");
        const std::int64_t tp = size(p, "parallelism_config_tp_size"), cp = size(p, "parallelism_config_cp_size");
        if (sp == 1) {
            add(Severity::Warning, "parallelism_config.parallelism_config_sp_size",
                std::string(p["parallelism_config_sp_size"] ? "is 1" : "is not given (1)") +
                    ": Accelerate runs DeepSpeed without sequence parallelism and this block has no effect (accelerator.py wires "
                    "DeepSpeed-Ulysses only for sp_size above 1)",
                "set parallelism_config_sp_size to the sequence-parallel degree, or remove parallelism_config");
            return;
        }
        check_sp_backend(p);
        check_sp_attention(p);
        if (sp < 1) return;  // its error above; the checks below divide by it
        check_sp_sequence(p, sp);
        if (cp > 1)
            add(Severity::Error, "parallelism_config.parallelism_config_cp_size",
                "ParallelismConfig raises \"Context Parallelism (CP) and Sequence Parallelism (SP) are mutually exclusive\"",
                "set parallelism_config_cp_size 1");
        check_product(replicate, shard, tp, cp, sp);
        check_ulysses_against_model(sp, context_, "parallelism_config.parallelism_config_sp_size", "parallelism_config_sp_size",
                                    result_.diagnostics);
        // Accelerate's sequence_parallelism.md: "tested to work with DeepSpeed ZeRO stage 2 and 3".
        const YAML::Node ds = top_["deepspeed_config"];
        const YAML::Node stage = ds && ds.IsMap() ? ds["zero_stage"] : YAML::Node();
        if (const std::string st = scalar(stage); st == "0" || st == "1")
            add(Severity::Warning, "deepspeed_config.zero_stage",
                "ZeRO stage " + st +
                    " with sequence parallelism: Accelerate's sequence_parallelism.md says it \"has been tested to work with "
                    "DeepSpeed ZeRO stage 2 and 3\"",
                "use zero_stage 2 or 3");
        if (ds && ds.IsMap() && !ds["deepspeed_config_file"])
            add(Severity::Info, "deepspeed_config.deepspeed_config_file",
                "not given: Accelerate builds the ds_config from the keys here, without seq_parallel_communication_data_type, so a bf16 "
                "run reduces its gradients in fp32 (DeepSpeed's default with sequence parallelism)",
                "point deepspeed_config_file at a ds_config.json with \"seq_parallel_communication_data_type\": \"bf16\"");
    }

    void check_sp_backend(const YAML::Node& p) {
        const YAML::Node v = p["parallelism_config_sp_backend"];
        if (!v || scalar(v) == "deepspeed") return;  // the launcher's default is deepspeed
        add(Severity::Error, "parallelism_config.parallelism_config_sp_backend",
            "is " + shown(v) +
                ": with DeepSpeed, sequence parallelism runs only on sp_backend deepspeed (ParallelismConfig: \"sp_backend must be one of "
                "['deepspeed']\"; accelerator.py refuses another with sp_size above 1)",
            "parallelism_config_sp_backend: deepspeed");
    }

    void check_sp_attention(const YAML::Node& p) {
        const YAML::Node v = p["parallelism_config_sp_attn_implementation"];
        const std::string path = "parallelism_config.parallelism_config_sp_attn_implementation", text = scalar(v);
        if (!v) {
            add(Severity::Info, path, "not given: the launcher passes sdpa, which attends across samples packed into one sequence",
                "parallelism_config_sp_attn_implementation: flash_attention_2");
            return;
        }
        if (in(kSpAttention, text)) return;
        if (text == "eager" || text == "flex_attention") {
            add(Severity::Error, path,
                "is " + text +
                    ": Ulysses passes position_ids, not an attention mask, so \"eager can't work here\" (Accelerate's "
                    "sequence_parallelism.md; DeepSpeedSequenceParallelConfig refuses eager and flex_attention)",
                "use flash_attention_2 or flash_attention_3 (sdpa only for samples not packed together)");
            return;
        }
        // Hub-hosted FlashAttention kernels, accepted since Accelerate 1.14 (PR #3959, "allow kernels flash-attn").
        if (text.find('/') != std::string::npos && text.find("flash-attn") != std::string::npos) {
            add(Severity::Warning, path,
                "a hub-hosted kernel ('" + text +
                    "'): Accelerate accepts it from 1.14 on; 1.12 and 1.13 raise \"Invalid sp_attn_implementation\"",
                "use accelerate>=1.14, or flash_attention_2");
            return;
        }
        add(Severity::Error, path,
            "must be one of " + one_of(kSpAttention) + " (or a hub-hosted flash-attn kernel), got " + shown(v) +
                ": DeepSpeedSequenceParallelConfig raises \"Invalid sp_attn_implementation\"",
            "parallelism_config_sp_attn_implementation: flash_attention_2");
    }

    // DeepSpeedSequenceParallelConfig: a fixed length (sp_seq_length_is_variable false) needs
    // sp_seq_length, which DeepSpeed's UlyssesSPAttentionHF splits SP ways (the ALST tutorial: "it has to
    // be divisible by sequence_parallel_size").
    void check_sp_sequence(const YAML::Node& p, std::int64_t sp) {
        const YAML::Node variable = p["parallelism_config_sp_seq_length_is_variable"], length = p["parallelism_config_sp_seq_length"];
        const std::string path = "parallelism_config.parallelism_config_sp_seq_length";
        if (variable && !is_bool(variable))
            add(Severity::Error, "parallelism_config.parallelism_config_sp_seq_length_is_variable",
                "must be true or false, got " + shown(variable), "");
        const bool fixed = variable && is_bool(variable) && !variable.as<bool>();
        const auto n = whole_number(length);
        if (fixed && !n)
            add(Severity::Error, path,
                "a fixed sequence length (sp_seq_length_is_variable false) needs parallelism_config_sp_seq_length (DeepSpeed's "
                "UlyssesSPAttentionHF shapes its buffers by it)",
                "give the padded sequence length, or set parallelism_config_sp_seq_length_is_variable: true");
        else if (n && *n % sp != 0)
            add(Severity::Error, path,
                "sp_seq_length " + std::to_string(*n) + " is not a multiple of sp_size " + std::to_string(sp) +
                    " (DeepSpeed's ALST tutorial: \"it has to be divisible by sequence_parallel_size\")",
                "pad to " + std::to_string((*n + sp - 1) / sp * sp));
    }

    // Accelerate's sequence_parallelism.md: "You must ensure dp_replicate_size x dp_shard_size x sp_size
    // = num_processes"; num_processes is every machine's processes (commands/launch.py: "The total
    // number of processes to be launched in parallel"). Accelerate itself skips the check for DeepSpeed's
    // SP but sets train_batch_size = micro x accumulation x dp_replicate x dp_shard (accelerator.py),
    // which DeepSpeed asserts against world / sp ("train_batch_size is not equal to micro_batch_per_gpu *
    // gradient_acc_step * world_size").
    void check_product(std::int64_t replicate, std::int64_t shard, std::int64_t tp, std::int64_t cp, std::int64_t sp) {
        const auto processes = whole_number(top_["num_processes"]);
        if (!processes || *processes < 1 || replicate < 1 || shard < 1 || tp < 1 || cp < 1) return;
        const std::int64_t product = replicate * shard * tp * cp * sp;
        if (product == *processes) return;
        std::string suggestion = "use an sp_size that divides num_processes " + std::to_string(*processes);
        if (*processes % (sp * replicate * tp * cp) == 0)
            suggestion = "set parallelism_config_dp_shard_size to " + std::to_string(*processes / (sp * replicate * tp * cp));
        add(Severity::Error, "parallelism_config",
            "dp_replicate " + std::to_string(replicate) + " x dp_shard " + std::to_string(shard) +
                (tp > 1 ? " x tp " + std::to_string(tp) : "") + (cp > 1 ? " x cp " + std::to_string(cp) : "") + " x sp " +
                std::to_string(sp) + " = " + std::to_string(product) + ", not num_processes " + std::to_string(*processes) +
                " (Accelerate's sequence_parallelism.md: \"You must ensure dp_replicate_size x dp_shard_size x sp_size = num_processes\"; "
                "else DeepSpeed's batch assertion fails)",
            suggestion);
    }

    YAML::Node top_;
    const LintContext& context_;
    LintResult result_;
};

}  // namespace

bool looks_like_accelerate_config(std::string_view text) {
    try {
        const YAML::Node n = YAML::Load(std::string(text));
        return n.IsMap() && (n["distributed_type"] || n["fsdp_config"] || n["deepspeed_config"]);
    } catch (const YAML::Exception&) {
        return false;
    }
}

LintResult lint_accelerate_deepspeed_config(std::string_view text, const std::string& source_name, const LintContext& context) {
    const YAML::Node top = parse_yaml(text, source_name);
    if (!top.IsMap()) throw InputError(source_name + ": an Accelerate config is a YAML map (distributed_type, deepspeed_config, ...)");
    return DeepSpeedAccelerateLinter(top, context).run();
}

bool is_accelerate_deepspeed_config(std::string_view text) {
    try {
        const YAML::Node n = YAML::Load(std::string(text));
        if (!n.IsMap()) return false;
        if (n["distributed_type"]) return n["distributed_type"].IsScalar() && n["distributed_type"].Scalar() == "DEEPSPEED";
        return n["deepspeed_config"] && !n["fsdp_config"];
    } catch (const YAML::Exception&) {
        return false;
    }
}

LintResult lint_accelerate_config(std::string_view text, const std::string& source_name, const LintContext& context) {
    return is_accelerate_deepspeed_config(text) ? lint_accelerate_deepspeed_config(text, source_name, context)
                                                : lint_accelerate_fsdp_config(text, source_name, context);
}

LintResult lint_accelerate_fsdp_config(std::string_view text, const std::string& source_name, const LintContext& context) {
    const YAML::Node top = parse_yaml(text, source_name);
    if (!top.IsMap()) throw InputError(source_name + ": an Accelerate config is a YAML map (distributed_type, fsdp_config, ...)");
    FsdpLinter linter(top["fsdp_config"], context);
    return linter.run(top);
}

}  // namespace zp
