#pragma once
// The ZeRO setups the planner compares: the one table of (stage, offload_optimizer,
// offload_param) combinations DeepSpeed supports, which of them the window's bar views show,
// and their labels. The recommender searches them in this order, simplest first.
#include "core/base/phrase.h"
#include "core/model/scenario.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zp {

struct ZeroSetupRow {
    SetupKey key;
    bool in_overview;  // one of the seven standard bars of the memory and time views (Overview::bars)
};

// Every supported combination, in search order: no offload by stage, then CPU, then NVMe.
// Stage 0 takes no offload; parameter offload needs stage 3 and optimizer offload
// (DeepSpeed: zero/config.py, stage3.py); NVMe optimizer offload needs stage 3 (ZeRO-Infinity).
std::span<const ZeroSetupRow> zero_setup_rows();

// The same rows as ZeroSetups with every other field at its default, in the same order.
const std::vector<ZeroSetup>& zero_setups();
// The row of `k` among zero_setups() (every other field at its default).
const ZeroSetup& zero_setup(const SetupKey& k);
// DDP, ZeRO-1, ZeRO-2, ZeRO-3, ZeRO-2 + CPU, ZeRO-3 + CPU, ZeRO-3 + NVMe (optimizer and parameters).
const std::vector<ZeroSetup>& overview_setups();

std::string setup_label(const SetupKey& k);  // "ZeRO-3 + CPU optimizer and params"
// "ZeRO-3+CPU" (optimizer and parameters), "ZeRO-3+CPU opt" (the optimizer only), "ZeRO-3+NVMe
// opt+CPU" (each its own device): one per row, since the recommended row joins the bars.
std::string short_setup_label(const SetupKey& k);
inline std::string setup_label(const ZeroSetup& z) { return setup_label(setup_key(z)); }
Phrase setup_phrase(const SetupKey& k);  // setup_label, translatable
inline Phrase setup_phrase(const ZeroSetup& z) { return setup_phrase(setup_key(z)); }
// The ZeRO++ switches in effect, in words: "hpZ over 8 GPUs, int8 weight gathers (qwZ), int4
// gradient reduce (qgZ)"; empty when none is.
std::string zeropp_words(const ZeroPlusPlus& z);
Phrase zeropp_phrase(const ZeroPlusPlus& z);  // zeropp_words, translatable; empty text when none is
// The ZeRO++ switches `s` asks for that do not take effect (effective_zeropp), each with why:
// "hpZ over 8 GPUs: not with tensor parallelism (...)"; empty when every one asked does.
std::string zeropp_not_taken_words(const Scenario& s);
Phrase zeropp_not_taken_phrase(const Scenario& s);  // zeropp_not_taken_words, translatable (empty text: none)
inline std::string short_setup_label(const ZeroSetup& z) { return short_setup_label(setup_key(z)); }

// The setup by the engine's own name: under PyTorch FSDP its strategy for a setup FSDP has
// ("FULL_SHARD + CPUOffload"; short: "FULL_SHARD+CPU"), DeepSpeed's words otherwise (and for a
// setup FSDP lacks, which the views mark). `hybrid_shard`: FSDP's hybrid sharding
// (FsdpSetup::hybrid_shard) names the sharded strategies HYBRID_SHARD and HYBRID_SHARD_ZERO2.
Phrase setup_phrase(const SetupKey& k, Engine e, bool hybrid_shard = false);
std::string setup_label(const SetupKey& k, Engine e, bool hybrid_shard = false);
std::string short_setup_label(const SetupKey& k, Engine e, bool hybrid_shard = false);
// "DeepSpeed", "PyTorch FSDP", "PyTorch FSDP2 (fully_shard)".
std::string engine_name(Engine e);

// PyTorch FSDP's name for a setup (core/model/engine.h): "FULL_SHARD", "SHARD_GRAD_OP",
// "NO_SHARD", "FULL_SHARD + CPUOffload"; with hybrid sharding "HYBRID_SHARD" and
// "HYBRID_SHARD_ZERO2" (Accelerate's spelling of torch's _HYBRID_SHARD_ZERO2); empty for a setup
// FSDP does not have.
std::string fsdp_strategy_name(const SetupKey& k, bool hybrid_shard = false);
// The setup in the engine's own words: FSDP1's strategy name (fsdp_strategy_name), or FSDP2's
// fully_shard arguments: "fully_shard" (stage 3), "fully_shard, reshard_after_forward=False"
// (stage 2), "fully_shard on an HSDP mesh" (hybrid), "... + CPUOffloadPolicy"; empty for a setup
// the engine does not have.
std::string fsdp_setup_name(const SetupKey& k, Engine e, bool hybrid_shard = false);
// The engine of `s` in words: empty for DeepSpeed; "PyTorch FSDP, FULL_SHARD (ZeRO-3's sharding),
// fp32 shards with MixedPrecision(param_dtype=bf16), limit_all_gathers" for FSDP. Without
// `name_strategy` (a search's header: each setup is a candidate) the strategy is left out.
std::string engine_words(const Scenario& s, bool name_strategy = true);

// What ZeRO++ on "auto" tries for a stage-3 candidate whose gathers cross nodes, in the command
// line's --zeropp spellings: off, hpZ over the node alone, and all three as DeepSpeed's ZeRO++
// tutorial turns them on (docs/_tutorials/zeropp.md: zero_hpz_partition_size = GPUs per node,
// zero_quantized_weights, zero_quantized_gradients).
enum class ZeroppChoice : std::uint8_t { Off, Hpz, HpzQwzQgz };
inline constexpr std::array<ZeroppChoice, 3> kZeroppChoices{ZeroppChoice::Off, ZeroppChoice::Hpz, ZeroppChoice::HpzQwzQgz};
// Sets the three switches of `z` to `c` on nodes of `gpus_per_node` GPUs (the auto flag unchanged).
void apply_zeropp_choice(ZeroSetup& z, ZeroppChoice c, std::int64_t gpus_per_node);
const char* to_string(ZeroppChoice c);  // "off", "hpz", "hpz+qwz+qgz"

}  // namespace zp
