#pragma once
#include "core/model/scenario.h"

namespace zp {

// What the window opens with and what the command line starts from: Llama-2 7B on one
// DGX A100 (8 x A100 80GB), bf16 AdamW, 4096 tokens, ZeRO-2: a full fine-tune.
Scenario default_scenario();

}  // namespace zp
