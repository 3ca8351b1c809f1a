#pragma once
// What the user is doing with the plan: the window's first row and `--job`. A job only chooses
// coherent starting values (core/presets/job_presets.h), which controls the window shows first and
// the exports' optimizer hyperparameters (core/deepspeed/config_export.h recipe_hyperparameters),
// each through job_shown; no estimate reads it. Custom: none chosen (every session saved before
// version 16).
namespace zp {

enum class Job { Custom, PreTraining, FullFineTune, Lora, Qlora, LongContext };

}  // namespace zp
