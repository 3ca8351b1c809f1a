#pragma once
// DeepSpeed's batch rule, once: runtime/config.py _set_batch_related_parameters fills the
// missing ones of train_batch_size, train_micro_batch_size_per_gpu and gradient_accumulation_steps
// from the world size, then _batch_assertion checks them, with these exact messages
// (tests/data/anchors/deepspeed_batch_rule.json).
#include <cstdint>
#include <optional>
#include <string>

namespace zp {

struct BatchRule {
    std::int64_t train = 0, micro = 0, gas = 0;  // as DeepSpeed completes them
    std::string error;                           // DeepSpeed's assertion message; empty when the rule holds
    std::string field;                           // the config key the error is about
};

BatchRule deepspeed_batch_rule(std::optional<std::int64_t> train, std::optional<std::int64_t> micro, std::optional<std::int64_t> gas,
                               std::int64_t world_size);

}  // namespace zp
