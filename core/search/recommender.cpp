#include "core/search/recommender.h"

#include "core/search/host_advice.h"

#include "core/io/format.h"
#include "core/model/errors.h"
#include "core/model/units.h"
#include "core/search/scenario_edits.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>

namespace zp {

Candidate evaluate(const Scenario& s) {
    Candidate c;
    c.zero = s.zero;
    c.checkpointing = s.training.checkpointing;
    c.micro_batch = s.training.micro_batch;
    c.memory = estimate_memory(s);
    c.fit = check_fit(s, c.memory);
    c.step = estimate_step(s);
    c.gradient_accumulation_steps = c.step.gradient_accumulation_steps;
    return c;
}

namespace {

struct BucketChoice {
    double elems;
    bool overlap;
};
// Default first: 2e8 with overlap_comm (Hugging Face's recommended ZeRO-2 values), then small
// buckets that trade speed for memory, and DeepSpeed's 5e8 default only without overlap_comm:
// with it the buckets cost 9 GB (x4.5) for a latency gain far below the 2% the search ignores,
// and the linter warns about exactly that.
namespace rec = deepspeed::recommended;
constexpr std::array<BucketChoice, 5> kBuckets = {{{rec::kBucketElems, true},
                                                   {rec::kSmallBucketElems, true},
                                                   {rec::kBucketElems, false},
                                                   {deepspeed::defaults::kReduceBucketElems, false},
                                                   {rec::kSmallBucketElems, false}}};
constexpr std::array<Checkpointing, 3> kCheckpointing = {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full};

int offload_count(const ZeroSetup& z) {
    return (z.offload_optimizer != OffloadDevice::None ? 1 : 0) + (z.offload_param != OffloadDevice::None ? 1 : 0) +
           (z.offload_optimizer == OffloadDevice::Nvme ? 1 : 0) + (z.offload_param == OffloadDevice::Nvme ? 1 : 0);
}

// One searched point, small enough that the search keeps every feasible one.
struct Point {
    std::uint8_t setup = 0;   // index into zero_setups()
    std::uint8_t bucket = 0;  // index into kBuckets
    Checkpointing checkpointing = Checkpointing::None;
    std::int64_t micro = 1;
    double tokens_per_second = 0;
    double gpu_bytes = 0;
};

// Lower is simpler: no offload before offload, then lower stage, less recompute, default buckets.
auto simplicity(const Point& p) {
    const ZeroSetup& z = zero_setups()[p.setup];
    return std::make_tuple(offload_count(z), z.stage, static_cast<int>(p.checkpointing), p.bucket == 0 ? 0 : 1);
}

// Turns `s` (a copy of the search's base scenario) into the scenario a point stands for.
void apply(Scenario& s, const ZeroSetup& base_zero, const Point& p) {
    s.zero = base_zero;
    apply_setup(s.zero, setup_key(zero_setups()[p.setup]));
    s.zero.reduce_bucket_elems = s.zero.allgather_bucket_elems = kBuckets[p.bucket].elems;
    s.zero.overlap_comm = kBuckets[p.bucket].overlap;
    s.training.checkpointing = p.checkpointing;
    s.training.micro_batch = p.micro;
}

Scenario at(const Scenario& base, const Point& p) {
    Scenario s = base;
    apply(s, base.zero, p);
    return s;
}

std::vector<std::int64_t> micro_batches(std::int64_t per_gpu_sequences) {
    std::vector<std::int64_t> v;
    for (std::int64_t m = 1; m <= per_gpu_sequences && m <= 4096; ++m)
        if (per_gpu_sequences % m == 0) v.push_back(m);
    return v;
}

std::string memory_reason(const Scenario& s, const Candidate& c) {
    std::vector<std::string> missing;
    if (!c.fit.gpu)
        missing.push_back(format_bytes(c.memory.peak_required_bytes) + " per GPU at its peak (" + to_string(c.memory.required_phase) +
                          "), " + format_bytes(usable_gpu_bytes(s)) + " available (" + format_fixed(s.cluster.gpu.memory_gib, 1) +
                          " GiB less " + format_fixed(s.assumptions.headroom * 100, 0) + "% headroom)");
    if (!c.fit.cpu) {
        std::string host = format_bytes(c.memory.cpu_bytes_per_node) + " host RAM per node " + host_phase_words(c.memory.host.peak_phase) +
                           ", " + format_bytes(s.cluster.cpu_ram_bytes_per_node) + " available";
        if (c.fit.gpu)  // the host is the limit: say what frees it
            if (const std::string fix = cheapest_host_fix(with_candidate(s, c)); !fix.empty()) host += "; the cheapest fix: " + fix;
        missing.push_back(host);
    }
    if (!c.fit.nvme)
        missing.push_back(format_bytes(c.memory.nvme_bytes_per_node) + " NVMe per node, " + format_bytes(s.cluster.nvme_bytes_per_node) +
                          " available");
    std::string out = "needs ";
    for (std::size_t i = 0; i < missing.size(); ++i) out += (i == 0 ? "" : "; and ") + missing[i];
    return out;
}

struct SetupResult {
    bool any_feasible = false;
    Point fastest;  // fastest feasible
    Point closest;  // when none is feasible: the point with the least GPU memory
    bool has_closest = false;
};

struct Search {
    Scenario base;  // the scenario with the exact global batch filled in
    std::vector<SetupResult> per_setup;
    std::vector<Point> feasible;
    std::int64_t evaluated = 0;  // covered: estimated or bounded out
    std::int64_t estimated = 0;
};

// A setup the layout cannot run (Fit::layout: a pipeline takes ZeRO 0/1) is refused for that,
// whatever its memory.
std::string rejection_reason(const Scenario& s, const Candidate& c) {
    return c.fit.layout ? memory_reason(s, c) : "pipeline parallelism works with ZeRO stage 0 or 1 only (DeepSpeed's PipelineEngine)";
}

Search run_search(const Scenario& input, SearchPruning pruning) {
    Search out;
    out.base = input;
    Scenario& base = out.base;
    const std::int64_t world = data_parallel_size(base);
    const std::int64_t global = effective_global_batch(Training{.micro_batch = 1, .global_batch = input.training.global_batch}, world);
    if (global % world != 0)
        throw InputError("global batch " + std::to_string(global) + " is not a multiple of the " + std::to_string(world) +
                         " GPUs: DeepSpeed needs train_batch_size = micro batch x gradient accumulation x GPUs");
    base.training.global_batch = global;
    std::vector<Checkpointing> recomputes(kCheckpointing.begin(), kCheckpointing.end());
    if (!input.training.auto_checkpointing) recomputes = {input.training.checkpointing};
    std::vector<std::int64_t> micros = micro_batches(global / world);
    if (!input.training.auto_micro_batch) {
        if ((global / world) % input.training.micro_batch != 0)
            throw InputError("micro batch " + std::to_string(input.training.micro_batch) + " does not divide the " +
                             std::to_string(global / world) + " sequences per GPU of global batch " + std::to_string(global) +
                             "; choose a divisor or let the planner choose (auto)");
        micros = {input.training.micro_batch};
    }

    out.per_setup.resize(zero_setups().size());
    out.feasible.reserve(zero_setups().size() * kBuckets.size() * recomputes.size() * micros.size());
    Scenario s = base;
    // The model is the same for every candidate: count it once (parameter_count and
    // largest_layer_params return the overrides), the same numbers without the walk per candidate.
    s.model.params_override = parameter_count(s.model);
    s.model.largest_layer_override = largest_layer_params(s.model);
    for (std::size_t i = 0; i < zero_setups().size(); ++i) {
        SetupResult& r = out.per_setup[i];
        HostMemoryMemo host;  // one setup: buckets, recompute and micro batch vary below
        for (std::size_t b = 0; b < kBuckets.size(); ++b) {
            for (Checkpointing ck : recomputes) {
                bool line_ended = false;  // a micro batch with accumulation did not fit: larger ones cannot
                for (std::int64_t micro : micros) {
                    ++out.evaluated;
                    const bool accumulating = micro != micros.back();
                    if (line_ended && accumulating) continue;
                    const Point p{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(b), ck, micro, 0, 0};
                    apply(s, base.zero, p);  // in place: no copy of the model's strings per point
                    // Memory decides feasibility; step time only for what fits.
                    if (pruning == SearchPruning::Exhaustive) host = {};  // every candidate from scratch
                    const MemoryBreakdown m = estimate_memory(s, host);
                    ++out.estimated;
                    Point q = p;
                    q.gpu_bytes = m.peak_required_bytes;
                    if (check_fit(s, m).all()) {  // memory, and the stage with the layout (Fit::layout)
                        q.tokens_per_second = estimate_step(s).tokens_per_second;
                        if (!r.any_feasible || q.tokens_per_second > r.fastest.tokens_per_second) r.fastest = q;
                        r.any_feasible = true;
                        out.feasible.push_back(q);
                    } else {
                        if (!r.any_feasible && (!r.has_closest || q.gpu_bytes < r.closest.gpu_bytes)) {
                            r.closest = q;
                            r.has_closest = true;
                        }
                        line_ended = pruning == SearchPruning::Bounds && accumulating;
                    }
                }
            }
        }
    }
    return out;
}

std::string percent_slower(double fast, double slow) {
    const double pct = (fast / slow - 1.0) * 100.0;
    return format_fixed(pct, pct < 10 ? 1 : 0) + "%";
}

void explain_nothing_fits(const Scenario& s, const Plan& plan_so_far, Plan& plan) {
    // Host RAM or NVMe short while the GPU side fits somewhere: say how much is needed.
    double min_cpu = 1e300, min_nvme = 1e300;
    for (const Candidate& c : plan_so_far.per_setup) {
        if (!c.fit.gpu) continue;
        if (c.fit.nvme && !c.fit.cpu) min_cpu = std::min(min_cpu, c.memory.cpu_bytes_per_node);
        if (c.fit.cpu && !c.fit.nvme) min_nvme = std::min(min_nvme, c.memory.nvme_bytes_per_node);
        if (!c.fit.cpu && !c.fit.nvme) min_cpu = std::min(min_cpu, c.memory.cpu_bytes_per_node);
    }
    if (min_nvme < 1e300)
        plan.suggestions.push_back("NVMe: " + format_bytes(min_nvme) + " per node would let ZeRO-3 offload states to NVMe (now " +
                                   format_bytes(s.cluster.nvme_bytes_per_node) + ")");
    if (min_cpu < 1e300)
        plan.suggestions.push_back("host RAM: " + format_bytes(min_cpu) + " per node would fit the CPU-offload setup (now " +
                                   format_bytes(s.cluster.cpu_ram_bytes_per_node) + ")");
    // Host RAM is the limit where the GPU side fits: what frees it, cheapest first, for the setup
    // that needs least host RAM among those.
    const Candidate* host_limited = nullptr;
    for (const Candidate& c : plan_so_far.per_setup)
        if (c.fit.gpu && !c.fit.cpu && (!host_limited || c.memory.cpu_bytes_per_node < host_limited->memory.cpu_bytes_per_node))
            host_limited = &c;
    if (host_limited) {
        for (const HostFix& f : host_ram_fixes(with_candidate(s, *host_limited))) {
            plan.suggestions.push_back(setup_label(host_limited->zero) + ": " + f.change + " frees " + format_bytes(f.freed_bytes) +
                                       " per node" + (f.fits ? " and fits" : ""));
            if (f.fits) break;
        }
    }

    // More GPUs: ZeRO-3 divides model states by N; try doubling the node count.
    // The first setup (simplest first) that fits the trial scenario, or "" when none does.
    auto fits_somewhere = [](const Scenario& trial) -> std::string {
        Scenario t = trial;
        t.training.global_batch = 0;  // let the batch follow the GPU count in this what-if
        t.training.micro_batch = 1;
        t.training.checkpointing = Checkpointing::Full;
        for (const ZeroSetup& z : zero_setups()) {
            t.zero = trial.zero;
            t = with_setup(t, z);
            t.zero.reduce_bucket_elems = t.zero.allgather_bucket_elems = deepspeed::recommended::kSmallBucketElems;
            const MemoryBreakdown m = estimate_memory(t);
            if (check_fit(t, m).all()) return setup_label(z);
        }
        return std::string();
    };
    Scenario more = s;
    for (int k = 0; k < 12; ++k) {
        more.cluster.nodes *= 2;
        if (more.cluster.world_size() > 65536) break;
        if (const std::string setup = fits_somewhere(more); !setup.empty()) {
            plan.suggestions.push_back("more GPUs: " + std::to_string(more.cluster.world_size()) + " GPUs (" +
                                       std::to_string(more.cluster.nodes) + " nodes of " + std::to_string(s.cluster.gpus_per_node) +
                                       ") would fit " + setup);
            break;
        }
    }
    Scenario shorter = s;
    while (shorter.training.seq_len > 128) {
        shorter.training.seq_len /= 2;
        if (const std::string setup = fits_somewhere(shorter); !setup.empty()) {
            plan.suggestions.push_back("a shorter sequence: " + std::to_string(shorter.training.seq_len) + " tokens (now " +
                                       std::to_string(s.training.seq_len) + ") would fit " + setup);
            break;
        }
    }
    // Full training fits nowhere: would fine-tuning with adapters? The method is the user's choice
    // (it trains a different thing), so it is named, not searched: LoRA on every linear over a
    // 16-bit base, then QLoRA over an NF4 base (the QLoRA paper's setting), at rank 16.
    if (s.finetune.method == FineTuneMethod::Full) {
        for (const FineTuneMethod method : {FineTuneMethod::Lora, FineTuneMethod::Qlora}) {
            Scenario tuned = s;
            tuned.finetune = FineTune{};
            tuned.finetune.method = method;
            tuned.finetune.lora_rank = 16;
            tuned.finetune.targets = LoraTargets::AllLinear;
            tuned.finetune.freeze_layers = 0;
            if (const std::string setup = fits_somewhere(tuned); !setup.empty()) {
                plan.suggestions.push_back(std::string("fine-tuning with adapters instead of full training: ") +
                                           (method == FineTuneMethod::Lora ? "LoRA on a 16-bit base" : "QLoRA on an NF4 base") +
                                           " (r 16, all linear layers; --finetune " + to_string(method) +
                                           " --lora-rank 16 --lora-targets all-linear) would fit " + setup);
                break;
            }
        }
    }
    if (plan.suggestions.empty())
        plan.suggestions.push_back("a GPU with more memory: no setup fits on this cluster at any sequence length we tried");
}

}  // namespace

Plan recommend(const Scenario& s, SearchPruning pruning) {
    validate(s.model);
    Plan plan;
    const Search search = run_search(s, pruning);
    plan.candidates_evaluated = search.evaluated;
    plan.candidates_estimated = search.estimated;
    // Materialise only the points worth showing: one per setup, and the winner.
    for (const SetupResult& r : search.per_setup) {
        plan.per_setup.push_back(evaluate(at(search.base, r.any_feasible ? r.fastest : r.closest)));
        plan.per_setup_feasible.push_back(r.any_feasible);
    }

    if (search.feasible.empty()) {
        for (std::size_t i = 0; i < zero_setups().size(); ++i)
            plan.rejected.push_back({setup_label(zero_setups()[i]), rejection_reason(s, plan.per_setup[i])});
        explain_nothing_fits(s, plan, plan);
        return plan;
    }

    // Fastest feasible, then the simplest within 2% of it.
    double best_tps = 0;
    for (const Point& p : search.feasible) best_tps = std::max(best_tps, p.tokens_per_second);
    const Point* best = nullptr;
    for (const Point& p : search.feasible) {
        if (p.tokens_per_second < 0.98 * best_tps) continue;
        if (!best || simplicity(p) < simplicity(*best) ||
            (simplicity(p) == simplicity(*best) && p.tokens_per_second > best->tokens_per_second))
            best = &p;
    }
    plan.feasible = true;
    plan.best = evaluate(at(search.base, *best));
    plan.per_setup[best->setup] = plan.best;  // the setup's bar shows exactly the recommended candidate

    const std::string best_label = setup_label(plan.best.zero);
    for (std::size_t i = 0; i < zero_setups().size(); ++i) {
        const ZeroSetup& z = zero_setups()[i];
        if (i == best->setup) continue;
        const Candidate& c = plan.per_setup[i];
        if (plan.per_setup_feasible[i]) {
            plan.alternatives.push_back(c);
            const double tps = c.step.tokens_per_second;
            // Faster, or as fast to the 0.1% printed below: the simpler setup won, not the speed.
            if (tps >= 0.9995 * plan.best.step.tokens_per_second)
                plan.rejected.push_back(
                    {setup_label(z), "fits and is within 2% (" + format_count(tps) + " tokens/s), but " + best_label + " is simpler"});
            else
                plan.rejected.push_back({setup_label(z), "fits, but is " + percent_slower(plan.best.step.tokens_per_second, tps) +
                                                             " slower (" + format_count(tps) + " vs " +
                                                             format_count(plan.best.step.tokens_per_second) + " tokens/s)"});
        } else {
            plan.rejected.push_back({setup_label(z), rejection_reason(s, c)});
        }
    }
    std::stable_sort(plan.alternatives.begin(), plan.alternatives.end(),
                     [](const Candidate& a, const Candidate& b) { return a.step.tokens_per_second > b.step.tokens_per_second; });

    const Candidate& b = plan.best;
    plan.why.push_back(best_label + " with micro batch " + std::to_string(b.micro_batch) + " x " +
                       std::to_string(b.gradient_accumulation_steps) + " accumulation steps and " +
                       (b.checkpointing == Checkpointing::None ? std::string("no") : std::string(to_string(b.checkpointing))) +
                       " activation recompute is the fastest setup that fits: " + format_count(b.step.tokens_per_second) + " tokens/s.");
    if (const std::string zpp = zeropp_words(effective_zeropp(with_candidate(s, b))); !zpp.empty())
        plan.why.push_back("With ZeRO++: " + zpp +
                           (b.memory.hpz_secondary_bytes > 0
                                ? "; the secondary partition takes " + format_bytes(b.memory.hpz_secondary_bytes) + " per GPU."
                                : "."));
    plan.why.push_back("It peaks in the " + std::string(to_string(b.memory.peak.phase)) + " (" + b.memory.peak.cause +
                       "): " + format_bytes(b.memory.peak_allocated_bytes) + " allocated, " + format_bytes(b.memory.peak_reserved_bytes) +
                       " reserved with the CUDA context (nvidia-smi), " + format_bytes(b.memory.peak_required_bytes) +
                       " that must fit of " + format_bytes(usable_gpu_bytes(s)) + " usable per GPU.");
    plan.why.push_back(
        "Host RAM peaks " + std::string(host_phase_words(b.memory.host.peak_phase)) + " (" + b.memory.host.peak().cause +
        "): " + format_bytes(b.memory.cpu_bytes_per_node) + " of " + format_bytes(s.cluster.cpu_ram_bytes_per_node) + " per node" +
        (b.memory.nvme_bytes_per_node > 0 ? "; " + format_bytes(b.memory.nvme_bytes_per_node) + " NVMe per node" : std::string()) + ".");
    if (b.step.comm_seconds > 0.1 * b.step.seconds)
        plan.why.push_back("Exposed communication is " + format_fixed(b.step.comm_seconds / b.step.seconds * 100, 0) +
                           "% of the step: a faster network would help more than a faster GPU.");
    if (b.step.offload_seconds > 0.1 * b.step.seconds)
        plan.why.push_back("Offload costs " + format_fixed(b.step.offload_seconds / b.step.seconds * 100, 0) +
                           "% of the step (PCIe, CPU optimizer, NVMe).");
    return plan;
}

}  // namespace zp
