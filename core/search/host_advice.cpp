#include "core/search/host_advice.h"

#include "core/base/format.h"
#include "core/memory/memory_model.h"

#include <algorithm>
#include <functional>

namespace zp {

std::vector<HostFix> host_ram_fixes(const Scenario& s) {
    // Through estimate_memory so that CPU activation checkpoints count, as everywhere else.
    const HostMemory given = estimate_memory(s).host;
    const double before = given.peak_bytes();
    const ZeroSetup& z = s.zero;
    const Training& t = s.training;
    const bool builds_whole_model = !(z.stage == 3 && z.zero_init);
    const bool offloads = z.offload_optimizer != OffloadDevice::None || z.offload_param != OffloadDevice::None;
    struct FixCandidate {
        bool applies;
        Phrase change;
        std::function<void(Scenario&)> edit;
        bool adds_hardware = false;  // more nodes: never part of the changes tried together
        bool last_resort = false;    // an older release: neither tried together nor counted as a fix that fits
    };
    // clang-format off
    const FixCandidate candidates[] = {
        {builds_whole_model && !t.low_cpu_mem_usage, phrase(QT_TRANSLATE_NOOP("Core", "from_pretrained(..., low_cpu_mem_usage=True), or transformers 4.51 or later: no checkpoint shard beside the model")),
         [](Scenario& x) { x.training.low_cpu_mem_usage = true; }},
        {builds_whole_model && !t.load_in_16bit, phrase(QT_TRANSLATE_NOOP("Core", "from_pretrained(..., torch_dtype=torch.bfloat16): load the model in 16-bit, not fp32")),
         [](Scenario& x) { x.training.load_in_16bit = true; }},
        {z.stage == 3 && !z.zero_init, phrase(QT_TRANSLATE_NOOP("Core", "zero.Init (zero3_init_flag: true): partition the model as it is built")),
         [](Scenario& x) { x.zero.zero_init = true; }},
        {z.stage == 3 && z.gather_16bit_weights_on_model_save,
         phrase(QT_TRANSLATE_NOOP("Core", "stage3_gather_16bit_weights_on_model_save: false (consolidate with zero_to_fp32.py after training)")),
         [](Scenario& x) { x.zero.gather_16bit_weights_on_model_save = false; }},
        {z.pin_memory && offloads, phrase(QT_TRANSLATE_NOOP("Core", "pin_memory: false (no power-of-two rounding; slower offload copies)")),
         [](Scenario& x) { x.zero.pin_memory = false; }},
        {t.cpu_checkpointing, phrase(QT_TRANSLATE_NOOP("Core", "activation_checkpointing.cpu_checkpointing: false (the checkpoints stay in GPU memory)")),
         [](Scenario& x) { x.training.cpu_checkpointing = false; }},
        // Optimizer states go to NVMe at stage 3 only: stage_1_and_2.py takes any offload_optimizer
        // device as the CPU; swapping is stage3.py's (_configure_tensor_swapping).
        {z.stage == 3 && z.offload_optimizer == OffloadDevice::Cpu, phrase(QT_TRANSLATE_NOOP("Core", "offload_optimizer: nvme (ZeRO-Infinity)")),
         [](Scenario& x) { x.zero.offload_optimizer = OffloadDevice::Nvme; }},
        {(z.stage == 1 || z.stage == 2) && z.offload_optimizer == OffloadDevice::Cpu,
         phrase(QT_TRANSLATE_NOOP("Core", "ZeRO-3 under zero.Init with offload_optimizer: nvme (ZeRO-Infinity; NVMe offload needs stage 3)")),
         [](Scenario& x) { x.zero.stage = 3; x.zero.zero_init = true; x.zero.offload_optimizer = OffloadDevice::Nvme; }},
        {true, phrase(QT_TRANSLATE_NOOP("Core", "%1 nodes instead of %2 (the same global batch over twice the GPUs)"),
                     {std::to_string(2 * s.cluster.nodes), std::to_string(s.cluster.nodes)}),
         [](Scenario& x) { x.cluster.nodes *= 2; }, true},
        // stage3.py _setup_for_real_optimizer keeps every rank's 16-bit gradient partition in a
        // host buffer when the optimizer is offloaded, NVMe included, since v0.6.0 (PR #1453,
        // ZeroSetup::zero3_host_gradient_buffer); the releases before, ZeRO-Infinity's among them,
        // swapped the gradients with the optimizer states instead. Last: an old release is the
        // advice of last resort, after more nodes, and says it is too old for transformers'
        // integration (dependency_versions_table.py: "deepspeed>=0.9.3").
        {z.stage == 3 && z.offload_optimizer != OffloadDevice::None && z.zero3_host_gradient_buffer,
         phrase(QT_TRANSLATE_NOOP("Core", "a DeepSpeed release before v0.6.0, with no host copy of the 16-bit gradients (ZeRO-Infinity's; --host-grad-buffer off; raw DeepSpeed of 2021, too old for transformers, which needs v0.9.3 or later)")),
         [](Scenario& x) { x.zero.zero3_host_gradient_buffer = false; }, false, true},
    };
    // clang-format on
    std::vector<HostFix> fixes;
    // One change's (or set's) fix, from the node's host memory after it; `name_nvme`: say the NVMe a
    // single change newly needs.
    const auto fix_after = [&](Phrase change, const HostMemory& after, const Scenario& x, bool name_nvme) {
        HostFix f;
        f.change_phrase = std::move(change);
        f.freed_bytes = before - after.peak_bytes();
        f.peak_bytes = after.peak_bytes();
        f.peak_phase = after.peak_phase;
        // Moving the optimizer to NVMe needs the NVMe: say how much, and it fits only if that is there too.
        if (name_nvme && after.nvme_bytes > given.nvme_bytes)
            f.change_phrase = phrase(QT_TRANSLATE_NOOP("Core", "%1, with %2 of NVMe per node (%3 there)"),
                                     {f.change_phrase, format_bytes(after.nvme_bytes), format_bytes(x.cluster.nvme_bytes_per_node)});
        f.change = english(f.change_phrase);
        f.fits = after.peak_bytes() <= x.cluster.cpu_ram_bytes_per_node && after.nvme_bytes <= x.cluster.nvme_bytes_per_node;
        return f;
    };
    // Where no change fits alone: the changes that free host RAM without more nodes, the one that
    // frees most first, until together they fit.
    std::vector<std::pair<double, const FixCandidate*>> by_freed;  // the config's changes
    std::vector<std::pair<double, const FixCandidate*>> resort;    // an older release
    for (const FixCandidate& c : candidates) {
        if (!c.applies) continue;
        Scenario x = s;
        c.edit(x);
        const HostMemory after = estimate_memory(x).host;
        if (after.peak_bytes() >= before) continue;
        if (c.last_resort) resort.emplace_back(before - after.peak_bytes(), &c);
        else if (!c.adds_hardware) by_freed.emplace_back(before - after.peak_bytes(), &c);
        fixes.push_back(fix_after(c.change, after, x, true));
        fixes.back().last_resort = c.last_resort;
    }
    // The changes together, the one that frees most first, until they fit: the config's alone
    // first; an older release joins them only where those do not fit (ZeRO-Infinity's own 1T on a
    // DGX-2 needs its release). An older release fitting alone does not stop the config's being tried.
    const auto try_together = [&](std::vector<std::pair<double, const FixCandidate*>> list, bool last_resort) {
        if (list.size() < 2) return false;
        std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        Scenario together = s;
        Phrase all;
        for (std::size_t n = 0; n < list.size(); ++n) {
            const FixCandidate& c = *list[n].second;
            c.edit(together);
            all = n == 0 ? c.change : phrase(QT_TRANSLATE_NOOP("Core", "%1; %2"), {all, c.change});
            if (n == 0) continue;
            HostFix f =
                fix_after(phrase(QT_TRANSLATE_NOOP("Core", "together: %1"), {all}), estimate_memory(together).host, together, false);
            if (!f.fits) continue;
            f.last_resort = last_resort;
            fixes.push_back(std::move(f));
            return true;
        }
        return false;
    };
    const bool one_fits = std::any_of(fixes.begin(), fixes.end(), [](const HostFix& f) { return f.fits && !f.last_resort; });
    if (!one_fits && !try_together(by_freed, false) && !resort.empty()) {
        const bool release_fits_alone = std::any_of(fixes.begin(), fixes.end(), [](const HostFix& f) { return f.fits; });
        if (!release_fits_alone) {
            std::vector<std::pair<double, const FixCandidate*>> with_release = by_freed;
            with_release.insert(with_release.end(), resort.begin(), resort.end());
            try_together(with_release, true);
        }
    }
    return fixes;
}

std::string cheapest_host_fix(const Scenario& s) {
    const Phrase fix = cheapest_host_fix_phrase(s);
    return fix.text.empty() ? std::string() : english(fix);
}

Phrase cheapest_host_fix_phrase(const Scenario& s) {
    const std::vector<HostFix> fixes = host_ram_fixes(s);
    if (fixes.empty()) return {};
    // The first that fits, an older release only where nothing else does.
    const HostFix* pick = nullptr;
    for (const bool resort : {false, true}) {
        for (const HostFix& f : fixes)
            if (f.fits && f.last_resort == resort) {
                pick = &f;
                break;
            }
        if (pick) break;
    }
    if (pick)
        return phrase(QT_TRANSLATE_NOOP("Core", "%1 frees %2 per node and fits"), {pick->change_phrase, format_bytes(pick->freed_bytes)});
    for (const HostFix& f : fixes)
        if (!pick || f.freed_bytes > pick->freed_bytes) pick = &f;
    return phrase(QT_TRANSLATE_NOOP("Core", "%1 frees the most, %2 per node, and still does not fit"),
                  {pick->change_phrase, format_bytes(pick->freed_bytes)});
}

}  // namespace zp
