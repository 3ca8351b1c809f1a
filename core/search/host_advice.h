#pragma once
// What frees host RAM when a setup's node peak (core/memory/host_memory.h) does not fit: each
// change the user could make, how much it frees at the node's peak, and whether the setup then
// fits. Listed cheapest first: settings before hardware (loading options, zero.Init, the
// save-time gather, pinned buffers, CPU activation checkpoints), then NVMe for the optimizer, then
// more nodes, then the DeepSpeed release (stage 3's host gradient buffer); and when none fits
// alone, the changes but more nodes together, the one that frees most first, until they fit.
#include "core/base/phrase.h"
#include "core/model/scenario.h"

#include <string>
#include <vector>

namespace zp {

struct HostFix {
    std::string change;      // "from_pretrained(..., low_cpu_mem_usage=True)"
    Phrase change_phrase;    // the same, translatable (english(change_phrase) == change)
    double freed_bytes = 0;  // at the node's peak, against the scenario as given
    double peak_bytes = 0;   // the node's peak after the change
    HostPhase peak_phase = HostPhase::Loading;
    bool fits = false;         // within cluster.cpu_ram_bytes_per_node (and the node's NVMe) after the change
    bool last_resort = false;  // an older DeepSpeed release: advised only where no change of the config or the nodes fits
};

// The changes that lower `s`'s host peak, cheapest first; empty when nothing does.
std::vector<HostFix> host_ram_fixes(const Scenario& s);

// The first fix that fits, in a sentence ("low_cpu_mem_usage=True in from_pretrained frees
// 25.1 GiB and fits"), or the one that frees most when none fits; empty when there is none.
std::string cheapest_host_fix(const Scenario& s);
Phrase cheapest_host_fix_phrase(const Scenario& s);  // the same, translatable; empty text when there is none

}  // namespace zp
