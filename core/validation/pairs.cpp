#include "core/validation/pairs.h"

#include "core/base/errors.h"
#include "core/base/json_errors.h"
#include "core/validation/spec_fields.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zp::validation {

namespace {

const CaseResult& row_of(const ValidationReport& r, const std::string& id, const std::string& pair) {
    for (const CaseResult& c : r.rows)
        if (c.id == id && c.quantity != Quantity::Fit) return c;
    throw InputError("pair '" + pair + "': case " + id +
                     " has no checked measurement (missing or not representable); name a case of this file that validate checks");
}

}  // namespace

std::vector<PairSpec> parse_measured_pairs(std::string_view json_text, const std::string& source_name) {
    const nlohmann::json doc = parse_json_text(json_text, source_name);
    std::vector<PairSpec> out;
    if (!doc.is_object() || !doc.contains("pairs")) return out;
    if (!doc.at("pairs").is_array()) throw InputError(source_name + ": pairs must be an array");
    for (std::size_t i = 0; i < doc.at("pairs").size(); ++i) {
        const nlohmann::json& p = doc.at("pairs")[i];
        const std::string where = source_name + ": pairs[" + std::to_string(i) + "]";
        if (!p.is_object()) throw InputError(where + " must be an object");
        PairSpec s;
        s.name = spec_text(p, "name", where);
        s.base = spec_text(p, "base", where);
        s.variant = spec_text(p, "variant", where);
        const std::string compare = spec_text(p, "compare", where);
        if (compare != "ratio" && compare != "difference")
            throw InputError(where + ".compare must be ratio or difference, got '" + compare + "'");
        s.compare = compare == "ratio" ? PairCompare::Ratio : PairCompare::Difference;
        s.tolerance = spec_tolerance(p, where);
        s.why_tolerance = spec_text(p, "why_tolerance", where);
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<PairResult> validate_pairs(const ValidationReport& report, const std::vector<PairSpec>& pairs) {
    std::vector<PairResult> out;
    for (const PairSpec& spec : pairs) {
        const CaseResult& base = row_of(report, spec.base, spec.name);
        const CaseResult& variant = row_of(report, spec.variant, spec.name);
        if (base.quantity != variant.quantity)
            throw InputError("pair '" + spec.name + "': " + spec.base + " and " + spec.variant +
                             " measure different quantities; pair two cases of the same kind (two step times, two peaks)");
        PairResult r;
        r.spec = spec;
        r.quantity = base.quantity;
        if (spec.compare == PairCompare::Ratio) {
            r.measured = base.measured / variant.measured;
            r.predicted = base.predicted / variant.predicted;
        } else {
            r.measured = variant.measured - base.measured;
            r.predicted = variant.predicted - base.predicted;
        }
        r.error = r.measured != 0 ? r.predicted / r.measured - 1 : 0;
        r.ok = r.measured != 0 && std::abs(r.error) <= spec.tolerance;
        out.push_back(r);
    }
    return out;
}

}  // namespace zp::validation
