// `zero-planner ds-estimate`: DeepSpeed's own estimator tables (core/deepspeed/estimator.h).
#include "app/cli/commands/commands.h"

#include "app/cli/number_parse.h"
#include "app/cli/options.h"
#include "core/base/errors.h"
#include "core/deepspeed/estimator.h"
#include "core/model/limits.h"

#include <ostream>

namespace zp::cli {

int cmd_ds_estimate(const Args& a, std::ostream& out, std::ostream&) {
    // The ZeRO-2 estimator takes no largest layer (stage_1_and_2.py
    // estimate_zero2_model_states_mem_needs(total_params, num_gpus_per_node, num_nodes, ...)); ZeRO-3's does.
    const bool stage3 = a.get(opt::stage).value_or("") == "3";
    for (const Option* k : {&opt::params, &opt::stage, &opt::largest_layer})
        if (!a.has(*k) && (k != &opt::largest_layer || stage3))
            throw InputError("ds-estimate needs " + option_text(*k) +
                             "; e.g. ds-estimate --params 2851e6 --largest-layer 32e6 --gpus-per-node 8 --nodes 1 --stage 3 "
                             "(--stage 2 takes no --largest-layer)");
    deepspeed::EstimatorInput in;
    in.total_params = static_cast<double>(parse_count(*a.get(opt::params), option_text(opt::params)));
    if (a.has(opt::largest_layer))
        in.largest_layer_params = static_cast<double>(parse_count(*a.get(opt::largest_layer), option_text(opt::largest_layer)));
    // The largest layer is one of the model's layers (DeepSpeed's estimator reads it off the model:
    // the largest parameter count of any one module): never more than the whole model.
    if (in.largest_layer_params > in.total_params)
        throw InputError(option_text(opt::largest_layer) + " " + *a.get(opt::largest_layer) + " is more than the whole model's " +
                         option_text(opt::params) + " " + *a.get(opt::params) + "; give the parameters of its largest layer");
    in.num_gpus_per_node = a.has(opt::gpus_per_node)
                               ? parse_positive_int(*a.get(opt::gpus_per_node), option_text(opt::gpus_per_node), limits::kGpusPerNode.max)
                               : 1;
    in.num_nodes = a.has(opt::nodes) ? parse_positive_int(*a.get(opt::nodes), option_text(opt::nodes), limits::kNodes.max) : 1;
    const std::string stage = *a.get(opt::stage);
    const std::string formula = a.get(opt::formula).value_or("current");
    if (formula != "current" && formula != "legacy") throw InputError("--formula must be current or legacy, got '" + formula + "'");
    if (stage == "2") {
        out << deepspeed::zero2_table(in, formula == "current" ? deepspeed::Zero2Formula::Current : deepspeed::Zero2Formula::Legacy);
    } else if (stage == "3") {
        if (a.has(opt::formula)) throw InputError("--formula applies to --stage 2 only (the ZeRO-3 estimator never changed)");
        out << deepspeed::zero3_table(in);
    } else {
        throw InputError("ds-estimate --stage must be 2 or 3, got '" + stage + "'");
    }
    return kExitOk;
}

}  // namespace zp::cli
