#pragma once
// The same plan for the Hugging Face stack and for launching it (docs/design.md §7.5):
//   - the Trainer's ds_config, "auto" exactly where transformers fills it
//     (integrations/deepspeed.py trainer_config_process / trainer_config_finalize),
//   - the matching TrainingArguments,
//   - the YAML `accelerate config` writes for DeepSpeed (keys sorted, as yaml.safe_dump does),
//   - the deepspeed / accelerate launch commands and a hostfile.
#include "core/deepspeed/config_export.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

namespace zp {

nlohmann::ordered_json hf_trainer_config(const Scenario& s, const ExportOptions& options = {});
std::string hf_trainer_config_text(const Scenario& s, const ExportOptions& options = {});
std::string hf_training_arguments_text(const Scenario& s, const ExportOptions& options = {},
                                       const std::string& config_path = "ds_config.json");

// With DeepSpeed-Ulysses (Parallelism::ulysses above 1) the DeepSpeed block points at `config_path`
// (the ds_config holds sequence_parallel_size) and a parallelism_config block carries the degree
// (Accelerate's sequence_parallelism.md), with comments on what no config holds (TiledMLP, activation
// checkpoint offload, the allocator, Liger-Kernel).
std::string accelerate_config_yaml(const Scenario& s, const ExportOptions& options = {}, const std::string& config_path = "ds_config.json");

// The TrainingArguments lines every engine's export writes alike: micro batch, accumulation (with
// the sequences per step they make), learning rate and weight decay, each "    key=value,\n".
std::string training_arguments_batch_lines(const Scenario& s, const ExportOptions& options);
// The optimizer's TrainingArguments: adam_beta1, adam_beta2, adam_epsilon and max_grad_norm, the
// plan's hyperparameters (the Trainer's defaults are beta2 0.999 and clipping 1.0), for every engine.
std::string training_arguments_optimizer_lines(const Scenario& s, const ExportOptions& options);

// The Trainer's `optim` name (training_args.py OptimizerNames) for `t`'s torch.optim or
// bitsandbytes optimizer, when the Trainer builds it (no DeepSpeed "optimizer" block): adamw_torch,
// adamw_torch_fused (`fused`), sgd, adagrad, lion_32bit, adamw_bnb_8bit, paged_adamw_32bit, ...
const char* trainer_optim_name(const Training& t, bool fused = false);

// A plan with flash-attn's fused cross-entropy (LossKernel::Xentropy), which no config key or
// TrainingArguments field selects: comment lines, each starting with `prefix`, saying how the script
// gets it; empty otherwise.
std::string fused_loss_lines(const Scenario& s, const std::string& prefix);

// With DeepSpeed-Ulysses: the ParallelismConfig(sp_backend="deepspeed", ...) construction the
// Trainer's parallelism_config takes (Transformers' deepspeed_alst.md), with the padding note.
std::string parallelism_config_text(const Scenario& s);

// A bash script: one node runs `deepspeed --num_gpus G`; several write a hostfile
// (node-0 slots=G, ...) and run `deepspeed --hostfile`; then the accelerate alternative.
std::string launch_script(const Scenario& s, const std::string& config_path = "ds_config.json", const std::string& script = "train.py");

// The script lines that write DeepSpeed's hostfile (runner.py fetch_hostfile: "hostname slots=N",
// one line per node) for `nodes` nodes of `gpus_per_node` GPUs: listed one by one up to
// kHostfileNodesListed nodes, written by a shell loop beyond (a million-GPU plan is otherwise a
// multi-megabyte script, and the window's preview redraws it on every change).
inline constexpr std::int64_t kHostfileNodesListed = 64;
std::string hostfile_lines(std::int64_t nodes, std::int64_t gpus_per_node);

}  // namespace zp
