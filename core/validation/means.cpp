#include "core/validation/means.h"

#include "core/base/errors.h"
#include "core/base/json_errors.h"
#include "core/validation/spec_fields.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zp::validation {

std::vector<MeanSpec> parse_measured_means(std::string_view json_text, const std::string& source_name, const SourceFacts* facts) {
    const nlohmann::json doc = parse_json_text(json_text, source_name);
    std::vector<MeanSpec> out;
    if (!doc.is_object() || !doc.contains("means")) return out;
    if (!doc.at("means").is_array()) throw InputError(source_name + ": means must be an array");
    for (std::size_t i = 0; i < doc.at("means").size(); ++i) {
        const nlohmann::json& m = doc.at("means")[i];
        const std::string where = source_name + ": means[" + std::to_string(i) + "]";
        if (!m.is_object()) throw InputError(where + " must be an object");
        MeanSpec s;
        s.name = spec_text(m, "name", where);
        s.source = spec_text(m, "source", where);
        s.quote = spec_text(m, "quote", where);
        s.why_tolerance = spec_text(m, "why_tolerance", where);
        s.tolerance = spec_tolerance(m, where);
        if (!m.contains("measured") || !m.at("measured").is_object())
            throw InputError(where + ".measured must be an object: {\"value\", \"unit\", \"what\"} as in a case");
        if (!m.contains("runs") || !m.at("runs").is_array() || m.at("runs").size() < 2)
            throw InputError(where + ".runs must list at least two runs (a single run is a case of its own)");
        // Each run is read as a case of the document, with the mean as its measurement (a case
        // needs one, in a unit it can check); the runs are then compared only as their mean.
        nlohmann::json runs_doc = {{"cases", nlohmann::json::array()}};
        for (std::size_t k = 0; k < m.at("runs").size(); ++k) {
            nlohmann::json run = m.at("runs")[k];
            if (!run.is_object()) throw InputError(where + ".runs[" + std::to_string(k) + "] must be an object");
            if (run.contains("measured"))
                throw InputError(where + ".runs[" + std::to_string(k) +
                                 "] has its own measured value: make it a case of the document, not a run of the mean");
            run["measured"] = m.at("measured");
            if (!run.contains("source")) run["source"] = s.source;
            runs_doc["cases"].push_back(std::move(run));
        }
        s.runs = parse_measured_runs(runs_doc.dump(), where, facts);
        for (const MeasuredCase& c : s.runs) {
            if (!c.not_representable.empty()) throw InputError(where + ": run " + c.id + ": " + c.not_representable);
            if (c.measurement.kind != "throughput")
                throw InputError(where + ": run " + c.id + " is not a throughput run; a mean compares step times or throughput");
        }
        s.measured = s.runs.front().measurement.value;
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<MeanResult> validate_means(const std::vector<MeanSpec>& means) {
    std::vector<MeanResult> out;
    for (const MeanSpec& spec : means) {
        MeanResult r;
        r.name = spec.name;
        r.measured = spec.measured;
        r.tolerance = spec.tolerance;
        r.runs = validate_cases(spec.runs).rows;
        double sum = 0;
        for (const CaseResult& c : r.runs) sum += c.predicted;
        r.quantity = r.runs.front().quantity;
        r.predicted = sum / static_cast<double>(r.runs.size());
        r.error = r.predicted / r.measured - 1;
        r.ok = std::abs(r.error) <= spec.tolerance;
        out.push_back(std::move(r));
    }
    return out;
}

}  // namespace zp::validation
