#pragma once
// Loading the published figures in tests/data (a copy of shared/anchors) for data-driven rows.
#include "core/io/file_io.h"

#include <nlohmann/json.hpp>

#include <string>

inline std::string test_data_path(const std::string& relative) { return std::string(ZP_TEST_DATA_DIR) + "/" + relative; }

inline nlohmann::json load_test_json(const std::string& relative) {
    return nlohmann::json::parse(zp::read_text_file(test_data_path(relative)));
}
