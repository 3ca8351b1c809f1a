#pragma once
// Lint an existing ds_config.json the way DeepSpeed would read it (docs/design.md §7.4): syntax with
// line and column, duplicate keys, unknown keys with the nearest valid one, types, the batch
// rule with DeepSpeed's own messages, contradictions, deprecated keys, and memory and speed
// warnings computed by the core for the config's own settings.
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

enum class Severity { Error, Warning, Info };
const char* to_string(Severity s);

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string path;  // "zero_optimization.reduce_bucket_size"; "" for the whole file
    std::string message;
    std::string suggestion;  // may be empty
};

struct LintResult {
    std::vector<Diagnostic> diagnostics;
    bool has_errors() const;
    bool has_warnings() const;
};

// What the config's constraints need beyond the world size and that a ds_config does not hold:
// the node and the model. Each check runs only when its value is given.
struct LintContext {
    std::optional<std::int64_t> gpus_per_node;  // zero_hpz_partition_size divides it; whether a MiCS shard group spans nodes
    std::optional<std::int64_t> heads;          // attention heads: sequence_parallel_size divides them (DeepSpeed-Ulysses)
    std::optional<std::int64_t> kv_heads;       // key/value heads (GQA): divide sequence_parallel_size or the other way round
    std::optional<std::int64_t> seq_len;        // tokens a sample: sequence_parallel_size divides them
    std::optional<std::string> model_family;    // transformers' model family: FSDP's transformer_layer_cls_to_wrap names its layer class
    std::optional<std::int64_t>
        largest_layer;                   // the model's largest layer, in parameters: one rank's partition fits offload_param's buffer
    std::optional<std::int64_t> hidden;  // hidden width: what the Trainer fills an "auto" reduce_bucket_size with (hidden^2)
};

// The context of a planned scenario: its GPUs per node, heads, key/value heads, sequence length, family,
// largest layer and hidden width.
LintContext lint_context_of(const Scenario& s);

// Throws InputError (line and column) when the text is not JSON at all. world_size: the GPU
// count to check the batch rule against; without it the rule is checked only for consistency.
// finetune: what the training script does beside the config (PEFT and bitsandbytes settings,
// which a ds_config does not hold), for the checks of combinations known to fail; none without it.
// context: the node and model checks above; none without it.
LintResult lint_ds_config(std::string_view text, std::optional<std::int64_t> world_size, const std::string& source_name = "ds_config.json",
                          const std::optional<FineTune>& finetune = std::nullopt, const LintContext& context = {});

// DeepSpeed-Ulysses' degree `sp` (above 1) against the model in `context`: the attention heads, the
// key/value heads and the sequence length it must divide (ulysses_sp.py's asserts), each an error at
// `path` naming `key` ("sequence_parallel_size" in a ds_config, "parallelism_config_sp_size" in an
// Accelerate config), appended to `out`. Nothing for a value the context does not hold.
void check_ulysses_against_model(std::int64_t sp, const LintContext& context, const std::string& path, const std::string& key,
                                 std::vector<Diagnostic>& out);

// The nearest of `candidates` to `key` by closest_name (core/base/suggest.h) with the linter's
// allowance for long keys, or "".
std::string nearest_key(const std::string& key, const std::vector<std::string>& candidates);

nlohmann::json diagnostics_json(const LintResult& r);

}  // namespace zp
