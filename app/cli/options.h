#pragma once
// Every option of zero-planner, each written once: its name, the value it takes, its one-line
// help, its group in --help and the step that reads it. The accepted-option sets of the commands
// (cli.cpp), the scenario parser's lookups (scenario_options.cpp) and the options part of --help
// (and so the man page help2man makes from it, packaging/CMakeLists.txt) all come from here, so
// an option cannot be accepted without being documented. The style is qBittorrent's option
// objects (src/app/cmdoptions.cpp): one constant per option, used both to parse and to print.
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace zp::cli {

// The headings of --help, in the order it prints them.
enum class OptionGroup { Model, Cluster, Network, Training, Zero, Parallelism, Experts, FineTuning, Assumptions, Start, Command, General };

// Where an option takes effect. The scenario steps are the apply_* functions of
// scenario_options.cpp, in the order scenario_from_args runs them; the options of the other two
// are read by the commands that accept them (app/cli/commands/) or by run() itself.
enum class ApplyStep {
    Session,      // --session: the scenario everything else starts from
    Cluster,      // apply_cluster
    Model,        // apply_model (and apply_architecture_overrides)
    DsConfig,     // --ds-config: apply_ds_config, before the training and ZeRO options
    Training,     // apply_training
    Zero,         // apply_zero
    Parallel,     // apply_parallel
    FineTune,     // apply_finetune
    Assumptions,  // apply_assumptions
    Command,      // one command's own input (--format, --log, -o, ...): not part of a scenario
    Meta,         // --json, --help, --version: no value; read by run()
};

struct Option {
    std::string_view name;        // as typed: --tp
    std::string_view value_name;  // "T|auto" in the help; empty for a flag (Meta)
    std::string_view help;        // one line
    OptionGroup group;
    ApplyStep step;
    // The accepted words, generated from the core's vocabularies where they live there
    // (choice_list<Precision>, the preset names): `value_words` replaces value_name when set, and
    // `help_list` follows the help text.
    std::string (*value_words)() = nullptr;
    std::string (*help_list)() = nullptr;

    bool takes_value() const { return step != ApplyStep::Meta; }
    bool in_scenario() const { return step != ApplyStep::Command && step != ApplyStep::Meta; }
    // So Args::get(opt::tp) reads the option by the name it was parsed by.
    constexpr operator std::string_view() const { return name; }  // NOLINT(google-explicit-constructor)
};

// The options, one constant each (defined in options.cpp).
namespace opt {
// Model
extern const Option model, params, hf_config, layers, hidden, heads, kv_heads, ffn, vocab, mlp_activation, residual_dropout;
// Cluster and network
extern const Option cluster, gpus, gpus_per_node, gpu, gpu_mem, cpu_ram, nvme;
extern const Option intra_bw, inter_bw, nics, pcie_bw, nvme_bw;
// Training
extern const Option job, precision, optimizer, seq, micro_batch, global_batch, checkpointing, flash_attention, attention_softmax, lm_head,
    cpu_checkpointing, partition_activations, fp8, loss_upcast, loss_kernel, grad_accumulation, kv_cache, keep_outputs, logit_metrics,
    reentrant_recompute, alst, tiled_mlp, expandable_segments, kernel_index, fused_optimizer, optimizer_storage, load_dtype,
    low_cpu_mem_usage, transformers_release, dataloader_workers, data_seconds_per_sample;
// ZeRO, ZeRO++ and MiCS
extern const Option stage, offload_optimizer, offload_param, overlap_comm, reduce_bucket_size, allgather_bucket_size, max_live_params,
    zero_init, pin_memory, deepspeed_release, host_grad_buffer, multi_rank_allreduce, prefetch_to_max_live, hpz_recompute,
    bf16_master_weights, save_16bit_model, zeropp, hpz_size, hpz, quantized_weights, quantized_gradients, mics_shard_size,
    mics_hierarchical_gather, tile_factor, engine, fsdp_precision, limit_all_gathers, sync_each_batch, hybrid_shard;
// Model parallelism and experts
extern const Option tp, pp, pp_schedule, virtual_stages, sequence_parallel, pp_send, sp, ep, capacity_factor;
// Fine-tuning
extern const Option finetune, lora_rank, lora_alpha, lora_dropout, lora_targets, lora_train, freeze, base_precision, double_quant,
    quant_storage;
// Assumptions and starting points
extern const Option headroom, convention, mfu, cuda_context, tokens, session, ds_config;
// Commands' own options
extern const Option format, output, world_size, largest_layer, nodes, formula, log, measured_step_s, measured_samples_per_s,
    measured_max_allocated_gib, measured_reserved_gib, out, view, size, scale, lang, holdout, max_seq, markdown;
// No value
extern const Option json, help, help_short, version;
}  // namespace opt

// Every option, in the order --help lists them.
std::span<const Option* const> all_options();
// The options a scenario is built from (every step but Command and Meta): what every command that
// takes a scenario accepts.
std::set<std::string> scenario_option_names();
std::set<std::string> names_of(std::initializer_list<const Option*> options);

// The name as a string, for messages (--tp). With a unit, "--gpu-mem (GiB)": the option with
// the unit its number is in, as the number parser names it.
inline std::string option_text(const Option& o) { return std::string(o.name); }
inline std::string option_label(const Option& o, std::string_view unit) { return option_text(o) + " (" + std::string(unit) + ")"; }

// The options part of --help: one heading per group, one line per option ("  --tp T|auto  ...").
std::string options_help();

}  // namespace zp::cli
