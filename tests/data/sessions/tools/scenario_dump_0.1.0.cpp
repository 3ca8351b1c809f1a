// Built once against zero-planner 0.1.0 (commit a3d65db) by make_frozen_sessions.sh; never part
// of the project's build (it includes 0.1.0's header paths, core/scenario.h and friends).
//
//   scenario_dump_0.1.0 dump FILE.zplan   every Scenario member 0.1.0 read from FILE, as one JSON
//                                         object keyed by C++ member path ("cluster.gpu.name")
//   scenario_dump_0.1.0 every-field       a session written by 0.1.0's own writer (session_text)
//                                         in which every stored field differs from the default
#include "core/default_scenario.h"
#include "core/errors.h"
#include "core/file_io.h"
#include "core/scenario_json.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>

using namespace zp;
using nlohmann::json;

namespace {

json flatten(const Scenario& s) {
    const ModelSpec& m = s.model;
    const Cluster& c = s.cluster;
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    const Assumptions& a = s.assumptions;
    json o = json::object();
    o["model.name"] = m.name;
    o["model.family"] = m.family;
    o["model.layers"] = m.layers;
    o["model.hidden"] = m.hidden;
    o["model.heads"] = m.heads;
    o["model.kv_heads"] = m.kv_heads;
    o["model.head_dim"] = m.head_dim;
    o["model.ffn"] = m.ffn;
    o["model.gated_mlp"] = m.gated_mlp;
    o["model.vocab"] = m.vocab;
    o["model.tied_embeddings"] = m.tied_embeddings;
    o["model.positions"] = m.positions;
    o["model.experts"] = m.experts;
    o["model.experts_per_token"] = m.experts_per_token;
    o["model.norm"] = m.norm == NormKind::LayerNorm ? "layernorm" : "rmsnorm";
    o["model.qkv_bias"] = m.qkv_bias;
    o["model.out_bias"] = m.out_bias;
    o["model.mlp_bias"] = m.mlp_bias;
    o["model.lm_head_bias"] = m.lm_head_bias;
    o["model.fused_qkv"] = m.fused_qkv;
    o["model.fused_gate_up"] = m.fused_gate_up;
    o["model.norms_per_layer"] = m.norms_per_layer;
    o["model.embedding_norm"] = m.embedding_norm;
    o["model.encoder_decoder"] = m.encoder_decoder;
    o["model.relative_attention_buckets"] = m.relative_attention_buckets;
    o["model.synthesized"] = m.synthesized;
    o["model.params_override"] = m.params_override;
    o["model.largest_layer_override"] = m.largest_layer_override;
    o["cluster.nodes"] = c.nodes;
    o["cluster.gpus_per_node"] = c.gpus_per_node;
    o["cluster.gpu.name"] = c.gpu.name;
    o["cluster.gpu.display_name"] = c.gpu.display_name;
    o["cluster.gpu.memory_gib"] = c.gpu.memory_gib;
    o["cluster.gpu.peak_tflops_16bit"] = c.gpu.peak_tflops_16bit;
    o["cluster.gpu.intra_node_gbytes_per_s"] = c.gpu.intra_node_gbytes_per_s;
    o["cluster.gpu.pcie_gbytes_per_s"] = c.gpu.pcie_gbytes_per_s;
    o["cluster.intra_node_gbytes_per_s"] = c.intra_node_gbytes_per_s;
    o["cluster.inter_node_gbits_per_s"] = c.inter_node_gbits_per_s;
    o["cluster.pcie_gbytes_per_s"] = c.pcie_gbytes_per_s;
    o["cluster.cpu_ram_bytes_per_node"] = c.cpu_ram_bytes_per_node;
    o["cluster.nvme_bytes_per_node"] = c.nvme_bytes_per_node;
    o["cluster.nvme_gbytes_per_s"] = c.nvme_gbytes_per_s;
    o["cluster.cpu_adam_params_per_second"] = c.cpu_adam_params_per_second;
    o["training.precision"] = to_string(t.precision);
    o["training.optimizer"] = to_string(t.optimizer);
    o["training.seq_len"] = t.seq_len;
    o["training.micro_batch"] = t.micro_batch;
    o["training.auto_micro_batch"] = t.auto_micro_batch;
    o["training.global_batch"] = t.global_batch;
    o["training.checkpointing"] = to_string(t.checkpointing);
    o["training.auto_checkpointing"] = t.auto_checkpointing;
    o["training.flash_attention"] = t.flash_attention;
    o["training.cpu_checkpointing"] = t.cpu_checkpointing;
    o["zero.stage"] = z.stage;
    o["zero.offload_optimizer"] = to_string(z.offload_optimizer);
    o["zero.offload_param"] = to_string(z.offload_param);
    o["zero.overlap_comm"] = z.overlap_comm;
    o["zero.reduce_bucket_elems"] = z.reduce_bucket_elems;
    o["zero.allgather_bucket_elems"] = z.allgather_bucket_elems;
    o["zero.stage3_prefetch_bucket_elems"] = z.stage3_prefetch_bucket_elems;
    o["zero.stage3_max_live_parameters"] = z.stage3_max_live_parameters;
    o["zero.stage3_param_persistence_threshold"] = z.stage3_param_persistence_threshold;
    o["zero.sub_group_size"] = z.sub_group_size;
    o["zero.offload_param_buffer_count"] = z.offload_param_buffer_count;
    o["zero.offload_param_buffer_size"] = z.offload_param_buffer_size;
    o["zero.offload_optimizer_buffer_count"] = z.offload_optimizer_buffer_count;
    o["zero.zero_init"] = z.zero_init;
    o["assumptions.convention"] = to_string(a.convention);
    o["assumptions.headroom"] = a.headroom;
    o["assumptions.cuda_context_bytes"] = a.cuda_context_bytes;
    o["assumptions.fragmentation"] = a.fragmentation;
    o["assumptions.host_buffer_factor"] = a.host_buffer_factor;
    o["assumptions.mfu"] = a.mfu;
    o["assumptions.comm_overlap_fraction"] = a.comm_overlap_fraction;
    o["assumptions.collective_latency_seconds"] = a.collective_latency_seconds;
    o["assumptions.token_budget"] = a.token_budget;
    return o;
}

// Every field the 0.1.0 file stores, away from its default, and still a valid scenario.
Scenario every_field() {
    Scenario s = default_scenario();
    ModelSpec& m = s.model;
    m.name = "custom-every-field";
    m.family = "gpt2";
    m.layers = 24;
    m.hidden = 2048;
    m.heads = 16;
    m.kv_heads = 8;
    m.head_dim = 128;
    m.ffn = 6144;
    m.gated_mlp = true;
    m.vocab = 50257;
    m.tied_embeddings = true;
    m.positions = 2048;
    m.experts = 4;
    m.experts_per_token = 2;
    m.norm = NormKind::LayerNorm;
    m.qkv_bias = true;
    m.out_bias = true;
    m.mlp_bias = true;
    m.lm_head_bias = true;
    m.fused_qkv = true;
    m.fused_gate_up = true;
    m.norms_per_layer = 3;
    m.embedding_norm = true;
    m.encoder_decoder = true;
    m.relative_attention_buckets = 32;
    m.synthesized = true;
    m.params_override = 3000000000;
    m.largest_layer_override = 120000000;
    Cluster& c = s.cluster;
    c.nodes = 3;
    c.gpus_per_node = 4;
    c.gpu.name = "custom";
    c.gpu.display_name = "custom GPU";
    c.gpu.memory_gib = 47.5;
    c.gpu.peak_tflops_16bit = 181.0;
    c.intra_node_gbytes_per_s = 64;
    c.inter_node_gbits_per_s = 400;
    c.pcie_gbytes_per_s = 16;
    c.cpu_ram_bytes_per_node = 549755813888.0;
    c.nvme_bytes_per_node = 7679401525248.0;
    c.nvme_gbytes_per_s = 12.5;
    c.cpu_adam_params_per_second = 2.25e9;
    Training& t = s.training;
    t.precision = Precision::Fp16;
    t.optimizer = Optimizer::Lamb;
    t.seq_len = 2048;
    t.micro_batch = 2;
    t.auto_micro_batch = false;
    t.global_batch = 96;
    t.checkpointing = Checkpointing::Selective;
    t.auto_checkpointing = false;
    t.flash_attention = false;
    t.cpu_checkpointing = true;
    ZeroSetup& z = s.zero;
    z.stage = 3;
    z.offload_optimizer = OffloadDevice::Nvme;
    z.offload_param = OffloadDevice::Cpu;
    z.overlap_comm = false;
    z.reduce_bucket_elems = 5e8;
    z.allgather_bucket_elems = 3e8;
    z.stage3_prefetch_bucket_elems = 4e7;
    z.stage3_max_live_parameters = 3e8;
    z.stage3_param_persistence_threshold = 1e6;
    z.sub_group_size = 5e8;
    z.offload_param_buffer_count = 7;
    z.offload_param_buffer_size = 2e8;
    z.offload_optimizer_buffer_count = 6;
    z.zero_init = false;
    Assumptions& a = s.assumptions;
    a.convention = Convention::Paper;
    a.headroom = 0.08;
    a.cuda_context_bytes = 1.5 * 1024 * 1024 * 1024;
    a.fragmentation = 0.15;
    a.host_buffer_factor = 1.25;
    a.mfu = 0.38;
    a.comm_overlap_fraction = 0.6;
    a.collective_latency_seconds = 45e-6;
    a.token_budget = 3e11;
    validate(s);
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::string mode = argc > 1 ? argv[1] : "";
        if (mode == "dump" && argc == 3) {
            const std::string path = argv[2];
            std::cout << flatten(parse_session(read_text_file(path), path)).dump(2) << "\n";
            return 0;
        }
        if (mode == "every-field" && argc == 2) {
            std::cout << session_text(every_field());
            return 0;
        }
        std::cerr << "usage: scenario_dump_0.1.0 dump FILE.zplan | every-field\n";
    } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
    }
    return 2;
}
