#include "core/io/oom_log.h"

#include "core/base/errors.h"
#include "core/base/units.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <map>
#include <regex>

namespace zp {

std::optional<double> OomEvent::reserved_total_bytes() const {
    if (reserved_bytes) return reserved_bytes;
    if (allocated_bytes && reserved_unallocated_bytes) return *allocated_bytes + *reserved_unallocated_bytes;
    return std::nullopt;
}

std::optional<double> parse_memory_size(std::string_view text) {
    static const std::regex size(R"(^\s*([0-9]{1,15}(?:\.[0-9]{1,15})?)\s*(bytes|B|KiB|MiB|GiB|TiB)\s*$)");
    const std::string t(text);
    std::smatch m;
    if (!std::regex_match(t, m, size)) return std::nullopt;
    const double v = std::stod(m[1].str());
    const std::string unit = m[2].str();
    const double factor = unit == "KiB"   ? 1024.0
                          : unit == "MiB" ? 1024.0 * 1024
                          : unit == "GiB" ? 1024.0 * 1024 * 1024
                          : unit == "TiB" ? 1024.0 * 1024 * 1024 * 1024
                                          : 1.0;
    return v * factor;
}

namespace {

// A size in the message: a number and PyTorch's unit (format_size in CUDACachingAllocator.cpp);
// digits bounded so that std::stod never overflows.
constexpr const char* kSize = R"(([0-9]{1,15}(?:\.[0-9]{1,15})? (?:bytes|KiB|MiB|GiB|TiB)))";

std::optional<double> find_size(const std::string& line, const std::string& pattern) {
    // Compiled once per pattern (a dozen): compiling per call took 79 s over a 15 MB log.
    thread_local std::map<std::string, std::regex> compiled;
    auto it = compiled.find(pattern);
    if (it == compiled.end()) it = compiled.emplace(pattern, std::regex(pattern)).first;
    const std::regex& re = it->second;
    std::smatch m;
    if (!std::regex_search(line, m, re)) return std::nullopt;
    return parse_memory_size(m[1].str());
}

// The caching allocator's message opens with the device's name: CUDA's, ROCm's hipified one, Intel
// XPU's (torch/csrc/xpu, the 2.1+ form without the free memory) and Ascend's torch_npu (the form
// before 2.1, "(NPU 3; ...)").
constexpr std::array<const char*, 4> kAllocatorMessages{"CUDA out of memory", "HIP out of memory", "XPU out of memory",
                                                        "NPU out of memory"};

// Where the line's allocator message starts, or npos.
std::size_t allocator_message_at(const std::string& l) {
    std::size_t at = std::string::npos;
    for (const char* m : kAllocatorMessages) at = std::min(at, l.find(m));
    return at;
}
// A line holding PyTorch's out-of-memory message (CUDA's, ROCm's, XPU's or NPU's wording).
bool is_oom_message(const std::string& l) { return allocator_message_at(l) != std::string::npos; }
// The message's last figure is there: both forms end with the reserve (before 1.5: "cached").
bool oom_message_complete(const std::string& l) {
    return l.find("reserved in total by PyTorch") != std::string::npos || l.find("cached)") != std::string::npos ||
           l.find("reserved by PyTorch but unallocated") != std::string::npos;
}

// The reserve of a message that ends "X cached)". PyTorch 1.0-1.3 printed the cache beyond the
// allocated bytes there (CUDACachingAllocator.cpp THCCachingAllocator::malloc: format_size(
// stats.amount_cached - stats.amount_allocated), " cached)"); 1.4's rewritten allocator printed the
// whole reserve under the same word. Below the allocated bytes the figure cannot be a reserve, and
// where allocated + cached + free still fits the card it is read as 1.0-1.3's; only where that
// sum exceeds the card is it the whole reserve.
std::optional<double> reserve_of_cached(const OomEvent& e, std::optional<double> cached) {
    if (!cached || !e.allocated_bytes) return cached;
    const bool beyond_allocated =
        *cached < *e.allocated_bytes || !e.total_bytes || !e.free_bytes || *e.allocated_bytes + *cached + *e.free_bytes <= *e.total_bytes;
    return beyond_allocated ? *e.allocated_bytes + *cached : *cached;
}

// The message from "CUDA out of memory." (ROCm's PyTorch: "HIP out of memory.", the same
// allocator hipified, its 2.1+ form without the "this process has" sentence: ROCm/TheRock#1054) to
// the end of its line, with the line's rank.
std::optional<OomEvent> event_of_line(const std::string& line, std::optional<int> rank) {
    const std::size_t at = allocator_message_at(line);
    if (at == std::string::npos) return std::nullopt;
    const std::string msg = line.substr(at);
    OomEvent e;
    e.rank = rank;
    const auto tried = find_size(msg, std::string("Tried to allocate ") + kSize);
    if (!tried) return std::nullopt;
    e.tried_bytes = *tried;
    static const std::regex gpu(R"((?:GPU|NPU) ([0-9]{1,6}))");
    std::smatch m;
    if (std::regex_search(msg, m, gpu)) e.gpu_index = std::stoi(m[1].str());
    // PyTorch 2.1 printed "total capacty of" (fixed in 2.2); both are the new form.
    e.new_form = msg.find("has a total capacity of") != std::string::npos || msg.find("has a total capacty of") != std::string::npos;
    if (e.new_form) {
        e.total_bytes = find_size(msg, std::string("total capac(?:i)?ty of ") + kSize);
        // "Process P has U memory in use." once per other process on this GPU
        // (CUDACachingAllocator.cpp, from the driver's list of the device's processes).
        for (std::size_t p = msg.find("Process "); p != std::string::npos; p = msg.find("Process ", p + 8)) {
            std::size_t i = p + 8;
            while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9') ++i;
            if (i > p + 8 && msg.compare(i, 5, " has ") == 0) {
                ++e.listed_processes;
                const std::size_t end = msg.find(" memory in use", i);
                if (end != std::string::npos)
                    if (const auto bytes = parse_memory_size(msg.substr(i + 5, end - i - 5))) e.listed_process_bytes.push_back(*bytes);
            }
        }
        e.free_bytes = find_size(msg, std::string("of which ") + kSize + " is free");
        e.process_bytes = find_size(msg, std::string("this process has ") + kSize + " memory in use");
        e.allocated_bytes = find_size(msg, std::string("allocated memory ") + kSize + " is allocated by PyTorch");
        e.reserved_unallocated_bytes = find_size(msg, std::string("and ") + kSize + " is reserved by PyTorch but unallocated");
    } else {
        e.total_bytes = find_size(msg, std::string(kSize) + " total capacity");
        e.allocated_bytes = find_size(msg, std::string(kSize) + " already allocated");
        e.free_bytes = find_size(msg, std::string(kSize) + " free");
        e.reserved_bytes = find_size(msg, std::string(kSize) + " reserved in total by PyTorch");
        if (!e.reserved_bytes) e.reserved_bytes = reserve_of_cached(e, find_size(msg, std::string(kSize) + " cached"));
    }
    e.allowed_bytes = find_size(msg, std::string(kSize) + " allowed;");
    return e;
}

// An out-of-memory failure outside PyTorch's caching allocator (OomSource), from its line.
std::optional<OomEvent> outside_event_of_line(const std::string& line, std::optional<int> rank) {
    struct Pattern {
        const char* text;
        OomSource source;
    };
    static constexpr std::array<Pattern, 15> kPatterns{{
        {"CUDA error: out of memory", OomSource::CudaRuntime},
        {"HIP error: out of memory", OomSource::CudaRuntime},
        {"hipErrorOutOfMemory", OomSource::CudaRuntime},
        {"cuda runtime error (2) : out of memory", OomSource::CudaRuntime},
        {"Cuda failure 2 'out of memory'", OomSource::Nccl},
        {"Cuda failure 'out of memory'", OomSource::Nccl},
        {"Failed to CUDA calloc", OomSource::Nccl},
        {"CUBLAS_STATUS_ALLOC_FAILED", OomSource::CudaLibrary},
        {"CUDNN_STATUS_ALLOC_FAILED", OomSource::CudaLibrary},
        {"Fail to create cublas handle", OomSource::CudaLibrary},
        {"exits with return code = -9", OomSource::HostKill},
        {"exitcode: -9", OomSource::HostKill},
        {"Signal 9 (SIGKILL)", OomSource::HostKill},
        {"Signals.SIGKILL", OomSource::HostKill},
        {"Out of memory: Killed process", OomSource::HostKill},
    }};
    // The first on the line (two ranks' errors can share one): its source and its message agree.
    const Pattern* first = nullptr;
    std::size_t at = std::string::npos;
    for (const Pattern& p : kPatterns)
        if (const std::size_t where = line.find(p.text); where < at) {
            at = where;
            first = &p;
        }
    if (first) {
        const Pattern& p = *first;
        OomEvent e;
        e.source = p.source;
        e.rank = rank;
        // From the error's own first word ("RuntimeError: ", a logger's prefix dropped).
        std::size_t from = at;
        // torchrun's "failed (exitcode: -9) local_rank: 0 ..." from its "failed (".
        for (const char* lead : {"RuntimeError: ", "torch.AcceleratorError: ", "NCCL WARN ", "failed ("})
            if (const std::size_t l = line.rfind(lead, at); l != std::string::npos && l + std::strlen(lead) <= at)
                from = std::min(from, l + (std::strcmp(lead, "NCCL WARN ") == 0 ? std::strlen(lead) : 0));
        // Up to the next error on the line, if another follows (two ranks' output on one line).
        std::size_t until = line.size();
        for (const Pattern& q : kPatterns)
            if (const std::size_t w = line.find(q.text, at + 1); w != std::string::npos) until = std::min(until, w);
        // An error code alone ("Search for `hipErrorOutOfMemory' in https://rocm.docs...") is its name.
        if (std::string_view(p.text).find(' ') == std::string_view::npos) from = at, until = at + std::strlen(p.text);
        e.message = line.substr(from, std::min<std::size_t>(until - from, 200));
        while (!e.message.empty() && (e.message.back() == ' ' || e.message.back() == '\r')) e.message.pop_back();
        if (p.source == OomSource::Nccl) {
            // NCCL's prefix "host:pid:tid [dev] file.cc:line NCCL WARN ...": the device and, unless it
            // is the allocation helper itself (include/alloc.h), the file.
            static const std::regex prefix(
                R"(([^\s:]+:[0-9]+):[0-9]+ \[([0-9]{1,3})\] (?:([A-Za-z0-9_/]+\.(?:cc|cu|h)):[0-9]+ )?NCCL WARN)");
            std::smatch m;
            if (std::regex_search(line, m, prefix)) {
                e.nccl_process = m[1].str();
                e.gpu_index = std::stoi(m[2].str());
                if (m[3].matched && m[3].str().rfind("include/", 0) != 0) e.site = m[3].str();
            }
        }
        return e;
    }
    return std::nullopt;
}

// NCCL's trace after a failure: "host:pid:tid [dev] NCCL INFO transport/p2p.cc:204 -> 1", the first
// file outside include/ being where the failure came through; only the failing process's own
// trace (its "host:pid", when its WARN line had one): interleaved processes trace their own.
std::string nccl_trace_site(const std::string& line, const std::string& process) {
    static const std::regex trace(R"((?:([^\s:]+:[0-9]+):[0-9]+ \[[0-9]{1,3}\] )?NCCL INFO ([A-Za-z0-9_/]+\.(?:cc|cu)):[0-9]+ -> [0-9])");
    std::smatch m;
    if (!std::regex_search(line, m, trace) || m[2].str().rfind("include/", 0) == 0) return {};
    if (!process.empty() && m[1].matched && m[1].str() != process) return {};
    return m[2].str();
}

// The next line of `text` from `start`: its end and where the one after starts. "\n", "\r\n" and a
// lone "\r" (a progress bar's carriage return, a CR-only file) each end a line.
std::pair<std::size_t, std::size_t> next_line(std::string_view text, std::size_t start) {
    const std::size_t end = std::min(text.find_first_of("\r\n", start), text.size());
    std::size_t next = end + 1;
    if (end < text.size() && text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n') ++next;
    return {end, next};
}

// A line of at most kOomLogLineChars: a longer one keeps its head and its tail, where an error
// printed after a progress bar's output stands.
std::string bounded_line(std::string_view text, std::size_t start, std::size_t end) {
    const std::size_t n = end - start;
    if (n <= kOomLogLineChars) return std::string(text.substr(start, n));
    const std::size_t half = kOomLogLineChars / 2;
    return std::string(text.substr(start, half)) + " ... " + std::string(text.substr(end - half, half));
}

// Python's marks between the tracebacks of chained exceptions: what follows is another exception's.
bool chained_exception_mark(const std::string& line) {
    return line.find("During handling of the above exception, another exception occurred") != std::string::npos ||
           line.find("The above exception was the direct cause of the following exception") != std::string::npos;
}

// What each frame name says about the moment (the name after its last '.', compared whole, or a
// fragment of it). DeepSpeed's, PyTorch's, Megatron's and Transformers' own function names.
struct FrameRule {
    const char* name;
    bool fragment;  // true: the name contains it; false: the name is it
    OomMoment moment;
    StepPhase phase;
};

// Checked on every frame before the others: inside deepspeed.initialize everything is start-up,
// inside a checkpoint save nothing is the step (runtime/engine.py initialize,
// _configure_zero_optimizer; zero/stage3.py initialize_optimizer_states, _create_fp32_partitions;
// engine.py save_checkpoint, _zero3_consolidated_16bit_state_dict; Trainer._save_checkpoint).
// Generation and evaluation likewise (transformers generation/utils.py generate, _sample;
// trainer.py evaluate, evaluation_loop, prediction_step).
constexpr std::array<FrameRule, 20> kOuterRules{{
    {"_configure_zero_optimizer", false, OomMoment::InStep, StepPhase::StartUp},
    // The first collectives, where NCCL sets up its buffers, with only the 16-bit weights on the GPU:
    // DeepSpeed's engine broadcasting the model (runtime/engine.py _configure_distributed_model ->
    // _broadcast_model, before _configure_optimizer), DDP's constructor (torch/nn/parallel/distributed.py).
    {"_configure_distributed_model", false, OomMoment::ModelLoad, StepPhase::StartUp},
    {"_broadcast_model", false, OomMoment::ModelLoad, StepPhase::StartUp},
    {"_verify_param_shape_across_processes", false, OomMoment::ModelLoad, StepPhase::StartUp},
    {"_configure_optimizer", false, OomMoment::InStep, StepPhase::StartUp},
    {"initialize_optimizer_states", false, OomMoment::InStep, StepPhase::StartUp},
    {"_create_fp32_partitions", false, OomMoment::InStep, StepPhase::StartUp},
    {"_setup_for_real_optimizer", false, OomMoment::InStep, StepPhase::StartUp},
    // Composer's train metrics after each micro batch's backward (trainer.py _eval_train_metrics).
    {"_eval_train_metrics", false, OomMoment::InStep, StepPhase::Metrics},
    {"save_checkpoint", true, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"_zero3_consolidated_16bit_state_dict", false, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"get_state_dict", false, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"save_model", false, OomMoment::CheckpointSave, StepPhase::StartUp},
    // torch/nn/modules/module.py: state_dict's per-module copy (falcontune#19's save).
    {"_save_to_state_dict", false, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"generate", true, OomMoment::Evaluation, StepPhase::StartUp},
    {"evaluate", false, OomMoment::Evaluation, StepPhase::StartUp},
    {"evaluation_loop", false, OomMoment::Evaluation, StepPhase::StartUp},
    {"prediction_step", false, OomMoment::Evaluation, StepPhase::StartUp},
    {"prediction_loop", false, OomMoment::Evaluation, StepPhase::StartUp},
    // Composer's evaluation (trainer.py v0.16.4 line 2778, v0.13.4 line 2631: every evaluator runs
    // through _eval_loop, from fit and from eval), whose metrics' cross_entropy is not the step's loss.
    {"_eval_loop", false, OomMoment::Evaluation, StepPhase::StartUp},
}};

// Then from the innermost frame out, the first that names a moment.
constexpr std::array<FrameRule, 23> kInnerRules{{
    // The optimizer's step: torch.optim's state and foreach temporaries, DeepSpeed's step.
    {"_init_group", false, OomMoment::InStep, StepPhase::OptimizerStep},
    // torch/optim/adam.py and adamw.py: _multi_tensor_adam(w), _single_tensor_adam(w), _fused_adam(w).
    {"_multi_tensor_adam", true, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_single_tensor_adam", true, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_optimizer_step", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_take_model_step", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"unscale_and_clip_grads", false, OomMoment::InStep, StepPhase::OptimizerStep},
    // optimizer.step() itself, where the frames inside it were not printed (the Trainer's
    // _inner_training_loop -> accelerate's AcceleratedOptimizer.step: sentence-transformers#3214).
    {"step", false, OomMoment::InStep, StepPhase::OptimizerStep},
    // The gradient reduce (zero/stage_1_and_2.py, stage3.py).
    {"reduce_ipg_grads", true, OomMoment::InStep, StepPhase::GradientReduce},
    {"partition_ipg_grads", true, OomMoment::InStep, StepPhase::GradientReduce},  // stage3.py __reduce_and_partition_ipg_grads
    {"reduce_independent_p_g_buckets", true, OomMoment::InStep, StepPhase::GradientReduce},
    {"average_tensor", false, OomMoment::InStep, StepPhase::GradientReduce},
    {"allreduce_bucket", false, OomMoment::InStep, StepPhase::GradientReduce},
    {"partition_grads", false, OomMoment::InStep, StepPhase::GradientReduce},
    // The loss: logits up-cast and cross-entropy (Megatron's vocab_parallel_cross_entropy,
    // Transformers' ForCausalLMLoss / loss_function, torch's cross_entropy).
    {"cross_entropy", true, OomMoment::InStep, StepPhase::Loss},
    {"ForCausalLMLoss", false, OomMoment::InStep, StepPhase::Loss},
    {"loss_function", false, OomMoment::InStep, StepPhase::Loss},
    {"log_softmax", false, OomMoment::InStep, StepPhase::Loss},
    // Backward and forward.
    {"backward", false, OomMoment::InStep, StepPhase::Backward},
    {"_engine_run_backward", false, OomMoment::InStep, StepPhase::Backward},
    {"forward", false, OomMoment::InStep, StepPhase::Forward},
    // Moving the model onto the GPU (torch/nn/modules/module.py Module.to -> _apply -> convert).
    {"_apply", false, OomMoment::ModelLoad, StepPhase::StartUp},
    {"convert", false, OomMoment::ModelLoad, StepPhase::StartUp},
    {"cuda", false, OomMoment::ModelLoad, StepPhase::StartUp},
}};

bool matches(const FrameRule& r, const std::string& frame) {
    const auto dot = frame.rfind('.');
    const std::string name = dot == std::string::npos ? frame : frame.substr(dot + 1);
    return r.fragment ? name.find(r.name) != std::string::npos : name == r.name;
}

}  // namespace

OomMoment moment_of_frames(const std::vector<std::string>& frames, StepPhase* phase, std::string* deciding_frame) {
    const auto decide = [&](const FrameRule& r, const std::string& f) {
        if (phase) *phase = r.phase;
        if (deciding_frame) *deciding_frame = f;
        return r.moment;
    };
    for (const std::string& f : frames)
        for (const FrameRule& r : kOuterRules)
            if (matches(r, f)) return decide(r, f);
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
        for (const FrameRule& r : kInnerRules)
            if (matches(r, *it)) return decide(r, *it);
        // Module.to(...) is moving the model, the innermost frame of a load.
        if (*it == "to" && it == frames.rbegin()) return decide({"to", false, OomMoment::ModelLoad, StepPhase::StartUp}, *it);
    }
    if (deciding_frame) deciding_frame->clear();
    return OomMoment::Unknown;
}

const char* oom_source_key(OomSource s) {
    switch (s) {
    case OomSource::CachingAllocator: return "caching_allocator";
    case OomSource::CudaRuntime: return "cuda_runtime";
    case OomSource::Nccl: return "nccl";
    case OomSource::CudaLibrary: return "cuda_library";
    case OomSource::HostKill: return "host_kill";
    }
    return "?";
}

const char* oom_source_words(OomSource s) {
    switch (s) {
    case OomSource::CachingAllocator: return "PyTorch's caching allocator";
    case OomSource::CudaRuntime: return "a CUDA call";
    case OomSource::Nccl: return "NCCL";
    case OomSource::CudaLibrary: return "cuBLAS/cuDNN";
    case OomSource::HostKill: return "a rank killed (SIGKILL)";
    }
    return "?";
}

std::string oom_moment_words(OomMoment moment, StepPhase phase) {
    switch (moment) {
    case OomMoment::ModelLoad: return "moving the model onto the GPU (before training)";
    case OomMoment::CheckpointSave: return "saving a checkpoint";
    case OomMoment::Evaluation: return "generation or evaluation (not the training step)";
    case OomMoment::Unknown: return "a moment no frame of the traceback names";
    case OomMoment::InStep: break;
    }
    switch (phase) {
    case StepPhase::StartUp: return "deepspeed.initialize (the optimizer's partitions and states)";
    case StepPhase::Forward: return "the forward pass";
    case StepPhase::Loss: return "the loss (logits and cross-entropy)";
    case StepPhase::Backward: return "the backward pass";
    case StepPhase::Metrics: return "the training loop's metrics over the logits (Composer's train metrics)";
    case StepPhase::GradientReduce: return "the gradient reduce";
    case StepPhase::OptimizerStep: return "the optimizer step";
    case StepPhase::ParameterGather: return "the parameter gather after the step";
    }
    return "?";
}

namespace {
// PyTorch FSDP's CPU offload by the names its users set it with, in both remedies that name it.
constexpr const char* kFsdpCpuOffload =
    "CPU offload (fsdp_offload_params: true; FSDP1's CPUOffload(offload_params=True), FSDP2's CPUOffloadPolicy())";
}  // namespace

std::vector<OomRemedy> oom_remedy_list(OomMoment moment, StepPhase phase) {
    using enum RemedyScope;
    switch (moment) {
    case OomMoment::ModelLoad:
        return {{Any, "each rank on its own GPU (LOCAL_RANK set, torch.cuda.set_device): several processes on GPU 0 look like this"},
                {Any, "ZeRO-3 with zero.Init (the Trainer's is_deepspeed_zero3_enabled): each rank builds only its partition",
                 RemedyEngine::DeepSpeed},
                {Any, "load in 16-bit (torch_dtype=torch.bfloat16) instead of fp32"}};
    case OomMoment::CheckpointSave:
        return {{Any,
                 "stage3_gather_16bit_weights_on_model_save: false, and zero_to_fp32.py after training (engine.py "
                 "_zero3_consolidated_16bit_state_dict gathers the whole model on rank 0)",
                 RemedyEngine::DeepSpeed}};
    case OomMoment::Evaluation:
        return {{Any, "a smaller per_device_eval_batch_size (or eval_accumulation_steps: the Trainer moves predictions to the host)"},
                {Any, "shorter generations (max_new_tokens): the KV cache grows with every token generated"},
                {Stage3Setting,
                 "at ZeRO-3 generation gathers every layer's weights each token: a smaller batch or an inference engine (vLLM) for it",
                 RemedyEngine::DeepSpeed}};
    case OomMoment::Unknown: return {{Any, "pass the whole traceback: its frames say which moment of the step failed"}};
    case OomMoment::InStep: break;
    }
    switch (phase) {
    case StepPhase::StartUp:
        return {
            {SplitStates, "more data-parallel GPUs or a higher ZeRO stage: the fp32 master weights and Adam moments are split over them"},
            {OptimizerOffload, "offload_optimizer device cpu (ZeRO-Offload): the optimizer states leave the GPU", RemedyEngine::DeepSpeed},
            {OptimizerOffload,
             std::string(kFsdpCpuOffload) + ": FSDP keeps the parameters, their gradients and the optimizer states on the host",
             RemedyEngine::Fsdp},
            {Stage3Setting, "a smaller sub_group_size at stage 3 (stage3.py converts the fp32 partition one sub-group at a time)",
             RemedyEngine::DeepSpeed}};
    case StepPhase::Forward:
    case StepPhase::Backward:
        return {
            {Any, "activation checkpointing (gradient_checkpointing in the Trainer)"},
            {Any, "a smaller micro batch or sequence"},
            {Any, "FlashAttention / SDPA instead of eager attention (no s x s scores)"},
            {Stage3Setting, "at ZeRO-3: smaller stage3_max_live_parameters and stage3_prefetch_bucket_size (fewer gathered layers at once)",
             RemedyEngine::DeepSpeed}};
    case StepPhase::Loss:
        // Megatron-Core's fused vocab-parallel loss up-casts too (tensor_parallel/cross_entropy.py
        // calculate_logits_max: .float()); Megatron's --fp16-lm-cross-entropy skips the up-cast.
        return {{Any,
                 "a chunked cross-entropy that never builds the whole logits (Liger-Kernel's fused linear cross-entropy, the "
                 "Trainer's use_liger_kernel): no fp32 copy of them",
                 RemedyEngine::Any, ModelCode::HuggingFace},
                {Any, "the loss without the fp32 up-cast (Megatron's --fp16-lm-cross-entropy)", RemedyEngine::Any, ModelCode::Megatron},
                {Any, "a smaller micro batch or sequence"}};
    case StepPhase::Metrics:
        // llm-foundry's models take use_train_metrics from the model config (modeling_mpt.py at
        // b2a43a1 line 698; its May 2023 MosaicGPT set them unconditionally); each metric makes the
        // whole micro batch's log-probabilities.
        return {{Any,
                 "no train metrics over the logits (llm-foundry's MPT and Hugging Face models: model.use_train_metrics: false), "
                 "or fewer of them"},
                {Any, "a smaller micro batch or sequence"}};
    case StepPhase::GradientReduce:
        // contiguous_gradients keeps the rank's gradient partition in one buffer (stage_1_and_2.py
        // copy_grads_in_partition allocates grads_in_partition the first time): less fragmentation,
        // but that buffer is itself an allocation of the whole partition (DeepSpeed#237's advice).
        return {{Any, "a smaller reduce_bucket_size (and allgather_bucket_size at ZeRO-1/2)", RemedyEngine::DeepSpeed},
                {Any,
                 "contiguous_gradients: false where the failing allocation is its partition buffer (copy_grads_in_partition); "
                 "true otherwise, against fragmentation",
                 RemedyEngine::DeepSpeed}};
    case StepPhase::OptimizerStep:
        return {{Any,
                 "DeepSpeed's optimizer (an \"optimizer\" block in ds_config: FusedAdam, or CPU Adam with offload) instead of "
                 "torch.optim's, whose foreach temporaries peak here",
                 RemedyEngine::DeepSpeed, ModelCode::Any, false},
                {OptimizerOffload, "offload_optimizer device cpu: Adam runs on the host", RemedyEngine::DeepSpeed},
                {OptimizerOffload, std::string(kFsdpCpuOffload) + ": the optimizer steps on the host", RemedyEngine::Fsdp},
                {Stage3Setting, "a smaller sub_group_size at stage 3", RemedyEngine::DeepSpeed}};
    case StepPhase::ParameterGather:
        return {{ToStage3, "ZeRO-3 instead of ZeRO-1/2 (no whole 16-bit model gathered after the step)", RemedyEngine::DeepSpeed},
                {Any, "a smaller allgather_bucket_size", RemedyEngine::DeepSpeed}};
    }
    return {};
}

std::vector<std::string> oom_remedies(OomMoment moment, StepPhase phase) {
    std::vector<std::string> texts;
    for (OomRemedy& r : oom_remedy_list(moment, phase)) texts.push_back(std::move(r.text));
    return texts;
}

std::optional<int> strip_rank_prefix(std::string& line) {
    // Slurm's srun --label: "N: " before each task's line, right-aligned to the widest task id. It is
    // the task, not the rank (one task per node under torchrun), so it is dropped, not read.
    std::size_t lead = 0;
    while (lead < line.size() && lead < 3 && line[lead] == ' ') ++lead;
    std::size_t digits = lead;
    while (digits < line.size() && digits < lead + 5 && line[digits] >= '0' && line[digits] <= '9') ++digits;
    if (digits > lead && line.compare(digits, 2, ": ") == 0) line.erase(0, digits + 2);
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line.compare(i, 5, "[rank") != 0) return std::nullopt;
    std::size_t d = i + 5;
    int rank = 0;
    while (d < line.size() && line[d] >= '0' && line[d] <= '9' && d < i + 12) rank = rank * 10 + (line[d++] - '0');
    if (d == i + 5 || line.compare(d, 2, "]:") != 0) return std::nullopt;
    d += 2;
    if (d < line.size() && line[d] == ' ') ++d;
    line.erase(0, d);
    return rank;
}

namespace {

// Python's traceback line '  File "PATH", line N, in NAME': NAME, or "" when not one.
std::string frame_name(const std::string& line) {
    const std::size_t at = line.find("File \"");
    if (at == std::string::npos) return {};
    const std::size_t close = line.find('"', at + 6);
    if (close == std::string::npos || line.compare(close, 8, "\", line ") != 0) return {};
    const std::size_t in = line.find(", in ", close + 8);
    if (in == std::string::npos) return {};
    std::size_t b = in + 5, e = b;
    const auto name_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '<' || c == '>';
    };
    while (e < line.size() && name_char(line[e])) ++e;
    return line.substr(b, e - b);
}

// Rich's traceback (rich.traceback, "╭─── Traceback (most recent call last) ───╮") draws each frame in
// a box: "│ /path/cuda_accelerator.py:217 in pin_memory │", the name wrapped to the next line when
// long ("... :217 in │" then "│ pin_memory │"), the failing source line marked "❱ 217 │ ... │".
// The text between the box's first and last "│", or "" outside one.
std::string rich_box_content(const std::string& line) {
    static const std::string bar = "\u2502";  // │
    const std::size_t open = line.find(bar);
    const std::size_t close = line.rfind(bar);
    if (open == std::string::npos || close == open) return {};
    const std::string inner = line.substr(open + bar.size(), close - open - bar.size());
    const std::size_t b = inner.find_first_not_of(' ');
    return b == std::string::npos ? std::string() : inner.substr(b, inner.find_last_not_of(' ') - b + 1);
}

// A rich frame's function name, or "" (`wrapped`: the previous box line ended "in" with its name
// on this one).
std::string rich_frame_name(const std::string& line, bool& wrapped) {
    const std::string content = rich_box_content(line);
    const bool was_wrapped = wrapped;
    wrapped = false;
    if (content.empty()) return {};
    if (was_wrapped && content.find(' ') == std::string::npos) return content;
    static const std::regex frame(R"(\.py:[0-9]+ in(?: ([A-Za-z_<][A-Za-z0-9_.<>]*))?$)");
    std::smatch m;
    if (!std::regex_search(content, m, frame)) return {};
    if (!m[1].matched) wrapped = true;
    return m[1].matched ? m[1].str() : std::string();
}

std::string trimmed(const std::string& line) {
    const std::size_t b = line.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    return line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
}

// The names called on a source line, in order: "mpu.vocab_parallel_cross_entropy(output.float()"
// -> vocab_parallel_cross_entropy, float.
std::vector<std::string> called_names(const std::string& line) {
    std::vector<std::string> out;
    for (std::size_t open = line.find('('); open != std::string::npos; open = line.find('(', open + 1)) {
        std::size_t b = open;
        while (b > 0 && (std::isalnum(static_cast<unsigned char>(line[b - 1])) || line[b - 1] == '_')) --b;
        if (b < open) out.push_back(line.substr(b, open - b));
    }
    return out;
}

}  // namespace

std::optional<DsMemoryUsage> parse_memory_usage_line(std::string_view line) {
    if (line.find("Max_MA") == std::string_view::npos) return std::nullopt;
    static const std::regex re(
        R"((?:^|[^A-Za-z_])MA ([0-9]{1,7}(?:\.[0-9]{1,6})?) GB\s+Max_MA ([0-9]{1,7}(?:\.[0-9]{1,6})?) GB\s+CA ([0-9]{1,7}(?:\.[0-9]{1,6})?) GB\s+Max_CA ([0-9]{1,7}(?:\.[0-9]{1,6})?) GB)");
    std::match_results<std::string_view::const_iterator> m;
    if (!std::regex_search(line.begin(), line.end(), m, re)) return std::nullopt;
    const auto gb = [&](int i) { return std::stod(m[i].str()) * kBytesPerGiB; };
    DsMemoryUsage u;
    u.allocated_bytes = gb(1);
    u.max_allocated_bytes = gb(2);
    u.reserved_bytes = gb(3);
    u.max_reserved_bytes = gb(4);
    return u;
}

namespace {
// A see_memory_usage message line without the logger's "[time] [INFO] [utils.py:800:see_memory_usage] ".
std::string memory_usage_message(const std::string& line) {
    const std::size_t at = line.find("see_memory_usage] ");
    return trimmed(at == std::string::npos ? line : line.substr(at + 18));
}
}  // namespace

namespace {

// A message a console wrapped at its width (Chinese-Vicuna#81: "... (GPU 0; 14.75 \nGiB total
// capacity; ..."): the lines after `line` (which starts before `start`) are joined to it until the
// message's last figure, at most four. Returns where reading goes on.
std::size_t join_wrapped_message(std::string_view text, std::string& line, std::size_t start) {
    if (!is_oom_message(line) || oom_message_complete(line)) return start;
    std::string joined = line;
    std::size_t next_start = start;
    for (int k = 0; k < 4 && next_start <= text.size() && !oom_message_complete(joined); ++k) {
        const auto [next_end, after] = next_line(text, next_start);
        std::string next = bounded_line(text, next_start, next_end);
        strip_rank_prefix(next);
        if (is_oom_message(next) || next.find("Traceback") != std::string::npos) break;
        joined += " " + next;
        next_start = after;
    }
    if (!oom_message_complete(joined)) return start;
    joined.erase(std::unique(joined.begin(), joined.end(), [](char a, char b) { return a == ' ' && b == ' '; }), joined.end());
    line = joined;
    return next_start;
}

// DeepSpeed's see_memory_usage line after MA/CA: "CPU Virtual Memory:  used = 28.43 GB, percent = 22.6%"
// (runtime/utils.py: psutil's total less available, divided by 1024^3, and psutil's percent).
void read_host_memory_usage(const std::string& line, DsMemoryUsage& u) {
    static const std::regex re(
        R"(CPU Virtual Memory:\s+used = ([0-9]{1,7}(?:\.[0-9]{1,6})?) GB, percent = ([0-9]{1,3}(?:\.[0-9]{1,3})?)%)");
    std::smatch m;
    if (!std::regex_search(line, m, re)) return;
    u.host_used_bytes = std::stod(m[1].str()) * kBytesPerGiB;
    u.host_used_percent = std::stod(m[2].str());
}

// What the lines before the first failure tell: DeepSpeed's see_memory_usage (with its host line),
// and the launcher's first "Killing subprocess" (`killing_line`, with the line before it in
// `log.line_before_kill`); `previous_line` becomes `line` unless it is blank.
void read_before_first_event(const std::string& line, std::string& previous_line, std::string& killing_line, OomLog& log) {
    if (auto u = parse_memory_usage_line(line)) {
        u->message = memory_usage_message(previous_line);
        log.memory_usage = std::move(*u);
    } else if (log.memory_usage && previous_line.find("Max_CA") != std::string::npos) {
        read_host_memory_usage(line, *log.memory_usage);
    }
    if (killing_line.empty() && line.find("Killing subprocess") != std::string::npos) {
        killing_line = trimmed(line);
        log.line_before_kill = trimmed(previous_line);
    }
    if (line.find_first_not_of(" \t\r") != std::string::npos) previous_line = line;
}

// A line that says how a rank ended other than by SIGKILL, so the launcher's "Killing subprocess"
// alone is no sign of one: a traceback or an exception, C++'s terminate, a segfault, the launcher's
// own signal (launcher/launch.py sigkill_handler: "Main process received SIGTERM"), or a return
// code other than -9 (DeepSpeed's "exits with return code = N", torchrun's "exitcode: N").
bool names_another_end(const std::string& line) {
    for (const char* word :
         {"Traceback (most recent call last)", "Error", "terminate called", "Segmentation fault", "core dumped", "received SIG"})
        if (line.find(word) != std::string::npos) return true;
    for (const char* code : {"exits with return code = ", "exitcode: "})
        if (const std::size_t at = line.find(code); at != std::string::npos && line.compare(at + std::strlen(code), 2, "-9") != 0)
            return true;
    return false;
}

// A message cut before its figures (OomEvent::figures_cut), from the line of `rank`: the only one,
// it stands on the traceback above it; with no frames there is nothing to read.
void read_cut_message(OomLog& log, std::optional<int> rank) {
    if (!log.events.empty() || log.frames.empty()) return;
    OomEvent cut;
    cut.figures_cut = true;
    cut.rank = rank;
    log.events.push_back(cut);
}

// Host kills (OomSource::HostKill) stand only where nothing failed on the GPU: after a GPU failure
// the launcher's kills are its clean-up. `killing_line` ("" for none): the launcher's "Killing
// subprocess" in a log with no traceback, read as a kill when no line said more.
void read_host_kills(OomLog& log, const std::string& killing_line) {
    const auto host = [](const OomEvent& e) { return e.source == OomSource::HostKill; };
    if (!std::all_of(log.events.begin(), log.events.end(), host)) {
        log.events.erase(std::remove_if(log.events.begin(), log.events.end(), host), log.events.end());
        log.line_before_kill.clear();
        return;
    }
    if (log.events.empty() && !killing_line.empty()) {
        OomEvent e;
        e.source = OomSource::HostKill;
        const std::size_t at = killing_line.find("Killing subprocess");
        e.message = killing_line.substr(at, std::min<std::size_t>(200, killing_line.size() - at));
        log.events.push_back(e);
    }
    if (log.events.empty()) log.line_before_kill.clear();
}

// NCCL's remote-allocator warning is not a failure (read_oom_log in oom_log.h): its NCCL events,
// traced through bootstrap.cc or, untraced, within three lines of the warning, are dropped.
void drop_remote_allocator_alarms(std::vector<OomEvent>& events, const std::vector<bool>& after_rem_allocator) {
    std::vector<OomEvent> kept;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const OomEvent& e = events[i];
        const bool alarm = e.source == OomSource::Nccl && (e.site == "bootstrap.cc" || (after_rem_allocator[i] && e.site.empty()));
        if (!alarm) kept.push_back(e);
    }
    events = std::move(kept);
}

}  // namespace

namespace {
// No out-of-memory message in `text`: why, in the error (`dropped`: NCCL events read and dropped as
// its remote allocator's alarm; `beyond_any_card`: only a "more than 1EB" request was seen).
[[noreturn]] void throw_no_oom_message(std::string_view text, const std::string& source_name, std::size_t dropped, bool beyond_any_card) {
    std::string why = "give the log of the run that failed, with PyTorch's error";
    if (dropped > 0)
        why =
            "NCCL's \"Cuda failure 'out of memory'\" after \"[Rem Allocator] Allocation failed\" is a warning NCCL before 2.12 "
            "prints when a stray connection reaches it, and the run goes on (NVIDIA/nccl#555); give the log of a run that failed";
    else if (beyond_any_card)
        why =
            "the only one there asks for \"more than 1EB\", no real request (an overflowed size, as after a collective "
            "timed out: NVIDIA/nccl#1284, where NCCL's maintainers say to ignore it): the failure is the error before it";
    else if (const std::size_t rc = text.find("exits with return code = "); rc != std::string_view::npos)
        why = "the launcher says a rank \"" + std::string(text.substr(rc, std::min<std::size_t>(40, text.find('\n', rc) - rc))) +
              "\": a signal or an error of the script's own, not SIGKILL (-9, the out-of-memory killer's); its traceback is the "
              "failure";
    else if (const std::size_t at = text.find("out of memory"); at != std::string_view::npos)
        why = "line " + std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) +
              " says \"out of memory\" but not in a form whose figures can be read (a size such as \"Tried to allocate "
              "2.00 GiB\"): give the log as PyTorch printed it, unedited";
    throw InputError(
        source_name +
        ": no out-of-memory message it can read (\"CUDA out of memory. Tried to allocate ...\", or ROCm's \"HIP out of memory. ...\", "
        "\"CUDA error: out of memory\", NCCL's \"Cuda failure 'out of memory'\", CUBLAS_STATUS_ALLOC_FAILED, a rank killed: "
        "\"exits with return code = -9\") in the log: " +
        why);
}

}  // namespace

OomLog read_oom_log(std::string_view text, const std::string& source_name) {
    OomLog log;
    std::string previous_line;  // for see_memory_usage's message
    bool in_first_traceback = false, first_traceback_done = false, after_frame = false, rich_name_wrapped = false;
    std::optional<int> traceback_rank;
    // NCCL's "[Rem Allocator] Allocation failed" (NCCL < 2.12) and the events that follow it within
    // three lines or trace through bootstrap.cc: its false alarm (read_oom_log in oom_log.h).
    std::size_t line_number = 0, rem_allocator_line = 0;
    bool rem_allocator_seen = false;
    bool beyond_any_card = false;  // an allocator message asking "more than 1EB"
    // A line that names another end than SIGKILL (a traceback, an exception, another signal or
    // return code: names_another_end), and the launcher's first "Killing subprocess" ("" for none).
    bool other_end_named = false;
    std::string killing_line;
    std::optional<std::optional<int>> cut_message;  // an allocator message cut before its figures, with its line's rank
    std::vector<bool> after_rem_allocator;          // per event
    std::size_t start = 0;
    while (start <= text.size()) {
        const auto [end, next_start_of_line] = next_line(text, start);
        std::string line = bounded_line(text, start, end);
        start = next_start_of_line;
        ++line_number;
        const std::optional<int> rank = strip_rank_prefix(line);
        start = join_wrapped_message(text, line, start);
        const std::string line_before = previous_line;  // the last non-blank line before this one
        if (log.events.empty()) read_before_first_event(line, previous_line, killing_line, log);
        if (names_another_end(line)) other_end_named = true;
        if (line.find("[Rem Allocator]") != std::string::npos) {
            rem_allocator_seen = true;
            rem_allocator_line = line_number;
        }
        // NCCL's trace after its WARN lines names the file for each of them still without one.
        if (!log.events.empty() && log.events.back().source == OomSource::Nccl && log.events.back().site.empty())
            if (const std::string site = nccl_trace_site(line, log.events.back().nccl_process); !site.empty())
                for (auto it = log.events.rbegin(); it != log.events.rend() && it->source == OomSource::Nccl && it->site.empty(); ++it)
                    it->site = site;
        if (chained_exception_mark(line) && in_first_traceback && !log.frames.empty()) {
            // The first traceback ended with an exception not read as an event: its frames stand.
            first_traceback_done = true;
            in_first_traceback = false;
        }
        std::optional<OomEvent> e = event_of_line(line, rank);
        // "Tried to allocate more than 1EB memory" (format_size past an exabyte): no real request.
        if (!e && line.find("Tried to allocate more than") != std::string::npos) beyond_any_card = true;
        else if (!e && !cut_message && is_oom_message(line) && line.find("Tried to allocate ") == std::string::npos) cut_message = rank;
        if (!e) e = outside_event_of_line(line, rank);
        if (e && e->source == OomSource::HostKill && log.line_before_kill.empty() && killing_line.empty())
            log.line_before_kill = trimmed(line_before);
        if (e) {
            after_rem_allocator.push_back(rem_allocator_seen && e->source == OomSource::Nccl && line_number - rem_allocator_line <= 3);
            log.events.push_back(*e);
            if (in_first_traceback) first_traceback_done = true;
            in_first_traceback = false;
            continue;
        }
        if (first_traceback_done) continue;
        // The first traceback's frames, from its rank only when several ranks interleave.
        if (line.find("Traceback (most recent call last)") != std::string::npos) {
            if (!in_first_traceback) {
                log.frames.clear();
                log.failing_line.clear();
                // A prefix before the rank's ("0: Error: [rank0]: Traceback ...", lightning-thunder#1296):
                // the rank its frames will carry.
                traceback_rank = rank;
                if (std::string rest = line.substr(std::min(line.find("[rank"), line.size())); !rank && !rest.empty())
                    traceback_rank = strip_rank_prefix(rest);
            }
            in_first_traceback = true;
            continue;
        }
        // Python's frame line, or rich's boxed one (its name possibly on the next line).
        std::string name = frame_name(line);
        if (name.empty()) name = rich_frame_name(line, rich_name_wrapped);
        // Frames before the first error with no "Traceback" line above them (a log's excerpt that
        // starts inside the traceback, Wan2GP#1083) are the failing traceback's.
        if (!in_first_traceback && log.events.empty() && (!name.empty() || rich_name_wrapped)) {
            log.frames.clear();
            log.failing_line.clear();
            traceback_rank = rank;
            in_first_traceback = true;
        }
        if (rank != traceback_rank) continue;
        if (!name.empty()) {
            log.frames.push_back(std::move(name));
            log.failing_line.clear();
            after_frame = true;
            continue;
        }
        // Rich marks the failing source line "❱ 217 │ ... code": the code after the last "│" of it.
        if (const std::string content = rich_box_content(line); content.rfind("\u2771", 0) == 0) {
            const std::size_t bar = content.rfind("\u2502");
            log.failing_line = trimmed(bar == std::string::npos ? content : content.substr(bar + 3));
            continue;
        }
        // The source line Python prints under a frame is indented; the exception's line is not.
        if (after_frame && !line.empty() && (line[0] == ' ' || line[0] == '\t')) log.failing_line = trimmed(line);
        after_frame = false;
    }
    const std::size_t before = log.events.size();
    if (rem_allocator_seen) drop_remote_allocator_alarms(log.events, after_rem_allocator);
    if (cut_message) read_cut_message(log, *cut_message);
    read_host_kills(log, !other_end_named && !cut_message ? killing_line : std::string());
    if (log.events.empty()) throw_no_oom_message(text, source_name, before, beyond_any_card);
    // The functions the failing line calls count as the innermost frames (Megatron's
    // "loss = mpu.vocab_parallel_cross_entropy(output.float(), labels)" is the loss).
    std::vector<std::string> frames = log.frames;
    for (const std::string& call : called_names(log.failing_line)) frames.push_back(call);
    log.moment = moment_of_frames(frames, &log.phase, &log.deciding_frame);
    return log;
}

}  // namespace zp
