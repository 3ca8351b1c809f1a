#include "app/cli/text_report.h"

#include "core/report/report.h"

#include "core/base/format.h"
#include "core/base/units.h"
#include "core/memory/host_memory.h"
#include "core/memory/host_slices.h"
#include "core/memory/memory_slices.h"
#include "core/model/experts.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/model/trainable_params.h"
#include "core/presets/gpu_presets.h"
#include "core/search/host_advice.h"
#include "core/search/max_sequence.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "core/time/compute_time.h"
#include "core/time/step_explain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zp::cli {
namespace {

// "1,000B" for a pre-training budget, "100M" for a fine-tune's: billions from 1e9 up, else millions.
std::string budget_tokens_words(double tokens) {
    return tokens >= 1e9 ? format_count(tokens / 1e9) + "B" : format_count(std::max(tokens / 1e6, 1.0)) + "M";
}

std::string gib(double bytes) { return format_fixed(bytes_to_gib(bytes), 2); }

// "fits, 17.00 GiB to spare"; within 5% of the card "fits, at the edge: 75.10 of 76.00 GiB"
// (core/memory/memory_model.h fit_margin), so a boundary call is not read as a certainty.
std::string gpu_fit_words(const Scenario& s, const MemoryBreakdown& m, bool fits) {
    const FitMargin margin = fit_margin(s, m);
    const std::string call = fits ? "fits" : "DOES NOT FIT";
    if (margin.at_edge) return call + ", at the edge: " + gib(m.peak_required_bytes) + " of " + gib(usable_gpu_bytes(s)) + " GiB";
    return call + ", " + gib(std::abs(margin.margin_bytes)) + " GiB " + (fits ? "to spare" : "short");
}

std::string pad_right(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}
std::string pad_left(std::string s, std::size_t width) {
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    return s;
}

std::string convention_text(const Scenario& s) {
    // FSDP's states are its own (core/memory/fsdp_memory.h): the shard, its gradient and
    // torch.optim's moments in the parameters' dtype, no separate master copy.
    // Under hybrid sharding N is the node's GPUs (replicated_shard_groups).
    if (is_fsdp(s.fsdp)) {
        const std::string n = fsdp_hybrid_sharding(s) ? "; N the node's GPUs, hybrid" : "";
        // FSDP2 has no NO_SHARD, and says its two shardings by reshard_after_forward.
        const bool pure = s.fsdp.precision == FsdpPrecision::Pure;
        const std::string per_param = pure ? "8P" : "16P";
        const std::string states = s.fsdp.engine == Engine::Fsdp2
                                       ? "reshard_after_forward True or False " + per_param + "/N"
                                       : "NO_SHARD " + per_param + ", SHARD_GRAD_OP and FULL_SHARD " + per_param + "/N";
        return engine_name(s.fsdp.engine) + (pure ? ", model in the training dtype (" : ", fp32 model (") + states + " with AdamW" + n +
               ")";
    }
    return s.assumptions.convention == Convention::DeepSpeed
               ? "DeepSpeed implementation (stage 0 20P, stage 1 4P+16P/N, stage 2 2P+18P/N, stage 3 18P/N)"
               : "ZeRO paper, K=12 (stage 0 16P, stage 1 4P+12P/N, stage 2 2P+14P/N, stage 3 16P/N)";
}

// A node's host memory phase by phase, the peak marked with when and why (core/memory/host_memory.h).
std::string host_text(const Scenario& scenario, const Candidate& c) {
    // Who loads and what is pinned are the candidate's (a recommendation's setup and engine, not
    // the scenario's as given).
    const Scenario s = with_candidate(scenario, c);
    const HostMemory& h = c.memory.host;
    // The dtype the model is built in on the host (loaded_bytes_per_param); CPUOffload always pins
    // its shards, whatever pin_memory says.
    const bool sixteen = loaded_bytes_per_param(s) <= 2.0;
    const std::string load = s.finetune.method == FineTuneMethod::Qlora ? "quantised onto the GPUs" : sixteen ? "16-bit" : "fp32";
    const std::string buffers = !is_fsdp(s.fsdp) ? std::string("; offload buffers ") + (s.zero.pin_memory ? "pinned" : "pageable")
                                : s.zero.offload_param == OffloadDevice::Cpu ? "; CPUOffload shards pinned"
                                                                             : "";
    const char* loader = "";
    const ModelLoader how = model_loader(s);
    switch (how) {
    case ModelLoader::EveryProcess: break;
    case ModelLoader::NodeFirstProcess: loader = " on the node's first process (cpu_ram_efficient_loading)"; break;
    case ModelLoader::ZeroInit: loader = " under zero.Init"; break;
    case ModelLoader::QuantisedOnEveryProcess:
        if (is_fsdp(s.fsdp)) loader = " on every process (transformers loads a quantised model on each rank)";
        break;
    }
    std::string out = "Per node, host RAM      GiB  (loading " + load + loader +
                      (loads_on_meta_device(s.training, how) ? ", on the meta device" : "") + buffers + ")\n";
    for (const HostMoment& mo : h.moments) {
        out += "  " + pad_right(to_string(mo.phase), 18) + pad_left(gib(mo.bytes.total()), 8);
        if (mo.phase == h.peak_phase) out += "  <- peak: " + std::string(mo.cause);
        out += "\n";
    }
    const HostMoment& peak = h.peak();
    std::string parts;
    for (const HostSlice& slice : host_slices()) {
        const double b = slice.bytes(peak.bytes);
        if (b <= 0) continue;
        parts += (parts.empty() ? "" : ", ") + std::string(slice.name) + " " + gib(b);
    }
    out += "  at the peak: " + parts + "\n";
    if (peak.pinned_rounding_bytes > 0)
        out += "  pinned rounding:  " + gib(peak.pinned_rounding_bytes) +
               " GiB of the peak is PyTorch rounding each pinned block up to a power of two\n";
    out += "  available         " + pad_left(gib(s.cluster.cpu_ram_bytes_per_node), 8) + "  " +
           (c.fit.cpu ? "fits" : std::string("DOES NOT FIT ") + host_phase_words(h.peak_phase)) + "\n";
    if (!c.fit.cpu) {
        const std::vector<HostFix> fixes = host_ram_fixes(with_candidate(s, c));
        if (!fixes.empty()) out += "  what frees host RAM, cheapest first:\n";
        for (const HostFix& f : fixes)
            out += "    - " + f.change + ": frees " + format_bytes(f.freed_bytes) + ", peak " + format_bytes(f.peak_bytes) + " " +
                   host_phase_words(f.peak_phase) + (f.fits ? ", fits" : ", still short") + "\n";
    }
    return out;
}

// The fine-tuning method and what it trains, in PEFT's print_trainable_parameters format.
std::string finetune_text(const Scenario& s) {
    const FineTune& f = s.finetune;
    if (!f.adapters() && f.freeze_layers == 0 && !f.freeze_embeddings) return {};
    const ParameterSplit p = parameter_split(s);
    std::string what;
    if (f.adapters()) {
        std::string names;
        for (const std::string& n : distinct_names(adapted_modules(s.model, f))) names += (names.empty() ? "" : ",") + n;
        what = std::string(f.method == FineTuneMethod::Qlora ? "QLoRA" : "LoRA") + " r " + std::to_string(f.lora_rank) + ", alpha " +
               format_general(f.lora_alpha) + ", dropout " + format_general(f.lora_dropout) + " on " + names;
        if (f.method == FineTuneMethod::Qlora) {
            const BasePrecision base = f.base_precision == BasePrecision::Auto ? BasePrecision::Nf4 : f.base_precision;
            // bnb_4bit_use_double_quant: the 4-bit types' absmax only (BitsAndBytesConfig); int8 has none.
            what += "; base " + std::string(to_string(base)) +
                    (f.double_quant && base != BasePrecision::Int8 ? " with double quantisation" : "") + ", " +
                    format_bytes(p.frozen_bytes + p.quant_state_bytes);
        }
    } else {
        what = "full, frozen:" + std::string(f.freeze_embeddings ? " the embedding" : "") +
               (f.freeze_layers > 0
                    ? (f.freeze_embeddings ? " and" : "") + std::string(" the first ") + std::to_string(f.freeze_layers) + " layers"
                    : "");
    }
    return "Fine-tune: " + what + "\n           trainable params: " + format_count(p.trainable) +
           " || all params: " + format_count(p.peft_all()) + " || trainable%: " + format_fixed(100.0 * p.trainable / p.peft_all(), 4) +
           "\n";
}

// Where the matmuls do not run on the 16-bit tensor cores: bf16 on a part without bf16 tensor
// cores, and fp32 (PyTorch leaves TF32 off), at the rate compute_time.h gemm_peak_tflops gives.
std::string matmul_rate_note(const Scenario& s) {
    const GpuSpec& gpu = s.cluster.gpu;
    const GpuTimeTraits traits = gpu_time_traits(gpu);
    const double peak = gemm_peak_tflops(s.training.precision, gpu, traits);
    if (peak == gpu.peak_tflops_16bit) return {};
    const std::string rate = format_fixed(peak, 1) + " TFLOP/s";
    if (s.training.precision == Precision::Fp32)
        return "fp32 matmuls on the FP32 units, " + rate + ": PyTorch leaves TF32 off (torch.backends.cuda.matmul.allow_tf32)";
    return "the " + gpu.display_name + " has no bf16 tensor cores: its bf16 matmuls run on the FP32 units, " + rate +
           "; --precision fp16 runs them on its tensor cores";
}

}  // namespace

std::string scenario_header(const Scenario& s, bool synthesized, const std::string& host_note, bool setups_searched,
                            const std::vector<std::string>& file_warnings) {
    const ModelSpec& m = s.model;
    const Cluster& c = s.cluster;
    std::string out;
    out += "Model:   " + m.name + ": " + format_count(static_cast<double>(parameter_count(m))) + " parameters, largest layer " +
           format_count(static_cast<double>(largest_layer_params(m))) + "; " + std::to_string(m.layers) + " layers, hidden " +
           std::to_string(m.hidden) + ", " + std::to_string(m.heads) + " heads (" + std::to_string(m.kv_heads) + " kv), ffn " +
           std::to_string(m.ffn) + ", vocab " + std::to_string(m.vocab) +
           (m.activation == MlpActivation::GeluNew ? ", activation gelu_new (eight kernels)" : "") + "\n";
    if (synthesized || m.synthesized)
        out +=
            "         (architecture synthesized from the size alone, hidden = 128 x layers, for activations; give --model or --hf-config for a real one)\n";
    out += "Cluster: " + std::to_string(c.world_size()) + " x " + c.gpu.display_name + " (" + std::to_string(c.nodes) + " node" +
           (c.nodes > 1 ? "s" : "") + " x " + std::to_string(c.gpus_per_node) + "), " + format_fixed(c.gpu.memory_gib, 1) +
           " GiB per GPU; host " + format_bytes(c.cpu_ram_bytes_per_node) + " RAM, " + format_bytes(c.nvme_bytes_per_node) +
           " NVMe per node\n";
    if (!host_note.empty()) out += "         (" + host_note + ")\n";
    out += "Training: " + training_row(s) + "\n";
    if (const std::string note = matmul_rate_note(s); !note.empty()) out += "         (" + note + ")\n";
    if (const Phrase past = past_positions_phrase(s); !past.text.empty()) out += "         (" + english(past) + ")\n";
    if (const std::string ft = finetune_text(s); !ft.empty()) out += ft;
    if (const std::string engine = engine_words(s, !setups_searched); !engine.empty()) out += "Engine:  " + engine + "\n";
    if (const std::string layout = layout_words(s); !layout.empty())
        out +=
            "Parallel: " + layout +
            (s.parallel.ulysses > 1                                    ? " (DeepSpeed-Ulysses)\n"
             : tensor_replicates_kv_groups(s.model, s.parallel.tensor) ? " (Megatron-Core 0.16+: more tensor ranks than key/value heads)\n"
             : s.parallel.pipeline > 1 && s.parallel.pipeline_send == PipelineSend::Whole
                 ? " (Megatron-Core: whole activations between stages)\n"
                 : " (Megatron-DeepSpeed)\n");
    out += "Convention: " + convention_text(s) + "\n";
    if (!s.assumptions.calibration.empty()) out += "Calibration: " + s.assumptions.calibration + "\n";
    for (const std::string& w : file_warnings) out += "Warning: " + w + "\n";
    return out;
}

std::string estimate_text(const Scenario& s, const Candidate& c) {
    const MemoryBreakdown& m = c.memory;
    std::string out;
    out += "Setup:   " + setup_label(setup_key(c.zero), c.engine, c.hybrid_shard) + ", micro batch " + std::to_string(c.micro_batch) +
           " x " + std::to_string(c.gradient_accumulation_steps) + " accumulation steps, recompute " + to_string(c.checkpointing) +
           (c.zero.bf16_master_weights ? ", bf16 master weights and optimizer states" : "") + "\n";
    // With ZeRO++ on auto across nodes, the search's choice at stage 3 (ZeroSetup::auto_zeropp), off included.
    const bool zeropp_chosen = c.zero.auto_zeropp && c.zero.stage == 3 && s.cluster.nodes > 1;
    if (const std::string zpp = zeropp_words(effective_zeropp(with_candidate(s, c))); !zpp.empty())
        out += "ZeRO++:  " + zpp +
               (m.hpz_secondary_bytes > 0 ? "; secondary partition " + gib(m.hpz_secondary_bytes) + " GiB per GPU" : "") +
               (zeropp_chosen ? " (chosen: auto)" : "") + "\n";
    else if (zeropp_chosen) out += "ZeRO++:  off (chosen: auto)\n";
    if (!c.zero.auto_zeropp)
        if (const std::string dropped = zeropp_not_taken_words(with_candidate(s, c)); !dropped.empty()) out += "ZeRO++:  " + dropped + "\n";
    if (const MicsGroups mics = effective_mics(with_candidate(s, c)); mics.on())
        out += "MiCS:    " + english(mics_phrase(mics)) + "; replica gradient all-reduce " +
               format_seconds(c.step.exposed_allreduce_seconds) + " exposed a step\n";
    if (const std::string ex = expert_routing_words(with_candidate(s, c)); !ex.empty())
        out += "Experts: " + ex + "; dispatch/combine all-to-alls " + format_seconds(c.step.expert_all_to_all_seconds) + " a step\n";
    out += "\n";
    out += "Per GPU, must fit       GiB  at the " + std::string(to_string(m.required_phase)) + ": " + m.required_cause + "\n";
    const auto line = [&](std::string_view name, double bytes) {
        out += "  " + pad_right(std::string(name), 18) + pad_left(gib(bytes), 8) + "\n";
    };
    for (const MemorySlice& slice : memory_slices()) {
        if (slice.parts.empty()) line(slice.name, slice.bytes(m));
        for (const MemoryPart& part : slice.parts) line(part.name, part.bytes(m));
        if (slice.id == SliceId::Params && m.frozen_params_bytes > 0) line("  of which frozen", m.frozen_params_bytes);
    }
    line("must fit", m.total_bytes());
    out += "  usable            " + pad_left(gib(usable_gpu_bytes(s)), 8) + "  " + gpu_fit_words(s, m, c.fit.gpu) + "\n";
    if (m.paged_optimizer_bytes > 0)
        out += "  paged moments     " + pad_left(gib(m.paged_optimizer_bytes), 8) +
               "  bitsandbytes' paged optimizer states in CUDA managed memory: outside the allocator and not in \"must fit\";\n"
               "                              resident while the card has room, evicted to host RAM when it has not\n";
    out += "Per GPU, step peak      GiB\n";
    line("peak allocated", m.peak_allocated_bytes);
    out.pop_back();
    out += std::string("  in the ") + to_string(m.peak.phase) + ": " + m.peak.cause + " (torch.cuda.max_memory_allocated)\n";
    line("peak reserved", m.peak_reserved_bytes);
    out.pop_back();
    out += "  with the allocator's cache and the CUDA context, as nvidia-smi shows: " + std::string(kReservedNote) + "\n\n";
    out += host_text(s, c);
    out += "Per node: NVMe " + format_bytes(m.nvme_bytes_per_node) + " of " + format_bytes(s.cluster.nvme_bytes_per_node) +
           (c.fit.nvme ? "" : " (DOES NOT FIT)") + "\n";
    const StepTime& st = c.step;
    out += "Step:    " + format_seconds(st.seconds) + " = compute " + format_seconds(st.compute_seconds) + " + exposed communication " +
           format_seconds(st.comm_seconds) + " + offload " + format_seconds(st.offload_seconds) +
           (st.data_wait_seconds > 0 ? " + waiting for data " + format_seconds(st.data_wait_seconds) : std::string()) + " (" +
           format_fixed(st.slowdown_percent, 0) + "% over compute)\n";
    out += "         " + format_count(st.tokens_per_second) + " tokens/s, " + format_fixed(st.model_tflops_per_gpu, 0) +
           " model TFLOP/s per GPU, MFU " + format_fixed(st.mfu * 100, 1) + "%; " + budget_tokens_words(s.assumptions.token_budget) +
           " tokens take " + format_seconds(st.budget_seconds) + " (" + format_count(st.budget_gpu_hours) + " GPU-hours)\n";
    // A setup that cannot run here says why (the recommender's sentence for the same refusal).
    const std::string refused = setup_refusal_words(s, c);
    out += std::string("Fits:    ") + (c.fit.all() ? "yes" : "no") + (refused.empty() ? "" : ": " + refused) + "\n";
    return out;
}

// A column of setup names: 40 characters, wider when a name needs it (FSDP2's "fully_shard on an
// HSDP mesh, reshard_after_forward=False") so a name never runs into the column after it.
std::size_t setup_column_width(const std::vector<std::string>& names) {
    std::size_t width = 40;
    for (const std::string& name : names) width = std::max(width, name.size() + 2);
    return width;
}

std::string compare_text(const Scenario& s, const std::vector<Candidate>& rows) {
    std::vector<std::string> names;
    for (const Candidate& c : rows) names.push_back(setup_label(setup_key(c.zero), c.engine, c.hybrid_shard));
    const std::size_t width = setup_column_width(names);
    std::string out = "\n" + pad_right("setup", width);
    for (const MemorySlice& slice : memory_slices()) out += pad_left(std::string(slice.column), 8);
    out += pad_left("needed", 8) + pad_left("reserved", 9) + pad_left("host", 9) + pad_left("nvme", 9) + pad_left("step s", 9) +
           pad_left("tokens/s", 10) + "  fits\n";
    for (std::size_t row = 0; row < rows.size(); ++row) {
        const Candidate& c = rows[row];
        const MemoryBreakdown& m = c.memory;
        out += pad_right(names[row], width);
        // A setup the engine does not have (FSDP's ZeRO-1, its NVMe tier) has no figures to show.
        if (c.fit.refusal == SetupRefusal::Engine) {
            for (std::size_t i = 0; i < memory_slices().size(); ++i) out += pad_left("-", 8);
            out += pad_left("-", 8) + pad_left("-", 9) + pad_left("-", 9) + pad_left("-", 9) + pad_left("-", 9) + pad_left("-", 10) + "  " +
                   fits_word(c) + "\n";
            continue;
        }
        for (const MemorySlice& slice : memory_slices()) out += pad_left(gib(slice.bytes(m)), 8);
        out += pad_left(gib(m.total_bytes()), 8) + pad_left(gib(m.peak_reserved_bytes), 9) + pad_left(gib(m.cpu_bytes_per_node), 9) +
               pad_left(gib(m.nvme_bytes_per_node), 9) + pad_left(format_fixed(c.step.seconds, 2), 9) +
               pad_left(format_count(c.step.tokens_per_second), 10) + "  " + fits_word(c) + "\n";
    }
    out += "\nPer-GPU columns in GiB (usable " + gib(usable_gpu_bytes(s)) +
           "): what must fit (needed), split as the step holds it at the moment that decides the fit;\n"
           "the step's peak reserved (nvidia-smi);\n"
           "host and NVMe in GiB per node.\n";
    return out;
}

namespace {
// Headroom first: what the plan leaves at its peak, then what that room takes: the
// largest micro batch and the longest sequence its setup fits as it is (core/search/max_sequence.h).
std::string room_lines(const Scenario& s, const Candidate& best) {
    std::string out = "  " + english(headroom_phrase(s, best)) + ".\n";
    const PlanRoom room = room_of(s, best);
    if (room.micro) out += "  Largest micro batch: " + english(micro_batch_room_phrase(best, *room.micro)) + ", at this recompute.\n";
    if (room.longest && room.longest->max_seq_len > 0)
        out += "  Longest sequence at this micro batch and recompute: " + english(sequence_room_phrase(*room.longest)) +
               "; recommend --max-seq for every setup.\n";
    return out;
}
}  // namespace

std::string plan_text(const Scenario& s, const Plan& p) {
    std::string out;
    if (p.feasible) {
        out += "\nRecommended: " + setup_label(setup_key(p.best.zero), p.best.engine, p.best.hybrid_shard) + "\n";
        out += room_lines(s, p.best);
        for (const auto& w : p.why) out += "  " + w + "\n";
        out += "  What decides its step: " + explain_step_line(p.best.step) + ".\n";
        out += estimate_text(s, p.best);
        out += "\nOther setups:\n";
    } else {
        out += "\nNothing fits: no stage, offload or recompute setup fits this cluster.\n\nWhy each setup fails:\n";
    }
    std::vector<std::string> names;
    for (const auto& r : p.rejected) names.push_back(r.setup);
    const std::size_t width = setup_column_width(names);
    for (const auto& r : p.rejected) out += "  " + pad_right(r.setup, width) + r.reason + "\n";
    if (!p.suggestions.empty()) {
        out += "\nWhat would make it fit:\n";
        for (const auto& sgg : p.suggestions) out += "  - " + sgg + "\n";
    }
    out += "\n(" + std::to_string(p.candidates_evaluated) + " candidates evaluated)\n";
    return out;
}

}  // namespace zp::cli
