#pragma once
// Every file the planner exports, in one table: `zero-planner export --format ID` and the
// window's config preview (its format box, Copy and Export) both read it, so a new format is
// one row here.
#include "core/model/scenario.h"

#include <span>
#include <string>
#include <string_view>

namespace zp {

struct ExportFormat {
    std::string_view id;                       // what --format takes: "hf-trainer"
    std::string_view label;                    // what the window's format box shows: "HF Trainer ds_config.json (auto)"
    std::string_view file_name;                // the default file name, distinct per format so exports can share a folder
    std::string (*render)(const Scenario& s);  // the file's text; throws InputError when the scenario cannot be exported
    // After the file is written to `path`: what else to print, or null for nothing (hf-trainer:
    // the TrainingArguments that point at `path`).
    std::string (*after_writing)(const Scenario& s, const std::string& path);
};

// In the order the window lists them; the first is the default.
std::span<const ExportFormat> export_formats();
const ExportFormat* find_export_format(std::string_view id);       // null when unknown
std::string export_format_ids(std::string_view separator = ", ");  // "deepspeed, hf-trainer, ..."

}  // namespace zp
