#include "core/deepspeed/estimator.h"
#include "core/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zp::deepspeed {
namespace {

// Python's int() on a float: truncation toward zero.
std::int64_t py_int(double v) { return static_cast<std::int64_t>(std::trunc(v)); }

std::string header(const EstimatorInput& in, bool with_largest) {
    const char* nodes = in.num_nodes > 1 ? "nodes" : "node";
    const char* gpus = in.num_gpus_per_node > 1 ? "GPUs" : "GPU";
    std::string s = "Estimated memory needed for params, optim states and gradients for a:\n";
    s += "HW: Setup with " + std::to_string(in.num_nodes) + " " + nodes + ", " + std::to_string(in.num_gpus_per_node) + " " + gpus +
         " per node.\n";
    s += "SW: Model with " + std::to_string(py_int(in.total_params / 1e6)) + "M total params";
    if (with_largest) s += ", " + std::to_string(py_int(in.largest_layer_params / 1e6)) + "M largest layer params";
    s += ".\n";
    s += "  per CPU  |  per GPU |   Options\n";
    return s;
}

// f" {cpu_mem/2**30:7.2f}GB | {gpu_mem/2**30:6.2f}GB | {options_str}"
std::string row(const EstimatorResult& r, const std::string& options) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " %7.2fGB | %6.2fGB | ", static_cast<double>(r.cpu_bytes) / kBytesPerGiB,
                  static_cast<double>(r.gpu_bytes) / kBytesPerGiB);
    return buf + options + "\n";
}

// f'{OffloadDeviceEnum.cpu:4}' pads "cpu" to four characters.
const char* device(bool on) { return on ? "cpu " : "none"; }

}  // namespace

EstimatorResult zero2(const EstimatorInput& in, bool cpu_offload, Zero2Formula formula) {
    const double P = in.total_params;
    const double total_gpus = static_cast<double>(in.num_nodes * in.num_gpus_per_node);
    double cpu = 0, gpu = 0;
    if (cpu_offload) {
        gpu = 2 * P;
        cpu = P * std::max(4 * total_gpus, 16.0) * in.additional_buffer_factor;
    } else {
        if (formula == Zero2Formula::Current) gpu = 2 * P + static_cast<double>(py_int(18 * P / total_gpus));
        else gpu = 4 * P + static_cast<double>(py_int(16 * P / total_gpus));
        cpu = P * 4 * static_cast<double>(in.num_gpus_per_node) * in.additional_buffer_factor;
    }
    return {py_int(cpu), py_int(gpu)};
}

EstimatorResult zero3(const EstimatorInput& in, bool cpu_offload, bool cpu_offload_params, bool zero_init) {
    const double P = in.total_params;
    const double g = static_cast<double>(in.num_gpus_per_node);
    const double total_gpus = static_cast<double>(in.num_nodes * in.num_gpus_per_node);
    const double gpus_factor = 1.0 / static_cast<double>(in.num_nodes);
    const double largest_layer_memory = 4 * in.largest_layer_params;
    const double f = in.additional_buffer_factor;
    double cpu = 0, gpu = 0;
    if (cpu_offload) {
        if (cpu_offload_params) {
            gpu = largest_layer_memory;
            cpu = zero_init ? P * 18 * gpus_factor * f : P * std::max(4 * g, 18 * gpus_factor) * f;
        } else {
            gpu = largest_layer_memory + static_cast<double>(py_int(2 * P / total_gpus));
            cpu = zero_init ? P * 16 * gpus_factor * f : P * std::max(4 * g, 16 * gpus_factor) * f;
        }
    } else {
        gpu = largest_layer_memory + static_cast<double>(py_int(18 * P / total_gpus));
        cpu = zero_init ? in.largest_layer_params * 4 * g * f : P * 4 * g * f;
    }
    return {py_int(cpu), py_int(gpu)};
}

std::string zero2_table(const EstimatorInput& in, Zero2Formula formula) {
    std::string s = header(in, false);
    for (bool offload : {true, false}) s += row(zero2(in, offload, formula), std::string("offload_optimizer=") + device(offload));
    return s;
}

std::string zero3_table(const EstimatorInput& in) {
    std::string s = header(in, true);
    for (bool offload : {true, false})
        for (bool params : {true, false}) {
            if (!offload && params) continue;
            for (bool init : {true, false})
                s += row(zero3(in, offload, params, init), std::string("offload_param=") + device(params) + ", offload_optimizer=" +
                                                               device(offload) + ", zero_init=" + (init ? "1" : "0"));
        }
    return s;
}

}  // namespace zp::deepspeed
