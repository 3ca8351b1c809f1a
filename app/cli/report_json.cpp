#include "app/cli/report_json.h"

#include "core/memory/allocator.h"
#include "core/memory/host_slices.h"
#include "core/memory/memory_model.h"
#include "core/memory/memory_slices.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/model/trainable_params.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zp {

using nlohmann::json;

namespace {
// JSON has no NaN or infinity; a number we cannot compute is null, never a broken document.
json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }
// A count (bytes, bucket elements) as a JSON integer, rounded to the nearest whole number.
json whole(double v) { return std::isfinite(v) ? json(static_cast<std::int64_t>(std::llround(v))) : json(nullptr); }
}  // namespace

json model_summary_json(const ModelSpec& m) {
    json j = {{"params", parameter_count(m)},
              {"largest_layer_params", largest_layer_params(m)},
              {"layers", m.layers},
              {"hidden", m.hidden},
              {"heads", m.heads},
              {"kv_heads", m.kv_heads},
              {"ffn", m.ffn},
              {"vocab", m.vocab},
              {"name", m.name},
              {"family", m.family},
              {"gated_mlp", m.gated_mlp},
              {"experts", m.experts},
              {"synthesized", m.synthesized}};
    return j;
}

json per_gpu_json(const MemoryBreakdown& m) {
    json j = json::object();  // keys sorted on output (nlohmann::json is a std::map)
    for (const MemorySlice& slice : memory_slices()) {
        j[std::string(slice.key)] = whole(slice.bytes(m));
        for (const MemoryPart& part : slice.parts) j[std::string(part.key)] = whole(part.bytes(m));
    }
    // Fine-tuning: the parameters slice split into the frozen base (as stored) and the trained weights.
    j["params_frozen"] = whole(m.frozen_params_bytes);
    j["params_trainable"] = whole(m.params_bytes - m.frozen_params_bytes);
    // The slices above are the step's composition at the moment that decides the fit; "total" is
    // what must fit (= peak_required). Beside it the step's largest allocation and reserve.
    j["total"] = whole(m.total_bytes());
    j["deciding_phase"] = to_string(m.required_phase);
    j["deciding_cause"] = m.required_cause;
    j["peak_allocated"] = whole(m.peak_allocated_bytes);
    j["peak_reserved"] = whole(m.peak_reserved_bytes);
    j["peak_required"] = whole(m.peak_required_bytes);
    j["peak_phase"] = to_string(m.peak.phase);
    j["peak_cause"] = m.peak.cause;
    // bitsandbytes' paged moments: in CUDA managed memory, in none of the figures above (only with them).
    if (m.paged_optimizer_bytes > 0) j["paged_optimizer_states"] = whole(m.paged_optimizer_bytes);
    return j;
}

json host_json(const HostMemory& h) {
    json phases = json::array();
    for (const HostMoment& mo : h.moments) {
        json bytes = json::object();
        for (const HostSlice& slice : host_slices()) bytes[std::string(slice.key)] = whole(slice.bytes(mo.bytes));
        phases.push_back({{"phase", to_string(mo.phase)},
                          {"total", whole(mo.bytes.total())},
                          {"pinned_rounding", whole(mo.pinned_rounding_bytes)},
                          {"cause", mo.cause},
                          {"bytes", bytes}});
    }
    return {{"peak_bytes", whole(h.peak_bytes())}, {"peak_phase", to_string(h.peak_phase)}, {"peak_when", host_phase_words(h.peak_phase)},
            {"peak_cause", h.peak().cause},        {"nvme_bytes", whole(h.nvme_bytes)},     {"phases", phases}};
}

json timeline_json(const Scenario& s) {
    const std::vector<StepMoment> timeline = step_timeline(s, TimelineDetail::EveryLayer);
    const std::vector<double> reserved = reserved_along(s, timeline);
    json out = json::array();
    for (std::size_t i = 0; i < timeline.size(); ++i) {
        const StepMoment& mo = timeline[i];
        json e = {{"phase", to_string(mo.phase)},
                  {"allocated", whole(mo.allocated_bytes())},
                  {"reserved", whole(reserved[i])},
                  {"bytes",
                   {{"params", whole(mo.params_bytes)},
                    {"gradients", whole(mo.gradients_bytes)},
                    {"optimizer_states", whole(mo.optimizer_states_bytes)},
                    {"activations", whole(mo.activations_bytes)},
                    {"buffers", whole(mo.buffers_bytes)}}},
                  {"cause", mo.cause}};
        if (mo.layer > 0) e["layer"] = mo.layer;
        out.push_back(e);
    }
    return out;
}

json step_json(const StepTime& s) {
    return {{"seconds", num(s.seconds)},
            {"compute_seconds", num(s.compute_seconds)},
            {"comm_seconds", num(s.comm_seconds)},
            {"offload_seconds", num(s.offload_seconds)},
            {"data_wait_seconds", num(s.data_wait_seconds)},
            {"expert_all_to_all_seconds", num(s.expert_all_to_all_seconds)},
            {"ulysses_seconds", num(s.ulysses_seconds)},
            {"tokens_per_second", num(s.tokens_per_second)},
            {"mfu", num(s.mfu)},
            {"model_tflops_per_gpu", num(s.model_tflops_per_gpu)},
            {"slowdown_percent", num(s.slowdown_percent)},
            {"tokens_per_step", num(s.tokens_per_step)},
            {"gradient_accumulation_steps", s.gradient_accumulation_steps},
            {"budget_tokens_seconds", num(s.budget_seconds)},
            {"budget_gpu_hours", num(s.budget_gpu_hours)}};
}

json setup_json(const ZeroSetup& z) {
    return {{"stage", z.stage}, {"offload_optimizer", to_string(z.offload_optimizer)}, {"offload_param", to_string(z.offload_param)}};
}

json finetune_json(const Scenario& s) {
    const FineTune& f = s.finetune;
    const ParameterSplit p = parameter_split(s);
    json j = {{"method", to_string(f.method)},
              {"trainable_params", whole(p.trainable)},
              {"frozen_params", whole(p.frozen)},
              {"all_params", whole(p.peft_all())},
              {"trainable_percent", num(100.0 * p.trainable / p.peft_all())},
              {"frozen_bytes", whole(p.frozen_bytes)},
              {"quant_state_bytes", whole(p.quant_state_bytes)}};
    if (f.adapters()) {
        const json targets = distinct_names(adapted_modules(s.model, f));
        j["lora"] = {{"rank", f.lora_rank},
                     {"alpha", num(f.lora_alpha)},
                     {"dropout", num(f.lora_dropout)},
                     {"targets", to_string(f.targets)},
                     {"target_modules", targets},
                     {"adapter_params", whole(p.adapter)},
                     {"base_precision", to_string(f.base_precision)},
                     {"quantized_params", whole(p.quantized)}};
    }
    return j;
}

// MiCS in effect (core/model/mics.h): shard 1 = off.
json mics_json(const Scenario& s) {
    const MicsGroups m = effective_mics(s);
    return {{"shard_size", m.shard}, {"replicas", m.replicas}, {"crosses_nodes", m.crosses_nodes}, {"hierarchical_gather", m.hierarchical}};
}

// The model-parallel layout and the ZeRO++ switches in effect (docs/design.md §4.10-4.11): tp,
// pp and dp multiply to the GPUs; "searched" says which sizes the recommender chose (--tp/--pp auto)
// and whether it chose the ZeRO++ switches (--zeropp auto).
json parallel_json(const Scenario& s) {
    const Parallelism& p = s.parallel;
    const ZeroPlusPlus z = effective_zeropp(s);
    json out = {
        {"tp", p.tensor},
        {"pp", p.pipeline},
        {"ep", p.expert},   // DeepSpeed-MoE ep_size (core/model/experts.h)
        {"sp", p.ulysses},  // DeepSpeed-Ulysses sequence_parallel_size
        {"dp", data_parallel_size(s)},
        {"virtual_stages", p.virtual_stages},
        {"sequence_parallel", p.sequence_parallel},
        {"pipeline_send", to_string(p.pipeline_send)},  // Parallelism::pipeline_send
        {"searched",
         {{"tp", p.auto_tensor}, {"pp", p.auto_pipeline}, {"ep", p.auto_expert}, {"sp", p.auto_ulysses}, {"zeropp", s.zero.auto_zeropp}}},
        {"zeropp",
         {{"hpz_partition_size", z.hpz_partition_size},
          {"quantized_weights", z.quantized_weights},
          {"quantized_gradients", z.quantized_gradients}}}};
    if (effective_mics(s).on()) out["mics"] = mics_json(s);  // only when on, so that outputs without MiCS keep their form
    return out;
}

// Pipeline parallelism: each stage's rank, first to last (pipeline_stage_memory); the per-GPU
// figures above are the most loaded rank's. Empty without pipelining.
json pipeline_stages_json(const Scenario& s) {
    json stages = json::array();
    if (s.parallel.pipeline <= 1) return stages;
    const std::vector<MemoryBreakdown> per_stage = pipeline_stage_memory(s);
    for (std::size_t i = 0; i < per_stage.size(); ++i) {
        const MemoryBreakdown& m = per_stage[i];
        stages.push_back({{"stage", i},
                          {"layers", stage_layers(s.model.layers, s.parallel.pipeline, static_cast<std::int64_t>(i))},
                          {"params", whole(m.params_bytes)},
                          {"gradients", whole(m.gradients_bytes)},
                          {"optimizer_states", whole(m.optimizer_states_bytes)},
                          {"activations", whole(m.activations_bytes)},
                          {"peak_allocated", whole(m.peak_allocated_bytes)},
                          {"peak_required", whole(m.peak_required_bytes)},
                          {"peak_phase", to_string(m.peak.phase)},
                          {"fits", check_fit(s, m).gpu}});
    }
    return stages;
}

namespace {
// The engine (core/model/engine.h): DeepSpeed, or FSDP with its strategy name and dtypes.
json engine_json(const Scenario& s) {
    json j{{"engine", to_string(s.fsdp.engine)}};
    if (is_fsdp(s.fsdp)) {
        // FSDP1's ShardingStrategy; FSDP2 has none: fully_shard's reshard_after_forward says the
        // same (True: FULL_SHARD's, False: SHARD_GRAD_OP's), hybrid sharding is its 2-D mesh.
        if (s.fsdp.engine == Engine::Fsdp2) {
            j["reshard_after_forward"] = s.zero.stage == 3;
            j["hybrid_mesh"] = fsdp_hybrid_sharding(s);
            j["cpu_offload_policy"] = s.zero.offload_param == OffloadDevice::Cpu;
        } else {
            j["sharding_strategy"] = fsdp_strategy_name(setup_key(s.zero), fsdp_hybrid_sharding(s));
        }
        j["fsdp_precision"] = to_string(s.fsdp.precision);
        j["limit_all_gathers"] = s.fsdp.limit_all_gathers;
        j["sync_each_batch"] = s.fsdp.sync_each_batch;
    }
    return j;
}
}  // namespace

json estimate_json(const Scenario& s, const Candidate& c) {
    const FitMargin margin = fit_margin(s, c.memory);
    return {{"model", model_summary_json(s.model)},
            {"finetune", finetune_json(s)},
            {"setup", setup_json(c.zero)},
            {"engine", engine_json(with_candidate(s, c))},
            {"parallel", parallel_json(with_candidate(s, c))},
            {"convention", to_string(s.assumptions.convention)},
            {"per_gpu_bytes", per_gpu_json(c.memory)},
            {"pipeline_stages", pipeline_stages_json(with_candidate(s, c))},
            {"cpu_bytes_per_node", whole(c.memory.cpu_bytes_per_node)},
            {"nvme_bytes_per_node", whole(c.memory.nvme_bytes_per_node)},
            {"host_per_node", host_json(c.memory.host)},
            {"usable_gpu_bytes", whole(usable_gpu_bytes(s))},
            {"margin_bytes", whole(margin.margin_bytes)},
            {"at_edge", margin.at_edge},
            {"fits", c.fit.all()},
            {"fits_detail", {{"gpu", c.fit.gpu}, {"cpu", c.fit.cpu}, {"nvme", c.fit.nvme}}},
            {"step", step_json(c.step)},
            {"timeline", timeline_json(with_candidate(s, c))}};
}

namespace {
json candidate_json(const Scenario& s, const Candidate& c) {
    return {{"stage", c.zero.stage},
            {"parallel", parallel_json(with_candidate(s, c))},  // the layout it runs on (the search's choice with --tp/--pp auto)
            {"offload_optimizer", to_string(c.zero.offload_optimizer)},
            {"offload_param", to_string(c.zero.offload_param)},
            {"checkpointing", to_string(c.checkpointing)},
            {"micro_batch", c.micro_batch},
            {"gradient_accumulation_steps", c.gradient_accumulation_steps},
            {"overlap_comm", c.zero.overlap_comm},
            {"reduce_bucket_size", whole(c.zero.reduce_bucket_elems)},
            {"allgather_bucket_size", whole(c.zero.allgather_bucket_elems)},
            {"per_gpu_bytes", per_gpu_json(c.memory)},
            {"pipeline_stages", pipeline_stages_json(with_candidate(s, c))},
            {"cpu_bytes_per_node", whole(c.memory.cpu_bytes_per_node)},
            {"nvme_bytes_per_node", whole(c.memory.nvme_bytes_per_node)},
            {"host_per_node", host_json(c.memory.host)},
            {"step", step_json(c.step)},
            {"timeline", timeline_json(with_candidate(s, c))}};
}
}  // namespace

json plan_json(const Scenario& s, const Plan& p) {
    json j;
    j["feasible"] = p.feasible;
    j["best"] = p.feasible ? candidate_json(s, p.best) : json(nullptr);
    j["alternatives"] = json::array();
    for (const auto& c : p.alternatives) j["alternatives"].push_back(candidate_json(s, c));
    j["rejected"] = json::array();
    for (const auto& r : p.rejected) j["rejected"].push_back({{"setup", r.setup}, {"reason", r.reason}});
    j["why"] = p.why;
    j["suggestions"] = p.suggestions;
    j["candidates_evaluated"] = p.candidates_evaluated;
    // What the window draws for each setup: its fastest feasible candidate, or its least-memory one.
    j["per_setup"] = json::array();
    for (std::size_t i = 0; i < p.per_setup.size(); ++i) {
        json c = candidate_json(s, p.per_setup[i]);
        c["fits"] = p.per_setup_feasible[i];
        j["per_setup"].push_back(c);
    }
    return j;
}

}  // namespace zp
