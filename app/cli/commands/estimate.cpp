// `zero-planner estimate`: one setup, as text or JSON.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/report_json.h"
#include "app/cli/scenario_options.h"
#include "app/cli/sequence_report.h"
#include "app/cli/text_report.h"
#include "core/search/recommender.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace zp::cli {

// Every output is built completely in memory first, so a failure never leaves half a document.
int cmd_estimate(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    const Scenario s = scenario_from_args(a, &notes);
    if (a.flag(opt::max_seq)) {
        const SequenceCeiling c = longest_sequence(s);
        if (a.flag(opt::json)) out << sequence_ceiling_json(s, c).dump(2) << "\n";
        else out << scenario_header(s, notes.synthesized, notes.host, false, notes.ds_config_warnings) << sequence_ceiling_text(s, c);
        // estimate plans the scenario as it stands; a job that leaves the Ulysses degree to the
        // search (--job long-context) is searched by recommend, which this says.
        if (!a.flag(opt::json) && s.parallel.auto_ulysses && c.ulysses == 1 && s.cluster.world_size() > 1)
            out << "  (DeepSpeed-Ulysses 1 here, as estimate plans it: `recommend --max-seq` with the same options searches the "
                   "Ulysses degree over the "
                << s.cluster.world_size() << " GPUs, and every setup)\n";
        return kExitOk;
    }
    const Candidate c = evaluate(s);
    if (a.flag(opt::json)) {
        nlohmann::json j = estimate_json(s, c);
        j["notes"] = nlohmann::json::array();
        if (notes.synthesized) j["notes"].push_back("architecture synthesized from the parameter count (hidden = 128 x layers)");
        if (!notes.host.empty()) j["notes"].push_back(notes.host);
        for (const std::string& w : notes.ds_config_warnings) j["notes"].push_back(w);
        out << j.dump(2) << "\n";
    } else {
        out << scenario_header(s, notes.synthesized, notes.host, false, notes.ds_config_warnings) << estimate_text(s, c);
    }
    return kExitOk;
}

}  // namespace zp::cli
