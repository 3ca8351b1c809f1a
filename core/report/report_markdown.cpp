#include "core/report/report_markdown.h"

namespace zp {
namespace {

// GitHub's table cells: a `|` ends the cell unless escaped, and a line break ends the row.
std::string cell(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '|') out += "\\|";
        else if (text[i] == '\n') out += "<br>";
        else out += text[i];
    }
    return out;
}

// A link target as GitHub resolves it: spaces and parentheses percent-encoded, the rest as is.
std::string link_target(const std::string& file) {
    std::string out;
    for (char c : file) {
        if (c == ' ') out += "%20";
        else if (c == '(') out += "%28";
        else if (c == ')') out += "%29";
        else out += c;
    }
    return out;
}

std::string bullets(const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += "- " + l + "\n";
    return out;
}

}  // namespace

std::string markdown_table(const TextTable& t) {
    std::string out = "|";
    for (const std::string& h : t.header) out += " " + cell(h) + " |";
    out += "\n|";
    for (std::size_t i = 0; i < t.header.size(); ++i) out += i < t.right_aligned.size() && t.right_aligned[i] ? "---:|" : "---|";
    out += "\n";
    for (const auto& row : t.rows) {
        out += "|";
        for (const std::string& c : row) out += " " + cell(c) + " |";
        out += "\n";
    }
    return out;
}

std::string report_markdown(const Report& r, const std::vector<ReportPicture>& pictures) {
    std::string out = "# ZeRO Planner: " + r.title + "\n\n## Scenario\n\n";
    TextTable scenario{{"", ""}, {false, false}, {}};
    for (const auto& [key, value] : r.scenario) scenario.rows.push_back({"**" + key + "**", value});
    out += markdown_table(scenario);
    if (r.feasible) {
        out += "\n## Recommended: " + r.recommended + "\n\n";
        out += bullets(r.why) + "\n";
        TextTable figures{{"", r.recommended}, {false, false}, {}};
        for (const auto& [key, value] : r.key_figures) figures.rows.push_back({key, value});
        out += markdown_table(figures);
        if (!r.others.rows.empty()) out += "\n### Why not the others\n\n" + markdown_table(r.others);
    } else {
        out += "\n## Nothing fits\n\nNo stage, offload or recompute setup fits this cluster.\n\n" + markdown_table(r.others);
        if (!r.suggestions.empty()) out += "\nWhat would make it fit:\n\n" + bullets(r.suggestions);
    }
    out += "\n(" + std::to_string(r.candidates_evaluated) + " candidates evaluated)\n";
    out += "\n## Memory per setup\n\n" + markdown_table(r.memory) +
           "\nEach setup at the scenario's own micro batch and recompute, as `zero-planner compare` prints it (the recommendation's "
           "own figures are above). Per GPU in GiB: what must fit, split as the step holds it at the moment that decides the fit, "
           "and its total; the step's peak reserved (what nvidia-smi shows). Host RAM and NVMe in GiB per node.\n";
    if (!pictures.empty()) {
        out += "\n## Pictures\n";
        for (const ReportPicture& p : pictures) out += "\n![" + p.title + "](" + link_target(p.file) + ")\n";
    }
    if (!r.config_text.empty())
        out += "\n## " + r.config_file + " (" + r.recommended + ")\n\n```" + (r.config_file.ends_with(".yaml") ? "yaml" : "json") + "\n" +
               r.config_text + "```\n";
    return out;
}

}  // namespace zp
