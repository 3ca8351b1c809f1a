#include "core/search/max_sequence.h"

#include "core/base/errors.h"
#include "core/base/phrase.h"
#include "core/model/limits.h"
#include "core/model/parallel_layout.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <algorithm>
#include <cmath>

namespace zp {

const char* to_string(SequenceLimit l) {
    switch (l) {
    case SequenceLimit::GpuMemory: return QT_TRANSLATE_NOOP("Core", "GPU memory");
    case SequenceLimit::HostMemory: return QT_TRANSLATE_NOOP("Core", "host RAM");
    case SequenceLimit::Nvme: return QT_TRANSLATE_NOOP("Core", "NVMe");
    case SequenceLimit::KernelIndex: return QT_TRANSLATE_NOOP("Core", "int32 kernel indexing");
    case SequenceLimit::Ceiling: return QT_TRANSLATE_NOOP("Core", "the planner's longest sequence");
    }
    return "";
}

std::int64_t sequence_granularity(const Scenario& s) { return kSequenceGranuleTokens * ulysses_size(s.parallel); }

std::int64_t nearest_sequence_length(const Scenario& s, double tokens) {
    const std::int64_t g = sequence_granularity(s);
    const std::int64_t granules = std::llround(std::max(tokens, 0.0) / static_cast<double>(g));
    return std::clamp<std::int64_t>(granules, 1, limits::kSeqLen.max / g) * g;
}

Scenario at_sequence_length(const Scenario& s, std::int64_t seq) {
    Scenario out = s;
    out.training.seq_len = seq;
    if (out.training.auto_checkpointing) out.training.checkpointing = Checkpointing::Full;
    if (out.training.auto_micro_batch) out.training.micro_batch = 1;
    // A global batch this layout cannot split (a layout the recommender would not have chosen)
    // is raised to the next multiple of micro batch x data-parallel ranks, as the default batch
    // is (effective_global_batch): the length's memory does not depend on it.
    if (out.training.global_batch > 0)
        out.training.global_batch = next_multiple(out.training.global_batch, out.training.micro_batch * data_parallel_size(out));
    return out;
}

namespace {

// Whether `at` fits, and if not, what does not; with what must fit per GPU (0 past int32 indexing).
struct PointFit {
    bool fits = false;
    SequenceLimit limit = SequenceLimit::GpuMemory;
    double required_bytes = 0;
};
PointFit fit_of(const Scenario& at) {
    if (!within_kernel_index(at)) return {false, SequenceLimit::KernelIndex, 0};
    const MemoryBreakdown m = estimate_memory(at);
    const Fit f = check_fit(at, m);
    if (!f.gpu) return {false, SequenceLimit::GpuMemory, m.peak_required_bytes};
    if (!f.cpu) return {false, SequenceLimit::HostMemory, m.peak_required_bytes};
    if (!f.nvme) return {false, SequenceLimit::Nvme, m.peak_required_bytes};
    return {true, SequenceLimit::GpuMemory, m.peak_required_bytes};
}

// The largest n in [1, top] where fit(n) fits, given that fit(1) does, for a fit that is monotone
// in n (memory grows with the length and the micro batch in every slice that depends on them):
// double while it fits, then bisect. `stop` is the first n that does not fit (Ceiling past top).
struct LargestFit {
    std::int64_t n = 1;
    PointFit stop{false, SequenceLimit::Ceiling, 0};
};
template <class FitAt>
LargestFit largest_fitting(std::int64_t top, FitAt&& fit) {
    LargestFit out;
    std::int64_t hi = 2;  // unknown, then the first that does not fit
    for (;; hi *= 2) {
        if (hi > top) {
            hi = top + 1;
            break;
        }
        const PointFit f = fit(hi);
        if (!f.fits) {
            out.stop = f;
            break;
        }
        out.n = hi;
    }
    while (hi - out.n > 1) {
        const std::int64_t mid = out.n + (hi - out.n) / 2;
        const PointFit f = fit(mid);
        if (f.fits) out.n = mid;
        else {
            hi = mid;
            out.stop = f;
        }
    }
    if (hi > top) out.stop = {false, SequenceLimit::Ceiling, 0};
    return out;
}

// `s` run as candidate `c` plans it: its setup, micro batch and recompute, none left to search.
Scenario as_planned(const Scenario& s, const Candidate& c) {
    Scenario fixed = with_candidate(s, c);
    fixed.training.auto_micro_batch = false;
    fixed.training.auto_checkpointing = false;
    return fixed;
}

}  // namespace

Scenario at_ceiling_degree(const Scenario& s, const SequenceCeiling& c) {
    Scenario out = s;
    out.parallel.tensor = c.parallel.tensor;
    out.parallel.pipeline = c.parallel.pipeline;
    out.parallel.virtual_stages = c.parallel.virtual_stages;
    out.parallel.sequence_parallel = c.parallel.sequence_parallel;
    out.parallel.expert = c.parallel.expert;
    out.parallel.ulysses = c.ulysses;
    return out;
}

SequenceCeiling longest_sequence(const Scenario& s) {
    SequenceCeiling out;
    out.setup = setup_key(s.zero);
    out.ulysses = ulysses_size(s.parallel);
    out.parallel = s.parallel;
    const std::int64_t g = sequence_granularity(s);
    const auto fit = [&](std::int64_t granules) { return fit_of(at_sequence_length(s, granules * g)); };
    const PointFit first = fit(1);
    if (!first.fits) {
        out.limit = first.limit;
        return out;
    }
    const LargestFit longest = largest_fitting(limits::kSeqLen.max / g, fit);  // in granules
    out.max_seq_len = longest.n * g;
    out.limit = longest.stop.limit;
    out.at_max = evaluate(at_sequence_length(s, out.max_seq_len));
    return out;
}

SequenceCeiling longest_sequence_of(const Scenario& s, const Candidate& c) { return longest_sequence(as_planned(s, c)); }

namespace {

// `s` at micro batch `micro`, its global batch raised to the next multiple of micro batch x
// data-parallel ranks when `micro` does not split it (as at_sequence_length does for a length).
Scenario at_micro_batch(const Scenario& s, std::int64_t micro) {
    Scenario out = s;
    out.training.micro_batch = micro;
    out.training.global_batch = next_multiple(effective_global_batch(s.training, data_parallel_size(s)), micro * data_parallel_size(out));
    return out;
}

}  // namespace

MicroBatchCeiling largest_micro_batch_of(const Scenario& s, const Candidate& c) {
    const Scenario fixed = as_planned(s, c);
    const auto fit = [&](std::int64_t micro) { return fit_of(at_micro_batch(fixed, micro)); };
    MicroBatchCeiling out;
    // The ceiling above the plan's own micro batch: a smaller one need not fit where it does, since
    // more accumulation steps can cost more (FSDP's no_sync keeps each rank's unsharded gradient
    // from the first micro step to the last, fsdp_memory.h; the card said nothing of the plan's 4).
    const PointFit own = fit(c.micro_batch);
    if (!own.fits) return out;
    const LargestFit largest =
        largest_fitting(limits::kMicroBatch.max, [&](std::int64_t micro) { return micro <= c.micro_batch ? own : fit(micro); });
    out.max_micro_batch = largest.n;
    out.global_batch = at_micro_batch(fixed, largest.n).training.global_batch;
    out.limit = largest.stop.limit;
    out.next_required_bytes = largest.stop.required_bytes;
    return out;
}

PlanRoom room_of(const Scenario& s, const Candidate& c) {
    PlanRoom room;
    try {
        // None that fits (the plan past a limit the ceiling search stops at) is nothing to say,
        // in the window's card and the command line's lines alike.
        if (const MicroBatchCeiling m = largest_micro_batch_of(s, c); m.max_micro_batch > 0) room.micro = m;
    } catch (const InputError&) {
        // a micro batch the layout refuses: nothing to say about it
    }
    try {
        room.longest = longest_sequence_of(s, c);
    } catch (const InputError&) {
        // a length the layout refuses: nothing to say about it
    }
    return room;
}

namespace {

// The longer of two ceilings, the faster at the same length.
bool reaches_further(const SequenceCeiling& a, const SequenceCeiling& b) {
    return a.max_seq_len > b.max_seq_len ||
           (a.max_seq_len == b.max_seq_len && a.max_seq_len > 0 && a.at_max.step.tokens_per_second > b.at_max.step.tokens_per_second);
}

// The setup's longest over the layouts `layouts` (one when no size is on auto); a layout the
// model refuses (validate_parallelism: key/value heads, tensor or pipeline ranks) or this setup
// cannot run (ZeRO-2/3 under a pipeline) is skipped.
std::optional<SequenceCeiling> longest_over_layouts(const Scenario& s, const std::vector<Parallelism>& layouts) {
    std::optional<SequenceCeiling> best;
    for (const Parallelism& layout : layouts) {
        Scenario at = s;
        at.parallel = layout;
        if (layouts.size() > 1) {
            if (setup_refusal(at, setup_key(at.zero)) != SetupRefusal::None) continue;
            try {
                validate_parallelism(at);
            } catch (const InputError&) {
                continue;
            }
        }
        SequenceCeiling c = longest_sequence(at);  // measured at this layout (SequenceCeiling::parallel)
        if (!best || reaches_further(c, *best)) best = std::move(c);
    }
    return best;
}

// The layouts a search measures `s` at: with tensor, pipeline or expert sizes on auto the
// recommender's (searched_layouts, Ulysses degrees among them when that is on auto too); with the
// Ulysses degree alone on auto (--sp auto, the window's "auto") every degree the layout takes
// (ulysses_degrees); else the scenario's own.
std::vector<Parallelism> searched_sequence_layouts(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (p.auto_tensor || p.auto_pipeline || p.auto_expert) return searched_layouts(s, search_space_of(s));
    if (!p.auto_ulysses) return {p};
    std::vector<Parallelism> out;
    for (std::int64_t u : ulysses_degrees(s)) {
        Parallelism at = p;
        at.ulysses = u;
        out.push_back(at);
    }
    return out;
}

}  // namespace

SequenceSearch longest_sequences(const Scenario& s) {
    SequenceSearch out;
    out.granularity = sequence_granularity(s);
    // With the Ulysses degree on auto (--sp auto) the question is the longest sequence at any
    // degree: every one the layout takes, per setup the one that reaches furthest.
    out.ulysses_searched = s.parallel.auto_ulysses;
    out.layouts_searched = s.parallel.auto_tensor || s.parallel.auto_pipeline || s.parallel.auto_expert;
    const std::vector<Parallelism> layouts = searched_sequence_layouts(s);
    for (const ZeroSetupRow& row : zero_setup_rows()) {
        if (!out.layouts_searched && setup_refusal(s, row.key) != SetupRefusal::None) continue;
        std::optional<SequenceCeiling> ceiling = longest_over_layouts(with_setup(s, row.key), layouts);
        if (!ceiling) continue;
        out.per_setup.push_back(std::move(*ceiling));
        const SequenceCeiling& c = out.per_setup.back();
        if (c.max_seq_len <= 0) continue;
        const int i = static_cast<int>(out.per_setup.size()) - 1;
        if (out.longest < 0 || reaches_further(c, out.per_setup[static_cast<std::size_t>(out.longest)])) out.longest = i;
    }
    return out;
}

std::vector<SequencePoint> sequence_sweep(const Scenario& s, std::int64_t up_to, int points) {
    std::vector<SequencePoint> out;
    const std::int64_t g = sequence_granularity(s);
    if (points < 2 || up_to < g) return out;
    out.reserve(static_cast<std::size_t>(points));
    for (int i = 1; i <= points; ++i) {
        const double share = static_cast<double>(i) / static_cast<double>(points);
        const std::int64_t seq = nearest_sequence_length(s, share * static_cast<double>(up_to));
        if (!out.empty() && out.back().seq_len == seq) continue;
        const Scenario at = at_sequence_length(s, seq);
        const Candidate c = evaluate(at);
        SequencePoint p;
        p.seq_len = seq;
        p.fits = c.fit.all() && within_kernel_index(at);
        p.step_seconds = c.step.seconds;
        p.tokens_per_second = c.step.tokens_per_second;
        p.required_gpu_bytes = c.memory.peak_required_bytes;
        out.push_back(p);
    }
    return out;
}

SequenceOverview sequence_overview(const Scenario& s, const std::vector<ZeroSetup>& setups, const SetupKey& chosen, int points) {
    SequenceOverview o;
    o.target_seq_len = s.training.seq_len;
    o.ulysses_searched = s.parallel.auto_ulysses;
    o.layouts_searched = s.parallel.auto_tensor || s.parallel.auto_pipeline || s.parallel.auto_expert;
    const std::vector<Parallelism> layouts = searched_sequence_layouts(s);
    // A setup none of whose layouts it can run has no longest (max_seq_len 0, at the scenario's own
    // layout).
    SequenceCeiling none;
    none.ulysses = ulysses_size(s.parallel);
    none.parallel = s.parallel;
    // The setup's longest, or nothing where it runs on none of the layouts (the scenario's own
    // refuses it, or every searched one does).
    const auto longest_of = [&](const SetupKey& k) -> std::optional<SequenceCeiling> {
        if (!o.layouts_searched && setup_refusal(s, k) != SetupRefusal::None) return std::nullopt;
        std::optional<SequenceCeiling> c = longest_over_layouts(with_setup(s, k), layouts);
        if (c) c->setup = k;
        return c;
    };
    const auto or_none = [&](std::optional<SequenceCeiling> c, const SetupKey& k) {
        if (c) return std::move(*c);
        SequenceCeiling n = none;
        n.setup = k;
        return n;
    };
    bool found = false;
    for (const ZeroSetup& z : setups) {
        const SetupKey k = setup_key(z);
        std::optional<SequenceCeiling> longest = longest_of(k);
        o.runs.push_back(longest.has_value());
        SequenceCeiling c = or_none(std::move(longest), k);
        if (k == chosen) {
            o.chosen = c;
            found = true;
        }
        o.per_setup.push_back(c);
    }
    if (!found) o.chosen = or_none(longest_of(chosen), chosen);
    const Scenario at = at_ceiling_degree(with_setup(s, chosen), o.chosen);
    o.granularity = sequence_granularity(at);
    const std::int64_t reach = std::max({o.chosen.max_seq_len, o.target_seq_len, 8 * o.granularity});
    o.sweep = sequence_sweep(at, reach + reach / 3, points);
    return o;
}

}  // namespace zp
