#pragma once
// Named architectures with exact parameter counts (checked in tests/core/tst_model_spec.cpp).
#include "core/model/model_spec.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

struct ModelPreset {
    std::string name;          // what --model accepts: lowercase with hyphens
    std::string display_name;  // what the window shows
    ModelSpec spec;
};

const std::vector<ModelPreset>& model_presets();
// Throws InputError listing the known names when `name` is not one of them.
const ModelPreset& model_preset(std::string_view name);
std::string model_preset_names();  // "gpt2, gpt2-xl, ..."
// Where a preset's dimensions come from (its config.json's Hugging Face repository, or the paper),
// as `zero-planner presets` lists it; "" for a model no preset is.
const char* model_source(std::string_view name);

// Builders shared by the presets and the Hugging Face importer.
ModelSpec gpt2_style(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t vocab, std::int64_t positions);
ModelSpec llama_style(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t kv_heads, std::int64_t ffn,
                      std::int64_t vocab, bool tied);

}  // namespace zp
