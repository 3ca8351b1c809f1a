#pragma once
// Loading files from tests/data (ZP_TEST_DATA_DIR) for data-driven rows: the published figures in
// tests/data/anchors (each file names its source; copied into the repository when the tests were
// written, docs/design.md §11), the lint corpus and the Hugging Face configs.
#include "core/base/file_io.h"
#include "core/validation/measured_runs.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

inline std::string test_data_path(const std::string& relative) { return std::string(ZP_TEST_DATA_DIR) + "/" + relative; }

inline nlohmann::json load_test_json(const std::string& relative) {
    return nlohmann::json::parse(zp::read_text_file(test_data_path(relative)));
}

// The element of a JSON array whose `key` is `value` (anchor rows are selected by name, never by
// position). Throws std::out_of_range naming the value when there is none. The reference points
// into `rows`: keep the array alive (not a temporary from load_test_json(...).at(...)).
inline const nlohmann::json& json_row(const nlohmann::json& rows, const std::string& key, const std::string& value) {
    for (const auto& row : rows)
        if (row.contains(key) && row.at(key) == value) return row;
    throw std::out_of_range("no row with " + key + " = \"" + value + "\"");
}

// The bundled measured runs as `zero-planner validate` reads them: measured_runs.json with what
// each case's own source states (measured_runs_facts.json).
// `file`: another bundled runs document under anchors/ (paper_throughput.json, measured_runs_2.json),
// with the same facts.
inline std::vector<zp::validation::MeasuredCase> bundled_measured_runs(const std::string& file = "measured_runs.json") {
    const std::string facts_text = zp::read_text_file(test_data_path("anchors/measured_runs_facts.json"));
    const zp::validation::SourceFacts facts{facts_text, "measured_runs_facts.json"};
    return zp::validation::parse_measured_runs(zp::read_text_file(test_data_path("anchors/" + file)), file, &facts);
}
