#pragma once
// What a training run printed about itself, read from its log text: the lines DeepSpeed, Megatron
// and the Hugging Face Trainer write (formats in run_log.cpp, each with the code that prints it).
// `zero-planner calibrate --log FILE` fits the scenario to these (core/calibration/calibrate.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp::calibration {

struct RunLog {
    std::optional<double> step_seconds;         // per optimizer step
    std::optional<double> samples_per_second;   // global
    std::optional<double> max_allocated_bytes;  // torch.cuda.max_memory_allocated on the rank that printed it
    std::optional<double> max_reserved_bytes;   // torch.cuda.max_memory_reserved
    std::optional<std::int64_t> global_batch;   // sequences per optimizer step
    std::optional<std::int64_t> world_size;
    std::vector<std::string> read;  // what was used, one entry per kind of line: "3 x Megatron 'elapsed time per iteration (ms)'"
};

// Throws InputError naming `source` when no line can be read, or when lines contradict each other
// (two global batch sizes or world sizes; a step time and a throughput more than 20% apart).
RunLog read_run_log(std::string_view text, const std::string& source);

}  // namespace zp::calibration
