#pragma once
// Importing an existing ds_config.json into a scenario (File > Import in the window, --ds-config
// on the command line): the keys the planner models, read as DeepSpeed reads them.
#include "core/model/scenario.h"

#include <nlohmann/json_fwd.hpp>

namespace zp {

// Applies what a ds_config.json says (stage, offload devices, batch, precision, optimizer,
// buckets, overlap_comm, offload buffers, activation checkpointing) onto a scenario; "auto" and
// missing values keep the scenario's. Values DeepSpeed would reject are left for the linter.
Scenario apply_ds_config(const nlohmann::json& config, Scenario s);

}  // namespace zp
