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
std::string cell(std::string s, std::size_t width) {
    s.append(s.size() < width ? width - s.size() : 1, ' ');
    return s;
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
    return out;
}

}  // namespace

std::string fitted_constants_text(const std::vector<FittedConstant>& constants) {
    std::string out = "\nFitted constants (global, read off the rows named; docs/design.md lists each fit)\n  " + cell("constant", 44) +
                      cell("value", 9) + cell("read off", 26) + "re-fitted by --holdout\n";
    for (const FittedConstant& k : constants)
        out += "  " + cell(k.name, 44) + cell(format_general(k.value), 9) + cell(k.rows.empty() ? "(no bundled row)" : joined(k.rows), 26) +
               (k.refitted() ? "yes, on " + k.refit_on() : "no: " + k.not_refitted) + "\n";
    return out;
}

nlohmann::json fitted_constants_json(const std::vector<FittedConstant>& constants) {
    nlohmann::json j = nlohmann::json::array();
    for (const FittedConstant& k : constants) {
        nlohmann::json c{{"name", k.name}, {"value", k.value}, {"code", k.code},
                         {"rows", k.rows}, {"why", k.why},     {"refitted", k.refitted()}};
        if (!k.refitted()) c["not_refitted"] = k.not_refitted;
        else c["refit_on"] = k.refit_on();
        if (!k.generation.empty()) c["generation"] = k.generation;
        j.push_back(c);
    }
    return j;
}

std::string holdout_text(const HoldoutReport& r) {
    std::string out = "\nHeld out: each re-fitted constant fitted again without one cited source, that source's rows predicted with it\n";
    out += "\nRe-fits (the least mean |ln(predicted / measured)| over the constant's rows)\n  " + cell("constant", 37) +
           cell("without", 58) + cell("value", 10) + "rows\n";
    for (const auto& f : r.refits)
        out += "  " + cell(f.constant, 37) + cell(f.left_out.empty() ? "(every row)" : f.left_out, 58) + cell(format_compact(f.value), 10) +
               (f.rows.empty() ? "none left: the value stays" : joined(f.rows)) + "\n";
    out += "\nRows whose prediction moved\n  " + cell("id", 6) + cell("in-sample", 11) + cell("held out", 10) + "re-fitted\n";
    for (const auto& row : r.rows)
        if (!row.refitted.empty())
            out += "  " + cell(row.id, 6) + cell(format_fixed(row.in_sample_ratio, 2), 11) + cell(format_fixed(row.held_out_ratio, 2), 10) +
                   row.refitted + "\n";
    out += "\nAggregate, in-sample beside held out\n  " + cell("group", 34) + cell("rows", 6) + cell("right in / out", 16) +
           cell("median in", 11) + cell("median out", 12) + "rows with a constant not re-fitted\n";
    for (const auto& g : r.groups) {
        const bool fits = g.group == quantity_info(Quantity::Fit).group;
        out += "  " + cell(g.group, 34) + cell(std::to_string(g.count), 6) +
               cell(std::to_string(g.in_sample_ok) + " / " + std::to_string(g.held_out_ok), 16) +
               cell(fits ? "-" : format_percent(g.in_sample_median), 11) + cell(fits ? "-" : format_percent(g.held_out_median), 12) +
               std::to_string(g.not_refitted) + "\n";
    }
    bool header = false;
    for (const auto& row : r.rows) {
        if (row.not_refitted.empty()) continue;
        if (!header) out += "\nRows read off by a constant that is not re-fitted (held out = in-sample; the held-out error is unknown)\n";
        header = true;
        out += "  " + cell(row.id, 6) + row.not_refitted + "\n";
    }
    return out;
}

nlohmann::json holdout_json(const HoldoutReport& r) {
    nlohmann::json j;
    j["refits"] = nlohmann::json::array();
    for (const auto& f : r.refits)
        j["refits"].push_back({{"constant", f.constant}, {"left_out", f.left_out}, {"value", f.value}, {"rows", f.rows}});
    j["rows"] = nlohmann::json::array();
    for (const auto& row : r.rows) {
        nlohmann::json x{{"id", row.id},
                         {"source", row.source},
                         {"quantity", quantity_info(row.quantity).name},
                         {"in_sample_ratio", round_to(row.in_sample_ratio, 4)},
                         {"held_out_ratio", round_to(row.held_out_ratio, 4)},
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
                                  {"in_sample_median_abs_error", round_to(g.in_sample_median, 4)},
                                  {"held_out_median_abs_error", round_to(g.held_out_median, 4)},
                                  {"rows_with_constant_not_refitted", g.not_refitted}});
    return j;
}

}  // namespace zp::cli
