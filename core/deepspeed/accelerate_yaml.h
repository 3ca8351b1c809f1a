#pragma once
// The YAML `accelerate config` writes (accelerate/commands/config/cluster.py, saved with
// yaml.safe_dump(sort_keys=True)), shared by the DeepSpeed and the FSDP exports: the keys every
// config has, one engine block under its key, and Accelerate's quoting of 'no' (a bare no is the
// boolean false in YAML 1.1). Included by core/deepspeed's .cpp files only (yaml-cpp is private).
#include "core/model/scenario.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>

namespace zp {

// `block`'s keys are written sorted (std::map), as Accelerate writes them. An empty mixed_precision
// is not written (what `accelerate config` does beside a deepspeed_config_file, whose ds_config holds
// the precision); a non-empty `parallelism` is the parallelism_config block (commands/config/
// config_args.py ClusterConfig.parallelism_config), its keys sorted too.
std::string accelerate_yaml(const Scenario& s, const std::string& distributed_type, const std::string& block_key,
                            const std::map<std::string, YAML::Node>& block, const std::string& mixed_precision,
                            const std::map<std::string, YAML::Node>& parallelism = {});

}  // namespace zp
