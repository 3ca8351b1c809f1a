#pragma once
// The session file's one field list: every Scenario member the .zplan file stores, one line each,
// with its section, its key and what the reader accepts. The writer (scenario_to_json), the reader
// (scenario_from_json) and the round-trip test all walk this list, so a member cannot be written
// and not read, or read and not written; tests/core/tst_session.cpp fails when a Scenario member
// is missing here.
//
// A visitor is called as v(section, key, member) or v(section, key, member, FieldRule{...}), with
// `member` a std::string, bool, int, std::int64_t, double or a scenario enum (named by the table
// in core/model/enum_names.h). What each type accepts on reading:
//   text      a JSON string
//   boolean   true or false
//   integer   a whole JSON number from rule.min to kJsonSafeInteger (core/base/units.h)
//   number    a finite JSON number >= 0
//   enum      one of the names (or aliases) in core/model/enum_names.h
// Fields left out of a file keep the default scenario's value. Adding a field here changes the
// format: bump kSessionVersion and add the migration step (core/io/session_version.h).
#include "core/model/scenario.h"

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace zp {

struct FieldRule {
    std::int64_t min = 0;  // integers: the smallest value accepted
};

template <class S, class V>
requires std::same_as<std::remove_const_t<S>, Scenario>
void visit_fields(S& s, V& v) {
    auto& m = s.model;
    v("model", "name", m.name);
    v("model", "family", m.family);
    v("model", "layers", m.layers, FieldRule{.min = 1});
    v("model", "hidden", m.hidden, FieldRule{.min = 1});
    v("model", "heads", m.heads, FieldRule{.min = 1});
    v("model", "kv_heads", m.kv_heads, FieldRule{.min = 1});
    v("model", "head_dim", m.head_dim, FieldRule{.min = 1});
    v("model", "ffn", m.ffn, FieldRule{.min = 1});
    v("model", "gated_mlp", m.gated_mlp);
    v("model", "activation", m.activation);              // since version 23
    v("model", "residual_dropout", m.residual_dropout);  // since version 34
    v("model", "vocab", m.vocab, FieldRule{.min = 1});
    v("model", "tied_embeddings", m.tied_embeddings);
    v("model", "positions", m.positions, FieldRule{.min = 0});
    v("model", "experts", m.experts, FieldRule{.min = 1});
    v("model", "experts_per_token", m.experts_per_token, FieldRule{.min = 1});
    v("model", "norm", m.norm);
    v("model", "qkv_bias", m.qkv_bias);
    v("model", "out_bias", m.out_bias);
    v("model", "mlp_bias", m.mlp_bias);
    v("model", "lm_head_bias", m.lm_head_bias);
    v("model", "fused_qkv", m.fused_qkv);
    v("model", "fused_gate_up", m.fused_gate_up);
    v("model", "norms_per_layer", m.norms_per_layer, FieldRule{.min = 0});
    v("model", "embedding_norm", m.embedding_norm);
    v("model", "encoder_decoder", m.encoder_decoder);
    v("model", "relative_attention_buckets", m.relative_attention_buckets, FieldRule{.min = 0});
    v("model", "q_lora_rank", m.q_lora_rank, FieldRule{.min = 0});                // since version 6
    v("model", "kv_lora_rank", m.kv_lora_rank, FieldRule{.min = 0});              // since version 6
    v("model", "qk_nope_head_dim", m.qk_nope_head_dim, FieldRule{.min = 0});      // since version 6
    v("model", "qk_rope_head_dim", m.qk_rope_head_dim, FieldRule{.min = 0});      // since version 6
    v("model", "v_head_dim", m.v_head_dim, FieldRule{.min = 0});                  // since version 6
    v("model", "moe_ffn", m.moe_ffn, FieldRule{.min = 0});                        // since version 6
    v("model", "shared_experts", m.shared_experts, FieldRule{.min = 0});          // since version 6
    v("model", "first_dense_layers", m.first_dense_layers, FieldRule{.min = 0});  // since version 6
    v("model", "qk_norm", m.qk_norm);                                             // since version 6
    v("model", "qk_norm_per_head", m.qk_norm_per_head);                           // since version 15
    v("model", "attention_sinks", m.attention_sinks);                             // since version 16
    v("model", "router_bias", m.router_bias);                                     // since version 16
    v("model", "moe_layer_step", m.moe_layer_step, FieldRule{.min = 1});          // since version 16
    v("model", "attention_window", m.attention_window, FieldRule{.min = 0});      // since version 16
    v("model", "global_layer_every", m.global_layer_every, FieldRule{.min = 0});  // since version 16
    v("model", "chunked_attention", m.chunked_attention);                         // since version 16
    v("model", "synthesized", m.synthesized);
    v("model", "params_override", m.params_override, FieldRule{.min = 0});
    v("model", "largest_layer_override", m.largest_layer_override, FieldRule{.min = 0});

    auto& c = s.cluster;
    v("cluster", "nodes", c.nodes, FieldRule{.min = 1});
    v("cluster", "gpus_per_node", c.gpus_per_node, FieldRule{.min = 1});
    v("cluster", "gpu_name", c.gpu.name);
    v("cluster", "gpu_display_name", c.gpu.display_name);
    v("cluster", "gpu_memory_gib", c.gpu.memory_gib);
    v("cluster", "gpu_peak_tflops_16bit", c.gpu.peak_tflops_16bit);
    v("cluster", "gpu_peak_tflops_fp8", c.gpu.peak_tflops_fp8);                  // since version 18
    v("cluster", "gpu_compute_capability_10", c.gpu.compute_capability_10);      // since version 19
    v("cluster", "gpu_peak_tflops_fp4", c.gpu.peak_tflops_fp4);                  // since version 19
    v("cluster", "gpu_intra_node_gbytes_per_s", c.gpu.intra_node_gbytes_per_s);  // since version 2
    v("cluster", "gpu_pcie_gbytes_per_s", c.gpu.pcie_gbytes_per_s);              // since version 2
    v("cluster", "intra_node_gbytes_per_s", c.intra_node_gbytes_per_s);
    v("cluster", "inter_node_gbits_per_s", c.inter_node_gbits_per_s);
    v("cluster", "nics_per_node", c.nics_per_node, FieldRule{.min = 0});  // since version 12
    v("cluster", "pcie_gbytes_per_s", c.pcie_gbytes_per_s);
    v("cluster", "cpu_ram_bytes_per_node", c.cpu_ram_bytes_per_node);
    v("cluster", "nvme_bytes_per_node", c.nvme_bytes_per_node);
    v("cluster", "nvme_gbytes_per_s", c.nvme_gbytes_per_s);
    v("cluster", "cpu_adam_params_per_second", c.cpu_adam_params_per_second);

    auto& t = s.training;
    v("training", "job", s.job);  // since version 16
    v("training", "precision", t.precision);
    v("training", "optimizer", t.optimizer);
    v("training", "seq_len", t.seq_len, FieldRule{.min = 1});
    v("training", "micro_batch", t.micro_batch, FieldRule{.min = 1});
    v("training", "auto_micro_batch", t.auto_micro_batch);
    v("training", "global_batch", t.global_batch, FieldRule{.min = 0});
    v("training", "automatic_batch_sequences", t.automatic_batch_sequences, FieldRule{.min = 1});  // since version 32
    v("training", "checkpointing", t.checkpointing);
    v("training", "auto_checkpointing", t.auto_checkpointing);
    v("training", "flash_attention", t.flash_attention);
    v("training", "attention_softmax", t.attention_softmax);  // since version 22
    v("training", "lm_head", t.lm_head);                      // since version 27
    v("training", "cpu_checkpointing", t.cpu_checkpointing);
    v("training", "partition_activations", t.partition_activations);  // since version 18
    v("training", "fp8_gemms", t.fp8_gemms);                          // since version 18
    v("training", "fp8_scaling", t.fp8_scaling);                      // since version 19
    v("training", "loss_fp32_upcast", t.loss_fp32_upcast);
    v("training", "loss_kernel", t.loss_kernel);
    v("training", "gradient_accumulation", t.gradient_accumulation);       // since version 21
    v("training", "kv_cache_in_training", t.kv_cache_in_training);         // since version 17
    v("training", "outputs_kept", t.outputs_kept);                         // since version 17
    v("training", "logit_metrics", t.logit_metrics, FieldRule{.min = 0});  // since version 33
    v("training", "reentrant_recompute", t.reentrant_recompute);           // since version 34
    v("training", "tiled_mlp", t.tiled_mlp);                               // since version 15
    v("training", "expandable_segments", t.expandable_segments);           // since version 15
    v("training", "int64_kernel_indexing", t.int64_kernel_indexing);       // since version 15
    v("training", "fused_optimizer", t.fused_optimizer);
    v("training", "optimizer_storage", t.optimizer_storage);                         // since version 17
    v("training", "load_in_16bit", t.load_in_16bit);                                 // since version 4
    v("training", "low_cpu_mem_usage", t.low_cpu_mem_usage);                         // since version 4
    v("training", "dataloader_workers", t.dataloader_workers, FieldRule{.min = 0});  // since version 4
    v("training", "data_seconds_per_sample", t.data_seconds_per_sample);             // since version 19
    v("training", "capacity_factor", t.capacity_factor);                             // since version 10

    auto& z = s.zero;
    v("zero", "stage", z.stage, FieldRule{.min = 0});
    v("zero", "offload_optimizer", z.offload_optimizer);
    v("zero", "offload_param", z.offload_param);
    v("zero", "overlap_comm", z.overlap_comm);
    v("zero", "reduce_bucket_elems", z.reduce_bucket_elems);
    v("zero", "allgather_bucket_elems", z.allgather_bucket_elems);
    v("zero", "stage3_prefetch_bucket_elems", z.stage3_prefetch_bucket_elems);
    v("zero", "stage3_max_live_parameters", z.stage3_max_live_parameters);
    v("zero", "stage3_param_persistence_threshold", z.stage3_param_persistence_threshold);
    v("zero", "sub_group_size", z.sub_group_size);
    v("zero", "offload_param_buffer_count", z.offload_param_buffer_count, FieldRule{.min = 0});
    v("zero", "offload_param_buffer_size", z.offload_param_buffer_size);
    v("zero", "offload_optimizer_buffer_count", z.offload_optimizer_buffer_count, FieldRule{.min = 0});
    v("zero", "zero_init", z.zero_init);
    v("zero", "pin_memory", z.pin_memory);                                                  // since version 4
    v("zero", "gather_16bit_weights_on_model_save", z.gather_16bit_weights_on_model_save);  // since version 4
    v("zero", "hpz_partition_size", z.hpz_partition_size, FieldRule{.min = 1});             // since version 7
    v("zero", "quantized_weights", z.quantized_weights);                                    // since version 7
    v("zero", "quantized_gradients", z.quantized_gradients);                                // since version 7
    // MiCS (since version 11).
    v("zero", "mics_shard_size", z.mics_shard_size, FieldRule{.min = 1});
    v("zero", "mics_hierarchical_params_gather", z.mics_hierarchical_params_gather);
    v("zero", "auto_zeropp", z.auto_zeropp);                                     // since version 11
    v("zero", "zero3_host_gradient_buffer", z.zero3_host_gradient_buffer);       // since version 13
    v("zero", "linear_tile_factor", z.linear_tile_factor, FieldRule{.min = 1});  // since version 24
    v("zero", "bf16_master_weights", z.bf16_master_weights);                     // since version 25
    v("zero", "multi_rank_bucket_allreduce", z.multi_rank_bucket_allreduce);     // since version 26
    v("zero", "zero3_prefetch_to_max_live", z.zero3_prefetch_to_max_live);       // since version 28
    v("zero", "hpz_in_recompute", z.hpz_in_recompute);                           // since version 28
    v("zero", "deepspeed_release", s.deepspeed_release);                         // since version 29 (Scenario's)

    auto& fsdp = s.fsdp;  // since version 14
    v("engine", "engine", fsdp.engine);
    v("engine", "fsdp_precision", fsdp.precision);
    v("engine", "limit_all_gathers", fsdp.limit_all_gathers);
    v("engine", "auto", fsdp.auto_engine);
    v("engine", "sync_each_batch", fsdp.sync_each_batch);  // since version 30
    v("engine", "hybrid_shard", fsdp.hybrid_shard);        // since version 31

    auto& par = s.parallel;  // since version 8
    v("parallel", "tensor", par.tensor, FieldRule{.min = 1});
    v("parallel", "pipeline", par.pipeline, FieldRule{.min = 1});
    v("parallel", "virtual_stages", par.virtual_stages, FieldRule{.min = 1});
    v("parallel", "sequence_parallel", par.sequence_parallel);
    v("parallel", "auto_tensor", par.auto_tensor);               // since version 10
    v("parallel", "auto_pipeline", par.auto_pipeline);           // since version 10
    v("parallel", "expert", par.expert, FieldRule{.min = 1});    // since version 10
    v("parallel", "auto_expert", par.auto_expert);               // since version 10
    v("parallel", "ulysses", par.ulysses, FieldRule{.min = 1});  // since version 10
    v("parallel", "auto_ulysses", par.auto_ulysses);             // since version 10
    v("parallel", "pipeline_send", par.pipeline_send);           // since version 20

    auto& f = s.finetune;  // since version 5
    v("finetune", "method", f.method);
    v("finetune", "lora_rank", f.lora_rank, FieldRule{.min = 1});
    v("finetune", "lora_alpha", f.lora_alpha);
    v("finetune", "lora_dropout", f.lora_dropout);
    v("finetune", "targets", f.targets);
    v("finetune", "target_modules", f.target_modules);
    v("finetune", "train_embeddings", f.train_embeddings);
    v("finetune", "train_lm_head", f.train_lm_head);
    v("finetune", "base_precision", f.base_precision);
    v("finetune", "double_quant", f.double_quant);
    v("finetune", "quant_block_size", f.quant_block_size, FieldRule{.min = 1});
    v("finetune", "quant_storage", f.quant_storage);
    v("finetune", "freeze_embeddings", f.freeze_embeddings);
    v("finetune", "freeze_layers", f.freeze_layers, FieldRule{.min = 0});

    auto& a = s.assumptions;
    v("assumptions", "convention", a.convention);
    v("assumptions", "headroom", a.headroom);
    v("assumptions", "cuda_context_bytes", a.cuda_context_bytes);
    v("assumptions", "calibration", a.calibration);
    v("assumptions", "host_process_bytes", a.host_process_bytes);  // since version 4 (replaces host_buffer_factor)
    v("assumptions", "host_worker_bytes", a.host_worker_bytes);    // since version 4
    v("assumptions", "mfu", a.mfu);
    v("assumptions", "comm_overlap_fraction", a.comm_overlap_fraction);
    v("assumptions", "collective_latency_seconds", a.collective_latency_seconds);
    v("assumptions", "token_budget", a.token_budget);
}

}  // namespace zp
