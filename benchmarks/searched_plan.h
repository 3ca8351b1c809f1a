#pragma once
// The plan whose layout search runs on every change in bench_gui's second loop, and which
// `bench_core overview` counts: BLOOM-176B on 384 A100s (48 nodes of 8), sequence 2048, global
// batch 2048, tensor and pipeline sizes on auto (what a new plan of more than one node gets,
// search_layouts_by_default).
#include "core/model/model_spec.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"

namespace zp::bench {

inline Scenario bloom_searched_plan() {
    Scenario bloom = default_scenario();
    bloom.model = model_preset("bloom-176b").spec;
    bloom.cluster.use_gpu(gpu_preset("a100-80gb"));
    bloom = with_gpu_count(bloom, 384, 8);
    bloom.training.seq_len = 2048;
    bloom.training.global_batch = 2048;
    bloom.parallel.auto_tensor = bloom.parallel.auto_pipeline = true;
    return bloom;
}

}  // namespace zp::bench
