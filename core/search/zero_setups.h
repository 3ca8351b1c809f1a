#pragma once
// The ZeRO setups the planner compares: the one table of (stage, offload_optimizer,
// offload_param) combinations DeepSpeed supports, which of them the window's bar views show,
// and their labels. The recommender searches them in this order, simplest first.
#include "core/model/phrase.h"
#include "core/model/scenario.h"

#include <span>
#include <string>
#include <vector>

namespace zp {

struct ZeroSetupRow {
    SetupKey key;
    bool in_overview;  // one of the seven bars of the memory and time views
};

// Every supported combination, in search order: no offload by stage, then CPU, then NVMe.
// Stage 0 takes no offload; parameter offload needs stage 3 and optimizer offload
// (DeepSpeed: zero/config.py, stage3.py); NVMe optimizer offload needs stage 3 (ZeRO-Infinity).
std::span<const ZeroSetupRow> zero_setup_rows();

// The same rows as ZeroSetups with every other field at its default, in the same order.
const std::vector<ZeroSetup>& zero_setups();
// DDP, ZeRO-1, ZeRO-2, ZeRO-3, ZeRO-2 + CPU, ZeRO-3 + CPU, ZeRO-3 + NVMe (optimizer and parameters).
const std::vector<ZeroSetup>& overview_setups();

std::string setup_label(const SetupKey& k);        // "ZeRO-3 + CPU optimizer and params"
std::string short_setup_label(const SetupKey& k);  // "ZeRO-3+CPU"
inline std::string setup_label(const ZeroSetup& z) { return setup_label(setup_key(z)); }
Phrase setup_phrase(const SetupKey& k);  // setup_label, translatable
inline Phrase setup_phrase(const ZeroSetup& z) { return setup_phrase(setup_key(z)); }
// The ZeRO++ switches in effect, in words: "hpZ over 8 GPUs, int8 weight gathers (qwZ), int4
// gradient reduce (qgZ)"; empty when none is.
std::string zeropp_words(const ZeroPlusPlus& z);
Phrase zeropp_phrase(const ZeroPlusPlus& z);  // zeropp_words, translatable; empty text when none is
inline std::string short_setup_label(const ZeroSetup& z) { return short_setup_label(setup_key(z)); }

}  // namespace zp
