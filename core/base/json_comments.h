#pragma once
// JSON with comments and trailing commas: the part of hjson that ds_config files use. DeepSpeed reads
// a config file with hjson (deepspeed/runtime/config.py, DeepSpeedConfig: `hjson.load`), which skips
// `#`, `//` and `/* */` comments and ignores a comma before `}` or `]`; transformers' Trainer
// (`--deepspeed FILE`) and Accelerate read the same file with `json.load` (accelerate/utils/deepspeed.py,
// HfDeepSpeedConfig) and stop at them. Quoteless keys and strings and commas left out at line ends,
// also hjson, are not read here: such a file gets the JSON parser's error.
#include "core/base/json_errors.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace zp {

struct JsonExtras {
    // The text with each comment and trailing comma replaced by spaces (line breaks kept), so byte
    // offsets, lines and columns are those of the original text.
    std::string json;
    std::size_t comments = 0;
    std::size_t trailing_commas = 0;
    TextPosition first;  // where the first comment or trailing comma starts
    std::size_t count() const { return comments + trailing_commas; }
};

JsonExtras blank_comments_and_trailing_commas(std::string_view text);

}  // namespace zp
