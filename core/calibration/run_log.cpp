#include "core/calibration/run_log.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/median.h"
#include "core/base/units.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace zp::calibration {
namespace {

// The number right after `key` in `line` (skipping spaces, '=', ':', quotes), if any.
std::optional<double> number_after(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    std::size_t i = at + key.size();
    while (i < line.size() && (line[i] == ' ' || line[i] == '=' || line[i] == ':' || line[i] == '\'' || line[i] == '"' || line[i] == '\t'))
        ++i;
    const std::string rest(line.substr(i, 40));
    char* end = nullptr;
    const double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str() || !std::isfinite(v) || v < 0) return std::nullopt;
    return v;
}

std::string count_text(std::size_t n, const char* what) { return std::to_string(n) + " x " + what; }

}  // namespace

RunLog read_run_log(std::string_view text, const std::string& source) {
    RunLog log;
    std::vector<double> iteration_ms, running_samples, trainer_samples, trainer_runtime, max_allocated, max_reserved;
    std::vector<std::int64_t> global_batches, world_sizes;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find('\n', begin), text.size());
        const std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        // DeepSpeed's ThroughputTimer (deepspeed/utils/timer.py, stop): "RunningAvgSamplesPerSec=...,
        // MemAllocated=6.01GB, MaxMemAllocated=19.52GB" (bytes / 1024**3, labelled GB).
        // Its older form (DeepSpeed 0.3-0.5, the ZeRO tutorial's log): "0/1251, SamplesPerSec=11.664 (step=1251)".
        const bool current_timer = line.find("RunningAvgSamplesPerSec") != std::string_view::npos;
        if (auto v = number_after(line, current_timer ? "RunningAvgSamplesPerSec" : "SamplesPerSec=")) running_samples.push_back(*v);
        if (auto v = number_after(line, "MaxMemAllocated")) max_allocated.push_back(*v * kBytesPerGiB);
        // see_memory_usage (deepspeed/runtime/utils.py): "MA 4.32 GB  Max_MA 5.1 GB  CA 6.0 GB  Max_CA 7 GB" (GiB).
        if (auto v = number_after(line, "Max_MA")) max_allocated.push_back(*v * kBytesPerGiB);
        if (auto v = number_after(line, "Max_CA")) max_reserved.push_back(*v * kBytesPerGiB);
        // Megatron(-DeepSpeed) training_log: "elapsed time per iteration (ms): 14287.5 | ... | global batch size:   768 |".
        if (auto v = number_after(line, "elapsed time per iteration (ms)")) iteration_ms.push_back(*v);
        if (auto v = number_after(line, "global batch size")) global_batches.push_back(static_cast<std::int64_t>(*v));
        // The Hugging Face Trainer's metrics: {'train_runtime': 8.85, 'train_samples_per_second': 6.779, ...}
        // or "train_samples_per_second =      6.779" (trainer.py log_metrics).
        if (auto v = number_after(line, "train_samples_per_second")) trainer_samples.push_back(*v);
        // DeepSpeed's flops profiler summary (profiling/flops_profiler/profiler.py): "world size:   8".
        if (auto v = number_after(line, "world size")) world_sizes.push_back(static_cast<std::int64_t>(*v));
    }

    const auto same = [&](const std::vector<std::int64_t>& v, const char* what) -> std::optional<std::int64_t> {
        if (v.empty()) return std::nullopt;
        for (std::int64_t x : v)
            if (x != v.front())
                throw InputError(source + ": contradicting lines: the " + what + " changes in the log (" + std::to_string(v.front()) +
                                 ", then " + std::to_string(x) + "); give a log of one run");
        return v.front();
    };
    log.global_batch = same(global_batches, "global batch size");
    log.world_size = same(world_sizes, "world size");

    if (!iteration_ms.empty()) {
        // The first iteration carries start-up and compilation; the median of the rest is the step.
        std::vector<double> steady(iteration_ms.begin() + (iteration_ms.size() > 1 ? 1 : 0), iteration_ms.end());
        log.step_seconds = median(steady) / 1000.0;
        log.read.push_back(count_text(iteration_ms.size(), "Megatron 'elapsed time per iteration (ms)' (median after the first)"));
    }
    if (!running_samples.empty()) {
        log.samples_per_second = running_samples.back();  // a running average: the last is the longest
        log.read.push_back(count_text(running_samples.size(),
                                      "DeepSpeed samples/s line (RunningAvgSamplesPerSec, or SamplesPerSec before 0.6; the last)"));
    } else if (!trainer_samples.empty()) {
        log.samples_per_second = trainer_samples.back();
        log.read.push_back(count_text(trainer_samples.size(), "Trainer 'train_samples_per_second' (the last)"));
    }
    if (!max_allocated.empty()) {
        log.max_allocated_bytes = *std::max_element(max_allocated.begin(), max_allocated.end());
        log.read.push_back(count_text(max_allocated.size(), "DeepSpeed max allocated (the largest)"));
    }
    if (!max_reserved.empty()) {
        log.max_reserved_bytes = *std::max_element(max_reserved.begin(), max_reserved.end());
        log.read.push_back(count_text(max_reserved.size(), "DeepSpeed 'Max_CA' reserved (the largest)"));
    }
    if (!log.step_seconds && !log.samples_per_second && !log.max_allocated_bytes && !log.max_reserved_bytes)
        throw InputError(source +
                         ": no line zero-planner can read (DeepSpeed's RunningAvgSamplesPerSec or MaxMemAllocated, see_memory_usage, "
                         "Megatron's 'elapsed time per iteration (ms)', the Trainer's train_samples_per_second)");
    // A running average over the whole run and a median of iterations differ by the warm-up and the
    // logging steps; beyond 20% apart they are not the same run's steady state.
    if (log.step_seconds && log.samples_per_second && log.global_batch) {
        const double from_throughput = static_cast<double>(*log.global_batch) / *log.samples_per_second;
        if (std::abs(from_throughput / *log.step_seconds - 1) > 0.2)
            throw InputError(source + ": contradicting lines: an iteration of " + format_fixed(*log.step_seconds, 3) + " s and " +
                             format_fixed(*log.samples_per_second, 2) + " samples/s at global batch " + std::to_string(*log.global_batch) +
                             " (" + format_fixed(from_throughput, 3) + " s) differ by more than 20%");
    }
    return log;
}

}  // namespace zp::calibration
