#include "core/deepspeed/fsdp_lint.h"

#include "core/base/errors.h"
#include "core/deepspeed/fsdp_export.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
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
        for (const auto& kv : fsdp_) check_key(kv.first.as<std::string>(), kv.second);
        check_combinations();
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
    }

    YAML::Node fsdp_;
    const LintContext& context_;
    int version_ = 1;
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

LintResult lint_accelerate_fsdp_config(std::string_view text, const std::string& source_name, const LintContext& context) {
    const YAML::Node top = parse_yaml(text, source_name);
    if (!top.IsMap()) throw InputError(source_name + ": an Accelerate config is a YAML map (distributed_type, fsdp_config, ...)");
    FsdpLinter linter(top["fsdp_config"], context);
    return linter.run(top);
}

}  // namespace zp
