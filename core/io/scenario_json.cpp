#include "core/io/scenario_json.h"

#include "core/model/default_scenario.h"
#include "core/model/enum_names.h"
#include "core/model/errors.h"
#include "core/io/json_errors.h"

#include <cmath>

namespace zp {

using nlohmann::json;

namespace {


json model_json(const ModelSpec& m) {
    return {{"name", m.name}, {"family", m.family}, {"layers", m.layers}, {"hidden", m.hidden}, {"heads", m.heads},
            {"kv_heads", m.kv_heads}, {"head_dim", m.head_dim}, {"ffn", m.ffn}, {"gated_mlp", m.gated_mlp}, {"vocab", m.vocab},
            {"tied_embeddings", m.tied_embeddings}, {"positions", m.positions}, {"experts", m.experts},
            {"experts_per_token", m.experts_per_token}, {"norm", to_string(m.norm)}, {"qkv_bias", m.qkv_bias},
            {"out_bias", m.out_bias}, {"mlp_bias", m.mlp_bias}, {"lm_head_bias", m.lm_head_bias}, {"fused_qkv", m.fused_qkv},
            {"fused_gate_up", m.fused_gate_up}, {"norms_per_layer", m.norms_per_layer}, {"embedding_norm", m.embedding_norm},
            {"encoder_decoder", m.encoder_decoder}, {"relative_attention_buckets", m.relative_attention_buckets},
            {"synthesized", m.synthesized}, {"params_override", m.params_override},
            {"largest_layer_override", m.largest_layer_override}};
}

// Reads fields of one section, naming "section.field" in every error.
class Reader {
public:
    Reader(const json& root, const char* section, std::string source) : source_(std::move(source)), section_(section) {
        if (root.contains(section)) {
            if (!root.at(section).is_object()) fail(section, "must be an object");
            obj_ = &root.at(section);
        }
    }
    void integer(const char* key, std::int64_t& out, std::int64_t min = 0) const {
        const json* v = get(key);
        if (!v) return;
        const double d = v->is_number() ? v->get<double>() : NAN;
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) || d > 9e15)
            fail(key, "must be an integer >= " + std::to_string(min) + ", got " + v->dump());
        out = static_cast<std::int64_t>(d);
    }
    void integer(const char* key, int& out, int min = 0) const {
        std::int64_t v = out;
        integer(key, v, min);
        out = static_cast<int>(v);
    }
    void number(const char* key, double& out) const {
        const json* v = get(key);
        if (!v) return;
        if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0)
            fail(key, "must be a finite number >= 0, got " + v->dump());
        out = v->get<double>();
    }
    void boolean(const char* key, bool& out) const {
        const json* v = get(key);
        if (!v) return;
        if (!v->is_boolean()) fail(key, "must be true or false, got " + v->dump());
        out = v->get<bool>();
    }
    void text(const char* key, std::string& out) const {
        const json* v = get(key);
        if (!v) return;
        if (!v->is_string()) fail(key, "must be a string, got " + v->dump());
        out = v->get<std::string>();
    }
    template <typename E, typename Parse>
    void choice(const char* key, E& out, Parse parse) const {
        std::string s;
        text(key, s);
        if (s.empty() && !get(key)) return;
        try {
            out = parse(s);
        } catch (const InputError& e) {
            fail(key, e.what());
        }
    }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        const std::string path = key == section_ ? key : section_ + "." + key;
        throw InputError(source_ + ": " + path + " " + what);
    }

private:
    const json* get(const char* key) const {
        if (!obj_ || !obj_->contains(key)) return nullptr;
        return &obj_->at(key);
    }
    const json* obj_ = nullptr;
    std::string source_;
    std::string section_;
};

}  // namespace

json scenario_to_json(const Scenario& s) {
    const Cluster& c = s.cluster;
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    const Assumptions& a = s.assumptions;
    return {
        {"version", kSessionVersion},
        {"model", model_json(s.model)},
        {"cluster",
         {{"nodes", c.nodes}, {"gpus_per_node", c.gpus_per_node}, {"gpu_name", c.gpu.name}, {"gpu_display_name", c.gpu.display_name},
          {"gpu_memory_gib", c.gpu.memory_gib}, {"gpu_peak_tflops_16bit", c.gpu.peak_tflops_16bit},
          {"intra_node_gbytes_per_s", c.intra_node_gbytes_per_s}, {"inter_node_gbits_per_s", c.inter_node_gbits_per_s},
          {"pcie_gbytes_per_s", c.pcie_gbytes_per_s}, {"cpu_ram_bytes_per_node", c.cpu_ram_bytes_per_node},
          {"nvme_bytes_per_node", c.nvme_bytes_per_node}, {"nvme_gbytes_per_s", c.nvme_gbytes_per_s},
          {"cpu_adam_params_per_second", c.cpu_adam_params_per_second}}},
        {"training",
         {{"precision", to_string(t.precision)}, {"optimizer", to_string(t.optimizer)}, {"seq_len", t.seq_len},
          {"micro_batch", t.micro_batch}, {"auto_micro_batch", t.auto_micro_batch}, {"global_batch", t.global_batch}, {"checkpointing", to_string(t.checkpointing)}, {"auto_checkpointing", t.auto_checkpointing},
          {"flash_attention", t.flash_attention}, {"cpu_checkpointing", t.cpu_checkpointing}}},
        {"zero",
         {{"stage", z.stage}, {"offload_optimizer", to_string(z.offload_optimizer)}, {"offload_param", to_string(z.offload_param)},
          {"overlap_comm", z.overlap_comm}, {"reduce_bucket_elems", z.reduce_bucket_elems},
          {"allgather_bucket_elems", z.allgather_bucket_elems}, {"stage3_prefetch_bucket_elems", z.stage3_prefetch_bucket_elems},
          {"stage3_max_live_parameters", z.stage3_max_live_parameters},
          {"stage3_param_persistence_threshold", z.stage3_param_persistence_threshold}, {"sub_group_size", z.sub_group_size},
          {"offload_param_buffer_count", z.offload_param_buffer_count}, {"offload_param_buffer_size", z.offload_param_buffer_size},
          {"offload_optimizer_buffer_count", z.offload_optimizer_buffer_count}, {"zero_init", z.zero_init}}},
        {"assumptions",
         {{"convention", to_string(a.convention)}, {"headroom", a.headroom}, {"cuda_context_bytes", a.cuda_context_bytes},
          {"fragmentation", a.fragmentation}, {"host_buffer_factor", a.host_buffer_factor}, {"mfu", a.mfu},
          {"comm_overlap_fraction", a.comm_overlap_fraction}, {"collective_latency_seconds", a.collective_latency_seconds},
          {"token_budget", a.token_budget}}},
    };
}

Scenario scenario_from_json(const json& j, const std::string& source) {
    if (!j.is_object()) throw InputError(source + ": a session must be a JSON object");
    if (!j.contains("version")) throw InputError(source + ": field 'version' is missing: this is not a ZeRO Planner session");
    if (!j.at("version").is_number_integer() || j.at("version").get<std::int64_t>() != kSessionVersion)
        throw InputError(source + ": session version " + j.at("version").dump() + " is not supported (this build reads version " +
                         std::to_string(kSessionVersion) + ")");
    Scenario s = default_scenario();

    const Reader m(j, "model", source);
    ModelSpec& ms = s.model;
    m.text("name", ms.name);
    m.text("family", ms.family);
    m.integer("layers", ms.layers, 1);
    m.integer("hidden", ms.hidden, 1);
    m.integer("heads", ms.heads, 1);
    m.integer("kv_heads", ms.kv_heads, 1);
    m.integer("head_dim", ms.head_dim, 1);
    m.integer("ffn", ms.ffn, 1);
    m.boolean("gated_mlp", ms.gated_mlp);
    m.integer("vocab", ms.vocab, 1);
    m.boolean("tied_embeddings", ms.tied_embeddings);
    m.integer("positions", ms.positions);
    m.integer("experts", ms.experts, 1);
    m.integer("experts_per_token", ms.experts_per_token, 1);
    m.choice("norm", ms.norm, parse_norm_kind);
    m.boolean("qkv_bias", ms.qkv_bias);
    m.boolean("out_bias", ms.out_bias);
    m.boolean("mlp_bias", ms.mlp_bias);
    m.boolean("lm_head_bias", ms.lm_head_bias);
    m.boolean("fused_qkv", ms.fused_qkv);
    m.boolean("fused_gate_up", ms.fused_gate_up);
    m.integer("norms_per_layer", ms.norms_per_layer, 0);
    m.boolean("embedding_norm", ms.embedding_norm);
    m.boolean("encoder_decoder", ms.encoder_decoder);
    m.integer("relative_attention_buckets", ms.relative_attention_buckets);
    m.boolean("synthesized", ms.synthesized);
    m.integer("params_override", ms.params_override);
    m.integer("largest_layer_override", ms.largest_layer_override);

    const Reader c(j, "cluster", source);
    Cluster& cl = s.cluster;
    c.integer("nodes", cl.nodes, 1);
    c.integer("gpus_per_node", cl.gpus_per_node, 1);
    c.text("gpu_name", cl.gpu.name);
    c.text("gpu_display_name", cl.gpu.display_name);
    c.number("gpu_memory_gib", cl.gpu.memory_gib);
    c.number("gpu_peak_tflops_16bit", cl.gpu.peak_tflops_16bit);
    c.number("intra_node_gbytes_per_s", cl.intra_node_gbytes_per_s);
    c.number("inter_node_gbits_per_s", cl.inter_node_gbits_per_s);
    c.number("pcie_gbytes_per_s", cl.pcie_gbytes_per_s);
    c.number("cpu_ram_bytes_per_node", cl.cpu_ram_bytes_per_node);
    c.number("nvme_bytes_per_node", cl.nvme_bytes_per_node);
    c.number("nvme_gbytes_per_s", cl.nvme_gbytes_per_s);
    c.number("cpu_adam_params_per_second", cl.cpu_adam_params_per_second);

    const Reader t(j, "training", source);
    Training& tr = s.training;
    t.choice("precision", tr.precision, parse_precision);
    t.choice("optimizer", tr.optimizer, parse_optimizer);
    t.integer("seq_len", tr.seq_len, 1);
    t.integer("micro_batch", tr.micro_batch, 1);
    t.boolean("auto_micro_batch", tr.auto_micro_batch);
    t.integer("global_batch", tr.global_batch, 0);
    t.choice("checkpointing", tr.checkpointing, parse_checkpointing);
    t.boolean("auto_checkpointing", tr.auto_checkpointing);
    t.boolean("flash_attention", tr.flash_attention);
    t.boolean("cpu_checkpointing", tr.cpu_checkpointing);

    const Reader z(j, "zero", source);
    ZeroSetup& zs = s.zero;
    z.integer("stage", zs.stage, 0);
    z.choice("offload_optimizer", zs.offload_optimizer, parse_offload_device);
    z.choice("offload_param", zs.offload_param, parse_offload_device);
    z.boolean("overlap_comm", zs.overlap_comm);
    z.number("reduce_bucket_elems", zs.reduce_bucket_elems);
    z.number("allgather_bucket_elems", zs.allgather_bucket_elems);
    z.number("stage3_prefetch_bucket_elems", zs.stage3_prefetch_bucket_elems);
    z.number("stage3_max_live_parameters", zs.stage3_max_live_parameters);
    z.number("stage3_param_persistence_threshold", zs.stage3_param_persistence_threshold);
    z.number("sub_group_size", zs.sub_group_size);
    z.integer("offload_param_buffer_count", zs.offload_param_buffer_count);
    z.number("offload_param_buffer_size", zs.offload_param_buffer_size);
    z.integer("offload_optimizer_buffer_count", zs.offload_optimizer_buffer_count);
    z.boolean("zero_init", zs.zero_init);

    const Reader a(j, "assumptions", source);
    Assumptions& as = s.assumptions;
    a.choice("convention", as.convention, parse_convention);
    a.number("headroom", as.headroom);
    a.number("cuda_context_bytes", as.cuda_context_bytes);
    a.number("fragmentation", as.fragmentation);
    a.number("host_buffer_factor", as.host_buffer_factor);
    a.number("mfu", as.mfu);
    a.number("comm_overlap_fraction", as.comm_overlap_fraction);
    a.number("collective_latency_seconds", as.collective_latency_seconds);
    a.number("token_budget", as.token_budget);

    try {
        validate(s);
    } catch (const InputError& e) {
        throw InputError(source + ": " + e.what());
    }
    return s;
}

Scenario parse_session(std::string_view text, const std::string& source_name) {
    return scenario_from_json(parse_json_text(text, source_name), source_name);
}

std::string session_text(const Scenario& s) { return scenario_to_json(s).dump(2) + "\n"; }

}  // namespace zp
