#pragma once
// A report (core/report/report.h) as GitHub-flavoured Markdown: what `zero-planner report --format md`
// writes and File > Export Report... writes for a .md file, and what pastes well into a GitHub
// issue (pipe tables, a fenced json block). The pictures are written beside the .md by the caller
// and linked relatively.
#include "core/report/report.h"

#include <string>
#include <vector>

namespace zp {

struct ReportPicture {
    std::string title;  // the alt text: "Memory per GPU"
    std::string file;   // relative to the .md: "plan-memory.png"
};

// A GitHub pipe table: `|` in a cell escaped, line breaks as <br>, numbers right-aligned.
std::string markdown_table(const TextTable& t);

std::string report_markdown(const Report& r, const std::vector<ReportPicture>& pictures);

}  // namespace zp
