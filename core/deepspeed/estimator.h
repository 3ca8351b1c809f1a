#pragma once
// A faithful reproduction of DeepSpeed's model-state estimators and the tables their
// *_all_cold helpers print, so users can check us against DeepSpeed character for character.
//   deepspeed/runtime/zero/stage_1_and_2.py estimate_zero2_model_states_mem_needs(_all_cold)
//   deepspeed/runtime/zero/stage3.py        estimate_zero3_model_states_mem_needs(_all_cold)
// Arithmetic follows Python's: doubles where Python has floats, truncation where it calls int().
#include <cstdint>
#include <string>

namespace zp::deepspeed {

enum class Zero2Formula {
    Current,  // DeepSpeed >= 0.14.3: 2P + int(18P/N)
    Legacy,   // before 0.14.3 (what the docs tables were printed with): 4P + int(16P/N)
};

struct EstimatorInput {
    double total_params = 0;  // may be fractional-free float, as Python accepts 2851e6
    double largest_layer_params = 0;
    std::int64_t num_gpus_per_node = 1;
    std::int64_t num_nodes = 1;
    double additional_buffer_factor = 1.5;
};

struct EstimatorResult {
    std::int64_t cpu_bytes = 0;  // per node ("per CPU" in DeepSpeed's table)
    std::int64_t gpu_bytes = 0;
};

EstimatorResult zero2(const EstimatorInput& in, bool cpu_offload, Zero2Formula formula);
EstimatorResult zero3(const EstimatorInput& in, bool cpu_offload, bool cpu_offload_params, bool zero_init);

// The tables exactly as DeepSpeed prints them, each line ending in '\n'.
std::string zero2_table(const EstimatorInput& in, Zero2Formula formula);
std::string zero3_table(const EstimatorInput& in);

}  // namespace zp::deepspeed
