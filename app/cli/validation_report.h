#pragma once
// `zero-planner validate [FILE] [--json]`: the planner against measured runs, as text (a table
// per kind, the aggregates, the cases it cannot represent) or one JSON document.
#include "core/validation/means.h"
#include "core/validation/pairs.h"
#include "core/validation/validate.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace zp::cli {

// The bundled measured_runs.json: beside the installed executable (<bindir>/../share/zero-planner),
// else in the source tree this binary was built from. Throws InputError saying to pass FILE.
std::string bundled_measured_runs_path();
// The second set of measured runs (measured_runs_2.json: runs that played no part in building the
// model), found the same way.
std::string bundled_measured_runs_2_path();
// The third set (measured_runs_3.json: public runs the project transcribed, families of the second
// set's; the ZeRO-0/1/2 cached share is fitted on some of them), found the same way.
std::string bundled_measured_runs_3_path();
// The bundled paper_throughput.json (published throughput figures: papers and vendor posts), found the same way.
std::string bundled_paper_throughput_path();
// The project's own host RAM measurements (tests/data/anchors/host_ram_runs.json), bundled the same way.
std::string bundled_host_ram_runs_path();
std::string bundled_measured_runs_facts_path();
// The rows each fitted constant was read off (fitted_constants.json), bundled the same way.
std::string bundled_fitted_constants_path();

// `title` heads the text: "Measured runs" or "Published throughput". `pairs`: the document's
// pairs of runs (core/validation/pairs.h), `means`: its figures stated as a mean over several runs
// (core/validation/means.h), each a table after the rows.
std::string validation_text(const validation::ValidationReport& r, const std::string& source, const std::string& title = "Measured runs",
                            const std::vector<validation::PairResult>& pairs = {}, const std::vector<validation::MeanResult>& means = {});
nlohmann::json validation_json(const validation::ValidationReport& r, const std::string& source,
                               const std::vector<validation::PairResult>& pairs = {},
                               const std::vector<validation::MeanResult>& means = {});

}  // namespace zp::cli
