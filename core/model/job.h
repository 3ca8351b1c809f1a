#pragma once
// What the user is doing with the plan: the window's first row and `--job`. A job only chooses
// coherent starting values (core/presets/job_presets.h) and which controls the window shows first;
// no estimate reads it. Custom: none chosen (every session saved before version 16).
namespace zp {

enum class Job { Custom, PreTraining, FullFineTune, Lora, Qlora, LongContext };

}  // namespace zp
