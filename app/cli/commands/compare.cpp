// `zero-planner compare`: every stage and offload combination the search takes, and the one asked for.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/report_json.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_report.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace zp::cli {

int cmd_compare(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    const Scenario base = scenario_from_args(a, &notes);
    std::vector<Candidate> rows;
    bool asked_listed = false;
    for (const ZeroSetup& z : zero_setups()) {
        rows.push_back(evaluate(with_setup(base, z)));
        asked_listed = asked_listed || setup_key(z) == setup_key(base.zero);
    }
    // A setup the search leaves out (offload_param alone, core/search/zero_setups.cpp) when asked for.
    if (!asked_listed) rows.push_back(evaluate(base));
    if (a.flag(opt::json)) {
        nlohmann::json j = nlohmann::json::array();
        for (const Candidate& c : rows) j.push_back(estimate_json(base, c));
        out << j.dump(2) << "\n";
    } else {
        out << scenario_header(base, notes.synthesized, notes.host, true, notes.ds_config_warnings) << compare_text(base, rows);
    }
    return kExitOk;
}

}  // namespace zp::cli
