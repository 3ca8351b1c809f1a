// `zero-planner recommend`: the fastest setup that fits, searched.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/report_json.h"
#include "app/cli/scenario_options.h"
#include "app/cli/text_report.h"
#include "core/search/recommender.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace zp::cli {

int cmd_recommend(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    Scenario s = plan_scenario_from_args(a, &notes);
    const Plan p = recommend(s);
    // A layout the search chose is the plan's: the header and the text name it.
    if (p.feasible) s.parallel = p.best.parallel;
    if (a.flag(opt::json)) out << plan_json(s, p).dump(2) << "\n";
    else out << scenario_header(s, notes.synthesized, notes.host) << plan_text(s, p);
    return kExitOk;
}

}  // namespace zp::cli
