#include "core/search/overview.h"

#include "core/base/errors.h"
#include "core/search/scenario_edits.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace zp {

namespace {

// The bars and scaling curves of `o` for `s` (see compute_overview).
void add_bars_and_scaling(const Scenario& s, Overview& o);

}  // namespace

Overview compute_overview(const Scenario& s) {
    Overview o;
    try {
        o.plan = recommend(s);
    } catch (const InputError& e) {
        o.plan_valid = false;
        o.plan_error = e.what();
    }
    // The batch splits over the data-parallel ranks of the layout the plan runs on (with a searched
    // size, the one it chose: 2048 sequences do not split over 384 GPUs, but over 16 groups of 24).
    Scenario batch_layout = s;
    if (o.plan_valid && o.plan.feasible) batch_layout.parallel = o.plan.best.parallel;
    if (o.plan_valid && o.plan.feasible) {
        const PlanRoom room = room_of(s, o.plan.best);
        o.best_longest = room.longest.value_or(SequenceCeiling{});
        o.best_micro = room.micro.value_or(MicroBatchCeiling{});
    }
    try {
        gradient_accumulation_steps(s.training, data_parallel_size(batch_layout));
    } catch (const InputError& e) {
        o.step_valid = false;
        o.step_error = e.what();
    }
    // A scenario the core refuses outright (not only its batch split: a LoRA target the model
    // lacks, say) has no memory to draw either: no bars, no curves, the refusal in plan_error.
    try {
        add_bars_and_scaling(s, o);
    } catch (const InputError& e) {
        o.bars.clear();
        o.scaling.clear();
        o.plan_valid = false;
        if (o.plan_error.empty()) o.plan_error = e.what();
    }
    return o;
}

std::vector<ZeroSetup> bar_setups(const Overview& o) {
    if (o.bars.empty()) return overview_setups();  // a scenario the core refused: the standard seven
    std::vector<ZeroSetup> setups;
    for (const Candidate& c : o.bars) setups.push_back(zero_setup(setup_key(c.zero)));
    return setups;
}

namespace {

// The seven standard setups, and the recommended one where it is another row (ZeRO-3 with only
// the optimizer offloaded, say): the recommendation is always a bar the views can mark.
bool shown_as_bar(const ZeroSetupRow& row, const Overview& o) {
    return row.in_overview || (o.plan_valid && o.plan.feasible && setup_key(o.plan.best.zero) == row.key);
}

void add_bars_and_scaling(const Scenario& s, Overview& o) {
    const auto rows = zero_setup_rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!shown_as_bar(rows[i], o)) continue;
        if (o.plan_valid) {
            o.bars.push_back(o.plan.per_setup[i]);
            continue;
        }
        const Scenario v = with_setup(s, zero_setups()[i]);
        Candidate c;
        if (o.step_valid) {
            c = evaluate(v);
        } else {
            c.zero = v.zero;
            c.parallel = v.parallel;
            c.checkpointing = v.training.checkpointing;
            c.micro_batch = v.training.micro_batch;
            c.memory = estimate_memory(v);
            c.fit = check_fit(v, c.memory);
        }
        o.bars.push_back(c);
    }
    // Each stage's curve uses the layout, micro batch and recompute of that stage's bar (the search's
    // best for it, or its least-memory candidate), so the curve passes through its bar at the
    // scenario's GPU count; without a plan, micro batch 1 and full recompute when both are on auto.
    // Each GPU count keeps the largest tensor and pipeline sizes that fit it (with_gpu_count).
    Scenario unplanned = s;
    if (s.training.auto_micro_batch && s.training.auto_checkpointing) {
        unplanned.training.micro_batch = 1;
        unplanned.training.checkpointing = Checkpointing::Full;
    }
    // The stage's bar as a scenario (its layout, micro batch, recompute and buckets), else the
    // unplanned one with the stage set.
    const auto scaling_base = [&](const ZeroSetup& stage) {
        if (o.plan_valid)
            for (std::size_t i = 0; i < zero_setups().size(); ++i)
                if (setup_key(zero_setups()[i]) == setup_key(stage)) return with_candidate(s, o.plan.per_setup[i]);
        return with_setup(unplanned, stage);
    };
    const std::int64_t node_size = s.cluster.gpus_per_node;
    for (int stage = 0; stage <= 3; ++stage) {
        ScalingSeries series;
        series.stage = stage;
        ZeroSetup z;
        z.stage = stage;
        if (!setup_runs(s.fsdp, s.zero, setup_key(z)))
            continue;  // FSDP has no ZeRO-1 (FSDP2 no NO_SHARD), bf16 master weights no ZeRO-0: no curve
        const Scenario base = scaling_base(z);
        // Powers of two, and the scenario's own count between them, where its layout is the bar's
        // (a pipeline of 12 on 384 GPUs keeps only 4 on 256 or 512).
        std::vector<std::int64_t> counts;
        for (std::int64_t gpus = 1; gpus <= 4096; gpus *= 2) counts.push_back(gpus);
        if (const std::int64_t own = s.cluster.world_size(); own <= 4096 && !std::has_single_bit(static_cast<std::uint64_t>(own)))
            counts.insert(std::upper_bound(counts.begin(), counts.end(), own), own);
        for (const std::int64_t gpus : counts) {
            // Powers of two split into nodes of a power-of-two size; other node sizes use one node per GPU group.
            const std::int64_t per_node = gpus % std::min(gpus, node_size) == 0 ? node_size : 1;
            const Scenario v = with_gpu_count(base, gpus, per_node);
            const MemoryBreakdown m = estimate_memory(v);
            series.points.push_back({gpus, m.peak_required_bytes});
        }
        o.scaling.push_back(std::move(series));
    }
}

}  // namespace

Phrase auto_zeropp_outcome(const Scenario& chosen, const Overview& o) {
    if (!chosen.zero.auto_zeropp) return {};
    if (Phrase words = zeropp_phrase(effective_zeropp(chosen)); !words.text.empty()) return words;
    // The recommender tries ZeRO++ only for stage-3 candidates whose gathers cross nodes
    // (recommender.h, kZeroppChoices); everywhere else it stays off.
    if (chosen.cluster.nodes < 2) return phrase(QT_TRANSLATE_NOOP("Core", "off (inside one node the gathers stay on NVLink)"));
    if (!o.plan_valid || !o.plan.feasible) return phrase(QT_TRANSLATE_NOOP("Core", "off (no plan fits)"));
    if (chosen.zero.stage != 3) return phrase(QT_TRANSLATE_NOOP("Core", "off (ZeRO++ needs ZeRO-3)"));
    return phrase(QT_TRANSLATE_NOOP("Core", "off (not faster here)"));
}

}  // namespace zp
