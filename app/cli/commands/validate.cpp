// `zero-planner validate [FILE]`: the planner against measured runs.
#include "app/cli/commands/commands.h"

#include "app/cli/holdout_report.h"
#include "app/cli/options.h"
#include "app/cli/validation_report.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace zp::cli {

// The planner against measured runs: FILE, or the bundled measured_runs.json and the bundled
// host_ram_runs.json (each with the facts of measured_runs_facts.json), then the bundled
// measured_runs_2.json (runs the model was not built on), measured_runs_3.json (runs the project
// transcribed) and paper_throughput.json (published throughput figures), each with its own
// aggregate. Accuracy is information, not failure: exit 0 whenever the file could be read.
int cmd_validate(const Args& a, std::ostream& out, std::ostream&) {
    if (a.positionals.size() > 1) throw InputError("validate takes at most one FILE: zero-planner validate [FILE] [--json]");
    const bool bundled = a.positionals.empty();
    std::string path = bundled ? bundled_measured_runs_path() : a.positionals.front();
    // The runs come with the facts their own sources state where a case is silent or says
    // otherwise (measured_runs_facts.json): the bundled documents with every entry, a user's FILE
    // with those keyed by source (what a cited script did in every run of it), each listed.
    const std::string facts_path = bundled_measured_runs_facts_path();
    const std::string facts_text = read_text_file(facts_path);
    const validation::SourceFacts facts{facts_text, facts_path, !bundled};
    const std::string runs_text = read_text_file(path);
    std::vector<validation::MeasuredCase> cases = validation::parse_measured_runs(runs_text, path, &facts);
    const std::vector<validation::PairSpec> pair_specs = validation::parse_measured_pairs(runs_text, path);
    const std::vector<validation::MeanResult> means = validation::validate_means(validation::parse_measured_means(runs_text, path, &facts));
    if (bundled) {
        // The project's further host-RAM measurements join the shared runs in one report, so the
        // host RAM aggregate is over all of them.
        const std::string host_path = bundled_host_ram_runs_path();
        for (auto& c : validation::parse_measured_runs(read_text_file(host_path), host_path)) cases.push_back(std::move(c));
        path += " + " + host_path;
    }
    const validation::ValidationReport r = validation::validate_cases(std::move(cases));
    const std::vector<validation::PairResult> pairs = validation::validate_pairs(r, pair_specs);
    // The second set: public runs that played no part in building the model (its own aggregate,
    // beside the first set's, so in-sample and unseen accuracy read side by side).
    std::optional<validation::ValidationReport> second;
    std::string second_path;
    if (bundled) {
        second_path = bundled_measured_runs_2_path();
        second = validation::validate_cases(validation::parse_measured_runs(read_text_file(second_path), second_path, &facts));
    }
    std::optional<validation::ValidationReport> third;
    std::string third_path;
    if (bundled) {
        third_path = bundled_measured_runs_3_path();
        third = validation::validate_cases(validation::parse_measured_runs(read_text_file(third_path), third_path, &facts));
    }
    std::optional<validation::ValidationReport> papers;
    std::vector<validation::MeanResult> paper_means;
    std::string paper_path;
    if (bundled) {
        paper_path = bundled_paper_throughput_path();
        const std::string paper_text = read_text_file(paper_path);
        papers = validation::validate_cases(validation::parse_measured_runs(paper_text, paper_path, &facts));
        paper_means = validation::validate_means(validation::parse_measured_means(paper_text, paper_path, &facts));
    }
    // The fitted constants with the rows they were read off (bundled with the runs).
    std::vector<validation::FittedConstant> constants;
    if (bundled) {
        const std::string constants_path = bundled_fitted_constants_path();
        constants = validation::fitted_constants(read_text_file(constants_path), constants_path);
    }
    // --holdout: every bundled row (the first set, the host RAM runs, the second set, whose N02 the
    // ZeRO-3 hook time was read off, the third and the published throughput), each constant
    // re-fitted without one source at a time.
    std::optional<validation::HoldoutReport> holdout;
    if (a.flag(opt::holdout)) {
        if (!bundled) throw InputError("validate --holdout re-fits the constants on the bundled runs they were read off; drop FILE");
        std::vector<validation::MeasuredCase> in_sample = r.cases;
        for (const auto& c : second->cases) in_sample.push_back(c);
        for (const auto& c : third->cases) in_sample.push_back(c);
        for (const auto& c : papers->cases) in_sample.push_back(c);
        holdout = validation::validate_holdout(in_sample, constants);
    }
    if (a.flag(opt::json)) {
        nlohmann::json j = validation_json(r, path, pairs, means);
        if (bundled) j["fitted_constants"] = fitted_constants_json(constants);
        if (holdout) j["holdout"] = holdout_json(*holdout);
        if (second) j["measured_runs_2"] = validation_json(*second, second_path);
        if (third) j["measured_runs_3"] = validation_json(*third, third_path);
        if (papers) j["paper_throughput"] = validation_json(*papers, paper_path, {}, paper_means);
        out << j.dump(2) << "\n";
    } else {
        out << validation_text(r, path, "Measured runs", pairs, means);
        if (second) out << "\n" << validation_text(*second, second_path, "Measured runs, second set (not used to build the model)");
        if (third) out << "\n" << validation_text(*third, third_path, "Measured runs, third set (transcribed by the project)");
        if (papers) out << "\n" << validation_text(*papers, paper_path, "Published throughput", {}, paper_means);
        if (bundled) out << fitted_constants_text(constants);
        if (holdout) out << holdout_text(*holdout);
    }
    return kExitOk;
}

}  // namespace zp::cli
