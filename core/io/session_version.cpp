#include "core/io/session_version.h"

#include "core/presets/gpu_presets.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>

namespace zp {

using nlohmann::json;

namespace {

// Version 1 (0.1.0) did not store the GPU's own link speeds: 0.1.0 read every session into its
// default scenario, so they were always those of its default GPU, the A100 80GB (SXM): NVLink3
// 300 GB/s and PCIe 4.0 x16 32 GB/s, whatever gpu_name said, and whatever the file held under
// these keys (0.1.0 ignored unknown keys). The numbers are written out rather than taken from
// today's presets or default scenario, so a 0.1.0 file opens the same when those change. No
// estimate reads them: the link speeds the estimates use are cluster.intra_node_gbytes_per_s and
// cluster.pcie_gbytes_per_s, which version 1 stores.
void upgrade_1_to_2(json& doc) {
    if (doc.contains("cluster") && !doc.at("cluster").is_object()) return;  // the reader names the error
    json& cluster = doc["cluster"];
    cluster["gpu_intra_node_gbytes_per_s"] = 300.0;
    cluster["gpu_pcie_gbytes_per_s"] = 32.0;
}

// Version 2 had no loss or optimizer kernel: its estimates stood for transformers' default loss
// (fp32 up-cast over the whole logits) and the fused Adam DeepSpeed builds from its optimizer
// block, which are the defaults the fields take when a file leaves them out.
void upgrade_2_to_3(json& doc) {
    if (doc.contains("training") && !doc.at("training").is_object()) return;  // the reader names the error
    json& training = doc["training"];
    training["loss_fp32_upcast"] = true;
    training["loss_kernel"] = "full";
    training["fused_optimizer"] = true;
}

// Version 3 sized host RAM with DeepSpeed's estimators times assumptions.host_buffer_factor; version
// 4 models a node's host memory over the whole run (core/memory/host_memory.cpp) and has no such
// factor. A version-3 file gets the new fields at DeepSpeed's and transformers' defaults, which are
// what the planner's exports and a plain Trainer run use: pinned offload buffers, the 16-bit model
// gathered on save, fp32 loading without low_cpu_mem_usage, no dataloader workers.
void upgrade_3_to_4(json& doc) {
    if (doc.contains("assumptions") && doc.at("assumptions").is_object()) doc["assumptions"].erase("host_buffer_factor");
    if (!doc.contains("training") || doc.at("training").is_object()) {
        json& training = doc["training"];
        training["load_in_16bit"] = false;
        training["low_cpu_mem_usage"] = false;
        training["dataloader_workers"] = 0;
    }
    if (!doc.contains("zero") || doc.at("zero").is_object()) {
        json& zero = doc["zero"];
        zero["pin_memory"] = true;
        zero["gather_16bit_weights_on_model_save"] = true;
    }
}

// Version 4 trained every weight: a version-4 file gets the "finetune" section of full training
// (FineTune's defaults, PEFT's LoraConfig defaults for the LoRA settings it does not use).
void upgrade_4_to_5(json& doc) {
    doc["finetune"] = {{"method", "full"},           {"lora_rank", 8},       {"lora_alpha", 8.0},         {"lora_dropout", 0.0},
                       {"targets", "default"},       {"target_modules", ""}, {"train_embeddings", false}, {"train_lm_head", false},
                       {"base_precision", "auto"},   {"double_quant", true}, {"quant_block_size", 64},    {"quant_storage", "auto"},
                       {"freeze_embeddings", false}, {"freeze_layers", 0}};
}

// Version 5 had no multi-head latent attention, no mixture beyond Mixtral's and no QK-norm: every
// model it stored is what these fields say when they are zero (q/k/v/o projections, each expert of
// width ffn in every layer, no shared experts, no q_norm or k_norm).
void upgrade_5_to_6(json& doc) {
    if (doc.contains("model") && !doc.at("model").is_object()) return;  // the reader names the error
    json& model = doc["model"];
    for (const char* key : {"q_lora_rank", "kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim", "moe_ffn",
                            "shared_experts", "first_dense_layers"})
        model[key] = 0;
    model["qk_norm"] = false;
}

// Version 6 had no ZeRO++: its runs gathered and reduced as plain ZeRO-3.
void upgrade_6_to_7(json& doc) {
    if (doc.contains("zero") && !doc.at("zero").is_object()) return;  // the reader names the error
    json& zero = doc["zero"];
    zero["hpz_partition_size"] = 1;
    zero["quantized_weights"] = false;
    zero["quantized_gradients"] = false;
}

// Version 7 planned data parallelism only.
void upgrade_7_to_8(json& doc) {
    if (doc.contains("parallel") && !doc.at("parallel").is_object()) return;  // the reader names the error
    doc["parallel"] = {{"tensor", 1}, {"pipeline", 1}, {"virtual_stages", 1}, {"sequence_parallel", false}};
}

// Version 8 had no pinned plans.
void upgrade_8_to_9(json& doc) { doc["pins"] = json::array(); }

// Version 9 planned the layout it stored, its sizes fixed, without expert parallelism or
// DeepSpeed-Ulysses; its
// mixtures ran dropless (a capacity factor of 1 is DeepSpeed's default and unread at expert 1).
void upgrade_9_to_10(json& doc) {
    if (doc.contains("parallel") && doc.at("parallel").is_object()) {
        json& par = doc["parallel"];
        par["auto_tensor"] = false;
        par["auto_pipeline"] = false;
        par["expert"] = 1;
        par["auto_expert"] = false;
        par["ulysses"] = 1;
        par["auto_ulysses"] = false;
    }
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["capacity_factor"] = 1.0;
}

// Version 10 had neither MiCS (its ZeRO-3 partitioned over every data-parallel rank) nor
// ZeRO++ on "auto" (its switches were fixed).
void upgrade_10_to_11(json& doc) {
    if (doc.contains("zero") && doc.at("zero").is_object()) {
        json& z = doc["zero"];
        z["mics_shard_size"] = 1;
        z["mics_hierarchical_params_gather"] = false;
        z["auto_zeropp"] = false;
    }
}

// Version 11 had no NIC count: every node's network was one NIC per GPU, each ring across nodes
// at the per-GPU share of the node's bandwidth.
void upgrade_11_to_12(json& doc) {
    if (doc.contains("cluster") && doc.at("cluster").is_object()) doc["cluster"]["nics_per_node"] = 0;
}

// Version 12 had no choice of DeepSpeed release: its host memory held stage 3's 16-bit gradient
// buffer whenever the optimizer was offloaded (DeepSpeed >= 0.6).
void upgrade_12_to_13(json& doc) {
    if (doc.contains("zero") && doc.at("zero").is_object()) doc["zero"]["zero3_host_gradient_buffer"] = true;
}

// Version 13 had no engine: every plan was DeepSpeed's. Its assumptions.fragmentation (a share of
// the steady-state sum) sized nothing the fit was decided on; per-GPU memory is now the deciding
// moment's, with the allocator's reserve from the step (core/memory/allocator.h).
void upgrade_13_to_14(json& doc) {
    doc["engine"] = json{{"engine", "deepspeed"}, {"fsdp_precision", "mixed"}, {"limit_all_gathers", true}, {"auto", false}};
    if (doc.contains("assumptions") && doc.at("assumptions").is_object()) doc["assumptions"].erase("fragmentation");
}

// Version 14 knew none of ALST's parts and no per-head QK-norm: all off.
void upgrade_14_to_15(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) {
        doc["training"]["tiled_mlp"] = false;
        doc["training"]["expandable_segments"] = false;
        doc["training"]["int64_kernel_indexing"] = false;
    }
    if (doc.contains("model") && doc.at("model").is_object()) doc["model"]["qk_norm_per_head"] = false;
}

// Version 15 had no job (none chosen, every control shown as it was) and no attention sinks,
// router bias, interleaved mixtures or local attention layers.
void upgrade_15_to_16(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["job"] = "custom";
    if (!doc.contains("model") || !doc.at("model").is_object()) return;
    json& m = doc["model"];
    m["attention_sinks"] = false;
    m["router_bias"] = false;
    m["moe_layer_step"] = 1;
    m["attention_window"] = 0;
    m["global_layer_every"] = 0;
    m["chunked_attention"] = false;
}

// Version 16 kept every optimizer's moments the standard way (fp32, in the caching allocator),
// and its model output held nothing past the loss.
void upgrade_16_to_17(json& doc) {
    if (!doc.contains("training") || !doc.at("training").is_object()) return;
    json& t = doc["training"];
    t["optimizer_storage"] = "standard";
    t["kv_cache_in_training"] = false;
    t["outputs_kept"] = false;
}

// Version 17 kept every checkpointed layer input whole on each tensor-parallel rank, and knew no
// FP8: its GPU has no FP8 rate (0) and its matmuls are 16-bit; choosing the GPU again gives the preset's.
void upgrade_17_to_18(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) {
        doc["training"]["partition_activations"] = false;
        doc["training"]["fp8_gemms"] = false;
    }
    if (doc.contains("cluster") && doc.at("cluster").is_object()) doc["cluster"]["gpu_peak_tflops_fp8"] = 0.0;
}

// Version 18 planned FP8 matmuls with DelayedScaling only, and told a compute-capability-10 GPU by
// its preset name (a custom GPU was not one): the preset's flag keeps its FP8 weight copies as they were.
void upgrade_18_to_19(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) {
        doc["training"]["fp8_scaling"] = "delayed";
        doc["training"]["data_seconds_per_sample"] = 0.0;  // a data pipeline that keeps up, as version 18 planned
    }
    if (doc.contains("cluster") && doc.at("cluster").is_object()) {
        json& c = doc["cluster"];
        bool cc10 = false;
        if (c.contains("gpu_name") && c.at("gpu_name").is_string())
            for (const GpuSpec& g : gpu_presets())
                if (g.name == c.at("gpu_name").get<std::string>()) cc10 = g.compute_capability_10;
        c["gpu_compute_capability_10"] = cc10;
        c["gpu_peak_tflops_fp4"] = 0.0;  // no FP4 rate was stored; choosing the GPU again gives the preset's
    }
}

// Version 19 sent a t-th of the activation between pipeline stages, Megatron-LM's scatter/gather,
// whatever ran the pipeline: the field keeps its plans as they were.
void upgrade_19_to_20(json& doc) {
    if (doc.contains("parallel") && doc.at("parallel").is_object()) doc["parallel"]["pipeline_send"] = "scatter-gather";
}

// Version 20 summed the micro batches' gradients at no cost, as Megatron-LM's fused accumulation
// does: the field keeps its plans as they were.
void upgrade_20_to_21(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["gradient_accumulation"] = "fused";
}

// Version 21 counted Megatron's fused scale-mask-softmax whenever flash attention was off: the field
// keeps its plans as they were.
void upgrade_21_to_22(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["attention_softmax"] = "fused";
}

// Version 22 ran every MLP activation as one kernel: the field keeps its plans as they were.
void upgrade_22_to_23(json& doc) {
    if (doc.contains("model") && doc.at("model").is_object()) doc["model"]["activation"] = "fused";
}

// Version 23 gathered every linear whole: the field keeps its plans as they were.
void upgrade_23_to_24(json& doc) {
    if (doc.contains("zero") && doc.at("zero").is_object()) doc["zero"]["linear_tile_factor"] = 1;
}

// Version 24 kept fp32 master weights and optimizer states: the fields keep its plans as they were.
void upgrade_24_to_25(json& doc) {
    if (doc.contains("zero") && doc.at("zero").is_object()) doc["zero"]["bf16_master_weights"] = false;
}

// Version 25 reduce-scattered ZeRO-2's gradients, the bytes of the releases before v0.12.4: the
// field keeps its plans as they were.
void upgrade_25_to_26(json& doc) {
    if (doc.contains("zero") && doc.at("zero").is_object()) doc["zero"]["multi_rank_bucket_allreduce"] = false;
}

// Version 26 read every LM head as a module of its own (transformers'): the field keeps its plans
// as they were.
void upgrade_26_to_27(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["lm_head"] = "module";
}

void upgrade_27_to_28(json& doc) {
    if (!doc.contains("zero") || !doc.at("zero").is_object()) return;
    doc["zero"]["zero3_prefetch_to_max_live"] = true;
    doc["zero"]["hpz_in_recompute"] = true;
}

void upgrade_28_to_29(json& doc) {
    if (doc.contains("zero") && doc.at("zero").is_object()) doc["zero"]["deepspeed_release"] = "";
}

void upgrade_29_to_30(json& doc) {
    if (doc.contains("engine") && doc.at("engine").is_object()) doc["engine"]["sync_each_batch"] = true;
}

void upgrade_30_to_31(json& doc) {
    if (doc.contains("engine") && doc.at("engine").is_object()) doc["engine"]["hybrid_shard"] = false;
}

void upgrade_31_to_32(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["automatic_batch_sequences"] = 64;
}

void upgrade_32_to_33(json& doc) {
    if (doc.contains("training") && doc.at("training").is_object()) doc["training"]["logit_metrics"] = 0;
}

// Version 33 knew no residual dropout (its GPT-2 and T5 plans counted an FSDP recompute that stops
// early), and a DeepSpeed plan's recompute re-ran each whole block (the Trainer before transformers 5.0).
void upgrade_33_to_34(json& doc) {
    if (doc.contains("model") && doc.at("model").is_object()) doc["model"]["residual_dropout"] = false;
    if (!doc.contains("training")) doc["training"] = json::object();  // a partial file: the field still says how it planned
    if (doc.at("training").is_object()) doc["training"]["reentrant_recompute"] = true;
}

// kUpgrades[v - 1] takes a version-v document to version v + 1.
constexpr std::array<void (*)(json&), kSessionVersion - 1> kUpgrades{
    &upgrade_1_to_2,   &upgrade_2_to_3,   &upgrade_3_to_4,   &upgrade_4_to_5,   &upgrade_5_to_6,   &upgrade_6_to_7,   &upgrade_7_to_8,
    &upgrade_8_to_9,   &upgrade_9_to_10,  &upgrade_10_to_11, &upgrade_11_to_12, &upgrade_12_to_13, &upgrade_13_to_14, &upgrade_14_to_15,
    &upgrade_15_to_16, &upgrade_16_to_17, &upgrade_17_to_18, &upgrade_18_to_19, &upgrade_19_to_20, &upgrade_20_to_21, &upgrade_21_to_22,
    &upgrade_22_to_23, &upgrade_23_to_24, &upgrade_24_to_25, &upgrade_25_to_26, &upgrade_26_to_27, &upgrade_27_to_28, &upgrade_28_to_29,
    &upgrade_29_to_30, &upgrade_30_to_31, &upgrade_31_to_32, &upgrade_32_to_33, &upgrade_33_to_34};

}  // namespace

json upgrade_session(json doc, const std::string& source) {
    if (!doc.is_object()) throw InputError(source + ": a session must be a JSON object");
    if (!doc.contains("version")) throw InputError(source + ": field 'version' is missing: this is not a ZeRO Planner session");
    const json& v = doc.at("version");
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(kSessionVersion))
        throw NewerSessionError(source + ": session format version " + v.dump() + " is newer than this zero-planner reads (up to " +
                                std::to_string(kSessionVersion) + "); upgrade zero-planner");
    if (!v.is_number_integer() || v.get<std::int64_t>() < kOldestSessionVersion)
        throw InputError(source + ": session version " + v.dump() + " is not supported (this zero-planner reads versions " +
                         std::to_string(kOldestSessionVersion) + " to " + std::to_string(kSessionVersion) + ")");
    int version = static_cast<int>(v.get<std::int64_t>());
    // Each step fills what its version added the way the version before it planned.
    for (; version < kSessionVersion; ++version) kUpgrades[static_cast<std::size_t>(version - 1)](doc);
    doc["version"] = version;
    return doc;
}

}  // namespace zp
