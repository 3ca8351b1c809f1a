// `zero-planner recommend`: the fastest setup that fits, searched.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/report_json.h"
#include "app/cli/scenario_options.h"
#include "app/cli/sequence_report.h"
#include "app/cli/text_report.h"
#include "core/base/format.h"
#include "core/search/recommender.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>

namespace zp::cli {

int cmd_recommend(const Args& a, std::ostream& out, std::ostream&) {
    ScenarioNotes notes;
    Scenario s = plan_scenario_from_args(a, &notes);
    if (a.flag(opt::max_seq)) {
        // The longest per setup, then the fastest setup at the target length (--seq) when one is given.
        const SequenceSearch r = longest_sequences(s);
        const bool target = a.get(opt::seq).has_value();
        std::optional<Plan> at_target;
        if (target) at_target = recommend(s);
        if (a.flag(opt::json)) {
            nlohmann::json j = sequence_search_json(s, r);
            j["target_seq_len"] = target ? nlohmann::json(s.training.seq_len) : nlohmann::json(nullptr);
            j["at_target"] = at_target ? plan_json(s, *at_target) : nlohmann::json(nullptr);
            out << j.dump(2) << "\n";
            return kExitOk;
        }
        out << scenario_header(s, notes.synthesized, notes.host, false, notes.ds_config_warnings) << sequence_search_text(s, r);
        if (at_target) {
            if (at_target->feasible) s.parallel = at_target->best.parallel;
            out << "\nAt the target length of " << format_count(static_cast<double>(s.training.seq_len)) << " tokens:\n"
                << plan_text(s, *at_target);
        }
        return kExitOk;
    }
    const Plan p = recommend(s);
    // A layout the search chose is the plan's: the header and the text name it.
    if (p.feasible) s.parallel = p.best.parallel;
    if (a.flag(opt::json)) out << plan_json(s, p).dump(2) << "\n";
    else out << scenario_header(s, notes.synthesized, notes.host, true, notes.ds_config_warnings) << plan_text(s, p);
    return kExitOk;
}

}  // namespace zp::cli
