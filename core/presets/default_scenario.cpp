#include "core/presets/default_scenario.h"

#include "core/presets/cluster_presets.h"
#include "core/presets/model_presets.h"

namespace zp {

Scenario default_scenario() {
    Scenario s;
    s.job = Job::FullFineTune;  // what its settings are: a full fine-tune (the window shows that job's controls first)
    s.model = model_preset("llama-2-7b").spec;
    s.cluster = cluster_preset("dgx-a100").cluster;
    s.zero.stage = 2;
    return s;
}

}  // namespace zp
