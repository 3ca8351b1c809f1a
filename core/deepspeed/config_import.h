#pragma once
// Importing an existing ds_config.json into a scenario (File > Import in the window, --ds-config
// on the command line): the keys the planner models, read as DeepSpeed reads them.
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

namespace zp {

// A ds_config file's text as DeepSpeed reads it: JSON with the comments and trailing commas its hjson
// reader skips (core/base/json_comments.h). Throws InputError with line and column otherwise.
nlohmann::json parse_ds_config_text(std::string_view text, const std::string& source_name);

// Applies what a ds_config.json says (stage, offload devices, batch, precision, optimizer,
// buckets, overlap_comm, offload buffers, activation checkpointing) onto a scenario; "auto" and
// missing values keep the scenario's. Values DeepSpeed would reject are left for the linter.
Scenario apply_ds_config(const nlohmann::json& config, Scenario s);

// Which of a run's values a ds_config sets itself: neither absent nor "auto" (which the Trainer
// and Accelerate fill from their own arguments), for a report that says where each value came from.
struct DsConfigSets {
    bool zero = false;         // zero_optimization.stage (absent: stage 0)
    bool micro_batch = false;  // train_micro_batch_size_per_gpu
    bool precision = false;    // bf16 / fp16 "enabled", true or false
    bool optimizer = false;    // an "optimizer" block
};
DsConfigSets ds_config_sets(const nlohmann::json& config);

}  // namespace zp
