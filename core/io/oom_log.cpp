#include "core/io/oom_log.h"

#include "core/base/errors.h"

#include <array>
#include <regex>

namespace zp {

std::optional<double> OomEvent::reserved_total_bytes() const {
    if (reserved_bytes) return reserved_bytes;
    if (allocated_bytes && reserved_unallocated_bytes) return *allocated_bytes + *reserved_unallocated_bytes;
    return std::nullopt;
}

std::optional<double> parse_memory_size(std::string_view text) {
    static const std::regex size(R"(^\s*([0-9]+(?:\.[0-9]+)?)\s*(bytes|B|KiB|MiB|GiB|TiB)\s*$)");
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

// A size in the message: a number and PyTorch's unit (format_size in CUDACachingAllocator.cpp).
constexpr const char* kSize = R"(([0-9]+(?:\.[0-9]+)? (?:bytes|KiB|MiB|GiB|TiB)))";

std::optional<double> find_size(const std::string& line, const std::string& pattern) {
    const std::regex re(pattern);
    std::smatch m;
    if (!std::regex_search(line, m, re)) return std::nullopt;
    return parse_memory_size(m[1].str());
}

// The message from "CUDA out of memory." to the end of its line, with the line's rank.
std::optional<OomEvent> event_of_line(const std::string& line, std::optional<int> rank) {
    const auto at = line.find("CUDA out of memory");
    if (at == std::string::npos) return std::nullopt;
    const std::string msg = line.substr(at);
    OomEvent e;
    e.rank = rank;
    const auto tried = find_size(msg, std::string("Tried to allocate ") + kSize);
    if (!tried) return std::nullopt;
    e.tried_bytes = *tried;
    static const std::regex gpu(R"(GPU ([0-9]+))");
    std::smatch m;
    if (std::regex_search(msg, m, gpu)) e.gpu_index = std::stoi(m[1].str());
    e.new_form = msg.find("has a total capacity of") != std::string::npos;
    if (e.new_form) {
        e.total_bytes = find_size(msg, std::string("total capacity of ") + kSize);
        e.free_bytes = find_size(msg, std::string("of which ") + kSize + " is free");
        e.process_bytes = find_size(msg, std::string("this process has ") + kSize + " memory in use");
        e.allocated_bytes = find_size(msg, std::string("allocated memory ") + kSize + " is allocated by PyTorch");
        e.reserved_unallocated_bytes = find_size(msg, std::string("and ") + kSize + " is reserved by PyTorch but unallocated");
    } else {
        e.total_bytes = find_size(msg, std::string(kSize) + " total capacity");
        e.allocated_bytes = find_size(msg, std::string(kSize) + " already allocated");
        e.free_bytes = find_size(msg, std::string(kSize) + " free");
        e.reserved_bytes = find_size(msg, std::string(kSize) + " (?:reserved in total by PyTorch|cached)");
    }
    return e;
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
constexpr std::array<FrameRule, 9> kOuterRules{{
    {"_configure_zero_optimizer", false, OomMoment::InStep, StepPhase::StartUp},
    {"_configure_optimizer", false, OomMoment::InStep, StepPhase::StartUp},
    {"initialize_optimizer_states", false, OomMoment::InStep, StepPhase::StartUp},
    {"_create_fp32_partitions", false, OomMoment::InStep, StepPhase::StartUp},
    {"_setup_for_real_optimizer", false, OomMoment::InStep, StepPhase::StartUp},
    {"save_checkpoint", true, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"_zero3_consolidated_16bit_state_dict", false, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"get_state_dict", false, OomMoment::CheckpointSave, StepPhase::StartUp},
    {"save_model", false, OomMoment::CheckpointSave, StepPhase::StartUp},
}};

// Then from the innermost frame out, the first that names a moment.
constexpr std::array<FrameRule, 20> kInnerRules{{
    // The optimizer's step: torch.optim's state and foreach temporaries, DeepSpeed's step.
    {"_init_group", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_multi_tensor_adam", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_single_tensor_adam", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_optimizer_step", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"_take_model_step", false, OomMoment::InStep, StepPhase::OptimizerStep},
    {"unscale_and_clip_grads", false, OomMoment::InStep, StepPhase::OptimizerStep},
    // The gradient reduce (zero/stage_1_and_2.py, stage3.py).
    {"reduce_ipg_grads", true, OomMoment::InStep, StepPhase::GradientReduce},
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

std::string oom_moment_words(OomMoment moment, StepPhase phase) {
    switch (moment) {
    case OomMoment::ModelLoad: return "moving the model onto the GPU (before training)";
    case OomMoment::CheckpointSave: return "saving a checkpoint";
    case OomMoment::Unknown: return "a moment no frame of the traceback names";
    case OomMoment::InStep: break;
    }
    switch (phase) {
    case StepPhase::StartUp: return "deepspeed.initialize (the optimizer's partitions and states)";
    case StepPhase::Forward: return "the forward pass";
    case StepPhase::Loss: return "the loss (logits and cross-entropy)";
    case StepPhase::Backward: return "the backward pass";
    case StepPhase::GradientReduce: return "the gradient reduce";
    case StepPhase::OptimizerStep: return "the optimizer step";
    case StepPhase::ParameterGather: return "the parameter gather after the step";
    }
    return "?";
}

std::vector<std::string> oom_remedies(OomMoment moment, StepPhase phase) {
    switch (moment) {
    case OomMoment::ModelLoad:
        return {"each rank on its own GPU (LOCAL_RANK set, torch.cuda.set_device): several processes on GPU 0 look like this",
                "ZeRO-3 with zero.Init (the Trainer's is_deepspeed_zero3_enabled): each rank builds only its partition",
                "load in 16-bit (torch_dtype=torch.bfloat16) instead of fp32"};
    case OomMoment::CheckpointSave:
        return {
            "stage3_gather_16bit_weights_on_model_save: false, and zero_to_fp32.py after training (engine.py "
            "_zero3_consolidated_16bit_state_dict gathers the whole model on rank 0)"};
    case OomMoment::Unknown: return {"pass the whole traceback: its frames say which moment of the step failed"};
    case OomMoment::InStep: break;
    }
    switch (phase) {
    case StepPhase::StartUp:
        return {"more data-parallel GPUs or a higher ZeRO stage: the fp32 master weights and Adam moments are split over them",
                "offload_optimizer device cpu (ZeRO-Offload): the optimizer states leave the GPU",
                "a smaller sub_group_size at stage 3 (stage3.py converts the fp32 partition one sub-group at a time)"};
    case StepPhase::Forward:
    case StepPhase::Backward:
        return {"activation checkpointing (gradient_checkpointing in the Trainer)", "a smaller micro batch or sequence",
                "FlashAttention / SDPA instead of eager attention (no s x s scores)",
                "at ZeRO-3: smaller stage3_max_live_parameters and stage3_prefetch_bucket_size (fewer gathered layers at once)"};
    case StepPhase::Loss:
        return {"a chunked or fused cross-entropy (Liger, Megatron's fused vocab-parallel loss): no fp32 copy of the logits",
                "the loss without the fp32 up-cast (Megatron fp16_lm_cross_entropy)", "a smaller micro batch or sequence"};
    case StepPhase::GradientReduce:
        return {"a smaller reduce_bucket_size (and allgather_bucket_size at ZeRO-1/2)", "contiguous_gradients: true"};
    case StepPhase::OptimizerStep:
        return {
            "DeepSpeed's optimizer (an \"optimizer\" block in ds_config: FusedAdam, or CPU Adam with offload) instead of "
            "torch.optim's, whose foreach temporaries and lazily made moments peak here",
            "offload_optimizer device cpu: Adam runs on the host", "a smaller sub_group_size at stage 3"};
    case StepPhase::ParameterGather:
        return {"ZeRO-3 instead of ZeRO-1/2 (no whole 16-bit model gathered after the step)", "a smaller allgather_bucket_size"};
    }
    return {};
}

OomLog read_oom_log(std::string_view text, const std::string& source_name) {
    static const std::regex rank_prefix(R"(^\s*\[rank([0-9]+)\]:\s?)");
    static const std::regex frame_line(R"re(File "[^"]*", line [0-9]+, in ([A-Za-z_<][A-Za-z0-9_.<>]*))re");
    OomLog log;
    bool in_first_traceback = false, first_traceback_done = false;
    std::optional<int> traceback_rank;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line(text.substr(start, end - start));
        start = end + 1;
        std::optional<int> rank;
        std::smatch m;
        if (std::regex_search(line, m, rank_prefix)) {
            rank = std::stoi(m[1].str());
            line = m.suffix().str();
        }
        if (auto e = event_of_line(line, rank)) {
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
                traceback_rank = rank;
            }
            in_first_traceback = true;
            continue;
        }
        if (rank != traceback_rank) continue;
        if (std::regex_search(line, m, frame_line)) log.frames.push_back(m[1].str());
    }
    if (log.events.empty())
        throw InputError(source_name + ": no CUDA out-of-memory message (\"CUDA out of memory. Tried to allocate ...\") in the log");
    log.moment = moment_of_frames(log.frames, &log.phase, &log.deciding_frame);
    return log;
}

}  // namespace zp
