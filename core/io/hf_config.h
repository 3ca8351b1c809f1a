#pragma once
// Import of a Hugging Face transformers config.json into a ModelSpec with the exact
// parameter count of the published checkpoint.
#include "core/model/model_spec.h"

#include <string>
#include <string_view>

namespace zp {

// model_type values understood, e.g. "llama, mistral, mixtral, ...".
std::string supported_hf_model_types();

// Parses the text of a config.json. Throws InputError with line and column for malformed JSON,
// naming the field for a missing or ill-typed one, and listing the supported model types
// for an unknown one. `source_name` prefixes messages ("llama.json: ...").
ModelSpec import_hf_config(std::string_view json_text, const std::string& source_name = "config.json");

}  // namespace zp
