// `zero-planner session`: the scenario the options describe, as a .zplan session.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/scenario_options.h"
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/report/plan_pins.h"

#include <ostream>

namespace zp::cli {

// The scenario the options describe, as a session file (.zplan) the window and --session open.
// The pinned plans of a --session file are kept: rewriting a session loses none of it.
int cmd_session(const Args& a, std::ostream& out, std::ostream&) {
    SessionFile f{plan_scenario_from_args(a), {}};
    if (auto session = a.get(opt::session)) f.pins = parse_session_file(read_text_file(*session), *session).pins;
    const std::string text = session_file_text(f);
    if (auto file = a.get(opt::output)) write_file_atomically(*file, text);
    else out << text;
    return kExitOk;
}

}  // namespace zp::cli
