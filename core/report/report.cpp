#include "core/report/report.h"

#include "core/model/parallel_layout.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/fsdp_export.h"
#include "core/memory/memory_model.h"
#include "core/memory/memory_slices.h"
#include "core/model/enum_names.h"
#include "core/model/linear_modules.h"
#include "core/model/logits.h"
#include "core/model/mics.h"
#include "core/model/trainable_params.h"
#include "core/search/scenario_edits.h"
#include "core/time/step_explain.h"

namespace zp {
namespace {

// GiB with two decimals: compare's columns (app/cli/text_report.cpp).
std::string gib(double bytes) { return format_fixed(bytes_to_gib(bytes), 2); }

std::string on_off(bool on) { return on ? "on" : "off"; }

std::string model_row(const ModelSpec& m) {
    std::string text = m.name + ": " + format_count(static_cast<double>(parameter_count(m))) + " parameters; " + std::to_string(m.layers) +
                       " layers, hidden " + std::to_string(m.hidden) + ", " + std::to_string(m.heads) + " heads (" +
                       std::to_string(m.kv_heads) + " kv), ffn " + std::to_string(m.ffn) + ", vocab " + std::to_string(m.vocab);
    if (m.synthesized) text += " (architecture synthesized from the size)";
    return text;
}

std::string cluster_row(const Cluster& c) {
    return std::to_string(c.world_size()) + " x " + c.gpu.display_name + " (" + std::to_string(c.nodes) + " node" +
           (c.nodes > 1 ? "s" : "") + " x " + std::to_string(c.gpus_per_node) + "), " + format_fixed(c.gpu.memory_gib, 1) +
           " GiB per GPU; host " + format_bytes(c.cpu_ram_bytes_per_node) + " RAM, " + format_bytes(c.nvme_bytes_per_node) +
           " NVMe per node";
}

// Empty for full training of every weight.
std::string finetune_row(const Scenario& s) {
    const FineTune& f = s.finetune;
    if (!f.adapters() && f.freeze_layers == 0 && !f.freeze_embeddings) return {};
    const ParameterSplit p = parameter_split(s);
    std::string what = f.method == FineTuneMethod::Qlora ? "QLoRA" : f.method == FineTuneMethod::Lora ? "LoRA" : "full, parts frozen";
    if (f.adapters()) what += " r " + std::to_string(f.lora_rank) + ", alpha " + format_general(f.lora_alpha);
    return what + "; trainable params " + format_count(p.trainable) + " of " + format_count(p.peft_all()) + " (" +
           format_fixed(100.0 * p.trainable / p.peft_all(), 4) + "%)";
}

// What the model's output holds and what the loop does with it (Training::kv_cache_in_training,
// outputs_kept, logit_metrics), named only where the plan counts it: each moves the step's peak, and
// the time with metrics, which need the logits a chunked loss never builds (logits.h returns_logits).
std::string output_clause(const Training& t) {
    std::string out;
    if (t.kv_cache_in_training) out += ", the model returns its KV cache";
    if (t.outputs_kept) out += ", the loop keeps its output";
    if (t.logit_metrics > 0 && returns_logits(t))
        out += ", " + std::to_string(t.logit_metrics) + (t.logit_metrics == 1 ? " train metric" : " train metrics") + " over the logits";
    return out;
}

}  // namespace

std::string fits_word(const Candidate& c) {
    const Fit& f = c.fit;
    if (f.all()) return "yes";
    // Why the setup cannot run (Fit::refusal), in a word.
    switch (f.refusal) {
    case SetupRefusal::None: break;
    case SetupRefusal::MasterWeights: return "no: master weights";
    case SetupRefusal::Engine: return "no: not in FSDP";
    case SetupRefusal::Pipeline: return "no: pipeline";
    case SetupRefusal::Tensor: return "no: tensor";
    case SetupRefusal::Experts: return "no: experts";
    case SetupRefusal::Optimizer: return "no: optimizer";
    case SetupRefusal::Release: return "no: release";
    case SetupRefusal::KernelIndex: return "no: int32 index";
    }
    return !f.gpu ? "no: GPU" : !f.cpu ? "no: host RAM" : "no: NVMe";
}

std::string training_row(const Scenario& s) {
    const Training& t = s.training;
    const std::string kernel = t.optimizer_storage != OptimizerStorage::Standard
                                   ? std::string("bitsandbytes ") + to_string(t.optimizer_storage) + " optimizer"
                                   : (t.fused_optimizer ? "fused optimizer" : "torch.optim optimizer");
    return std::string(to_string(t.precision)) +
           (!t.fp8_gemms                         ? ""
            : t.fp8_scaling == Fp8Scaling::Mxfp8 ? " with MXFP8 matmuls (Transformer Engine)"
                                                 : " with FP8 matmuls (Transformer Engine)") +
           (t.fp8_gemms && !layers_convert_to_te(s.model) ? " (its Conv1D layers stay 16-bit: Accelerate converts nn.Linear only)" : "") +
           ", " + to_string(t.optimizer) + ", sequence " + std::to_string(t.seq_len) + ", global batch " +
           std::to_string(effective_global_batch(t, data_parallel_size(s))) + ", flash attention " + on_off(t.flash_attention) + ", loss " +
           (t.loss_kernel == LossKernel::Chunked    ? "chunked"
            : t.loss_kernel == LossKernel::Xentropy ? "fused cross-entropy (flash-attn), 16-bit"
            : t.loss_kernel == LossKernel::Shifted  ? (loss_upcasts(s.model, t) ? "fp32 up-cast, shifted copy" : "shifted copy")
            : t.loss_fp32_upcast                    ? "fp32 up-cast"
                                                    : "16-bit") +
           ", " + kernel + output_clause(t);
}

Phrase headroom_phrase(const Scenario& s, const Candidate& best) {
    const MemoryBreakdown& m = best.memory;
    const FitMargin margin = fit_margin(s, m);
    const Phrase moment = phrase(to_string(m.required_phase));
    if (margin.at_edge)
        return phrase(QT_TRANSLATE_NOOP("Core", "Fits at the edge: %1 of %2 at its peak (in the %3)"),
                      {format_bytes(m.peak_required_bytes), format_bytes(usable_gpu_bytes(s)), moment});
    return phrase(QT_TRANSLATE_NOOP("Core", "Fits with %1 to spare at its peak (in the %2)"), {format_bytes(margin.margin_bytes), moment});
}

Phrase micro_batch_room_phrase(const Candidate& best, const MicroBatchCeiling& m) {
    const std::string now = std::to_string(best.micro_batch);
    if (m.max_micro_batch <= best.micro_batch) {
        if (m.next_required_bytes <= 0) return phrase(QT_TRANSLATE_NOOP("Core", "%1 (no larger one fits)"), {now});
        return phrase(QT_TRANSLATE_NOOP("Core", "%1 (%2 needs %3)"),
                      {now, std::to_string(best.micro_batch + 1), format_bytes(m.next_required_bytes)});
    }
    const std::int64_t global = best.micro_batch * best.gradient_accumulation_steps;  // per data-parallel rank
    if (global % m.max_micro_batch != 0)
        return phrase(QT_TRANSLATE_NOOP("Core", "up to %1 (now %2; global batch %3)"),
                      {format_count(static_cast<double>(m.max_micro_batch)), now, format_count(static_cast<double>(m.global_batch))});
    return phrase(QT_TRANSLATE_NOOP("Core", "up to %1 (now %2)"), {format_count(static_cast<double>(m.max_micro_batch)), now});
}

Phrase sequence_room_phrase(const SequenceCeiling& c) {
    return phrase(QT_TRANSLATE_NOOP("Core", "up to %1 tokens (then %2)"),
                  {format_count(static_cast<double>(c.max_seq_len)), phrase(to_string(c.limit))});
}

Phrase batch_phrase(const Scenario& s, const Candidate& c) {
    const Scenario planned = with_candidate(s, c);
    const std::int64_t dp = data_parallel_size(planned), world = planned.cluster.world_size();
    const std::string micro = std::to_string(c.micro_batch), accum = std::to_string(c.gradient_accumulation_steps);
    if (world == 1) return phrase(QT_TRANSLATE_NOOP("Core", "%1 x %2 accum. on one GPU"), {micro, accum});
    if (dp == world) return phrase(QT_TRANSLATE_NOOP("Core", "%1 x %2 accum. x %3 GPUs"), {micro, accum, std::to_string(world)});
    // The GPUs of one data-parallel group: tensor x pipeline x Ulysses ranks.
    if (dp == 1) return phrase(QT_TRANSLATE_NOOP("Core", "%1 x %2 accum. on one group of %3 GPUs"), {micro, accum, std::to_string(world)});
    return phrase(QT_TRANSLATE_NOOP("Core", "%1 x %2 accum. x %3 groups of %4 GPUs"),
                  {micro, accum, std::to_string(dp), std::to_string(world / dp)});
}

std::vector<Candidate> compare_rows(const Scenario& s) {
    std::vector<Candidate> rows;
    for (const ZeroSetup& z : zero_setups()) rows.push_back(evaluate(with_setup(s, z)));
    return rows;
}

TextTable memory_table(const std::vector<Candidate>& rows) {
    TextTable t;
    t.header.push_back("setup");
    for (const MemorySlice& slice : memory_slices()) t.header.emplace_back(slice.name);
    for (const char* h : {"must fit", "peak reserved", "host RAM", "NVMe", "step s", "tokens/s", "fits"}) t.header.emplace_back(h);
    t.right_aligned.assign(t.header.size(), true);
    t.right_aligned.front() = false;
    t.right_aligned.back() = false;
    for (const Candidate& c : rows) {
        const MemoryBreakdown& m = c.memory;
        std::vector<std::string> row{setup_label(c.zero)};
        for (const MemorySlice& slice : memory_slices()) row.push_back(gib(slice.bytes(m)));
        for (double bytes : {m.total_bytes(), m.peak_reserved_bytes, m.cpu_bytes_per_node, m.nvme_bytes_per_node})
            row.push_back(gib(bytes));
        row.push_back(format_fixed(c.step.seconds, 2));
        row.push_back(format_count(c.step.tokens_per_second));
        row.push_back(fits_word(c));
        t.rows.push_back(std::move(row));
    }
    return t;
}

Report make_report(const Scenario& s) {
    const Plan p = recommend(s);
    Report r;
    r.title = s.model.name + " on " + std::to_string(s.cluster.world_size()) + " x " + s.cluster.gpu.display_name;
    r.scenario = {{"Model", model_row(s.model)}, {"Cluster", cluster_row(s.cluster)}, {"Training", training_row(s)}};
    if (const std::string ft = finetune_row(s); !ft.empty()) r.scenario.emplace_back("Fine-tuning", ft);
    if (const std::string layout = layout_words(p.feasible ? with_candidate(s, p.best) : s); !layout.empty())
        r.scenario.emplace_back("Parallelism", layout);  // the plan's layout (the search's choice with a size on auto)
    if (const std::string zpp = zeropp_words(effective_zeropp(p.feasible ? with_candidate(s, p.best) : s)); !zpp.empty())
        r.scenario.emplace_back("ZeRO++", zpp);
    if (const Phrase m = mics_phrase(effective_mics(p.feasible ? with_candidate(s, p.best) : s)); !m.text.empty())
        r.scenario.emplace_back("MiCS", english(m));
    if (const std::string engine = engine_words(p.feasible ? with_candidate(s, p.best) : s); !engine.empty())
        r.scenario.emplace_back("Engine", engine);
    r.scenario.emplace_back("Convention",
                            s.assumptions.convention == Convention::DeepSpeed ? "DeepSpeed implementation" : "ZeRO paper (K = 12)");
    if (!s.assumptions.calibration.empty()) r.scenario.emplace_back("Calibration", s.assumptions.calibration);

    r.feasible = p.feasible;
    if (p.feasible) {
        const Candidate& b = p.best;
        const MemoryBreakdown& m = b.memory;
        r.recommended = setup_label(setup_key(b.zero), b.engine, b.hybrid_shard);
        // Headroom first: what is left at the peak, and what that room takes.
        r.key_figures = {{"Headroom per GPU", english(headroom_phrase(s, b))}};
        const PlanRoom room = room_of(s, b);
        if (room.micro)
            r.key_figures.emplace_back("Largest micro batch at this recompute", english(micro_batch_room_phrase(b, *room.micro)));
        if (room.longest && room.longest->max_seq_len > 0)
            r.key_figures.emplace_back("Longest sequence at this micro batch and recompute", english(sequence_room_phrase(*room.longest)));
        r.key_figures.insert(
            r.key_figures.end(),
            {
                {"Must fit per GPU", format_bytes(m.peak_required_bytes) + " of " + format_bytes(usable_gpu_bytes(s)) + " usable"},
                {"Peak reserved per GPU", format_bytes(m.peak_reserved_bytes) + " (nvidia-smi; " + kReservedNote + "); peak allocated " +
                                              format_bytes(m.peak_allocated_bytes)},
                {"Host RAM per node", format_bytes(m.cpu_bytes_per_node) + " of " + format_bytes(s.cluster.cpu_ram_bytes_per_node) +
                                          ", peaks " + to_string(m.host.peak_phase)},
                {"NVMe per node", format_bytes(m.nvme_bytes_per_node) + " of " + format_bytes(s.cluster.nvme_bytes_per_node)},
                {"Batch", "micro " + std::to_string(b.micro_batch) + " x " + std::to_string(b.gradient_accumulation_steps) +
                              " accumulation x " + data_parallel_words(with_candidate(s, b)) + ", recompute " + to_string(b.checkpointing)},
                {"Step time", format_seconds(b.step.seconds)},
                {"Throughput", format_count(b.step.tokens_per_second) + " tokens/s, MFU " + format_fixed(b.step.mfu * 100, 1) + "%"},
            });
        // bitsandbytes' paged moments are outside what must fit (core/memory/memory_breakdown.h).
        if (m.paged_optimizer_bytes > 0)
            r.key_figures.emplace_back(
                "Paged optimizer states",
                format_bytes(m.paged_optimizer_bytes) + " in CUDA managed memory, outside what must fit (host RAM when the card is full)");
        r.why = p.why;
        r.why.push_back("What decides its step: " + explain_step_line(b.step) + ".");
        // An FSDP plan has no ds_config: its file is the Accelerate config (core/deepspeed/fsdp_export.h).
        const Scenario planned = with_candidate(s, b);
        if (is_fsdp(planned.fsdp)) {
            r.config_file = "accelerate_config.yaml";
            try {
                r.config_text = accelerate_fsdp_config_yaml(planned);
            } catch (const InputError&) {
                r.config_text.clear();  // autocast or limit_all_gathers off: no config file states it
            }
        } else {
            r.config_text = deepspeed_config_text(planned);
        }
    }
    r.others.header = {"setup", p.feasible ? "why not" : "why it does not fit"};
    r.others.right_aligned = {false, false};
    for (const Rejection& x : p.rejected) r.others.rows.push_back({x.setup, x.reason});
    r.suggestions = p.suggestions;
    r.memory = memory_table(compare_rows(s));
    r.candidates_evaluated = p.candidates_evaluated;
    return r;
}

}  // namespace zp
