#pragma once
// A training log that ran out of GPU memory, read: PyTorch's out-of-memory messages (both forms,
// several ranks interleaved) and the traceback's frames, and the moment of the step the frames
// name. `zero-planner diagnose` holds it against the planner's step timeline.
//
// PyTorch's message (c10/cuda/CUDACachingAllocator.cpp, the OutOfMemoryError it raises):
//   up to 2.0: "CUDA out of memory. Tried to allocate X (GPU N; Y total capacity; Z already
//     allocated; W free; R reserved in total by PyTorch)" ("cached" before 1.6);
//   from 2.1:  "CUDA out of memory. Tried to allocate X. GPU N has a total capacity of Y of which W
//     is free." (2.1 spelled it "total capacty"); [Process P has U memory in use.] Including non-PyTorch memory, this process has U
//     memory in use. Of the allocated memory Z is allocated by PyTorch, and R is reserved by
//     PyTorch but unallocated."
// A process capped by torch.cuda.set_per_process_memory_fraction has "A allowed; " in either form
// (after "free" before 2.1, before "Of the allocated memory" from 2.1).
// ROCm's build says "HIP out of memory." in the same words. Either may follow "RuntimeError:",
// "torch.cuda.OutOfMemoryError:" or "torch.OutOfMemoryError:",
// on the same line or the next, after a "[rankN]:" prefix.
#include "core/model/step_phase.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp {

// Where the failing allocation was asked for. PyTorch's caching allocator prints the message above,
// with its figures; the others report a failure outside that allocator, without sizes:
//   CudaRuntime: "CUDA error: out of memory" (ROCm "HIP error: out of memory"; before 1.0 "cuda
//     runtime error (2) : out of memory"): a CUDA call's cudaErrorMemoryAllocation raised by
//     C10_CUDA_CHECK, such as a context made on a device, a host buffer pinned, empty_cache;
//   Nccl: NCCL's "Cuda failure 'out of memory'" (2.x: "Cuda failure 2 'out of memory'"), on its
//     WARN line or under PyTorch's "Last error:", and "Failed to CUDA calloc N bytes": NCCL's own
//     buffers (src/include/alloc.h), allocated at a communicator's set-up and its first collectives;
//   CudaLibrary: cuBLAS's CUBLAS_STATUS_ALLOC_FAILED (cublasCreate: the handle and its workspace),
//     cuDNN's CUDNN_STATUS_ALLOC_FAILED, DeepSpeed's "Fail to create cublas handle." (csrc/includes/context.h).
//   HostKill: a rank killed with SIGKILL, which Linux's OOM killer sends when host memory runs out:
//     DeepSpeed's launcher "exits with return code = -9" (launcher/launch.py sigkill_handler),
//     torchrun's "exitcode: -9" and "Signal 9 (SIGKILL)", Python's "Signals.SIGKILL", the kernel's
//     "Out of memory: Killed process"; and the launcher's "Killing subprocess" in a log where no
//     line names another end (a killed process prints none; a traceback, an exception, a segfault,
//     another signal or return code do). Read only where the log has no GPU failure: after one, the
//     launcher's kills are its clean-up.
enum class OomSource { CachingAllocator, CudaRuntime, Nccl, CudaLibrary, HostKill };

struct OomEvent {
    OomSource source = OomSource::CachingAllocator;
    std::string message;           // outside the caching allocator: the error as printed, from its first word
    std::string site;              // NCCL: the source file the failure came through ("transport/p2p.cc"), if printed
    std::string nccl_process;      // NCCL: its line's "host:pid", to read that process's own trace
    std::optional<int> rank;       // the "[rankN]:" prefix of the line
    std::optional<int> gpu_index;  // "GPU N"; NCCL's "host:pid:tid [N]" prefix
    double tried_bytes = 0;        // the request that failed
    std::optional<double> total_bytes, free_bytes;
    std::optional<double> allocated_bytes;             // allocated by PyTorch when it failed
    std::optional<double> reserved_bytes;              // up to 2.0: reserved in total (or "cached")
    std::optional<double> reserved_unallocated_bytes;  // from 2.1: reserved but unallocated
    std::optional<double> process_bytes;               // from 2.1: this process, non-PyTorch memory included
    std::optional<double> allowed_bytes;               // "X allowed;": the cap torch.cuda.set_per_process_memory_fraction set
    int listed_processes = 0;                          // from 2.1: "Process P has U memory in use." lines on this GPU
    std::vector<double> listed_process_bytes;          // their U, in the order listed (this process among them when the
                                                       // driver does not see its pid: no process_bytes then)
    bool new_form = false;                             // the 2.1+ wording
    // The message ends before its first figure ("CUDA out of memory. Tried to all", a post cut
    // short) under a traceback: read for its frames, every size unknown (tried_bytes 0).
    bool figures_cut = false;
    // Reserved in total, in either form.
    std::optional<double> reserved_total_bytes() const;
    // The request, where the message gives one: the caching allocator's, not cut before its figures.
    std::optional<double> requested_bytes() const {
        return source == OomSource::CachingAllocator && !figures_cut ? std::optional<double>(tried_bytes) : std::nullopt;
    }
};

// DeepSpeed's see_memory_usage (deepspeed/runtime/utils.py): a message line, then
//   logger.info(f"MA {round(get_accelerator().memory_allocated() / (1024 * 1024 * 1024),2 )} GB [backslash]
//       Max_MA {round(get_accelerator().max_memory_allocated() / (1024 * 1024 * 1024),2)} GB [backslash]
//       CA {round(torch_memory_reserved() / (1024 * 1024 * 1024),2)} GB [backslash]
//       Max_CA {round(torch_max_memory_reserved() / (1024 * 1024 * 1024))} GB ")
// (the backslashes keep the continuation lines' blanks: "MA 4.36 GB         Max_MA 4.39 GB ..."),
// then "CPU Virtual Memory:  used = ... GB, percent = ...%". "GB" is 2^30 bytes (it divides by
// 1024^3); MA, Max_MA and CA have two decimals, Max_CA none. Rank 0's, as DeepSpeed prints it.
struct DsMemoryUsage {
    std::string message;             // the line before, logger prefix dropped: "After initializing optimizer states"
    double allocated_bytes = 0;      // MA: torch.cuda.memory_allocated()
    double max_allocated_bytes = 0;  // Max_MA: the peak since the previous see_memory_usage
    double reserved_bytes = 0;       // CA: torch.cuda.memory_reserved()
    double max_reserved_bytes = 0;   // Max_CA, rounded to whole GB
    // The line after: "CPU Virtual Memory:  used = 28.43 GB, percent = 22.6%" (psutil's total less
    // available, in GiB, and its share of the host's memory), when the log has it.
    std::optional<double> host_used_bytes, host_used_percent;
    // The host's memory the two imply (used / percent), when both are there.
    std::optional<double> host_total_bytes() const {
        if (!host_used_bytes || !host_used_percent || *host_used_percent <= 0) return std::nullopt;
        return *host_used_bytes * 100.0 / *host_used_percent;
    }
};

// Where in a run the failing allocation was made, from the traceback's frames.
enum class OomMoment {
    InStep,          // a moment of the training step: `phase`
    ModelLoad,       // moving or building the model on the GPU (Module.to / .cuda / _apply)
    CheckpointSave,  // saving or consolidating a checkpoint
    Evaluation,      // generation or evaluation (model.generate, Trainer.evaluate / prediction_step)
    Unknown          // no frame says
};

struct OomLog {
    std::vector<OomEvent> events;     // in the order they appear; one per failing rank and message
    std::vector<std::string> frames;  // the function names of the first traceback, outermost first
    OomMoment moment = OomMoment::Unknown;
    StepPhase phase = StepPhase::StartUp;  // with InStep
    std::string deciding_frame;            // the frame that named the moment, "" when Unknown
    std::string failing_line;              // the source line printed under the innermost frame, trimmed
    // The last see_memory_usage before the first out-of-memory message, if the log has one:
    // measured evidence of what the run held at a known moment before it failed.
    std::optional<DsMemoryUsage> memory_usage;
    // HostKill: the last line before the first kill line, logger prefix kept ("... Loading checkpoint
    // from .../optim_states.pt..."): what the run was doing when the host ran out.
    std::string line_before_kill;
};

// Lines longer than this are read up to it (PyTorch's message with every process listed is far
// shorter); it keeps the reader linear on any input.
inline constexpr std::size_t kOomLogLineChars = 4096;

// Throws InputError naming `source_name` when the text holds no out-of-memory message. NCCL's
// "Cuda failure 'out of memory'" after its "[Rem Allocator] Allocation failed" (bootstrap.cc) is
// not one: NCCL before 2.12 prints it when a stray connection reaches its remote allocator, and
// the run goes on (NVIDIA/nccl#555, #844).
OomLog read_oom_log(std::string_view text, const std::string& source_name);

// Which runs a remedy can help: diagnose leaves out those a known ZeRO setup rules out
// (core/diagnose/oom_diagnosis.h, oom_remedies for a scenario), by this tag, not by the words.
enum class RemedyScope {
    Any,
    SplitStates,       // more data-parallel GPUs or a higher stage (reworded at stage 3 and at data parallelism 1)
    Stage3Setting,     // a stage-3 key or behaviour: sub_group_size (read by stage3.py only), stage3_*, ZeRO-3's gathers
    ToStage3,          // moving from ZeRO-1/2 to ZeRO-3
    OptimizerOffload,  // turning optimizer offload on
};
// The engine whose setting a remedy names: a DeepSpeed key means nothing to a PyTorch FSDP run.
enum class RemedyEngine { Any, DeepSpeed, Fsdp };
// The model code a remedy needs: Liger-Kernel patches Hugging Face models; Megatron's flags act on
// its own GPTModel. Unknown model code keeps both.
enum class ModelCode { Any, HuggingFace, Megatron };
struct OomRemedy {
    RemedyScope scope = RemedyScope::Any;
    std::string text;
    RemedyEngine engine = RemedyEngine::Any;
    ModelCode code = ModelCode::Any;
    // Useless where the failing allocation is an optimizer moment being created: DeepSpeed's
    // FusedAdam makes exp_avg and exp_avg_sq lazily in its first step too (ops/adam/fused_adam.py).
    bool frees_moment_creation = true;
};

// What usually frees memory at that moment, cheapest first (each citing the code path it acts
// on); the planner's own numbers for a given setup are `diagnose`'s.
std::vector<OomRemedy> oom_remedy_list(OomMoment moment, StepPhase phase);
// The same, their words only: for a run whose setup is not known.
std::vector<std::string> oom_remedies(OomMoment moment, StepPhase phase);
// "caching_allocator", "cuda_runtime", "nccl", "cuda_library" (JSON); "PyTorch's caching allocator",
// "a CUDA call", "NCCL", "cuBLAS/cuDNN" (text).
const char* oom_source_key(OomSource s);
const char* oom_source_words(OomSource s);
// "the optimizer step", "moving the model onto the GPU", ...
std::string oom_moment_words(OomMoment moment, StepPhase phase);

// A log line's rank prefix: "[rankN]:" at its start (after blanks) is read and removed, Slurm's
// srun --label "N: " before it removed only (a task id, not a rank). The rank, or nothing.
std::optional<int> strip_rank_prefix(std::string& line);

// The pieces, for tests.
// "8.52 GiB", "130.00 MiB", "0 bytes", "12.81 MiB" -> bytes; nullopt when not a size.
std::optional<double> parse_memory_size(std::string_view text);
// "MA 4.36 GB         Max_MA 4.39 GB         CA 5.27 GB         Max_CA 5 GB " anywhere in `line`
// (after a logger's prefix) -> its four figures in bytes, message empty; nullopt when not one.
std::optional<DsMemoryUsage> parse_memory_usage_line(std::string_view line);
// The moment the frames (outermost first) name, and the frame that named it.
OomMoment moment_of_frames(const std::vector<std::string>& frames, StepPhase* phase, std::string* deciding_frame);

}  // namespace zp
