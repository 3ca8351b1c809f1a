// `zero-planner validate [FILE]`: the planner against measured runs.
#include "app/cli/commands/commands.h"

#include "app/cli/options.h"
#include "app/cli/validation_report.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace zp::cli {

// The planner against measured runs: FILE, or the bundled measured_runs.json (with the facts of
// measured_runs_facts.json) and the bundled host_ram_runs.json, and then the bundled paper_throughput.json (published throughput figures,
// with their own aggregate). Accuracy is
// information, not failure: exit 0 whenever the file could be read.
int cmd_validate(const Args& a, std::ostream& out, std::ostream&) {
    if (a.positionals.size() > 1) throw InputError("validate takes at most one FILE: zero-planner validate [FILE] [--json]");
    const bool bundled = a.positionals.empty();
    std::string path = bundled ? bundled_measured_runs_path() : a.positionals.front();
    // The bundled runs come with the facts their own sources state where the file leaves a
    // field null (measured_runs_facts.json); a user's FILE is read as it is.
    const std::string facts_path = bundled ? bundled_measured_runs_facts_path() : std::string();
    const std::string facts_text = bundled ? read_text_file(facts_path) : std::string();
    const validation::SourceFacts facts{facts_text, facts_path};
    const std::string runs_text = read_text_file(path);
    std::vector<validation::MeasuredCase> cases = validation::parse_measured_runs(runs_text, path, bundled ? &facts : nullptr);
    const std::vector<validation::PairSpec> pair_specs = validation::parse_measured_pairs(runs_text, path);
    const std::vector<validation::MeanResult> means = validation::validate_means(validation::parse_measured_means(runs_text, path));
    if (bundled) {
        // The project's further host-RAM measurements join the shared runs in one report, so the
        // host RAM aggregate is over all of them.
        const std::string host_path = bundled_host_ram_runs_path();
        for (auto& c : validation::parse_measured_runs(read_text_file(host_path), host_path)) cases.push_back(std::move(c));
        path += " + " + host_path;
    }
    const validation::ValidationReport r = validation::validate_cases(std::move(cases));
    const std::vector<validation::PairResult> pairs = validation::validate_pairs(r, pair_specs);
    std::optional<validation::ValidationReport> papers;
    std::vector<validation::MeanResult> paper_means;
    std::string paper_path;
    if (bundled) {
        paper_path = bundled_paper_throughput_path();
        const std::string paper_text = read_text_file(paper_path);
        papers = validation::validate_cases(validation::parse_measured_runs(paper_text, paper_path));
        paper_means = validation::validate_means(validation::parse_measured_means(paper_text, paper_path));
    }
    if (a.flag(opt::json)) {
        nlohmann::json j = validation_json(r, path, pairs, means);
        if (papers) j["paper_throughput"] = validation_json(*papers, paper_path, {}, paper_means);
        out << j.dump(2) << "\n";
    } else {
        out << validation_text(r, path, "Measured runs", pairs, means);
        if (papers) out << "\n" << validation_text(*papers, paper_path, "Published throughput", {}, paper_means);
    }
    return kExitOk;
}

}  // namespace zp::cli
