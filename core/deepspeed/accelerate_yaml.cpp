#include "core/deepspeed/accelerate_yaml.h"

namespace zp {

namespace {
// `accelerate launch`'s default --main_process_port (commands/launch.py).
constexpr int kAccelerateMainProcessPort = 29500;
}  // namespace

std::string accelerate_yaml(const Scenario& s, const std::string& distributed_type, const std::string& block_key,
                            const std::map<std::string, YAML::Node>& block, const std::string& mixed_precision,
                            const std::map<std::string, YAML::Node>& parallelism) {
    std::map<std::string, YAML::Node> top;
    top["compute_environment"] = YAML::Node(std::string("LOCAL_MACHINE"));
    top["debug"] = YAML::Node(false);
    std::map<std::string, YAML::Node> keys = block;
    std::string comment;
    if (s.cluster.nodes > 1 && distributed_type == "DEEPSPEED") {
        // Across nodes Accelerate runs DeepSpeed's launcher with --hostfile deepspeed_hostfile and
        // --launcher deepspeed_multinode_launcher (utils/launch.py prepare_deepspeed_cmd_env); without
        // a hostfile DeepSpeed proceeds "with local resources only" (launcher/runner.py) and its batch
        // rule, written for every node's GPUs, fails.
        keys["deepspeed_hostfile"] = YAML::Node(std::string("hostfile"));
        keys["deepspeed_multinode_launcher"] = YAML::Node(std::string("pdsh"));
        comment = "# Across " + std::to_string(s.cluster.nodes) +
                  " nodes: run accelerate launch on node-0 only; DeepSpeed's launcher (pdsh over ssh) starts the others from ./hostfile,\n"
                  "# one line per node, \"node-0 slots=" +
                  std::to_string(s.cluster.gpus_per_node) + "\" (zero-planner export --format launch writes it).\n";
    } else if (s.cluster.nodes > 1) {
        // torchrun across nodes (utils/launch.py prepare_multi_gpu_env: node_rank = machine_rank).
        comment = "# Across " + std::to_string(s.cluster.nodes) +
                  " nodes: run accelerate launch on every node, with machine_rank set to the node's index (0 on main_process_ip).\n";
    }
    YAML::Node node(YAML::NodeType::Map);
    for (const auto& [k, v] : keys) node[k] = v;
    top[block_key] = node;
    top["distributed_type"] = YAML::Node(distributed_type);
    top["machine_rank"] = YAML::Node(0);
    top["main_training_function"] = YAML::Node(std::string("main"));
    top["num_machines"] = YAML::Node(s.cluster.nodes);
    top["num_processes"] = YAML::Node(s.cluster.world_size());  // all machines' processes (commands/launch.py --num_processes)
    if (!parallelism.empty()) {
        YAML::Node p(YAML::NodeType::Map);
        for (const auto& [k, v] : parallelism) p[k] = v;
        top["parallelism_config"] = p;
    }
    top["rdzv_backend"] = YAML::Node(std::string("static"));
    top["same_network"] = YAML::Node(true);
    top["use_cpu"] = YAML::Node(false);
    if (s.cluster.nodes > 1) {
        top["main_process_ip"] = YAML::Node(std::string("node-0"));
        top["main_process_port"] = YAML::Node(kAccelerateMainProcessPort);
    }
    // downcast_bf16 and a mixed_precision of no are written 'no', quoted, as Accelerate writes them.
    top["downcast_bf16"] = YAML::Node(std::string("no"));
    if (!mixed_precision.empty() && s.training.fp8_gemms) {
        // FP8 matmuls (Training::fp8_gemms): Transformer Engine under bf16 autocast with
        // DelayedScaling's defaults, as accelerate's low_precision_training.md config writes them
        // (the DeepSpeed path takes TE's default recipe whatever this block says: accelerator.py).
        top["mixed_precision"] = YAML::Node(std::string("fp8"));
        YAML::Node fp8(YAML::NodeType::Map);  // keys in sorted order, as accelerate config writes them
        if (s.training.fp8_scaling == Fp8Scaling::Mxfp8) {
            // MXFP8BlockScaling: launch passes the key on as ACCELERATE_FP8_USE_MXFP8_BLOCK_SCALING
            // (commands/launch.py prefixes fp8_config keys with fp8_; utils/launch.py setup_fp8_env),
            // which TERecipeKwargs reads. No amax keys: apply_fp8_autowrap refuses amax_compute_algo
            // and amax_history_len with MXFP8 (utils/transformer_engine.py), and "max" is not
            // Accelerate's default, so it would be passed.
            fp8["backend"] = YAML::Node(std::string("TE"));
            fp8["use_mxfp8_block_scaling"] = YAML::Node(true);
        } else {
            fp8["amax_compute_algo"] = YAML::Node(std::string("max"));
            fp8["amax_history_len"] = YAML::Node(1024);
            fp8["backend"] = YAML::Node(std::string("TE"));
            fp8["fp8_format"] = YAML::Node(std::string("HYBRID"));
        }
        top["fp8_config"] = fp8;
    } else if (!mixed_precision.empty()) {
        top["mixed_precision"] = YAML::Node(mixed_precision);
    }
    YAML::Emitter out;
    out << YAML::BeginMap;
    for (const auto& [k, v] : top) {
        if (v.IsScalar() && v.Scalar() == "no") out << YAML::Key << k << YAML::Value << YAML::SingleQuoted << "no";
        else out << YAML::Key << k << YAML::Value << v;
    }
    out << YAML::EndMap;
    return comment + std::string(out.c_str()) + "\n";
}

}  // namespace zp
