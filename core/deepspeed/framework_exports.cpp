#include "core/deepspeed/framework_exports.h"

#include "core/deepspeed/accelerate_yaml.h"

#include "core/base/format.h"

#include <nlohmann/json.hpp>

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <map>

namespace zp {

using nlohmann::ordered_json;

nlohmann::ordered_json hf_trainer_config(const Scenario& s, const ExportOptions& o) {
    ordered_json j = deepspeed_config(s, o);
    // trainer_config_process: batch sizes, clipping, optimizer params, fp16/bf16 enabled.
    j["train_batch_size"] = "auto";
    j["train_micro_batch_size_per_gpu"] = "auto";
    j["gradient_accumulation_steps"] = "auto";
    j["gradient_clipping"] = "auto";
    if (j.contains("optimizer"))
        for (auto& [key, value] : j["optimizer"]["params"].items()) value = "auto";
    // warmup_min_lr is filled with 0, warmup_max_lr with the learning rate, the step counts in
    // trainer_config_finalize.
    j["scheduler"] = {
        {"type", "WarmupDecayLR"},
        {"params", {{"warmup_min_lr", "auto"}, {"warmup_max_lr", "auto"}, {"warmup_num_steps", "auto"}, {"total_num_steps", "auto"}}}};
    if (j.contains("bf16") && s.training.precision == Precision::Bf16) j["bf16"]["enabled"] = "auto";
    if (j.contains("fp16")) j["fp16"]["enabled"] = "auto";
    // trainer_config_finalize fills these from the model's hidden size (h*h, 0.9*h*h, 10*h).
    auto& z = j["zero_optimization"];
    if (z.contains("reduce_bucket_size")) z["reduce_bucket_size"] = "auto";
    if (s.zero.stage == 3) {
        z["stage3_prefetch_bucket_size"] = "auto";
        z["stage3_param_persistence_threshold"] = "auto";
    }
    return j;
}

std::string hf_trainer_config_text(const Scenario& s, const ExportOptions& o) { return hf_trainer_config(s, o).dump(2) + "\n"; }

namespace {

// The rendezvous port written for a multi-node Accelerate config: torchrun's default
// --master-port (torch/distributed/run.py), which Accelerate's launcher also uses when
// main_process_port is unset (accelerate/utils/launch.py).

std::string number(double v) { return format_general(v); }
}  // namespace

std::string training_arguments_batch_lines(const Scenario& s, const ExportOptions& o) {
    const std::int64_t gas = gradient_accumulation_steps(s.training, data_parallel_size(s));
    return "    per_device_train_batch_size=" + std::to_string(s.training.micro_batch) + ",\n" +
           "    gradient_accumulation_steps=" + std::to_string(gas) + ",  # x " + std::to_string(s.cluster.world_size()) +
           " GPUs = " + std::to_string(s.training.micro_batch * gas * data_parallel_size(s)) + " sequences per step\n" +
           "    learning_rate=" + number(o.learning_rate) + ",\n" + "    weight_decay=" + number(o.weight_decay) + ",\n";
}

std::string hf_training_arguments_text(const Scenario& s, const ExportOptions& o, const std::string& config_path) {
    std::string py;
    py += "from transformers import TrainingArguments\n\n";
    py += "# The values transformers copies into the \"auto\" fields of " + config_path + ".\n";
    py += "# \"auto\" reduce_bucket_size becomes hidden_size^2 (the planner sized " + number(s.zero.reduce_bucket_elems) +
          "): replace it with an integer to keep the planned buffers.\n";
    py += "args = TrainingArguments(\n";
    py += "    output_dir=\"output\",\n";
    py += "    deepspeed=\"" + config_path + "\",\n";
    py += training_arguments_batch_lines(s, o);
    py += "    adam_beta1=" + number(o.beta1) + ",\n";
    py += "    adam_beta2=" + number(o.beta2) + ",\n";
    py += "    adam_epsilon=" + number(o.eps) + ",\n";
    py += "    max_grad_norm=" + number(o.gradient_clipping) + ",\n";
    py += std::string("    bf16=") + (s.training.precision == Precision::Bf16 ? "True" : "False") + ",\n";
    py += std::string("    fp16=") + (s.training.precision == Precision::Fp16 ? "True" : "False") + ",\n";
    py += std::string("    gradient_checkpointing=") + (s.training.checkpointing == Checkpointing::None ? "False" : "True") + ",\n";
    // PEFT's DeepSpeed guide runs adapters with non-reentrant checkpointing (--use_reentrant False):
    // the reentrant variant drops the gradients of a frozen block's input.
    if (s.finetune.adapters() && s.training.checkpointing != Checkpointing::None)
        py += "    gradient_checkpointing_kwargs={\"use_reentrant\": False},\n";
    if (!deepspeed_config(s, o).contains("optimizer")) {
        // The Trainer's own optimizer (training_args.py OptimizerNames) for the planned one.
        const char* optim = "adamw_torch";
        switch (s.training.optimizer) {
        case Optimizer::Sgd:
        case Optimizer::SgdMomentum: optim = "sgd"; break;
        case Optimizer::Adagrad: optim = "adagrad"; break;
        case Optimizer::Lion: optim = "lion_32bit"; break;
        default: break;
        }
        py += "    optim=\"" + std::string(optim) + "\",  # torch.optim: the DeepSpeed config has no \"optimizer\" block\n";
    }
    if (s.training.loss_kernel == LossKernel::Chunked)
        py += "    use_liger_kernel=True,  # Liger's fused linear cross-entropy: the full logits are never made\n";
    py += ")\n";
    return py;
}

std::string accelerate_config_yaml(const Scenario& s, const ExportOptions& o) {
    const std::int64_t gas = gradient_accumulation_steps(s.training, data_parallel_size(s));
    const ZeroSetup& z = s.zero;
    // std::map: keys sorted, as accelerate's yaml.safe_dump(sort_keys=True) writes them.
    std::map<std::string, YAML::Node> ds;
    ds["gradient_accumulation_steps"] = YAML::Node(gas);
    ds["gradient_clipping"] = YAML::Node(o.gradient_clipping);
    ds["offload_optimizer_device"] = YAML::Node(std::string(to_string(z.offload_optimizer)));
    ds["offload_param_device"] = YAML::Node(std::string(z.stage == 3 ? to_string(z.offload_param) : "none"));
    if (z.offload_optimizer == OffloadDevice::Nvme) ds["offload_optimizer_nvme_path"] = YAML::Node(o.nvme_path);
    if (z.stage == 3 && z.offload_param == OffloadDevice::Nvme) ds["offload_param_nvme_path"] = YAML::Node(o.nvme_path);
    if (z.stage == 3) {
        ds["zero3_init_flag"] = YAML::Node(z.zero_init);
        ds["zero3_save_16bit_model"] = YAML::Node(true);
    }
    ds["zero_stage"] = YAML::Node(z.stage);

    return accelerate_yaml(s, "DEEPSPEED", "deepspeed_config", ds,
                           s.training.precision == Precision::Fp32 ? "no" : to_string(s.training.precision));
}

std::string hostfile_lines(std::int64_t nodes, std::int64_t gpus_per_node) {
    const std::string slots = " slots=" + std::to_string(gpus_per_node);
    std::string sh = "# One line per node: host name and GPU slots (DeepSpeed's hostfile format). Edit the names.\n";
    if (nodes <= kHostfileNodesListed) {
        sh += "cat > hostfile <<'HOSTS'\n";
        for (std::int64_t i = 0; i < nodes; ++i) sh += "node-" + std::to_string(i) + slots + "\n";
        sh += "HOSTS\n\n";
    } else {
        sh += "for i in $(seq 0 " + std::to_string(nodes - 1) + "); do echo \"node-$i" + slots + "\"; done > hostfile\n\n";
    }
    return sh;
}

std::string launch_script(const Scenario& s, const std::string& config_path, const std::string& script) {
    const std::int64_t g = s.cluster.gpus_per_node, n = s.cluster.nodes;
    std::string sh = "#!/usr/bin/env bash\n# Launch the planned run: " + std::to_string(n * g) + " GPUs (" + std::to_string(n) + " node" +
                     (n > 1 ? "s" : "") + " x " + std::to_string(g) + ").\n";
    if (s.parallel.expert > 1)
        sh += "# Expert parallelism " + std::to_string(s.parallel.expert) +
              ": ep_size is an argument of deepspeed.moe.layer.MoE in the model code, not a ds_config key; give the optimizer\n"
              "# deepspeed.moe.utils.split_params_into_different_moe_groups_for_optimizer(param_groups) so that ZeRO partitions the\n"
              "# experts over the expert-data-parallel group.\n";
    sh += "set -euo pipefail\n\n";
    if (n == 1) {
        sh += "deepspeed --num_gpus " + std::to_string(g) + " " + script + " --deepspeed " + config_path + "\n";
    } else {
        sh += hostfile_lines(n, g);
        sh += "deepspeed --hostfile hostfile --num_nodes " + std::to_string(n) + " --num_gpus " + std::to_string(g) + " " + script +
              " --deepspeed " + config_path + "\n";
    }
    sh += "\n# Or with Accelerate (zero-planner export --format accelerate -o accelerate_config.yaml):\n";
    sh += "# accelerate launch --config_file accelerate_config.yaml " + script + "\n";
    return sh;
}

}  // namespace zp
