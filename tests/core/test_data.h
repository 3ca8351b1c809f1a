#pragma once
// Loading files from tests/data (ZP_TEST_DATA_DIR) for data-driven rows: the published figures in
// tests/data/anchors (each file names its source; copied into the repository when the tests were
// written, docs/design.md §11), the lint corpus and the Hugging Face configs.
#include "core/io/file_io.h"

#include <nlohmann/json.hpp>

#include <string>

inline std::string test_data_path(const std::string& relative) { return std::string(ZP_TEST_DATA_DIR) + "/" + relative; }

inline nlohmann::json load_test_json(const std::string& relative) {
    return nlohmann::json::parse(zp::read_text_file(test_data_path(relative)));
}
