#include "core/search/recommender.h"

#include "core/search/host_advice.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/model/deepspeed_release.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/job_presets.h"
#include "core/search/scenario_edits.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <exception>
#include <future>
#include <limits>
#include <optional>
#include <thread>
#include <tuple>

namespace zp {

Candidate evaluate(const Scenario& s) {
    // One split for both: the rank's parameters are what the memory and the step time read first.
    // The two estimates are built in place (a breakdown is a kilobyte; no copy per plan).
    const ParameterSplit split = rank_parameter_split(s);
    Candidate c{.engine = s.fsdp.engine,
                .hybrid_shard = fsdp_hybrid_sharding(s),
                .zero = s.zero,
                .parallel = s.parallel,
                .checkpointing = s.training.checkpointing,
                .micro_batch = s.training.micro_batch,
                .gradient_accumulation_steps = 1,
                .memory = estimate_memory(s, split),
                .step = estimate_step(s, split),
                .fit = {}};
    c.fit = check_fit(s, c.memory);
    c.gradient_accumulation_steps = c.step.gradient_accumulation_steps;
    return c;
}

Phrase past_positions_phrase(const Scenario& s) {
    const ModelSpec& m = s.model;
    if (m.positions <= 0 || s.training.seq_len <= m.positions) return {};
    return phrase(QT_TRANSLATE_NOOP("Core",
                                    "%1 learns %2 positions: a sequence of %3 tokens indexes past its position table, so it "
                                    "fails unless the table is extended; plan at %2 tokens or fewer."),
                  {m.name, format_count(static_cast<double>(m.positions)), format_count(static_cast<double>(s.training.seq_len))});
}

std::optional<Candidate> fastest_fit_of_setup(const Scenario& s) {
    if (!s.training.auto_micro_batch && !s.training.auto_checkpointing) return std::nullopt;
    // The layout and ZeRO++ as they are: only the micro batch, recompute and buckets are searched.
    Scenario fixed = s;
    fixed.parallel.auto_tensor = fixed.parallel.auto_pipeline = fixed.parallel.auto_expert = fixed.parallel.auto_ulysses = false;
    fixed.zero.auto_zeropp = false;
    fixed.fsdp.auto_engine = false;
    const Plan p = recommend(fixed);
    for (std::size_t i = 0; i < zero_setups().size() && i < p.per_setup.size(); ++i)
        if (same_setup(zero_setups()[i], s.zero) && p.per_setup_feasible[i]) return p.per_setup[i];
    return std::nullopt;
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
// Whether bucket `a` never runs a step faster than bucket `b`: the same overlap_comm and a bucket no
// larger. The step time reads the bucket size only through its launch count (step_time.cpp
// launches: a collective's latency per bucket, summed and then partly hidden by exposed_seconds,
// which never falls as its argument grows), and overlap_comm also through the hooks and the
// overlap fraction, so more launches under the same overlap never shorten a step.
constexpr bool never_faster(const BucketChoice& a, const BucketChoice& b) { return a.overlap == b.overlap && a.elems <= b.elems; }

// Bucket b of a line could not win (step first): neither can a later bucket that is never faster,
// the thresholds (cannot_win) being only higher by the time it comes.
void mark_outrun(std::array<bool, kBuckets.size()>& outrun, std::size_t b) {
    for (std::size_t o = b + 1; o < kBuckets.size(); ++o) outrun[o] = outrun[o] || never_faster(kBuckets[o], kBuckets[b]);
}
// The buckets that every bucket of a line is never faster than one of: the default with
// overlap_comm and DeepSpeed's 5e8 without. When neither can win, no bucket of the line can.
constexpr std::array<std::size_t, 2> kLeadingBuckets = {0, 3};
constexpr bool leading_buckets_outrun_all() {
    for (const BucketChoice& b : kBuckets) {
        bool outrun = false;
        for (const std::size_t l : kLeadingBuckets) outrun = outrun || never_faster(b, kBuckets[l]);
        if (!outrun) return false;
    }
    return true;
}
static_assert(leading_buckets_outrun_all(), "every bucket is never faster than a leading bucket");
constexpr std::array<Checkpointing, 3> kCheckpointing = {Checkpointing::None, Checkpointing::Selective, Checkpointing::Full};

int offload_count(const ZeroSetup& z) {
    return (z.offload_optimizer != OffloadDevice::None ? 1 : 0) + (z.offload_param != OffloadDevice::None ? 1 : 0) +
           (z.offload_optimizer == OffloadDevice::Nvme ? 1 : 0) + (z.offload_param == OffloadDevice::Nvme ? 1 : 0);
}

// The plan takes the simplest feasible point at or above this share of the fastest's tokens/s
// (a setup within 2% of the fastest is not worth more parallelism, offload, recompute or buckets).
constexpr double kSimplestWithin = 0.98;

// One searched point, small enough that the search keeps every feasible one.
struct Point {
    std::uint8_t setup = 0;    // index into zero_setups()
    std::uint8_t bucket = 0;   // index into kBuckets
    std::uint16_t layout = 0;  // index into Search::bases
    Checkpointing checkpointing = Checkpointing::None;
    std::int32_t micro = 1;                   // at most limits::kMicroBatch (65,536); 32 bits keep a Point 32 bytes
    ZeroppChoice zeropp = ZeroppChoice::Off;  // with ZeRO++ on auto; Off keeps the base's switches
    double tokens_per_second = 0;
    double gpu_bytes = 0;
};

// How far a layout is from plain data parallelism: tensor x pipeline x Ulysses ranks per replica.
std::int64_t layout_degree(const Parallelism& p) { return p.model_parallel() * ulysses_size(p); }

// Lower is simpler: a fit clear of the edge before one at it (within kEdgeShareOfCard of the usable
// memory the planner's own error is larger than the margin: memory_model.h fit_margin), less model
// parallelism (the layout's tensor x pipeline x Ulysses), no offload before offload, then lower
// stage, fewer ZeRO++ switches, less recompute, default buckets.
auto simplicity(const Scenario& s, const Point& p, std::int64_t model_parallel) {
    const ZeroSetup& z = zero_setups()[p.setup];
    return std::make_tuple(fit_margin(s, p.gpu_bytes).at_edge ? 1 : 0, model_parallel, offload_count(z), z.stage,
                           static_cast<int>(p.zeropp), static_cast<int>(p.checkpointing), p.bucket == 0 ? 0 : 1);
}

// Turns `s` (a copy of the search's base scenario) into the scenario a point stands for, on
// `base_zero` (the search passes its row's, ZeRO++ switches included; at() adds them).
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
    if (p.zeropp != ZeroppChoice::Off) apply_zeropp_choice(s.zero, p.zeropp, s.cluster.gpus_per_node);
    return s;
}

std::vector<std::int64_t> micro_batches(std::int64_t per_gpu_sequences) {
    std::vector<std::int64_t> v;
    for (std::int64_t m = 1; m <= per_gpu_sequences && m <= 4096; ++m)
        if (per_gpu_sequences % m == 0) v.push_back(m);
    return v;
}

Phrase memory_reason(const Scenario& s, const Candidate& c) {
    std::vector<Phrase> missing;
    if (!c.fit.gpu)
        missing.push_back(phrase(
            QT_TRANSLATE_NOOP("Core", "%1 per GPU at its peak (%2), %3 available (%4 GiB less %5% headroom)"),
            {format_bytes(c.memory.peak_required_bytes), phrase(to_string(c.memory.required_phase)), format_bytes(usable_gpu_bytes(s)),
             format_fixed(s.cluster.gpu.memory_gib, 1), format_fixed(s.assumptions.headroom * 100, 0)}));
    if (!c.fit.cpu) {
        Phrase host = phrase(QT_TRANSLATE_NOOP("Core", "%1 host RAM per node %2, %3 available"),
                             {format_bytes(c.memory.cpu_bytes_per_node), phrase(host_phase_words(c.memory.host.peak_phase)),
                              format_bytes(s.cluster.cpu_ram_bytes_per_node)});
        if (c.fit.gpu)  // the host is the limit: say what frees it
            if (Phrase fix = cheapest_host_fix_phrase(with_candidate(s, c)); !fix.text.empty())
                host = phrase(QT_TRANSLATE_NOOP("Core", "%1; the cheapest fix: %2"), {host, fix});
        missing.push_back(host);
    }
    if (!c.fit.nvme)
        missing.push_back(phrase(QT_TRANSLATE_NOOP("Core", "%1 NVMe per node, %2 available"),
                                 {format_bytes(c.memory.nvme_bytes_per_node), format_bytes(s.cluster.nvme_bytes_per_node)}));
    Phrase all = missing.empty() ? Phrase(std::string()) : missing[0];
    for (std::size_t i = 1; i < missing.size(); ++i) all = phrase(QT_TRANSLATE_NOOP("Core", "%1; and %2"), {all, missing[i]});
    return phrase(QT_TRANSLATE_NOOP("Core", "needs %1"), {all});
}

struct SetupResult {
    bool any_feasible = false;
    Point fastest;  // fastest feasible
    Point closest;  // when none is feasible: the point with the least GPU memory
    bool has_closest = false;
};

struct Search {
    std::vector<Scenario> bases;  // per layout: the scenario on it, with the exact global batch filled in
    std::vector<SetupResult> per_setup;
    std::vector<Point> feasible;
    std::int64_t evaluated = 0;  // covered: estimated or bounded out
    std::int64_t estimated = 0;
};

// A setup the layout cannot run (Fit::layout: a pipeline takes ZeRO 0/1) is refused for that,
// whatever its memory.
Phrase rejection_reason(const Scenario& s, const Candidate& c) {
    switch (c.fit.refusal) {
    case SetupRefusal::None: return memory_reason(s, c);
    case SetupRefusal::MasterWeights:
        return phrase(QT_TRANSLATE_NOOP("Core",
                                        "bf16 master weights and optimizer states run at ZeRO stage 1-3 with the optimizer on the GPU "
                                        "(DeepSpeed needs ZeRO 1-3; with offload the planner does not model them)"));
    case SetupRefusal::Engine:
        if (s.fsdp.engine == Engine::Fsdp2 && c.zero.stage == 0)
            return phrase(QT_TRANSLATE_NOOP("Core", "PyTorch FSDP2's fully_shard always shards: it has no NO_SHARD (DDP)"));
        if (s.fsdp.engine == Engine::Fsdp2)
            return phrase(QT_TRANSLATE_NOOP("Core",
                                            "PyTorch FSDP2 has no such setup: no optimizer-only sharding (stage 1), no NVMe, and its "
                                            "CPUOffloadPolicy moves parameters and optimizer together, with reshard_after_forward=True"));
        return phrase(
            QT_TRANSLATE_NOOP("Core",
                              "PyTorch FSDP has no such setup: no optimizer-only sharding (stage 1), no NVMe, and its CPU offload "
                              "moves parameters and optimizer together at FULL_SHARD"));
    case SetupRefusal::Pipeline:  // the candidate's layout (the search's choice with auto sizes)
        return phrase(QT_TRANSLATE_NOOP("Core", "pipeline parallelism works with ZeRO stage 0 or 1 only (DeepSpeed's PipelineEngine)"));
    case SetupRefusal::Tensor:
        return phrase(QT_TRANSLATE_NOOP("Core",
                                        "tensor parallelism past the key/value heads runs in Megatron-Core, whose distributed optimizer "
                                        "partitions as ZeRO stage 1 does: no ZeRO stage 2 or 3"));
    case SetupRefusal::Optimizer:
        return phrase(QT_TRANSLATE_NOOP("Core",
                                        "LAMB cannot run with the optimizer offloaded: DeepSpeed builds its CUDA FusedLamb, which "
                                        "cannot step the partition on the host (use AdamW, Adagrad or Lion with offload)"));
    case SetupRefusal::Release:
        return phrase(QT_TRANSLATE_NOOP("Core",
                                        "the DeepSpeed release given does not have it (ZeRO-3 from v0.3.12, the offload blocks "
                                        "from v0.3.15, ZeRO without fp16 from v0.4.0, bf16 without ZeRO from v0.6.2)"));
    case SetupRefusal::KernelIndex:
        return phrase(QT_TRANSLATE_NOOP("Core",
                                        "past int32 kernel indexing: a rank's hidden states (micro batch x sequence / Ulysses x hidden) "
                                        "are %1 elements, 2^31 or more, which FlashAttention-2 and RMSNorm kernels index in 32 bits "
                                        "(Liger-Kernel #803): a higher Ulysses degree, a smaller micro batch or a sequence below %2 "
                                        "tokens, or kernels that index in 64 bits"),
                      {format_count(rank_hidden_state_elements(s)), format_count(static_cast<double>(kernel_index_limit_seq_len(s)))});
    case SetupRefusal::Experts: break;
    }
    return phrase(QT_TRANSLATE_NOOP("Core", "expert parallelism works with ZeRO stage 0, 1 or 2 only (DeepSpeed's MoE layer)"));
}

// A sentence in both forms: the English the command line prints, and the phrase the window translates.
void add(std::vector<std::string>& texts, std::vector<Phrase>& phrases, Phrase p) {
    texts.push_back(english(p));
    phrases.push_back(std::move(p));
}

// The sizes layout_words names: equal sizes, equal words.
bool same_layout(const Parallelism& a, const Parallelism& b) {
    return a.tensor == b.tensor && a.pipeline == b.pipeline && a.virtual_stages == b.virtual_stages &&
           a.sequence_parallel == b.sequence_parallel && a.expert == b.expert && a.ulysses == b.ulysses;
}

// "tensor 8 x pipeline 4 x data 64", or "data 32" where the layout is data parallelism alone.
std::string layout_or_data_words(const Scenario& s) {
    const std::string words = layout_words(s);
    return words.empty() ? "data " + std::to_string(data_parallel_size(s)) : words;
}

Rejection rejection(const SetupKey& setup, const FsdpSetup& engine, Phrase reason) {
    const Phrase label = setup_phrase(setup, engine.engine, engine.hybrid_shard);
    return {english(label), english(reason), label, reason};
}

// The global batch the search runs `input` at on its layout (the given one, or the default
// raised to a multiple of the data-parallel ranks); nullopt when the given one does not divide.
std::optional<std::int64_t> layout_global_batch(const Scenario& input) {
    const std::int64_t world = data_parallel_size(input);
    // An automatic global batch (0) is raised to a multiple of the micro batch x ranks as estimate
    // raises it: at 1 where the search chooses the micro batch, at the user's where it is fixed (a
    // fixed 512 on 8 GPUs makes 4,096, not a refusal that 64 does not split).
    Training at_micro = input.training;
    at_micro.micro_batch = input.training.auto_micro_batch ? 1 : input.training.micro_batch;
    const std::int64_t global = effective_global_batch(at_micro, world);
    if (global % world != 0) return std::nullopt;
    return global;
}

// One row of a layout's search: a setup with a ZeRO++ choice.
struct SetupRow {
    std::uint8_t setup = 0;  // index into zero_setups()
    ZeroppChoice zeropp = ZeroppChoice::Off;
};

// Every setup with the base's ZeRO++ switches: the rows without ZeRO++ on auto.
const std::vector<SetupRow>& plain_rows() {
    static const std::vector<SetupRow> rows = [] {
        std::vector<SetupRow> v;
        for (std::size_t i = 0; i < zero_setups().size(); ++i) v.push_back({static_cast<std::uint8_t>(i), ZeroppChoice::Off});
        return v;
    }();
    return rows;
}

// With ZeRO++ on auto across nodes: after each stage-3 setup the layout runs, its ZeRO++ choices
// that change what runs (effective_zeropp: hpZ needs a secondary partition smaller than the ZeRO
// group and no parameter offload), each once.
std::vector<SetupRow> zeropp_rows(const Scenario& base) {
    std::vector<SetupRow> rows;
    Scenario probe = base;
    for (const SetupRow& row : plain_rows()) {
        rows.push_back(row);
        const SetupKey& key = zero_setup_rows()[row.setup].key;
        if (key.stage != 3 || !layout_runs_stage(base.model, base.parallel, 3)) continue;
        apply_setup(probe.zero, key);
        std::vector<ZeroPlusPlus> seen{ZeroPlusPlus{}};
        for (ZeroppChoice c : kZeroppChoices) {
            apply_zeropp_choice(probe.zero, c, probe.cluster.gpus_per_node);
            const ZeroPlusPlus e = effective_zeropp(probe);
            if (std::find(seen.begin(), seen.end(), e) != seen.end()) continue;
            seen.push_back(e);
            rows.push_back({row.setup, c});
        }
    }
    return rows;
}

// What the layouts searched so far found feasible, read and raised by both threads: per setup its
// fastest point's tokens/s, and the fastest of all. A value is only ever raised, and only to a point
// found feasible, which the merged search keeps or beats; so a candidate strictly below both (Bars)
// can be neither its setup's bar nor the plan's choice, whichever thread found them first
// (merge_layout keeps a later layout's point only when strictly faster). Which candidates are
// estimated then depends on the threads' timing (candidates_estimated); the plan does not.
// Likewise per setup the least GPU peak of a point a layout kept while none of its own fitted
// (SetupResult::closest, an exact figure: exact_below): a candidate strictly above it is not the
// setup's least-memory point, whichever layout has it (merge_layout keeps a later layout's only
// when strictly less). Both rest on every layout's part being merged: run_search merges them all
// or throws.
struct FoundSoFar {
    explicit FoundSoFar(std::size_t setups) : setup_fastest(setups), setup_least_gpu_bytes(setups) {
        for (std::atomic<double>& least : setup_least_gpu_bytes) least = std::numeric_limits<double>::infinity();
    }
    std::vector<std::atomic<double>> setup_fastest;
    std::atomic<double> fastest{0};
    std::vector<std::atomic<double>> setup_least_gpu_bytes;
};

void raise_to(std::atomic<double>& value, double at_least) {
    double now = value.load(std::memory_order_relaxed);
    while (now < at_least && !value.compare_exchange_weak(now, at_least, std::memory_order_relaxed)) {
    }
}
void lower_to(std::atomic<double>& value, double at_most) {
    double now = value.load(std::memory_order_relaxed);
    while (now > at_most && !value.compare_exchange_weak(now, at_most, std::memory_order_relaxed)) {
    }
}

// One layout's part of the search: its base (the layout with the exact global batch), what each
// setup found on it, its feasible points (their layout index 0, renumbered by merge_layout).
// Layouts are independent: each has its own memos.
struct LayoutSearch {
    const Scenario& input;
    const std::vector<Checkpointing>& recomputes;
    const std::array<bool, 4>& some_layout_runs;
    SearchPruning pruning;
    bool search_zeropp;
    bool many_layouts;
    FoundSoFar* found;  // what the layouts searched so far (on both threads) found; null for one layout
};

// A layout's base scenario (its global batch, ZeRO++ off where the search chooses it) and the micro
// batches to try; nullopt when the given micro batch does not divide this layout's batch and other
// layouts are searched (another may take it).
struct LayoutBase {
    Scenario base;
    std::vector<std::int64_t> micros;
};
std::optional<LayoutBase> layout_base(const LayoutSearch& in, const Parallelism& layout) {
    const Scenario& input = in.input;
    LayoutBase out{input, {}};
    Scenario& base = out.base;
    base.parallel = layout;
    const std::int64_t world = data_parallel_size(base);
    const std::optional<std::int64_t> global = layout_global_batch(base);
    if (!global)
        throw InputError("global batch " + std::to_string(input.training.global_batch) + " is not a multiple of the " +
                         std::to_string(world) + " data-parallel GPUs: DeepSpeed needs train_batch_size = micro batch x gradient " +
                         "accumulation x data-parallel GPUs; use " + nearest_multiples(input.training.global_batch, world));
    base.training.global_batch = *global;
    if (in.search_zeropp) apply_zeropp_choice(base.zero, ZeroppChoice::Off, base.cluster.gpus_per_node);  // the search chooses
    out.micros = micro_batches(*global / world);
    if (!input.training.auto_micro_batch) {
        if ((*global / world) % input.training.micro_batch != 0) {
            if (in.many_layouts) return std::nullopt;
            throw InputError("micro batch " + std::to_string(input.training.micro_batch) + " does not divide the " +
                             std::to_string(*global / world) + " sequences per data-parallel GPU of global batch " +
                             std::to_string(*global) + "; choose a divisor or let the planner choose (auto)");
        }
        out.micros = {input.training.micro_batch};
    }
    return out;
}

// The fastest any candidate of `s` (a recompute policy and micro batch) can run, in tokens/s
// (step_seconds_lower_bound), over the data-parallel ranks `world`.
double fastest_possible_tokens_per_second(const Scenario& s, std::int64_t world) {
    const double tokens = static_cast<double>(effective_global_batch(s.training, world)) * static_cast<double>(s.training.seq_len);
    return tokens / step_seconds_lower_bound(s) * (1 + 1e-9);  // no rounding below a step's own figure
}

// The tokens/s a candidate of a setup must reach to matter, from its layout and every layout
// searched so far (FoundSoFar): its setup's fastest feasible point (0 while it has none) and the
// fastest feasible point of all.
struct Bars {
    double setup_fastest = 0;
    double fastest = 0;
    bool setup_fits() const { return setup_fastest > 0; }
};
Bars bars_of(const SetupResult& r, double layout_fastest, const FoundSoFar* found, std::size_t setup) {
    const double own = r.any_feasible ? r.fastest.tokens_per_second : 0;
    if (!found) return {own, layout_fastest};
    return {std::max(own, found->setup_fastest[setup].load(std::memory_order_relaxed)),
            std::max(layout_fastest, found->fastest.load(std::memory_order_relaxed))};
}

// A candidate (or every candidate of a bound) at `tokens_per_second` is slower than the setup's
// fastest and than the simplest-within window of the fastest: it can be neither the setup's bar
// nor the plan's choice (recommend takes the simplest point within kSimplestWithin of the fastest,
// and the search's fastest is only faster than any found so far).
bool cannot_win(double tokens_per_second, const Bars& bars) {
    return tokens_per_second < bars.setup_fastest && tokens_per_second < kSimplestWithin * bars.fastest;
}

// A line's candidate at bucket b.
Point at_bucket(Point line, std::size_t b) {
    line.bucket = static_cast<std::uint8_t>(b);
    return line;
}

// Step first for a line's leading buckets (kLeadingBuckets) before any other: whether none of them
// can win, and then no bucket of the line can; the step of each one estimated, kept for its turn.
// Not asked where a leading bucket's line of accumulating micro batches has ended (line_ended, as
// the bucket loop skips it): its step would not be estimated at its turn.
bool leaders_cannot_win(Scenario& s, const ZeroSetup& zero, const Point& line, const std::array<bool, kBuckets.size()>& line_ended,
                        bool accumulating, ComputeTimeMemo& compute, const Bars& bars,
                        std::array<std::optional<double>, kBuckets.size()>& steps) {
    for (const std::size_t l : kLeadingBuckets)
        if (line_ended[l] && accumulating) return false;
    for (const std::size_t l : kLeadingBuckets) {
        apply(s, zero, at_bucket(line, l));
        steps[l] = estimate_step(s, compute).tokens_per_second;
        if (!cannot_win(*steps[l], bars)) return false;
    }
    return true;
}

// A line's bound (fastest_possible_tokens_per_second at its recompute policy and micro batch),
// computed when first asked: `bound` is below 0 until then.
double line_bound(double& bound, Scenario& s, const ZeroSetup& zero, const Point& line, std::int64_t world) {
    if (bound < 0) {
        apply(s, zero, line);
        bound = fastest_possible_tokens_per_second(s, world);
    }
    return bound;
}

// A point that fits: the setup's fastest when it is, the layout's fastest so far, what every layout
// found so far, and the search's.
void keep_feasible(const Point& q, SetupResult& r, double& layout_fastest, FoundSoFar* found, Search& out) {
    if (!r.any_feasible || q.tokens_per_second > r.fastest.tokens_per_second) r.fastest = q;
    r.any_feasible = true;
    layout_fastest = std::max(layout_fastest, q.tokens_per_second);
    if (found) {
        raise_to(found->setup_fastest[q.setup], q.tokens_per_second);
        raise_to(found->fastest, q.tokens_per_second);
    }
    out.feasible.push_back(q);
}

// A point that does not fit: the setup's least-memory point while none of its points fits (and
// what every layout found so far knows of it).
void keep_if_closest(const Point& q, SetupResult& r, FoundSoFar* found) {
    if (!r.any_feasible && (!r.has_closest || q.gpu_bytes < r.closest.gpu_bytes)) {
        r.closest = q;
        r.has_closest = true;
        if (found) lower_to(found->setup_least_gpu_bytes[q.setup], q.gpu_bytes);
    }
}

// The bucket of a line with the least memory: the smallest buckets without overlap_comm. What the
// step's peak reads of the buckets grows with them (step_timeline.cpp): ZeRO-3's reduce bucket,
// ZeRO-2's ipg buffers (x2 with overlap_comm), the boundary bucket where it is the reduce bucket
// (min of it and the model), qgZ's quantized reduce buffers and the shard-by-shard gather's
// outputs (add_gather_terms: fewer shards, larger outputs); and a moment's required bytes grow
// with what it allocates (allocator.h moment_reserve). What refuses a setup (setup_refusal,
// within_kernel_index) does not read the buckets. So when this bucket's candidate does not fit on
// the GPU or is refused, no candidate of its line fits, and none has less GPU memory
// (tst_robustness checks the order on its random scenarios, over every setup every tenth).
constexpr std::size_t kLeastMemoryBucket = 4;
constexpr bool least_memory_bucket_is_least() {
    for (const BucketChoice& b : kBuckets)
        if (b.elems < kBuckets[kLeastMemoryBucket].elems || (!b.overlap && kBuckets[kLeastMemoryBucket].overlap)) return false;
    return true;
}
static_assert(least_memory_bucket_is_least(), "the least-memory bucket has the smallest buckets and no overlap_comm");

// Whether no candidate of a line can matter, from its least-memory bucket's peaks and fit `f`:
// none fits (the GPU or a refusal), and either the setup fits elsewhere (its least-memory point is
// not shown) or none has less GPU memory than the point kept so far: on this layout (an equal one
// later in the search is not kept either) or, strictly, on any.
bool line_cannot_matter(const MemoryPeaks& least, const Fit& f, const SetupResult& r, const Bars& bars, const FoundSoFar* found,
                        std::size_t setup) {
    if (f.gpu && f.refusal == SetupRefusal::None) return false;
    if (bars.setup_fits()) return true;
    const double g = least.gpu_required_bytes;
    if (r.has_closest && g >= r.closest.gpu_bytes) return true;
    return found && g > found->setup_least_gpu_bytes[setup].load(std::memory_order_relaxed);
}

// Up to where a candidate's GPU peak is needed exactly: the card's usable memory (above it the
// candidate does not fit) or, while no point of the setup fits, its least-memory point so far
// (above that the candidate is not the new one; none yet: every figure is needed).
double exact_below(const SetupResult& r, double usable) {
    if (r.any_feasible) return usable;
    return r.has_closest ? std::max(usable, r.closest.gpu_bytes) : std::numeric_limits<double>::infinity();
}

// One layout's search under way: its base and micro batches, the scenario each candidate is
// applied to in place, its compute memo, its fastest point so far and its lines' bounds.
struct LayoutRun {
    const LayoutSearch& in;
    const Scenario& base;
    const std::vector<std::int64_t>& micros;
    std::int64_t world;
    double usable;  // check_fit's GPU test, the same for every candidate
    Scenario s;
    ComputeTimeMemo compute;    // one layout: the model, GPU, fine-tuning and assumptions stay
    double layout_fastest = 0;  // tokens/s of this layout's fastest feasible point so far
    // Per recompute policy and micro batch (the same for every setup and bucket): no candidate of
    // theirs runs faster than this (step_seconds_lower_bound), computed when first asked.
    std::vector<double> fastest_possible;
    Search& out;
};

// One setup (and ZeRO++ choice) of a layout: its lines of recompute policy and micro batch, the
// buckets innermost.
void search_row(LayoutRun& run, const SetupRow& row) {
    const LayoutSearch& in = run.in;
    const std::vector<Checkpointing>& recomputes = in.recomputes;
    const std::vector<std::int64_t>& micros = run.micros;
    const bool bounded = in.pruning != SearchPruning::Exhaustive;
    const Scenario& base = run.base;
    Scenario& s = run.s;
    ComputeTimeMemo& compute = run.compute;
    Search& out = run.out;
    const double usable = run.usable;
    const std::size_t i = row.setup;
    const ZeroppChoice zeropp = row.zeropp;  // a local: the loop below writes through `s`
    ZeroSetup row_zero = base.zero;          // the row's ZeRO++ switches, once (apply keeps them)
    if (zeropp != ZeroppChoice::Off) apply_zeropp_choice(row_zero, zeropp, base.cluster.gpus_per_node);
    SetupResult& r = out.per_setup[i];
    const int stage = zero_setups()[i].stage;
    if (!layout_runs_stage(base.model, base.parallel, stage) && in.some_layout_runs[static_cast<std::size_t>(stage)]) {
        out.evaluated += static_cast<std::int64_t>(kBuckets.size() * recomputes.size() * micros.size());
        return;
    }
    MemoryMemo memo;  // one setup: buckets, recompute and micro batch vary below
    // Buckets innermost: the candidates in a row share their compute (ComputeTimeMemo).
    for (std::size_t ci = 0; ci < recomputes.size(); ++ci) {
        const Checkpointing ck = recomputes[ci];
        std::array<bool, kBuckets.size()> line_ended{};  // per bucket: an accumulating micro batch did not fit
        for (std::size_t mi = 0; mi < micros.size(); ++mi) {
            const std::int64_t micro = micros[mi];
            const bool accumulating = micro != micros.back();
            compute.use_line(ci * micros.size() + mi);  // the setups before this one asked the same compute
            // Once the setup has a feasible point (here or on a layout searched before), a recompute
            // policy and micro batch whose fastest possible step cannot win, or whose two leading
            // buckets cannot: none of its buckets is estimated (the step-first test below, for all
            // of them at once).
            const Point line{.setup = static_cast<std::uint8_t>(i),
                             .layout = 0,  // this layout's own Search; merge_layout renumbers
                             .checkpointing = ck,
                             .micro = static_cast<std::int32_t>(micro),
                             .zeropp = zeropp};
            std::array<std::optional<double>, kBuckets.size()> steps{};  // tokens/s of the buckets estimated step first
            const Bars line_bars = bars_of(r, run.layout_fastest, in.found, i);
            if (bounded && line_bars.setup_fits() &&
                (cannot_win(line_bound(run.fastest_possible[ci * micros.size() + mi], s, row_zero, line, run.world), line_bars) ||
                 leaders_cannot_win(s, row_zero, line, line_ended, accumulating, compute, line_bars, steps))) {
                out.evaluated += static_cast<std::int64_t>(kBuckets.size());
                continue;
            }
            // The line's least-memory bucket first: when no candidate of the line can fit or be
            // the setup's least-memory point, none is estimated further (its peaks kept for its
            // turn), and its later micro batches, which hold more, are ended at every bucket.
            std::optional<MemoryPeaks> least;
            if (bounded && !(line_ended[kLeastMemoryBucket] && accumulating)) {
                apply(s, row_zero, at_bucket(line, kLeastMemoryBucket));
                least = memory_peaks(s, memo, exact_below(r, usable));
                ++out.estimated;
                if (line_cannot_matter(*least, check_fit(s, *least), r, bars_of(r, run.layout_fastest, in.found, i), in.found, i)) {
                    out.evaluated += static_cast<std::int64_t>(kBuckets.size());
                    if (accumulating) line_ended.fill(true);
                    continue;
                }
            }
            std::array<bool, kBuckets.size()> outrun{};  // per bucket: a bucket never slower could not win
            for (std::size_t b = 0; b < kBuckets.size(); ++b) {
                ++out.evaluated;
                if ((line_ended[b] && accumulating) || outrun[b]) continue;
                const Point p = at_bucket(line, b);
                apply(s, row_zero, p);  // in place: no copy of the model's strings per point
                // Memory decides feasibility; step time only for what fits.
                if (!bounded) {  // every candidate from scratch
                    memo = {};
                    compute = {};
                }
                // Once the setup has a feasible point (here or on a layout searched before), the
                // step time first (the cheaper estimate): a candidate that cannot win, whether it
                // fits or not, has its memory not estimated.
                std::optional<double> tokens_per_second;
                if (const Bars bars = bars_of(r, run.layout_fastest, in.found, i); bounded && bars.setup_fits()) {
                    tokens_per_second = steps[b] ? *steps[b] : estimate_step(s, compute).tokens_per_second;
                    if (cannot_win(*tokens_per_second, bars)) {
                        mark_outrun(outrun, b);
                        continue;
                    }
                }
                Point q = p;
                // What check_fit reads and nothing else (the slices are the chosen plan's, evaluated
                // once): the GPU's peak, read exactly up to exact_below, and the host's for a
                // candidate the card holds. The exhaustive search takes them from the full
                // estimate, which checks the bounded one (tst_robustness).
                const bool asked = b == kLeastMemoryBucket && least;  // estimated before the line's buckets
                const MemoryPeaks peaks = !bounded ? memory_peaks(estimate_memory(s, memo))
                                          : asked  ? *least
                                                   : memory_peaks(s, memo, exact_below(r, usable));
                if (!asked) ++out.estimated;
                q.gpu_bytes = peaks.gpu_required_bytes;
                if (check_fit(s, peaks).all()) {  // memory, and the stage with the layout (Fit::layout)
                    q.tokens_per_second = tokens_per_second ? *tokens_per_second : estimate_step(s, compute).tokens_per_second;
                    keep_feasible(q, r, run.layout_fastest, in.found, out);
                } else {
                    // The setup's least-memory point while none of its fits, and the end of its
                    // bucket's line of accumulating micro batches.
                    keep_if_closest(q, r, in.found);
                    line_ended[b] = bounded && accumulating;
                }
            }
        }
    }
}

void search_layout(const LayoutSearch& in, const Parallelism& layout, Search& out) {
    std::optional<LayoutBase> prepared = layout_base(in, layout);
    if (!prepared) return;
    const Scenario& base = prepared->base;
    out.bases.push_back(base);
    const std::size_t lines = in.recomputes.size() * prepared->micros.size();
    LayoutRun run{
        in, base, prepared->micros, data_parallel_size(base), usable_gpu_bytes(base), base, {}, 0, std::vector<double>(lines, -1.0), out};
    run.compute.size_lines(lines);
    // The model is the same for every candidate: count it once (parameter_count and
    // largest_layer_params return the overrides), the same numbers without the walk per candidate.
    run.s.model.params_override = parameter_count(run.s.model);
    run.s.model.largest_layer_override = largest_layer_params(run.s.model);
    // Inside one node ZeRO++ on auto is off: the gathers never cross the network.
    // A release before ZeRO++ (v0.10.0) searches without it (core/model/deepspeed_release.h).
    const bool zeropp_released = release_has(base, release_firsts::kZeropp);
    const std::vector<SetupRow>& rows = in.search_zeropp && base.cluster.nodes > 1 && zeropp_released ? zeropp_rows(base) : plain_rows();
    for (const SetupRow& row : rows) search_row(run, row);
}

// Appends one layout's part to the search as run_search's sequential order would have made it:
// its base gets the next index; a setup keeps the first fastest feasible point (a later layout
// replaces it only when strictly faster) and, while none is feasible, the least-memory point.
void merge_layout(Search& out, Search&& part) {
    out.evaluated += part.evaluated;
    out.estimated += part.estimated;
    if (part.bases.empty()) return;
    const auto index = static_cast<std::uint16_t>(out.bases.size());
    out.bases.push_back(std::move(part.bases.front()));
    for (Point& p : part.feasible) {
        p.layout = index;
        out.feasible.push_back(p);
    }
    for (std::size_t i = 0; i < out.per_setup.size(); ++i) {
        SetupResult& r = out.per_setup[i];
        SetupResult& q = part.per_setup[i];
        q.fastest.layout = q.closest.layout = index;
        if (q.any_feasible && (!r.any_feasible || q.fastest.tokens_per_second > r.fastest.tokens_per_second)) r.fastest = q.fastest;
        if (!r.any_feasible && q.has_closest && (!r.has_closest || q.closest.gpu_bytes < r.closest.gpu_bytes)) {
            r.closest = q.closest;
            r.has_closest = true;
        }
        r.any_feasible = r.any_feasible || q.any_feasible;
    }
}

Search run_search(const Scenario& input, const std::vector<Parallelism>& layouts, SearchPruning pruning, bool search_zeropp) {
    Search out;
    std::vector<Checkpointing> recomputes(kCheckpointing.begin(), kCheckpointing.end());
    if (!input.training.auto_checkpointing) recomputes = {input.training.checkpointing};
    out.per_setup.resize(zero_setups().size());
    // A stage a pipeline cannot run is estimated on a pipelined layout only when no layout of the
    // search runs it (then its bar shows why, as with a layout the user fixed).
    std::array<bool, 4> some_layout_runs{};
    for (const Parallelism& l : layouts)
        for (int stage = 0; stage < 4; ++stage)
            some_layout_runs[static_cast<std::size_t>(stage)] |= layout_runs_stage(input.model, l, stage);

    // The layout search spreads its layouts over two threads (the machine's second core while the
    // caller waits); each layout's part is kept by its index and merged in layout order, so the
    // plan, and which of two equal points wins, are the sequential search's. An error is raised
    // for the first layout that has one, as in order.
    FoundSoFar found(zero_setups().size());
    const LayoutSearch in{
        input, recomputes, some_layout_runs, pruning, search_zeropp, layouts.size() > 1, layouts.size() > 1 ? &found : nullptr};
    std::vector<Search> parts(layouts.size());
    std::vector<std::exception_ptr> errors(layouts.size());
    std::atomic<std::size_t> next{0};
    const bool later_first = pruning == SearchPruning::BoundsLaterLayoutsFirst;
    const auto work = [&] {
        for (std::size_t k = next++; k < layouts.size(); k = next++) {
            const std::size_t li = later_first ? layouts.size() - 1 - k : k;
            parts[li].per_setup.resize(zero_setups().size());
            try {
                search_layout(in, layouts[li], parts[li]);
            } catch (...) {
                errors[li] = std::current_exception();
            }
        }
    };
    if (layouts.size() > 1 && std::thread::hardware_concurrency() > 1 && !later_first) {
        std::future<void> helper = std::async(std::launch::async, work);
        work();
        helper.get();
    } else {
        work();
    }
    for (std::size_t li = 0; li < layouts.size(); ++li) {
        if (errors[li]) std::rethrow_exception(errors[li]);
        merge_layout(out, std::move(parts[li]));
    }
    if (out.bases.empty())
        throw InputError("micro batch " + std::to_string(input.training.micro_batch) +
                         " divides the per-GPU sequences of no layout; choose another or let the planner choose (auto)");
    return out;
}

// Whether ZeRO++ takes effect on `c`'s setup and layout at all (all three switches on): when it
// does not, "stays off" would say nothing the plan decided.
bool zeropp_applies(const Scenario& s, const Candidate& c) {
    Scenario t = with_candidate(s, c);
    apply_zeropp_choice(t.zero, ZeroppChoice::HpzQwzQgz, t.cluster.gpus_per_node);
    return effective_zeropp(t).any();
}

// What the offload time is made of (StepTime's parts that round to 1% of the step or more):
// copies over PCIe (gradients, parameters, activation checkpoints in host RAM), the CPU optimizer
// step, NVMe swaps. Only the parts that are there, so a plan without a CPU optimizer names none.
Phrase offload_parts_words(const StepTime& st) {
    Phrase out;
    const auto part = [&](double seconds, const char* words) {
        if (!(seconds >= 0.005 * st.seconds)) return;  // what rounds to 1% or more
        Phrase p = phrase(words, {format_fixed(seconds / st.seconds * 100, 0)});
        out = out.text.empty() ? std::move(p) : phrase(QT_TRANSLATE_NOOP("Core", "%1, %2"), {out, std::move(p)});
    };
    part(st.pcie_seconds, QT_TRANSLATE_NOOP("Core", "copies over PCIe %1%"));
    part(st.cpu_optimizer_seconds, QT_TRANSLATE_NOOP("Core", "the CPU optimizer step %1%"));
    part(st.nvme_seconds, QT_TRANSLATE_NOOP("Core", "NVMe reads and writes %1%"));
    return out;
}

// "8.7%" slower; from twice the step time on, "3.0x" ("203% slower" reads as a typo).
std::string percent_slower(double fast, double slow) {
    const double ratio = fast / slow;
    if (ratio >= 2.0) return format_fixed(ratio, 1) + "x";
    const double pct = (ratio - 1.0) * 100.0;
    return format_fixed(pct, pct < 10 ? 1 : 0) + "%";
}

// A what-if of explain_nothing_fits: `trial` at micro batch 1, full recompute and small buckets, the
// batch following the GPU count, each setup simplest first; the first whose fit `wanted` accepts.
struct TrialFit {
    ZeroSetup setup;
    MemoryBreakdown memory;
};
template <class Wanted>
std::optional<TrialFit> first_trial_fit(const Scenario& trial, Wanted&& wanted) {
    Scenario t = trial;
    t.training.global_batch = 0;  // let the batch follow the GPU count in this what-if
    t.training.micro_batch = 1;
    t.training.checkpointing = Checkpointing::Full;
    for (const ZeroSetup& z : zero_setups()) {
        t.zero = trial.zero;
        t = with_setup(t, z);
        t.zero.reduce_bucket_elems = t.zero.allgather_bucket_elems = deepspeed::recommended::kSmallBucketElems;
        MemoryBreakdown m = estimate_memory(t);
        if (wanted(check_fit(t, m))) return TrialFit{z, std::move(m)};
    }
    return std::nullopt;
}

// Host RAM or NVMe short while the GPU side fits somewhere: how much is needed, and what frees host
// RAM for the setup that needs least of it.
void suggest_host_and_nvme(const Scenario& s, const Plan& plan_so_far, Plan& plan) {
    double min_cpu = 1e300, min_nvme = 1e300;
    for (const Candidate& c : plan_so_far.per_setup) {
        if (!c.fit.gpu) continue;
        if (c.fit.nvme && !c.fit.cpu) min_cpu = std::min(min_cpu, c.memory.cpu_bytes_per_node);
        if (c.fit.cpu && !c.fit.nvme) min_nvme = std::min(min_nvme, c.memory.nvme_bytes_per_node);
        if (!c.fit.cpu && !c.fit.nvme) min_cpu = std::min(min_cpu, c.memory.cpu_bytes_per_node);
    }
    if (min_nvme < 1e300)
        add(plan.suggestions, plan.suggestion_phrases,
            phrase(QT_TRANSLATE_NOOP("Core", "NVMe: %1 per node would let ZeRO-3 offload states to NVMe (now %2)"),
                   {format_bytes(min_nvme), format_bytes(s.cluster.nvme_bytes_per_node)}));
    if (min_cpu < 1e300)
        add(plan.suggestions, plan.suggestion_phrases,
            phrase(QT_TRANSLATE_NOOP("Core", "host RAM: %1 per node would fit the CPU-offload setup (now %2)"),
                   {format_bytes(min_cpu), format_bytes(s.cluster.cpu_ram_bytes_per_node)}));
    // Host RAM is the limit where the GPU side fits: what frees it, cheapest first, for the setup
    // that needs least host RAM among those.
    const Candidate* host_limited = nullptr;
    for (const Candidate& c : plan_so_far.per_setup)
        if (c.fit.gpu && !c.fit.cpu && (!host_limited || c.memory.cpu_bytes_per_node < host_limited->memory.cpu_bytes_per_node))
            host_limited = &c;
    if (host_limited) {
        for (const HostFix& f : host_ram_fixes(with_candidate(s, *host_limited))) {
            add(plan.suggestions, plan.suggestion_phrases,
                phrase(f.fits ? QT_TRANSLATE_NOOP("Core", "%1: %2 frees %3 per node and fits")
                              : QT_TRANSLATE_NOOP("Core", "%1: %2 frees %3 per node"),
                       {setup_phrase(host_limited->zero), f.change_phrase, format_bytes(f.freed_bytes)}));
            if (f.fits) break;
        }
    }
}

void explain_nothing_fits(const Scenario& s, const Plan& plan_so_far, Plan& plan) {
    suggest_host_and_nvme(s, plan_so_far, plan);
    // More GPUs: ZeRO-3 divides model states by N; try doubling the node count.
    // The first setup (simplest first) that fits the trial scenario, or "" when none does.
    auto fits_somewhere = [](const Scenario& trial) -> Phrase {
        const auto found = first_trial_fit(trial, [](const Fit& f) { return f.all(); });
        return found ? setup_phrase(found->setup) : Phrase();
    };
    // A plan on part of a preset's node (one GPU of a DGX) first fills that node: its other GPUs
    // are the ones the user has (cluster_preset_of: the preset the cluster is a run of).
    const ClusterPreset* node_preset = cluster_preset_of(s.cluster);
    const std::int64_t node_size = std::max(s.cluster.gpus_per_node, node_preset ? node_preset->cluster.gpus_per_node : 0);
    Scenario more = s;
    for (int k = 0; k < 12; ++k) {
        if (more.cluster.nodes == 1 && more.cluster.gpus_per_node < node_size)
            more = with_gpu_count(s, std::min(2 * more.cluster.gpus_per_node, node_size), node_size);
        else more.cluster.nodes *= 2;
        if (more.cluster.world_size() > 65536) break;
        if (const Phrase setup = fits_somewhere(more); !setup.text.empty()) {
            const std::string gpus = std::to_string(more.cluster.world_size());
            add(plan.suggestions, plan.suggestion_phrases,
                more.cluster.nodes == 1
                    ? phrase(QT_TRANSLATE_NOOP("Core", "more GPUs: %1 GPUs of the node would fit %2"), {gpus, setup})
                    : phrase(QT_TRANSLATE_NOOP("Core", "more GPUs: %1 GPUs (%2 nodes of %3) would fit %4"),
                             {gpus, std::to_string(more.cluster.nodes), std::to_string(more.cluster.gpus_per_node), setup}));
            break;
        }
    }
    // At long sequences the loss's logits and a layer's MLP are the peak: the parts that tile them
    // (a chunked loss, Liger-Kernel's fused linear cross-entropy; then ALST's, arXiv 2506.13996)
    // keep the sequence, which the user came for. diagnose names the same (oom_diagnosis.cpp).
    if (s.training.loss_kernel != LossKernel::Chunked) {
        Scenario chunked = s;
        chunked.training.loss_kernel = LossKernel::Chunked;
        Scenario alst = s;
        use_alst(alst.training);
        if (const Phrase setup = fits_somewhere(chunked); !setup.text.empty())
            add(plan.suggestions, plan.suggestion_phrases,
                phrase(QT_TRANSLATE_NOOP("Core",
                                         "a chunked loss (Liger-Kernel's fused linear cross-entropy, --loss-kernel chunked) "
                                         "would fit %1 at %2 tokens"),
                       {setup, format_count(static_cast<double>(s.training.seq_len))}));
        else if (const Phrase at = fits_somewhere(alst); !at.text.empty())
            add(plan.suggestions, plan.suggestion_phrases,
                phrase(
                    QT_TRANSLATE_NOOP("Core", "ALST's tiled MLP and loss, checkpoints in host RAM (--alst on) would fit %1 at %2 tokens"),
                    {at, format_count(static_cast<double>(s.training.seq_len))}));
    }
    Scenario shorter = s;
    while (shorter.training.seq_len > 128) {
        shorter.training.seq_len /= 2;
        if (const Phrase setup = fits_somewhere(shorter); !setup.text.empty()) {
            add(plan.suggestions, plan.suggestion_phrases,
                phrase(QT_TRANSLATE_NOOP("Core", "a shorter sequence: %1 tokens (now %2) would fit %3"),
                       {format_count(static_cast<double>(shorter.training.seq_len)), format_count(static_cast<double>(s.training.seq_len)),
                        setup}));
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
            if (const Phrase setup = fits_somewhere(tuned); !setup.text.empty()) {
                add(plan.suggestions, plan.suggestion_phrases,
                    phrase(QT_TRANSLATE_NOOP("Core",
                                             "fine-tuning with adapters instead of full training: %1 (r 16, all linear layers; "
                                             "--finetune %2 --lora-rank 16 --lora-targets all-linear) would fit %3"),
                           {phrase(method == FineTuneMethod::Lora ? QT_TRANSLATE_NOOP("Core", "LoRA on a 16-bit base")
                                                                  : QT_TRANSLATE_NOOP("Core", "QLoRA on an NF4 base")),
                            std::string(to_string(method)), setup}));
                break;
            }
        }
    }
    if (!plan.suggestions.empty()) return;
    // Nothing above fits. Where a setup fits the GPU at this or a shorter sequence but not the
    // nodes' host RAM (every process loading the model, or a checkpoint save), the host is what
    // blocks: a larger GPU would not help (Llama-3.1 405B on one RTX 4090 said it would).
    for (Scenario t = s; t.training.seq_len >= 128; t.training.seq_len /= 2) {
        const auto host_short = first_trial_fit(t, [](const Fit& f) { return f.gpu && f.nvme && !f.cpu && f.layout(); });
        if (!host_short) continue;
        add(plan.suggestions, plan.suggestion_phrases,
            phrase(QT_TRANSLATE_NOOP("Core", "host RAM: %1 fits the GPU at %2 tokens and needs %3 per node (now %4)"),
                   {setup_phrase(host_short->setup), format_count(static_cast<double>(t.training.seq_len)),
                    format_bytes(host_short->memory.cpu_bytes_per_node), format_bytes(s.cluster.cpu_ram_bytes_per_node)}));
        return;
    }
    add(plan.suggestions, plan.suggestion_phrases,
        phrase(QT_TRANSLATE_NOOP("Core", "a GPU with more memory: no setup fits this GPU at any sequence length we tried")));
}

}  // namespace

std::vector<Parallelism> searched_layouts(const Scenario& s, const SearchSpace& space) {
    if (is_fsdp(s.fsdp)) return {s.parallel};  // FSDP is planned for data parallelism alone (validate_fsdp)
    if (!space.auto_tensor && !space.auto_pipeline && !space.auto_expert && !space.auto_ulysses) return {s.parallel};
    const std::int64_t world = s.cluster.world_size();
    std::vector<std::int64_t> tensors = space.auto_tensor ? tensor_parallel_sizes(s) : std::vector<std::int64_t>{s.parallel.tensor};
    // DeepSpeed-Ulysses degrees and expert-parallel sizes: validate_parallelism keeps those the
    // layout takes.
    const std::vector<std::int64_t> ulysses = space.auto_ulysses ? ulysses_degrees(s) : std::vector<std::int64_t>{s.parallel.ulysses};
    const std::vector<std::int64_t> experts =
        space.auto_expert ? expert_parallel_sizes(s.model) : std::vector<std::int64_t>{s.parallel.expert};
    std::vector<Parallelism> out;
    // One copy for every candidate layout: the loop below sets each field it varies (a copy per
    // candidate copied the model's strings thousands of times on 1,024 GPUs).
    Scenario l = s;
    l.zero.stage = 0;  // the layout alone: the search chooses the stage (a pipeline's are 0/1, experts' 0-2)
    for (std::int64_t t : tensors) {
        std::vector<std::int64_t> pipelines{s.parallel.pipeline};
        if (space.auto_pipeline) {
            pipelines.clear();
            for (std::int64_t p = 1; p <= s.model.layers && p * t <= world; ++p)
                if ((world / t) % p == 0) pipelines.push_back(p);  // validate_parallelism checks the rest
        }
        for (std::int64_t p : pipelines) {
            for (std::int64_t e : experts)
                for (std::int64_t u : ulysses) {
                    // DeepSpeed-Ulysses runs without tensor and pipeline parallelism (validate_ulysses
                    // refuses the rest, Megatron-DeepSpeed's parallel_state.py asserts it): skipped
                    // here without building and throwing validate_parallelism's error, which was
                    // most of the layout enumeration's time with --sp auto beside --tp/--pp auto.
                    if (u > 1 && (t > 1 || p > 1)) continue;
                    l.parallel.tensor = t;
                    l.parallel.pipeline = p;
                    l.parallel.expert = e;
                    l.parallel.ulysses = u;
                    if (space.auto_pipeline) l.parallel.virtual_stages = 1;
                    if (space.auto_tensor) l.parallel.sequence_parallel = t > 1;  // Megatron's default with TP: less activation memory
                    try {
                        validate_parallelism(l);
                    } catch (const InputError&) {
                        continue;
                    }
                    if (layout_global_batch(l)) out.push_back(l.parallel);
                }
        }
    }
    if (out.empty()) out.push_back(s.parallel);  // nothing else divides: the scenario's own (its error says why)
    std::stable_sort(out.begin(), out.end(),
                     [](const Parallelism& a, const Parallelism& b) { return layout_degree(a) < layout_degree(b); });
    return out;
}

SearchSpace search_space_of(const Scenario& s) {
    return {s.parallel.auto_tensor, s.parallel.auto_pipeline, s.parallel.auto_expert, s.parallel.auto_ulysses, s.zero.auto_zeropp};
}

void search_layouts_by_default(Scenario& s) {
    const bool search = s.finetune.method == FineTuneMethod::Full && s.cluster.nodes > 1 && !is_fsdp(s.fsdp);
    s.parallel.auto_tensor = search;
    s.parallel.auto_pipeline = search;
    s.parallel.auto_expert = search && s.model.experts > 1;
    // ZeRO++ switches already set (a ds_config's, --hpz-size) are the user's: they stay fixed.
    s.zero.auto_zeropp = search && !zeropp_switches(s.zero).any();
}

Scenario default_plan_scenario() {
    Scenario s = default_scenario();
    search_layouts_by_default(s);
    return s;
}

std::string setup_refusal_words(const Scenario& s, const Candidate& c) {
    return c.fit.refusal == SetupRefusal::None ? std::string() : english(rejection_reason(s, c));
}

Plan recommend(const Scenario& s, SearchPruning pruning) { return recommend(s, SearchSpace{}, pruning); }

namespace {
// Whether plan `b` wins over `a`: it fits and `a` does not, or it is more than 2% faster (`a`, the
// simpler or the default, keeps a tie).
bool second_plan_wins(const Plan& a, const Plan& b) {
    return b.feasible && (!a.feasible || b.best.step.tokens_per_second > a.best.step.tokens_per_second / 0.98);
}

// The winner of two searches, with `why` said second (after what was recommended) and both
// searches' counts.
Plan merged_plan(Plan winner, const Plan& loser, const Phrase& why) {
    if (!why.text.empty()) {
        winner.why.insert(winner.why.begin() + (winner.why.empty() ? 0 : 1), english(why));
        winner.why_phrases.insert(winner.why_phrases.begin() + (winner.why_phrases.empty() ? 0 : 1), why);
    }
    winner.candidates_evaluated += loser.candidates_evaluated;
    winner.candidates_estimated += loser.candidates_estimated;
    return winner;
}

Plan recommend_searched(const Scenario& s, const SearchSpace& space, SearchPruning pruning);

// --engine auto: the plan under DeepSpeed and under PyTorch FSDP (core/model/engine.h), each searched
// as recommend searches one engine; the faster one that fits wins (DeepSpeed when within 2%, the
// planner's default and the simpler to export), and its why says what the other engine reached.
Plan recommend_engines(const Scenario& s, const SearchSpace& space, SearchPruning pruning) {
    Scenario deepspeed = with_engine(s, Engine::DeepSpeed);
    deepspeed.fsdp.auto_engine = false;
    Scenario fsdp = with_engine(s, is_fsdp(s.fsdp) ? s.fsdp.engine : Engine::Fsdp);
    fsdp.fsdp.auto_engine = false;
    fsdp.zero.bf16_master_weights = false;  // DeepSpeed's option (ZeroSetup::bf16_master_weights): FSDP's plan has none
    Plan a = recommend(deepspeed, space, pruning);
    // FSDP is planned for data parallelism alone: no layout or ZeRO++ search under it.
    Plan b = recommend(fsdp, SearchSpace{}, pruning);
    const bool fsdp_wins = second_plan_wins(a, b);
    Plan& winner = fsdp_wins ? b : a;
    const Plan& loser = fsdp_wins ? a : b;
    const std::string won = engine_name(fsdp_wins ? fsdp.fsdp.engine : Engine::DeepSpeed);
    const std::string lost = engine_name(fsdp_wins ? Engine::DeepSpeed : fsdp.fsdp.engine);
    // Each setup by its engine's own names (FULL_SHARD + CPUOffload under FSDP).
    const auto setup = [](const Candidate& c) { return setup_phrase(setup_key(c.zero), c.engine, c.hybrid_shard); };
    Phrase engine_why;
    if (winner.feasible && loser.feasible)
        engine_why =
            phrase(QT_TRANSLATE_NOOP("Core", "Engine on auto chose %1: %2 tokens/s with %3, against %4 tokens/s with %5 under %6."),
                   {won, format_count(winner.best.step.tokens_per_second), setup(winner.best),
                    format_count(loser.best.step.tokens_per_second), setup(loser.best), lost});
    else if (winner.feasible)
        engine_why = phrase(QT_TRANSLATE_NOOP("Core", "Engine on auto chose %1: nothing fits under %2."), {won, lost});
    return merged_plan(std::move(winner), loser, engine_why);
}

// PyTorch FSDP across nodes: the plan with FULL_SHARD's and SHARD_GRAD_OP's shards over every GPU
// and with hybrid sharding (FsdpSetup::hybrid_shard: inside each node, replicated across nodes);
// the faster that fits wins, the flat one when within 2% (fewer states per GPU, FSDP's default).
// Hybrid sharding asked for (on) is the user's, as ZeRO++ switches set are: it stays fixed.
bool searches_hybrid_shard(const Scenario& s) {
    return is_fsdp(s.fsdp) && !s.fsdp.hybrid_shard && s.cluster.nodes > 1 && s.cluster.gpus_per_node > 1;
}

Plan recommend_hybrid_shard(const Scenario& s, const SearchSpace& space, SearchPruning pruning) {
    Scenario flat = s, hybrid = s;
    flat.fsdp.hybrid_shard = false;
    hybrid.fsdp.hybrid_shard = true;
    Plan a = recommend_searched(flat, space, pruning);
    Plan b = recommend_searched(hybrid, space, pruning);
    // Hybrid sharding changes nothing for NO_SHARD: then the two plans are one.
    const bool hybrid_in_effect = b.feasible && replicated_shard_groups(with_candidate(hybrid, b.best)).on();
    const bool hybrid_wins = hybrid_in_effect && second_plan_wins(a, b);
    Plan& winner = hybrid_wins ? b : a;
    const Plan& loser = hybrid_wins ? a : b;
    const auto setup = [](const Candidate& c) { return setup_phrase(setup_key(c.zero), c.engine, c.hybrid_shard); };
    Phrase why;
    const std::string node = std::to_string(s.cluster.gpus_per_node), gpus = std::to_string(s.cluster.world_size());
    if (hybrid_wins && a.feasible)
        why = phrase(QT_TRANSLATE_NOOP("Core",
                                       "Hybrid sharding (inside each node of %1 GPUs, replicated across nodes): %2 tokens/s with %3, "
                                       "against %4 tokens/s with %5 over all %6 GPUs."),
                     {node, format_count(b.best.step.tokens_per_second), setup(b.best), format_count(a.best.step.tokens_per_second),
                      setup(a.best), gpus});
    else if (hybrid_wins)
        why = phrase(QT_TRANSLATE_NOOP("Core",
                                       "Hybrid sharding (inside each node of %1 GPUs, replicated across nodes): nothing fits "
                                       "sharded over all %2 GPUs."),
                     {node, gpus});
    else if (hybrid_in_effect && a.feasible)
        why = phrase(QT_TRANSLATE_NOOP("Core",
                                       "Sharded over all %1 GPUs: %2 tokens/s, against %3 tokens/s with %4 (inside each node of "
                                       "%5 GPUs, replicated across nodes)."),
                     {gpus, format_count(a.best.step.tokens_per_second), format_count(b.best.step.tokens_per_second), setup(b.best), node});
    return merged_plan(std::move(winner), loser, why);
}
}  // namespace

Plan recommend(const Scenario& s, const SearchSpace& space, SearchPruning pruning) {
    if (s.fsdp.auto_engine) return recommend_engines(s, space, pruning);
    if (searches_hybrid_shard(s)) return recommend_hybrid_shard(s, space, pruning);
    return recommend_searched(s, space, pruning);
}

namespace {
// The recommendation's why: each other setup against it, what made it the choice (the fastest,
// or the simplest within 2% of `best_tps`), ZeRO++ and MiCS where they run, and what decides its step.
// Each setup other than the recommended one (`best_setup`): an alternative that fits, with why it
// lost, or the reason it does not fit.
void explain_other_setups(const Scenario& s, std::size_t best_setup, Plan& plan) {
    const Phrase best_label = setup_phrase(setup_key(plan.best.zero), plan.best.engine, plan.best.hybrid_shard);
    for (std::size_t i = 0; i < zero_setups().size(); ++i) {
        const ZeroSetup& z = zero_setups()[i];
        if (i == best_setup) continue;
        const Candidate& c = plan.per_setup[i];
        if (plan.per_setup_feasible[i]) {
            plan.alternatives.push_back(c);
            const double tps = c.step.tokens_per_second;
            // Faster, or as fast to the 0.1% printed below: the simpler setup won, not the speed;
            // where its own best layout splits a replica over more GPUs, that is what lost (simplicity).
            const bool as_fast = tps >= 0.9995 * plan.best.step.tokens_per_second;
            const FitMargin best_margin = fit_margin(s, plan.best.memory);
            if (as_fast && fit_margin(s, c.memory).at_edge && !best_margin.at_edge)
                // The first reason of simplicity(): a fit at the edge loses to one with room.
                plan.rejected.push_back(rejection(
                    setup_key(z), s.fsdp,
                    phrase(QT_TRANSLATE_NOOP("Core",
                                             "fits and is within 2% (%1 tokens/s), but at the edge of GPU memory (%2 that must fit of %3 "
                                             "usable), where %4 has %5 to spare"),
                           {format_count(tps), format_bytes(c.memory.peak_required_bytes), format_bytes(usable_gpu_bytes(s)), best_label,
                            format_bytes(best_margin.margin_bytes)})));
            else if (as_fast && layout_degree(c.parallel) > layout_degree(plan.best.parallel))
                plan.rejected.push_back(
                    rejection(setup_key(z), s.fsdp,
                              phrase(QT_TRANSLATE_NOOP("Core",
                                                       "fits and is as fast (%1 tokens/s) at %2, but %3 is within 2% with less model "
                                                       "parallelism (%4)"),
                                     {format_count(tps), layout_or_data_words(with_candidate(s, c)), best_label,
                                      layout_or_data_words(with_candidate(s, plan.best))})));
            else if (as_fast)
                plan.rejected.push_back(
                    rejection(setup_key(z), s.fsdp,
                              phrase(QT_TRANSLATE_NOOP("Core", "fits and is within 2% (%1 tokens/s), but %2 is simpler"),
                                     {format_count(tps), best_label})));
            else if (!same_layout(c.parallel, plan.best.parallel))
                // Its own best layout, not the recommended one's: say which (a DDP row at the
                // recommended tensor size would not fit at all).
                plan.rejected.push_back(
                    rejection(setup_key(z), s.fsdp,
                              phrase(QT_TRANSLATE_NOOP("Core", "fits at %1, but is %2 slower (%3 vs %4 tokens/s)"),
                                     {layout_or_data_words(with_candidate(s, c)), percent_slower(plan.best.step.tokens_per_second, tps),
                                      format_count(tps), format_count(plan.best.step.tokens_per_second)})));
            else
                plan.rejected.push_back(rejection(setup_key(z), s.fsdp,
                                                  phrase(QT_TRANSLATE_NOOP("Core", "fits, but is %1 slower (%2 vs %3 tokens/s)"),
                                                         {percent_slower(plan.best.step.tokens_per_second, tps), format_count(tps),
                                                          format_count(plan.best.step.tokens_per_second)})));
        } else {
            plan.rejected.push_back(rejection(setup_key(z), s.fsdp, rejection_reason(s, c)));
        }
    }
    std::stable_sort(plan.alternatives.begin(), plan.alternatives.end(),
                     [](const Candidate& a, const Candidate& b) { return a.step.tokens_per_second > b.step.tokens_per_second; });
}

// Whether the edge decided (simplicity's first reason): the fastest feasible point is at the edge
// of GPU memory and the chosen one is not.
bool fastest_at_the_edge(const Scenario& s, const Search& search, const Point& best) {
    const Point* fastest = nullptr;
    for (const Point& p : search.feasible)
        if (!fastest || p.tokens_per_second > fastest->tokens_per_second) fastest = &p;
    return fastest && fit_margin(s, fastest->gpu_bytes).at_edge && !fit_margin(s, best.gpu_bytes).at_edge;
}

void explain_recommendation(const Scenario& s, const Search& search, const Point& best, double best_tps, const SearchSpace& searched,
                            Plan& plan) {
    explain_other_setups(s, best.setup, plan);
    const Phrase best_label = setup_phrase(setup_key(plan.best.zero), plan.best.engine, plan.best.hybrid_shard);
    const Candidate& b = plan.best;
    const Phrase recompute_words =
        phrase(b.checkpointing == Checkpointing::None ? QT_TRANSLATE_NOOP("Core", "no") : to_string(b.checkpointing));
    // The simplest within 2% of the fastest wins (kSimplestWithin): said as such when it is not the
    // fastest itself, to the 0.1% the other setups' lines print.
    if (b.step.tokens_per_second >= 0.9995 * best_tps)
        add(plan.why, plan.why_phrases,
            phrase(QT_TRANSLATE_NOOP("Core",
                                     "%1 with micro batch %2 x %3 accumulation steps and %4 activation recompute is the fastest "
                                     "setup that fits: %5 tokens/s."),
                   {best_label, std::to_string(b.micro_batch), std::to_string(b.gradient_accumulation_steps), recompute_words,
                    format_count(b.step.tokens_per_second)}));
    else if (fastest_at_the_edge(s, search, best))
        add(plan.why, plan.why_phrases,
            phrase(QT_TRANSLATE_NOOP("Core",
                                     "%1 with micro batch %2 x %3 accumulation steps and %4 activation recompute is the simplest "
                                     "setup within 2% of the fastest that fits, and fits clear of the edge of GPU memory, which "
                                     "the fastest does not: %5 tokens/s against %6."),
                   {best_label, std::to_string(b.micro_batch), std::to_string(b.gradient_accumulation_steps), recompute_words,
                    format_count(b.step.tokens_per_second), format_count(best_tps)}));
    else
        add(plan.why, plan.why_phrases,
            phrase(QT_TRANSLATE_NOOP("Core",
                                     "%1 with micro batch %2 x %3 accumulation steps and %4 activation recompute is the simplest "
                                     "setup within 2% of the fastest that fits: %5 tokens/s against %6."),
                   {best_label, std::to_string(b.micro_batch), std::to_string(b.gradient_accumulation_steps), recompute_words,
                    format_count(b.step.tokens_per_second), format_count(best_tps)}));
    if (Phrase zpp = zeropp_phrase(effective_zeropp(with_candidate(s, b))); !zpp.text.empty())
        add(plan.why, plan.why_phrases,
            b.memory.hpz_secondary_bytes > 0
                ? phrase(QT_TRANSLATE_NOOP("Core", "With ZeRO++: %1; the secondary partition takes %2 per GPU."),
                         {zpp, format_bytes(b.memory.hpz_secondary_bytes)})
                : phrase(QT_TRANSLATE_NOOP("Core", "With ZeRO++: %1."), {zpp}));
    if (const MicsGroups mics = effective_mics(with_candidate(s, b)); mics.on())
        add(plan.why, plan.why_phrases,
            phrase(QT_TRANSLATE_NOOP("Core", "With MiCS: %1; each GPU holds 1/%2 of the model states and gathers them inside its group."),
                   {mics_phrase(mics), std::to_string(mics.shard)}));
    if (searched.auto_zeropp && b.zero.stage == 3 && s.cluster.nodes > 1) {
        // ZeRO++ on auto across nodes: why it was chosen (the exposed cross-node gathers it
        // removes), or why it stayed off.
        if (best.zeropp != ZeroppChoice::Off) {
            Point off = best;
            off.zeropp = ZeroppChoice::Off;
            const Candidate without = evaluate(at(search.bases[best.layout], off));
            // A switch the choice turns on that does not take effect there (hpZ with parameters
            // offloaded or tensor parallelism: effective_zeropp) is said, so the line names what runs.
            const Phrase not_taken = zeropp_not_taken_phrase(with_candidate(s, b));
            add(plan.why, plan.why_phrases,
                not_taken.text.empty()
                    ? phrase(
                          QT_TRANSLATE_NOOP("Core",
                                            "ZeRO++ on auto chose --zeropp %1: without it ZeRO-3's gathers and gradient reduce cross "
                                            "the network, %2 of communication exposed per step instead of %3, and the step is "
                                            "%4 slower."),
                          {std::string(to_string(best.zeropp)), format_seconds(without.step.comm_seconds),
                           format_seconds(b.step.comm_seconds), percent_slower(b.step.tokens_per_second, without.step.tokens_per_second)})
                    : phrase(QT_TRANSLATE_NOOP("Core",
                                               "ZeRO++ on auto chose --zeropp %1 (%5): without it ZeRO-3's gathers and gradient reduce "
                                               "cross the network, %2 of communication exposed per step instead of %3, and the step is "
                                               "%4 slower."),
                             {std::string(to_string(best.zeropp)), format_seconds(without.step.comm_seconds),
                              format_seconds(b.step.comm_seconds), percent_slower(b.step.tokens_per_second, without.step.tokens_per_second),
                              not_taken}));
        } else if (zeropp_applies(s, b)) {
            add(plan.why, plan.why_phrases,
                phrase(QT_TRANSLATE_NOOP("Core",
                                         "ZeRO++ on auto stays off: with hpZ, or hpZ + qwZ + qgZ, this setup is not 2% "
                                         "faster or does not fit.")));
        }
    }
    add(plan.why, plan.why_phrases,
        phrase(
            QT_TRANSLATE_NOOP("Core",
                              "It peaks in the %1 (%2): %3 allocated, %4 reserved with the CUDA context (nvidia-smi), %5 "
                              "that must fit of %6 usable per GPU."),
            {phrase(to_string(b.memory.peak.phase)), phrase(b.memory.peak.cause), format_bytes(b.memory.peak_allocated_bytes),
             format_bytes(b.memory.peak_reserved_bytes), format_bytes(b.memory.peak_required_bytes), format_bytes(usable_gpu_bytes(s))}));
    add(plan.why, plan.why_phrases,
        phrase(b.memory.nvme_bytes_per_node > 0 ? QT_TRANSLATE_NOOP("Core", "Host RAM peaks %1 (%2): %3 of %4 per node; %5 NVMe per node.")
                                                : QT_TRANSLATE_NOOP("Core", "Host RAM peaks %1 (%2): %3 of %4 per node."),
               {phrase(host_phase_words(b.memory.host.peak_phase)), phrase(b.memory.host.peak().cause),
                format_bytes(b.memory.cpu_bytes_per_node), format_bytes(s.cluster.cpu_ram_bytes_per_node),
                format_bytes(b.memory.nvme_bytes_per_node)}));
    // The network advice only where exposed communication outweighs the compute; below that a
    // faster GPU shortens the step more.
    const auto share_of_step = [&](double seconds) { return format_fixed(seconds / b.step.seconds * 100, 0); };
    if (b.step.comm_seconds > 0.1 * b.step.seconds)
        add(plan.why, plan.why_phrases,
            b.step.comm_seconds > b.step.compute_seconds
                ? phrase(QT_TRANSLATE_NOOP("Core",
                                           "Exposed communication is %1% of the step, more than the compute (%2%): a faster "
                                           "network would help more than a faster GPU."),
                         {share_of_step(b.step.comm_seconds), share_of_step(b.step.compute_seconds)})
                : phrase(QT_TRANSLATE_NOOP("Core", "Exposed communication is %1% of the step (compute %2%)."),
                         {share_of_step(b.step.comm_seconds), share_of_step(b.step.compute_seconds)}));
    if (b.step.offload_seconds > 0.1 * b.step.seconds)
        add(plan.why, plan.why_phrases,
            phrase(QT_TRANSLATE_NOOP("Core", "Offload costs %1% of the step: %2."),
                   {share_of_step(b.step.offload_seconds), offload_parts_words(b.step)}));
    if (b.step.data_wait_seconds > 0.1 * b.step.seconds)
        add(plan.why, plan.why_phrases,
            phrase(QT_TRANSLATE_NOOP("Core",
                                     "The step waits %1% of its time for the data pipeline: more dataloader workers or "
                                     "pre-tokenized data would help more than any GPU setup."),
                   {format_fixed(b.step.data_wait_seconds / b.step.seconds * 100, 0)}));
}

// One engine's search, FSDP's hybrid sharding as `s` has it.
Plan recommend_searched(const Scenario& s, const SearchSpace& space, SearchPruning pruning) {
    validate(s.model);
    Plan plan;
    const SearchSpace own = search_space_of(s);
    const SearchSpace searched{space.auto_tensor || own.auto_tensor, space.auto_pipeline || own.auto_pipeline,
                               space.auto_expert || own.auto_expert, space.auto_ulysses || own.auto_ulysses,
                               space.auto_zeropp || own.auto_zeropp};
    const Search search = run_search(s, searched_layouts(s, searched), pruning, searched.auto_zeropp && !is_fsdp(s.fsdp));
    plan.candidates_evaluated = search.evaluated;
    plan.candidates_estimated = search.estimated;
    // Materialise only the points worth showing: one per setup, and the winner.
    for (const SetupResult& r : search.per_setup) {
        const Point& shown = r.any_feasible ? r.fastest : r.closest;
        plan.per_setup.push_back(evaluate(at(search.bases[shown.layout], shown)));
        plan.per_setup_feasible.push_back(r.any_feasible);
    }

    if (search.feasible.empty()) {
        for (std::size_t i = 0; i < zero_setups().size(); ++i)
            plan.rejected.push_back(rejection(setup_key(zero_setups()[i]), s.fsdp, rejection_reason(s, plan.per_setup[i])));
        explain_nothing_fits(s, plan, plan);
        return plan;
    }

    // Fastest feasible, then the simplest within 2% of it.
    double best_tps = 0;
    for (const Point& p : search.feasible) best_tps = std::max(best_tps, p.tokens_per_second);
    const Point* best = nullptr;
    for (const Point& p : search.feasible) {
        if (p.tokens_per_second < kSimplestWithin * best_tps) continue;
        const auto simpler = [&](const Point& x) { return simplicity(s, x, layout_degree(search.bases[x.layout].parallel)); };
        if (!best || simpler(p) < simpler(*best) || (simpler(p) == simpler(*best) && p.tokens_per_second > best->tokens_per_second))
            best = &p;
    }
    plan.feasible = true;
    plan.best = evaluate(at(search.bases[best->layout], *best));
    plan.per_setup[best->setup] = plan.best;  // the setup's bar shows exactly the recommended candidate

    explain_recommendation(s, search, *best, best_tps, searched, plan);
    return plan;
}
}  // namespace

}  // namespace zp
