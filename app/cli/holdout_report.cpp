#include "app/cli/holdout_report.h"

#include "core/base/format.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace zp::cli {

namespace {

using validation::FittedConstant;
using validation::HoldoutReport;
using validation::Quantity;
using validation::quantity_info;

// At least one space after the text, so a long cell never runs into the next.
std::string pad(std::string s, std::size_t width) {
    s.append(s.size() < width ? width - s.size() : 1, ' ');
    return s;
}

std::string percent(double fraction) { return format_fixed(100 * fraction, 1) + "%"; }

double rounded(double v, int decimals) {
    const double f = std::pow(10.0, decimals);
    return std::round(v * f) / f;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
    return out;
}

}  // namespace

std::string fitted_constants_text(const std::vector<FittedConstant>& constants) {
    std::string out = "\nFitted constants (global, read off the rows named; docs/design.md lists each fit)\n  " + pad("constant", 44) +
                      pad("value", 9) + pad("read off", 26) + "re-fitted by --holdout\n";
    for (const FittedConstant& k : constants)
        out += "  " + pad(k.name, 44) + pad(format_general(k.value), 9) + pad(k.rows.empty() ? "(no bundled row)" : joined(k.rows), 26) +
               (k.generation.empty() ? "no: " + k.not_refitted : "yes, on the " + k.generation + " step-time rows") + "\n";
    return out;
}

nlohmann::json fitted_constants_json(const std::vector<FittedConstant>& constants) {
    nlohmann::json j = nlohmann::json::array();
    for (const FittedConstant& k : constants) {
        nlohmann::json c{{"name", k.name}, {"value", k.value}, {"code", k.code},
                         {"rows", k.rows}, {"why", k.why},     {"refitted", !k.generation.empty()}};
        if (k.generation.empty()) c["not_refitted"] = k.not_refitted;
        else c["generation"] = k.generation;
        j.push_back(c);
    }
    return j;
}

std::string holdout_text(const HoldoutReport& r) {
    std::string out = "\nHeld out: each re-fitted constant fitted again without one cited source, that source's rows predicted with it\n";
    out += "\nRe-fits (median |ln(predicted / measured)| over the constant's rows)\n  " + pad("constant", 26) + pad("without", 58) +
           pad("value", 8) + "rows\n";
    for (const auto& f : r.refits)
        out += "  " + pad(f.constant, 26) + pad(f.left_out.empty() ? "(every row)" : f.left_out, 58) + pad(format_fixed(f.value, 3), 8) +
               (f.rows.empty() ? "none left: the value stays" : joined(f.rows)) + "\n";
    out += "\nRows whose prediction moved\n  " + pad("id", 6) + pad("in-sample", 11) + pad("held out", 10) + "re-fitted\n";
    for (const auto& row : r.rows)
        if (!row.refitted.empty())
            out += "  " + pad(row.id, 6) + pad(format_fixed(row.in_sample_ratio, 2), 11) + pad(format_fixed(row.held_out_ratio, 2), 10) +
                   row.refitted + "\n";
    out += "\nAggregate, in-sample beside held out\n  " + pad("group", 34) + pad("rows", 6) + pad("right in / out", 16) +
           pad("median in", 11) + pad("median out", 12) + "rows with a constant not re-fitted\n";
    for (const auto& g : r.groups) {
        const bool fits = g.group == quantity_info(Quantity::Fit).group;
        out += "  " + pad(g.group, 34) + pad(std::to_string(g.count), 6) +
               pad(std::to_string(g.in_sample_ok) + " / " + std::to_string(g.held_out_ok), 16) +
               pad(fits ? "-" : percent(g.in_sample_median), 11) + pad(fits ? "-" : percent(g.held_out_median), 12) +
               std::to_string(g.not_refitted) + "\n";
    }
    bool header = false;
    for (const auto& row : r.rows) {
        if (row.not_refitted.empty()) continue;
        if (!header) out += "\nRows read off by a constant that is not re-fitted (held out = in-sample; the held-out error is unknown)\n";
        header = true;
        out += "  " + pad(row.id, 6) + row.not_refitted + "\n";
    }
    return out;
}

nlohmann::json holdout_json(const HoldoutReport& r) {
    nlohmann::json j;
    j["refits"] = nlohmann::json::array();
    for (const auto& f : r.refits)
        j["refits"].push_back({{"constant", f.constant}, {"left_out", f.left_out}, {"value", rounded(f.value, 4)}, {"rows", f.rows}});
    j["rows"] = nlohmann::json::array();
    for (const auto& row : r.rows) {
        nlohmann::json x{{"id", row.id},
                         {"source", row.source},
                         {"quantity", quantity_info(row.quantity).name},
                         {"in_sample_ratio", rounded(row.in_sample_ratio, 4)},
                         {"held_out_ratio", rounded(row.held_out_ratio, 4)},
                         {"in_sample_ok", row.in_sample_ok},
                         {"held_out_ok", row.held_out_ok}};
        if (!row.refitted.empty()) x["refitted"] = row.refitted;
        if (!row.not_refitted.empty()) x["not_refitted"] = row.not_refitted;
        j["rows"].push_back(x);
    }
    j["aggregate"] = nlohmann::json::array();
    for (const auto& g : r.groups)
        j["aggregate"].push_back({{"group", g.group},
                                  {"rows", g.count},
                                  {"in_sample_ok", g.in_sample_ok},
                                  {"held_out_ok", g.held_out_ok},
                                  {"in_sample_median_abs_error", rounded(g.in_sample_median, 4)},
                                  {"held_out_median_abs_error", rounded(g.held_out_median, 4)},
                                  {"rows_with_constant_not_refitted", g.not_refitted}});
    return j;
}

}  // namespace zp::cli
