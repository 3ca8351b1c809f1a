#include "core/diagnose/oom_diagnosis.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/memory/allocator.h"
#include "core/memory/host_memory.h"
#include "core/memory/memory_model.h"
#include "core/memory/model_states.h"
#include "core/memory/step_timeline.h"
#include "core/model/deepspeed_defaults.h"
#include "core/model/engine.h"
#include "core/model/enum_names.h"
#include "core/model/layer_modules.h"
#include "core/model/logits.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/model/precision.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace zp {

namespace {

// Two decimals as PyTorch prints sizes (format_size in CUDACachingAllocator.cpp): MiB below 1 GiB.
std::string pytorch_size_text(double bytes) {
    if (bytes < kBytesPerGiB) return format_fixed(bytes / (kBytesPerGiB / 1024.0), 2) + " MiB";
    return format_fixed(bytes / kBytesPerGiB, 2) + " GiB";
}

// "13.90B", "7.62M": a parameter count as the formulas print it.
std::string billions(double n) {
    if (n >= 1e9) return format_fixed(n / 1e9, 2) + "B";
    if (n >= 1e6) return format_fixed(n / 1e6, 2) + "M";
    return format_count(n);
}

// Reserved but unallocated: printed from 2.1, reserved minus allocated before.
std::optional<double> unallocated_reserve(const OomEvent& e) {
    if (e.reserved_unallocated_bytes) return e.reserved_unallocated_bytes;
    if (e.reserved_bytes && e.allocated_bytes) return std::max(0.0, *e.reserved_bytes - *e.allocated_bytes);
    return std::nullopt;
}

// Which message a line reads, where the log has several (ranks on different cards, a retry at a
// smaller batch): "message 2 of 3 (GPU 1): "; "" for a log with one.
std::string message_prefix(const OomLog& log, const OomEvent& e) {
    if (log.events.size() < 2) return {};
    const auto k = static_cast<std::size_t>(&e - log.events.data()) + 1;
    return "message " + std::to_string(k) + " of " + std::to_string(log.events.size()) +
           (e.gpu_index ? " (GPU " + std::to_string(*e.gpu_index) + ")" : std::string()) + ": ";
}

// Several processes on one GPU: the 2.1+ message lists each other process on the device; or
// several ranks that each ran out on the same GPU index.
bool device_placement(const OomLog& log, std::vector<std::string>* evidence) {
    for (const OomEvent& e : log.events) {
        // PyTorch names this process apart when the driver's list holds its pid ("Including non-PyTorch
        // memory, this process has U", c10/cuda/CUDACachingAllocator.cpp reportProcessMemoryInfo): every
        // "Process P" is another then, one enough (GLM-4#408: 28.09 GiB beside this one's 50.95; two
        // ranks of one job hold the same). In a container, whose pids the driver does not see, this
        // process is one of the "Process P" lines (vllm#751: its 28.19 GiB beside 27.48 reserved): the
        // one holding what PyTorch reserved plus up to 2 GiB of context is this one, and two are needed.
        // Processes that hold little beside this one are not ranks sharing the GPU (FireRedTTS2#17: 0.6
        // and 1.3 GiB beside 9.7). In a container the driver often reports 0 bytes for every process
        // (TRL#3172's seven): the figures say nothing then, and the count alone decides, as it did.
        const bool self_named = e.process_bytes.has_value();
        if (e.listed_processes < (self_named ? 1 : 2)) continue;
        const bool figures = std::any_of(e.listed_process_bytes.begin(), e.listed_process_bytes.end(), [](double b) { return b > 0; });
        std::vector<double> others = figures ? e.listed_process_bytes : std::vector<double>{};
        const auto reserved = e.reserved_total_bytes();
        const auto is_self = [&](double b) { return reserved && b >= *reserved && b <= *reserved + 2.0 * kBytesPerGiB; };
        if (!self_named)
            if (const auto self = std::find_if(others.begin(), others.end(), is_self); self != others.end()) others.erase(self);
        // This process's memory: its own figure, unless the driver reported it as 0 bytes.
        const std::optional<double> own = e.process_bytes && *e.process_bytes > 0 ? e.process_bytes : reserved;
        const double held = std::accumulate(others.begin(), others.end(), 0.0);
        const std::size_t count = figures ? others.size() : static_cast<std::size_t>(e.listed_processes);
        if (count == 0 || (!others.empty() && own && held < 0.5 * *own)) continue;
        std::string why = "GPU " + (e.gpu_index ? std::to_string(*e.gpu_index) : std::string("?")) + " lists " + std::to_string(count) +
                          (count == 1 ? " other process" : " other processes") +
                          (others.empty() ? "" : " holding " + pytorch_size_text(held));
        if (e.allocated_bytes && e.total_bytes)
            why += " while this one has " + pytorch_size_text(*e.allocated_bytes) + " of its " + pytorch_size_text(*e.total_bytes) +
                   " allocated";
        evidence->push_back(why + ": several processes share the GPU");
        return true;
    }
    std::set<int> ranks;
    std::optional<int> gpu;
    for (const OomEvent& e : log.events) {
        if (!e.rank || !e.gpu_index) continue;
        if (gpu && *gpu != *e.gpu_index) return false;
        gpu = e.gpu_index;
        ranks.insert(*e.rank);
    }
    if (ranks.size() < 2) return false;
    evidence->push_back(std::to_string(ranks.size()) + " ranks ran out of memory on the same GPU " + std::to_string(*gpu));
    return true;
}

// The first frame whose name holds one of `fragments`, or "".
std::string frame_with(const OomLog& log, std::initializer_list<const char*> fragments) {
    for (const std::string& f : log.frames)
        for (const char* x : fragments)
            if (f.find(x) != std::string::npos) return f;
    return {};
}
bool has_frame(const OomLog& log, std::initializer_list<const char*> fragments) { return !frame_with(log, fragments).empty(); }

// A failure outside PyTorch's caching allocator (OomSource): which memory ran out, from the frames
// and NCCL's trace, as the reports say (tests/data/oom/outside: s3prl#102, ray#30809 empty_cache on
// GPU 0; diffusers#61, MOSS#328 pinned memory under WSL2; pytorch#152302 NCCL 2.26's host memory;
// nccl#1235, Open-Sora-Plan#386, DeepSpeed#3827 NCCL at a full card; DeepSpeedExamples#323, Qwen3#873
// cuBLAS at a full card).
OomCause outside_allocator_cause(const OomLog& log, std::vector<std::string>* evidence, std::vector<std::string>* advice) {
    const OomEvent& e = log.events.front();
    // torch.cuda.empty_cache() before set_device makes a context on GPU 0 (torch/cuda/memory.py):
    // when another rank or job fills GPU 0, that context fails. CUDA also reports an earlier
    // kernel's failure at a later call (HunyuanImage3#35: one process on one GPU).
    if (has_frame(log, {"empty_cache", "_cuda_emptyCache"})) {
        evidence->push_back("torch.cuda.empty_cache() failed (\"" + e.message +
                            "\"): before torch.cuda.set_device it makes a CUDA context on GPU 0, which fails where another rank or "
                            "job fills GPU 0; CUDA also reports an earlier call's failure at a later one (\"might be asynchronously "
                            "reported at some other API call\")");
        advice->push_back(
            "torch.cuda.set_device(local_rank) before any CUDA call (the launchers set LOCAL_RANK), or CUDA_VISIBLE_DEVICES to the "
            "GPU the process should use");
        advice->push_back(
            "with one process on one GPU, run again with CUDA_LAUNCH_BLOCKING=1: the traceback then names the call that failed");
        return OomCause::DevicePlacement;
    }
    // Pinned host memory (DeepSpeed's offload partitions, a DataLoader's pin_memory) or NCCL's
    // shared-memory transport: CUDA and NCCL report the host allocation as out of memory.
    const std::string pinning = frame_with(log, {"pin_memory", "_create_param_groups_fp16_flat_cpu_memory", "cudaHostAlloc"});
    const bool pinned = !pinning.empty();
    const bool shm = e.source == OomSource::Nccl && e.site.find("shm") != std::string::npos;
    if (pinned || shm) {
        evidence->push_back(pinned
                                ? "the failing call pins host memory (a frame " + pinning +
                                      "): CUDA reports a failed page-locked host allocation as \"out of memory\""
                                : "NCCL's shared-memory transport (" + e.site + ") could not allocate host memory (\"" + e.message + "\")");
        advice->push_back(
            "\"pin_memory\": false in offload_optimizer and offload_param (DeepSpeed pins the host partitions: stage3.py "
            "_create_param_groups_fp16_flat_cpu_memory), or less host memory pinned at once");
        advice->push_back("under WSL2 the memory pinned is capped: raise memory in .wslconfig and update WSL (wsl --update)");
        advice->push_back(
            "in a container, a larger /dev/shm (docker run --shm-size or --ipc=host): NCCL's shared-memory transport lives there");
        if (e.source == OomSource::Nccl)
            advice->push_back("NCCL 2.19 or later: NCCL_CUMEM_HOST_ENABLE=0 makes NCCL allocate host memory as before (pytorch#152302)");
        return OomCause::HostMemory;
    }
    switch (e.source) {
    case OomSource::Nccl:
        evidence->push_back("NCCL could not allocate its buffers on the GPU (\"" + e.message + "\"" +
                            (e.site.empty() ? std::string() : ", through " + e.site) +
                            "): NCCL allocates with cudaMalloc, outside PyTorch's cache, at a communicator's set-up and at its first "
                            "collective of each kind, and cannot use what PyTorch holds reserved");
        break;
    case OomSource::CudaLibrary:
        evidence->push_back("cuBLAS or cuDNN could not allocate its handle and workspace (\"" + e.message +
                            "\"): they allocate outside PyTorch's cache, on the first matmul of each device and stream");
        break;
    default:
        evidence->push_back("a CUDA call outside PyTorch's cache ran out of memory (\"" + e.message +
                            "\"): a context, a kernel's or a library's memory, beside what PyTorch holds reserved");
        break;
    }
    // What PyTorch's allocator said beside it, if it did: how full the card was.
    for (const OomEvent& a : log.events)
        if (a.source == OomSource::CachingAllocator && a.total_bytes && a.free_bytes) {
            evidence->push_back("PyTorch's out-of-memory message beside it: " + pytorch_size_text(*a.free_bytes) + " free of " +
                                pytorch_size_text(*a.total_bytes) +
                                (a.gpu_index ? " on GPU " + std::to_string(*a.gpu_index) : std::string()));
            break;
        }
    advice->push_back(
        "leave room beside PyTorch's cache: the changes below bring the step's peak reserved (nvidia-smi) under the card with the "
        "libraries' memory beside it (the planner counts the CUDA context, cuBLAS's and NCCL's workspaces at about 1 GiB)");
    advice->push_back(
        "torch.cuda.set_per_process_memory_fraction(0.9) caps PyTorch's cache so that NCCL and cuBLAS find room; "
        "torch.cuda.empty_cache() before the first collective returns what the cache holds unused");
    advice->push_back("several processes on one GPU fail this way too: each rank on its own GPU (torch.cuda.set_device(local_rank))");
    // MOSS#328: the bare message, and WSL's memory setting was the cause.
    if (e.source == OomSource::CudaRuntime)
        advice->push_back("under WSL2 a failed host allocation reads the same: the memory .wslconfig gives Linux bounds what CUDA can pin");
    return OomCause::OutsideAllocator;
}

// The segment PyTorch's caching allocator asks cudaMalloc for to serve a request
// (CUDACachingAllocator.cpp get_allocation_size: up to 1 MiB a 2 MiB small-pool segment, under
// 10 MiB a 20 MiB one, else the request rounded up to 2 MiB).
double allocator_segment_bytes(double request_bytes) {
    constexpr double kMiB = kBytesPerGiB / 1024.0;
    if (request_bytes <= 1 * kMiB) return 2 * kMiB;
    if (request_bytes < 10 * kMiB) return 20 * kMiB;
    return std::ceil(request_bytes / (2 * kMiB)) * 2 * kMiB;
}

// PyTorch reads the card's free memory (cudaMemGetInfo) after its last retry, once it has
// released its cached segments (CUDACachingAllocator.cpp malloc: release_cached_blocks, then the
// message). A cap on the process (torch.cuda.set_per_process_memory_fraction, printed "A
// allowed;") ends the allocator's room before the card's. Without one, a cudaMalloc that failed
// with far more free than its segment was refused by the driver or runtime, not for the card's
// memory: ChatGLM-Finetuning#28 (128 MiB with 37.32 GiB free, under WSL2), ComfyUI#13112 (26 MiB
// with 13.60 GiB free, ROCm on Windows; the reply: a known runtime fault). Returns true when one
// of the two decides; the cap reads as capacity, the runtime's refusal as CardHadRoom.
bool card_had_room(const OomLog& log, OomCause* cause, std::vector<std::string>* evidence, std::vector<std::string>* advice) {
    const OomEvent& e = log.events.front();
    if (!e.free_bytes) return false;
    // More free than the card is no figure to go by (YanWenKun/ComfyUI-Docker#54: ROCm on an APU's
    // 512 MiB carve-out printed 17179869183.96 GiB free, an unsigned wrap).
    if (e.total_bytes && *e.free_bytes > *e.total_bytes) {
        evidence->push_back("the message's free figure, " + pytorch_size_text(*e.free_bytes) + ", is more than the card's " +
                            pytorch_size_text(*e.total_bytes) +
                            ": the runtime misreports free memory (an APU sharing host memory does), so it is not used");
        return false;
    }
    const double segment = allocator_segment_bytes(e.tried_bytes);
    if (*e.free_bytes < 2 * segment || *e.free_bytes < segment + kCardHadRoomBeyondBytes) return false;
    if (e.allowed_bytes) {
        evidence->push_back("PyTorch may use " + pytorch_size_text(*e.allowed_bytes) +
                            (e.total_bytes ? " of the card's " + pytorch_size_text(*e.total_bytes) : "") +
                            " (\"allowed\": torch.cuda.set_per_process_memory_fraction), and the card had " +
                            pytorch_size_text(*e.free_bytes) +
                            " free: the cap, not the card, ran out (the planner's numbers below count the whole card)");
        advice->push_back("a larger fraction in torch.cuda.set_per_process_memory_fraction, or none: the card has " +
                          pytorch_size_text(*e.free_bytes) + " free beyond what the process may use");
        *cause = OomCause::Capacity;
        return true;
    }
    evidence->push_back("the card had " + pytorch_size_text(*e.free_bytes) +
                        " free (PyTorch's figure, read after it released its cache), " + "far more than the " + pytorch_size_text(segment) +
                        " segment the request " + pytorch_size_text(e.tried_bytes) +
                        " needed: CUDA refused an allocation the card had room for");
    advice->push_back(
        "under WSL2 or Windows, update the GPU driver (and WSL: wsl --update) and check .wslconfig's memory; "
        "the free figure there is the driver's, and what a process may allocate can be less");
    advice->push_back("on ROCm, a runtime or driver fault: update ROCm and the driver, and report it with this message");
    advice->push_back(
        "run again with CUDA_LAUNCH_BLOCKING=1 (HIP_LAUNCH_BLOCKING=1 on ROCm): the traceback then names the call that failed");
    *cause = OomCause::CardHadRoom;
    return true;
}

// What a killed run was doing: the line before the kill, and DeepSpeed's see_memory_usage message
// when its lines are what came right before the kill (an earlier one says nothing of the end: a run
// that trained for hours after "After initializing optimizer states").
std::string host_kill_context(const OomLog& log) {
    const bool adjacent = log.line_before_kill.find("see_memory_usage]") != std::string::npos;
    return log.line_before_kill + (adjacent && log.memory_usage ? " " + log.memory_usage->message : std::string());
}

// A rank killed with SIGKILL and no GPU failure: Linux's out-of-memory killer took it for host
// memory (DeepSpeed#4239, the maintainer: "-9 is system out of memory"). What the run was doing
// comes from the line before the kill and DeepSpeed's see_memory_usage, which prints the host's use.
OomCause host_kill_cause(const OomLog& log, std::vector<std::string>* evidence, std::vector<std::string>* advice) {
    const OomEvent& e = log.events.front();
    const bool launcher_only = e.message.rfind("Killing subprocess", 0) == 0;
    evidence->push_back(launcher_only ? "the launcher killed the ranks (\"" + e.message +
                                            "\") and no rank printed an error: a process Linux's out-of-memory killer takes (SIGKILL) "
                                            "prints none"
                                      : "\"" + e.message +
                                            "\": a rank killed with SIGKILL, which Linux's out-of-memory killer sends when the host's "
                                            "memory runs out");
    if (const auto& u = log.memory_usage; u && u->host_total_bytes())
        evidence->push_back("before it, DeepSpeed's see_memory_usage" + (u->message.empty() ? std::string() : " (\"" + u->message + "\")") +
                            ": " + pytorch_size_text(*u->host_used_bytes) + " of the host's memory in use (" +
                            format_fixed(*u->host_used_percent, 1) + "%), of about " + pytorch_size_text(*u->host_total_bytes()));
    // (see_memory_usage's own lines are said above)
    if (!log.line_before_kill.empty() && log.line_before_kill.find("see_memory_usage]") == std::string::npos)
        evidence->push_back("the last line before it: " + log.line_before_kill);
    advice->push_back(
        "the kernel's log says whether its out-of-memory killer took the rank: dmesg -T | grep -i -E 'out of memory|killed process' "
        "(or journalctl -k)");
    const std::string context = host_kill_context(log);
    const std::optional<HostPhase> phase = host_phase_of_line(context);
    if (context.find("Loading checkpoint from") != std::string::npos || context.find("optim_states") != std::string::npos)
        advice->push_back(
            "resuming, every rank on the node torch.loads its optimizer-state file into host memory at once "
            "(runtime/checkpoint_engine/torch_checkpoint_engine.py): load_checkpoint(..., load_optimizer_states=False) tells whether "
            "the states are what runs out (DeepSpeed#3938's maintainer); more host memory, or fewer ranks a node");
    else if (phase == HostPhase::Initialize)
        advice->push_back(
            "at deepspeed.initialize an offloaded optimizer's fp32 master weights and gradients (8 bytes a parameter, pinned) are made "
            "in host memory for every rank on the node, and before DeepSpeed 0.13.2 its Adam moments too (8 more: #5104 removed that "
            "first step): offload to NVMe instead of the CPU (DeepSpeed#4239's maintainer), or spread the ranks over more nodes");
    else if (phase == HostPhase::Loading)
        advice->push_back(
            "from_pretrained makes a whole copy of the model in every rank's host memory: under ZeRO-3 the Trainer and Accelerate "
            "load it partitioned (zero.Init); otherwise fewer ranks a node, or more host memory");
    advice->push_back(
        "the planner's host memory per node for the run, moment by moment: zero-planner estimate with the run's options (Host RAM), "
        "and the host's RAM given with --cpu-ram");
    return OomCause::HostMemory;
}

}  // namespace

void diagnose_host_kill(const OomLog& log, const Scenario* s, OomDiagnosis& d) {
    const std::optional<HostPhase> named = host_phase_of_line(host_kill_context(log));
    d.host_kill = true;
    if (named) {
        d.host_phase = named;
        d.host_phase_named = true;
        d.moment_from =
            host_phase_of_line(log.line_before_kill) ? "the line before the kill" : "DeepSpeed's see_memory_usage before the kill";
    }
    if (!s) return;
    // The planner's host memory for the run at the moment the log names, else at its peak.
    const HostMemory host = host_memory(*s);
    if (!named) d.host_phase = host.peak_phase;
    d.planned_host_bytes = host.moment(*d.host_phase).bytes.total();
    d.host_ram_bytes = s->cluster.cpu_ram_bytes_per_node;
}

std::optional<HostPhase> host_phase_of_line(const std::string& line) {
    const auto has = [&](const char* x) { return line.find(x) != std::string::npos; };
    if (has("Loading checkpoint from")) return std::nullopt;  // DeepSpeed's resume (torch_checkpoint_engine.py)
    if (has("initializing optimizer") || has("Before initializing") || has("_configure_zero_optimizer") ||
        has("_create_param_groups_fp16_flat_cpu_memory") || has("partition count"))
        return HostPhase::Initialize;
    if (has("Loading checkpoint shards") || has("from_pretrained") || has("loading weights")) return HostPhase::Loading;
    if (has("'loss':") || has("it/s]") || has("s/it]")) return HostPhase::Training;
    if (has("Saving") || has("save_checkpoint") || has("save_model")) return HostPhase::CheckpointSave;
    return std::nullopt;
}

OomCause oom_cause(const OomLog& log, std::vector<std::string>* evidence, std::vector<std::string>* advice) {
    if (log.events.front().source == OomSource::HostKill) return host_kill_cause(log, evidence, advice);
    // A failure outside PyTorch's allocator first (a later allocator message, such as PyTorch's own
    // logger formatting a tensor while handling NCCL's error (peft#1703), only shows the card full).
    if (log.events.front().source != OomSource::CachingAllocator) {
        // empty_cache on GPU 0 decides before the moment (s3prl#102 ran it inside its evaluate).
        if (log.moment == OomMoment::Evaluation && !has_frame(log, {"empty_cache", "_cuda_emptyCache"})) {
            evidence->push_back("the frames are generation or evaluation (" + log.deciding_frame + "), not the training step");
            *advice = oom_remedies(OomMoment::Evaluation, log.phase);
            return OomCause::Evaluation;
        }
        return outside_allocator_cause(log, evidence, advice);
    }
    // A message cut before its figures: the traceback decides the moment, and no figure the cause.
    if (log.events.front().figures_cut)
        evidence->push_back(
            "the message is cut before its figures (no request, allocated, reserved or free): read as capacity, the moment from the "
            "traceback's frames; the whole message would tell fragmentation or another process from a full card");
    // A size no GPU holds decides first: no placement, cache or moment explains it (Qwen3-VL#334
    // asked it inside generate's beam search).
    for (const OomEvent& e : log.events) {
        if (e.total_bytes && *e.total_bytes > 0 && e.tried_bytes >= kShapeBeyondCards * *e.total_bytes) {
            evidence->push_back(message_prefix(log, e) + "the one request, " + pytorch_size_text(e.tried_bytes) + ", is " +
                                format_count(std::round(e.tried_bytes / *e.total_bytes)) + " times the whole card (" +
                                pytorch_size_text(*e.total_bytes) +
                                "): no setup asks that of one GPU; a size computed wrong, overflowed or "
                                "uninitialised");
            advice->push_back(
                "find the operation whose size is wrong: the traceback's innermost frames name it (run again with "
                "CUDA_LAUNCH_BLOCKING=1 if they do not), then the shapes reaching it: the batch, the sequence, generation's "
                "num_beams and max_new_tokens");
            return OomCause::TensorShape;
        }
    }
    // Room on the card decides before the rest: no process filled it and no cache's pieces matter.
    if (OomCause cause; card_had_room(log, &cause, evidence, advice)) return cause;
    if (device_placement(log, evidence)) {
        // What puts every rank on one device: torch.cuda.set_device never called with LOCAL_RANK
        // (deepspeed/accelerate launchers set it), .to("cuda") or device_map="auto" in every process.
        advice->push_back(
            "each rank on its own GPU: launch with torchrun, deepspeed or accelerate (they set LOCAL_RANK) and call "
            "torch.cuda.set_device(local_rank) before the model is built; .to(\"cuda\") or device_map=\"auto\" in every process "
            "puts each rank's copy on GPU 0");
        advice->push_back(
            "a model ZeRO-3 does not partition (a reference or generation model built outside zero.Init) is whole on every rank: "
            "build it under the same DeepSpeed config");
        // One other process may be another job; several are this job's ranks (TRL#3172's seven).
        const bool one_other = std::any_of(log.events.begin(), log.events.end(),
                                           [](const OomEvent& e) { return e.listed_processes == (e.process_bytes ? 1 : 2); });
        if (one_other)
            advice->push_back(
                "another job on the GPU (nvidia-smi lists its process): stop it, or give the run GPUs nothing else uses "
                "(CUDA_VISIBLE_DEVICES)");
        return OomCause::DevicePlacement;
    }
    if (log.moment == OomMoment::Evaluation) {
        evidence->push_back("the frames are generation or evaluation (" + log.deciding_frame + "), not the training step");
        *advice = oom_remedies(OomMoment::Evaluation, log.phase);
        return OomCause::Evaluation;
    }
    for (const OomEvent& e : log.events) {
        // More allocated than the card holds: the driver backs part of it with host memory (Windows'
        // WDDM "system memory fallback"), so the figures are not the card's alone.
        if (e.total_bytes && e.allocated_bytes && *e.allocated_bytes > *e.total_bytes)
            evidence->push_back(message_prefix(log, e) + pytorch_size_text(*e.allocated_bytes) + " allocated on a card of " +
                                pytorch_size_text(*e.total_bytes) +
                                ": the driver spilled into host memory (Windows' system memory fallback), which runs far slower");
        // The card less what PyTorch reserved and what is free is held outside PyTorch's allocator:
        // the CUDA context (about a GiB), and beyond it another process or a library's own memory
        // (NCCL's buffers, a workspace). Counted where the message gives all three (VisCPM#23: 79.21
        // GiB, 50.24 reserved, 0.84 free: 28 GiB elsewhere).
        if (const auto reserved = e.reserved_total_bytes(); e.total_bytes && e.free_bytes && reserved) {
            const double outside = *e.total_bytes - *reserved - *e.free_bytes;
            if (outside > kOutsidePyTorchBytes && outside > e.tried_bytes)
                evidence->push_back(message_prefix(log, e) + pytorch_size_text(outside) +
                                    " of the card is held outside PyTorch's allocator (" + pytorch_size_text(*e.total_bytes) + " less " +
                                    pytorch_size_text(*reserved) + " reserved and " + pytorch_size_text(*e.free_bytes) +
                                    " free): another process on the GPU, or a library's own memory (NCCL's buffers, a workspace)");
        }
        // One request larger than the whole card is no plan's: a tensor's shape (a batch or a
        // sequence far larger than meant), whatever the cache holds.
        if (e.total_bytes && *e.total_bytes > 0 && e.tried_bytes > *e.total_bytes) {
            evidence->push_back(message_prefix(log, e) + "the one request, " + pytorch_size_text(e.tried_bytes) +
                                ", is larger than the whole card (" + pytorch_size_text(*e.total_bytes) +
                                "): a tensor's shape, such as a batch or a sequence far larger than meant, not the plan");
            return OomCause::Capacity;
        }
    }
    for (const OomEvent& e : log.events) {
        const auto spare = unallocated_reserve(e);
        if (!spare) continue;
        // The cache held the request, in pieces (PyTorch's own hint), and the run is not at the
        // card's capacity: allocated plus the request well under it. A run whose allocated memory
        // and request fill the card is short of memory, whatever the cache's pieces: capacity
        // (DeepSpeed#3208: 13.30 of 14.56 GiB allocated, a 1.3B model with Adam needing ~18 GB).
        const bool held = *spare >= e.tried_bytes;
        const bool room =
            !e.total_bytes || !e.allocated_bytes || *e.allocated_bytes + e.tried_bytes <= kFragmentedBelowShareOfCard * *e.total_bytes;
        if (!held || !room) continue;
        evidence->push_back(message_prefix(log, e) + pytorch_size_text(*spare) + " reserved by PyTorch but unallocated, the request " +
                            pytorch_size_text(e.tried_bytes) + ": the cache held enough memory, in pieces");
        // c10/cuda/CUDACachingAllocator.cpp: the message's own hint; expandable segments grow one
        // mapping instead of caching fixed blocks (docs/notes/cuda.rst, "Environment variables").
        advice->push_back("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch's remedy for fragmentation)");
        // expandable_segments came in 2.1, the message's new form with it; before, the split cap.
        if (!e.new_form) advice->push_back("or PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:512 on PyTorch before 2.1");
        return OomCause::Fragmentation;
    }
    return OomCause::Capacity;
}

std::vector<OomTerm> oom_request_terms(const Scenario& s) {
    // The byte counts are step_timeline.cpp's (Terms, basis): its code paths are cited there.
    const TimelineInputs in = timeline_inputs(s);
    const Training& t = s.training;
    const ZeroSetup& z = s.zero;
    const std::int64_t dp = data_parallel_size(s);
    const double k = bytes_per_element(t.precision);
    const bool mixed = t.precision != Precision::Fp32;
    const bool offload = z.offload_optimizer != OffloadDevice::None;
    // DeepSpeed's ZeRO-3 steps its partition one sub_group_size at a time (stage3.py); FSDP's torch.optim
    // steps the rank's whole shard (the foreach kernels take every tensor of a device and dtype at once).
    const bool sub_groups = z.stage == 3 && !is_fsdp(s.fsdp);
    const double stepped = sub_groups ? std::min(z.sub_group_size, in.partition_elems) : in.partition_elems;
    const std::string share = sub_groups && stepped < in.partition_elems
                                  ? billions(stepped) + " elements (one sub_group_size of the rank's partition)"
                              : z.stage >= 1 ? billions(in.params) + " parameters / " + std::to_string(dp) + (dp == 1 ? " rank" : " ranks")
                                             : billions(in.params) + " parameters";
    std::vector<OomTerm> out;
    out.push_back({"the whole 16-bit model on one GPU", format_fixed(k, 0) + " bytes x " + billions(in.whole_params) + " parameters",
                   in.whole_weights_bytes, StepPhase::StartUp});
    // 4 bytes an element, 2 with DeepSpeed's bf16 master weights and optimizer states (model_states.h).
    const double master = master_element_bytes(z), moment = moment_element_bytes(z);
    const std::string master_dtype = z.bf16_master_weights ? "bf16" : "fp32";
    if (!offload && (mixed || z.stage >= 1))
        out.push_back({"the " + master_dtype + " master partition", format_fixed(master, 0) + " bytes x " + share, master * stepped,
                       StepPhase::StartUp});
    if (!offload && optimizer_moment_bytes_per_param(t.optimizer) > 0)
        out.push_back({"an optimizer moment (exp_avg or exp_avg_sq) of the partition", format_fixed(moment, 0) + " bytes x " + share,
                       moment * stepped, StepPhase::OptimizerStep});
    if (z.stage <= 1)
        out.push_back({"the 16-bit gradients of every parameter", format_fixed(k, 0) + " bytes x " + billions(in.params) + " parameters",
                       k * in.params, StepPhase::Backward});
    const double vocab = static_cast<double>(s.model.vocab) / static_cast<double>(std::max<std::int64_t>(s.parallel.tensor, 1));
    // A tensor of `bytes` a logit over the micro batch's logits on a rank of the last pipeline stage,
    // the only one that has them (its sequence shard under Ulysses, its vocabulary shard under tensor
    // parallelism): formula and size. A log does not say which stage ran out, so they are offered.
    const double logits = rank_logits(s);
    const std::int64_t ulysses = ulysses_size(s.parallel);
    const auto per_logit = [&](double bytes) {
        return format_fixed(bytes, 0) + " bytes x micro batch " + std::to_string(t.micro_batch) + " x " + std::to_string(t.seq_len) +
               " tokens" + (ulysses > 1 ? " / Ulysses " + std::to_string(ulysses) : std::string()) + " x " + format_count(vocab) +
               " vocabulary";
    };
    // flash-attn's fused cross-entropy up-casts nothing: its largest request is the 16-bit logits' gradient.
    const bool upcast = loss_upcasts(s.model, t) && t.loss_kernel != LossKernel::Xentropy;
    const double logit_bytes = upcast ? 4.0 : k;
    // A chunked loss (Liger's fused linear cross-entropy) never builds them (returns_logits).
    if (returns_logits(t)) {
        out.push_back({upcast ? "the fp32 logits" : "the logits", per_logit(logit_bytes), logit_bytes * logits, StepPhase::Loss});
        // 16-bit log-probabilities under autocast (PyTorch FSDP's mixed precision): nll_loss asks for
        // an fp32 copy of them (core/model/logits.h).
        if (loss_copies_log_probs_to_fp32(s))
            out.push_back(
                {"the loss's fp32 copy of the log-probabilities (autocast, for nll_loss)", per_logit(4.0), 4.0 * logits, StepPhase::Loss});
    }
    // The loop's metrics (Training::logit_metrics, core/model/logits.h): the log-probabilities in the
    // logits' dtype, then autocast's fp32 copy of them for nll_loss.
    if (t.logit_metrics > 0 && returns_logits(t)) {
        const double returned = returned_logit_bytes(s.model, t);
        out.push_back({"a train metric's log-probabilities", per_logit(returned), returned * logits, StepPhase::Metrics});
        if (metric_casts_to_fp32(s))
            out.push_back({"a train metric's fp32 copy of the log-probabilities (autocast, for nll_loss)", per_logit(4.0), 4.0 * logits,
                           StepPhase::Metrics});
    }
    if (z.stage >= 1)
        out.push_back({"a gradient reduce bucket",
                       format_fixed(k, 0) + " bytes x reduce_bucket_size " + format_count(z.reduce_bucket_elems), k * z.reduce_bucket_elems,
                       StepPhase::GradientReduce});
    if (!offload && (!t.fused_optimizer || t.optimizer == Optimizer::Adagrad) && optimizer_moment_bytes_per_param(t.optimizer) > 0)
        out.push_back(
            {"torch.optim's temporary (exp_avg_sq.sqrt() / _foreach_sqrt)", "4 bytes x " + share, 4.0 * stepped, StepPhase::OptimizerStep});
    return out;
}

std::optional<OomTerm> match_request(double request_bytes, const std::vector<OomTerm>& terms, double* error) {
    std::optional<OomTerm> best;
    double best_error = kOomTermTolerance;
    for (const OomTerm& term : terms) {
        if (request_bytes <= 0 || term.bytes <= 0) continue;
        const double e = std::abs(term.bytes - request_bytes) / request_bytes;
        if (e <= best_error && (!best || e < best_error)) {
            best = term;
            best_error = e;
        }
    }
    if (best && error) *error = best_error;
    return best;
}

namespace {

// torch.optim's _init_group (and FusedAdam's step) make exp_avg and exp_avg_sq with zeros_like on
// the first step: a failing line that does is the moment's creation.
bool creates_optimizer_moment(const std::string& line) {
    return line.find("zeros_like") != std::string::npos && line.find("exp_avg") != std::string::npos;
}

// The term the failing source line names (torch/optim/adam.py, adamw.py: "denom =
// (exp_avg_sq.sqrt() / ...)", "exp_avg_sq_sqrt = torch._foreach_sqrt(...)";
// state["exp_avg_sq"] = torch.zeros_like(...) in _init_group), whatever the scenario's optimizer.
std::optional<OomTerm> term_of_line(const std::string& line, const std::vector<OomTerm>& terms, const Scenario& s) {
    const auto named = [&](const char* prefix) -> std::optional<OomTerm> {
        for (const OomTerm& t : terms)
            if (t.name.rfind(prefix, 0) == 0) return t;
        return std::nullopt;
    };
    if (line.find("sqrt") != std::string::npos && line.find("exp_avg_sq") != std::string::npos) {
        if (auto t = named("torch.optim's temporary")) return t;
        Scenario torch_optim = s;  // the log shows torch's kernel even where the setup said fused
        torch_optim.training.fused_optimizer = false;
        torch_optim.zero.offload_optimizer = OffloadDevice::None;
        for (const OomTerm& t : oom_request_terms(torch_optim))
            if (t.name.rfind("torch.optim's temporary", 0) == 0) return t;
    }
    if (creates_optimizer_moment(line)) return named("an optimizer moment");
    return std::nullopt;
}

// The planner's peak for `changed` on the run's GPUs, or nothing when the change is not a valid run.
std::optional<OomFix> fix_of(const std::string& change, Scenario changed) {
    try {
        validate(changed);
    } catch (const InputError&) {
        return std::nullopt;
    }
    const MemoryBreakdown m = estimate_memory(changed);
    OomFix f{change, changed, m.peak_required_bytes, usable_gpu_bytes(changed), check_fit(changed, m).gpu, 0};
    return f;
}

// The cheapest changes for the failing moment, then the recommender's fastest plan on the same GPUs.
// The planner's own plan for the run, as a fix: what recommend() chooses, layout included.
std::optional<OomFix> recommended_plan_fix(const Scenario& s) {
    const Plan plan = recommend(s);
    if (!plan.feasible) return std::nullopt;
    const Candidate& b = plan.best;
    Scenario f = with_candidate(s, b);
    f.training.global_batch = s.training.global_batch;
    // A layout the search chose (tensor, pipeline and expert sizes on auto) is part of the plan:
    // its bytes are that layout's, which a Trainer or Accelerate run cannot take (a user review:
    // "ZeRO-1 + CPU optimizer ... 35.79 GiB" was pipeline 6 x expert 8, 957 GiB without them).
    // Tensor, pipeline and expert ranks are Megatron-DeepSpeed's; Ulysses alone also runs under
    // the Trainer (ALST, DeepSpeed's UlyssesSPAttentionHF).
    const std::string layout = layout_words(f);
    const bool megatron = f.parallel.tensor > 1 || f.parallel.pipeline > 1 || f.parallel.expert > 1;
    const std::string new_layout = f.parallel == s.parallel ? std::string()
                                   : layout.empty()         ? ", data parallel only"
                                                    : ", layout " + layout + (megatron ? " (Megatron-DeepSpeed)" : " (DeepSpeed-Ulysses)");
    // The plan's own engine and sharding (engine auto chooses one; FSDP plans hybrid sharding beside).
    return OomFix{"the planner's recommended plan: " + setup_label(setup_key(b.zero), b.engine, b.hybrid_shard) + new_layout +
                      ", micro batch " + std::to_string(b.micro_batch) + " x " + std::to_string(b.gradient_accumulation_steps) +
                      " accumulation steps, recompute " + to_string(b.checkpointing),
                  f,
                  b.memory.peak_required_bytes,
                  usable_gpu_bytes(s),
                  b.fit.gpu,
                  b.step.seconds};
}

// What the model's output holds (core/memory/step_timeline.cpp add_output_terms): its KV cache
// and, kept by the loop, the previous step's output; and the loss over the whole logits.
void add_output_and_loss_fixes(const Scenario& s, StepPhase phase, const RemedyContext& context, std::vector<std::optional<OomFix>>& out) {
    if (s.training.kv_cache_in_training && s.training.checkpointing == Checkpointing::Full && phase != StepPhase::StartUp) {
        Scenario f = s;
        f.training.kv_cache_in_training = false;
        out.push_back(fix_of("model.config.use_cache = False (the forward stops returning every layer's keys and values)", f));
    }
    if (s.training.outputs_kept && phase != StepPhase::StartUp) {
        Scenario f = s;
        f.training.outputs_kept = false;
        out.push_back(fix_of("del outputs after backward (the loop keeps the previous step's logits through the next forward)", f));
    }
    // A chunked loss (Liger-Kernel's fused linear cross-entropy) never holds the whole logits
    // (core/model/scenario.h LossKernel; the step timeline's loss moment).
    // Liger patches Hugging Face models; Megatron's GPTModel drops the up-cast instead
    // (--fp16-lm-cross-entropy: the loss on the 16-bit logits).
    if (phase == StepPhase::Loss && s.training.loss_kernel != LossKernel::Chunked && context.code != ModelCode::Megatron) {
        Scenario f = s;
        f.training.loss_kernel = LossKernel::Chunked;
        out.push_back(fix_of("a chunked loss (Liger-Kernel's fused linear cross-entropy) instead of the whole logits", f));
    }
    if (phase == StepPhase::Loss && s.training.loss_fp32_upcast && context.code == ModelCode::Megatron) {
        Scenario f = s;
        f.training.loss_fp32_upcast = false;
        out.push_back(fix_of("Megatron's --fp16-lm-cross-entropy (the loss on the 16-bit logits, no fp32 copy)", f));
    }
}

std::vector<OomFix> capacity_fixes(const Scenario& s, StepPhase phase, const std::optional<OomTerm>& term, const RemedyContext& context) {
    std::vector<std::optional<OomFix>> out;
    const bool temporary = term && term->name.rfind("torch.optim's temporary", 0) == 0;
    const bool creates_moment = context.creates_moment || (term && term->name.rfind("an optimizer moment", 0) == 0);
    // torch.optim's foreach temporaries exist in its step only: elsewhere the kernel changes nothing.
    // With the optimizer offloaded DeepSpeed steps it with DeepSpeedCPUAdam on the host: no GPU
    // kernel to choose (a user review: the fix was listed at the run's own 88.61 GiB).
    // Where the failing allocation creates a moment a fused kernel creates it too (fused_adam.py).
    if (((!s.training.fused_optimizer && phase == StepPhase::OptimizerStep) || temporary) && !creates_moment &&
        s.zero.offload_optimizer == OffloadDevice::None) {
        Scenario f = s;
        f.training.fused_optimizer = true;
        out.push_back(fix_of(is_fsdp(s.fsdp)
                                 ? "torch.optim's fused AdamW (fused=True; the Trainer's optim adamw_torch_fused) instead of its "
                                   "foreach kernel"
                                 : "DeepSpeed's fused Adam (an \"optimizer\" block in ds_config) instead of torch.optim's",
                             f));
    }
    if ((phase == StepPhase::Forward || phase == StepPhase::Backward || phase == StepPhase::Loss || phase == StepPhase::Metrics) &&
        s.training.micro_batch > 1) {
        Scenario f = s;
        f.training.micro_batch = std::max<std::int64_t>(s.training.micro_batch / 2, 1);
        f.training.auto_micro_batch = false;
        out.push_back(fix_of("micro batch " + std::to_string(f.training.micro_batch) + " with twice the accumulation", f));
    }
    // The loop's metrics over the logits (llm-foundry's model.use_train_metrics: false).
    if (phase == StepPhase::Metrics && s.training.logit_metrics > 0) {
        Scenario f = s;
        f.training.logit_metrics = 0;
        out.push_back(fix_of("no train metrics over the logits (llm-foundry: model.use_train_metrics: false)", f));
    }
    if (s.training.checkpointing != Checkpointing::Full && phase != StepPhase::StartUp && phase != StepPhase::OptimizerStep &&
        phase != StepPhase::Metrics) {
        Scenario f = s;
        f.training.checkpointing = Checkpointing::Full;
        f.training.auto_checkpointing = false;
        out.push_back(fix_of("activation checkpointing (gradient_checkpointing=True)", f));
    }
    add_output_and_loss_fixes(s, phase, context, out);
    // At data parallelism 1 no stage partitions anything (oom_remedies, DeepSpeed#237): ZeRO-3 there
    // only adds its buffers.
    if (s.zero.stage < 3 && data_parallel_size(s) > 1) {
        Scenario f = s;
        f.zero.stage = 3;
        const auto label = [&](const ZeroSetup& z) { return setup_label(setup_key(z), s.fsdp.engine, fsdp_hybrid_sharding(s)); };
        out.push_back(fix_of(label(f.zero) + " instead of " + label(s.zero), f));
    }
    // ZeRO-3's prefetch keeps stage3_max_live_parameters gathered through forward and backward
    // (layer_modules.h zero3_prefetch_fills_max_live): a tenth of DeepSpeed's 1e9 frees most of it
    // (the Hugging Face DeepSpeed guide's first advice for a ZeRO-3 OOM is to lower it).
    if (s.zero.stage == 3 && !is_fsdp(s.fsdp) && s.zero.stage3_max_live_parameters > deepspeed::recommended::kFewLiveParameters &&
        phase != StepPhase::StartUp && phase != StepPhase::OptimizerStep &&
        zero3_prefetch_fills_max_live(s.model, s.zero, layer_modules(s.model, s.zero))) {
        Scenario f = s;
        f.zero.stage3_max_live_parameters = deepspeed::recommended::kFewLiveParameters;
        auto fix = fix_of("stage3_max_live_parameters 1e8 (ZeRO-3's prefetch keeps fewer parameters gathered)", f);
        // Only where the step's peak is among what it gathers: elsewhere it changes nothing.
        if (fix && fix->peak_bytes < 0.99 * estimate_memory(s).peak_required_bytes) out.push_back(std::move(fix));
    }
    // ZeRO-3 gathers a layer's linears whole; one over the prefetch bucket is in flight whole too
    // (layer_modules.h). TiledLinear (ZeroSetup::linear_tile_factor) gathers a tile at a time: the
    // smallest factor of 2, 4, 8 or 16 that fits, else the largest tried.
    if (s.zero.stage == 3 && !is_fsdp(s.fsdp) && s.zero.linear_tile_factor <= 1 &&
        (phase == StepPhase::Forward || phase == StepPhase::Backward) &&
        layer_modules(s.model, s.zero).largest_params > s.zero.stage3_prefetch_bucket_elems) {
        std::optional<OomFix> tiled;
        for (std::int64_t tiles : {2, 4, 8, 16}) {
            Scenario f = s;
            f.zero.linear_tile_factor = tiles;
            auto fix = fix_of("deepspeed.zero.TiledLinear with tile factor " + std::to_string(tiles) +
                                  " (model code: each layer's linears gathered in (hidden/" + std::to_string(tiles) + ")^2 tiles)",
                              f);
            if (!fix) break;
            tiled = std::move(fix);
            if (tiled->fits) break;
        }
        out.push_back(std::move(tiled));
    }
    if (s.zero.offload_optimizer == OffloadDevice::None && s.zero.stage >= 1) {
        Scenario f = s;
        f.zero.offload_optimizer = OffloadDevice::Cpu;
        out.push_back(fix_of("offload_optimizer device cpu (ZeRO-Offload)", f));
    }
    // More GPUs: ZeRO's partitions shrink with the data-parallel size (stages 1-3), the batch per
    // GPU stays; the last resort, after every change on the same GPUs.
    if (s.zero.stage >= 1) {
        try {
            const std::int64_t gpus = s.cluster.world_size();
            const Scenario f = with_gpu_count(s, 2 * gpus, s.cluster.gpus_per_node);
            out.push_back(
                fix_of(std::to_string(2 * gpus) + " GPUs instead of " + std::to_string(gpus) + " (the same micro batch per GPU)", f));
        } catch (const InputError&) {
        }
    }
    std::vector<OomFix> fixes;
    for (auto& f : out)
        if (f) fixes.push_back(std::move(*f));
    if (auto plan = recommended_plan_fix(s)) fixes.push_back(std::move(*plan));
    return fixes;
}

// Whether a remedy of that scope can help the run's known ZeRO setup.
bool helps(RemedyScope scope, const ZeroSetup& zero) {
    switch (scope) {
    case RemedyScope::Stage3Setting: return zero.stage == 3;
    case RemedyScope::ToStage3: return zero.stage < 3;
    case RemedyScope::OptimizerOffload: return zero.offload_optimizer == OffloadDevice::None;
    case RemedyScope::Any:
    case RemedyScope::SplitStates: return true;
    }
    return true;
}

}  // namespace

RemedyContext remedy_context(const OomLog& log) {
    RemedyContext c;
    // By the frames' function names: Megatron's GPTModel and its loss (megatron/model/gpt_model.py
    // post_language_model_processing, mpu vocab_parallel_cross_entropy); the Trainer's loop and
    // transformers' loss (trainer.py _inner_training_loop, compute_loss; loss/loss_utils.py
    // ForCausalLMLoss, fixed_cross_entropy). Neither (torch's frames alone): unknown.
    if (has_frame(log, {"vocab_parallel_cross_entropy", "post_language_model_processing"})) c.code = ModelCode::Megatron;
    else if (has_frame(log, {"_inner_training_loop", "compute_loss", "ForCausalLMLoss", "fixed_cross_entropy"}))
        c.code = ModelCode::HuggingFace;
    c.creates_moment = creates_optimizer_moment(log.failing_line);
    return c;
}

std::vector<std::string> oom_remedies(const Scenario& s, OomMoment moment, StepPhase phase, bool zero_known, const RemedyContext& context) {
    std::vector<std::string> out;
    for (OomRemedy& r : oom_remedy_list(moment, phase)) {
        // The engine is the run's, given or DeepSpeed by default: the other's settings are not its own.
        if (r.engine == (is_fsdp(s.fsdp) ? RemedyEngine::DeepSpeed : RemedyEngine::Fsdp)) continue;
        if (r.code != ModelCode::Any && context.code != ModelCode::Any && r.code != context.code) continue;
        if (context.creates_moment && !r.frees_moment_creation) continue;
        if (zero_known && !helps(r.scope, s.zero)) continue;
        if (r.scope == RemedyScope::SplitStates && data_parallel_size(s) == 1)
            r.text =
                "more data-parallel GPUs: at data parallelism 1 (every GPU a tensor or pipeline rank) no ZeRO stage splits the "
                "fp32 master weights and Adam moments";
        else if (r.scope == RemedyScope::SplitStates && zero_known && s.zero.stage == 3)
            r.text = "more data-parallel GPUs: the fp32 master weights and Adam moments are split over them";
        out.push_back(std::move(r.text));
    }
    return out;
}

void say_offload_not_in_effect(const OomLog& log, const Scenario& s, bool zero_known, const std::string& evidence, OomDiagnosis& d) {
    // With the optimizer offloaded its step holds only the 16-bit parameters on the GPU (the fp32
    // partition and the moments are host tensors: stage_1_and_2.py / stage3.py with cpu_offload).
    if (!zero_known || log.moment != OomMoment::InStep || log.phase != StepPhase::OptimizerStep ||
        s.zero.offload_optimizer == OffloadDevice::None)
        return;
    d.offload_not_in_effect = true;
    d.remedies.insert(d.remedies.begin(),
                      "the offload was not in effect: with offload_optimizer the optimizer step keeps its states on the "
                      "host, and this one " +
                          evidence +
                          "; check that the ds_config the run printed has offload_optimizer (a Trainer or "
                          "Accelerate config without it reached DeepSpeed) and that the optimizer was DeepSpeed's, "
                          "not torch.optim's on the GPU");
}

std::string torch_optimizer_frame(const OomLog& log) {
    return frame_with(log, {"_init_group", "_multi_tensor_adam", "_single_tensor_adam"});
}

OomDiagnosis diagnose_oom(const OomLog& log, const Scenario& s, bool zero_known) {
    OomDiagnosis d;
    const RemedyContext context = remedy_context(log);
    d.cause = oom_cause(log, &d.evidence, &d.advice);
    d.moment = log.moment;
    d.phase = log.phase;
    if (!log.deciding_frame.empty()) d.moment_from = "frame " + log.deciding_frame;
    const OomEvent& first = log.events.front();
    // A kill gives no request and no step moment: the host's figures alone.
    if (first.source == OomSource::HostKill) {
        diagnose_host_kill(log, &s, d);
        return d;
    }
    const std::vector<OomTerm> terms = oom_request_terms(s);
    if (auto t = term_of_line(log.failing_line, terms, s)) {
        d.term = t;
    } else {
        // Terms of the moment the frames name first: at the optimizer step a partition-sized
        // request is a moment, not the start-up's fp32 master of the same size.
        std::vector<OomTerm> of_phase;
        for (const OomTerm& candidate : terms)
            if (log.moment == OomMoment::InStep && candidate.phase == log.phase) of_phase.push_back(candidate);
        double error = 0;
        auto m = match_request(first.tried_bytes, of_phase, &error);
        if (!m) m = match_request(first.tried_bytes, terms, &error);
        if (m) {
            d.term = m;
            d.term_error = error;
        }
    }
    if (d.moment == OomMoment::Unknown && d.term) {
        d.moment = OomMoment::InStep;
        d.phase = d.term->phase;
        d.moment_from = d.term_error ? "the requested size" : "the failing line";
    }
    if (d.moment == OomMoment::InStep) {
        double most = 0, reserved = 0;
        const std::vector<StepMoment> timeline = step_timeline(s, TimelineDetail::PeakCandidates);
        const std::vector<double> reserve = reserved_along(s, timeline);
        for (std::size_t i = 0; i < timeline.size(); ++i) {
            if (timeline[i].phase != d.phase) continue;
            most = std::max(most, timeline[i].allocated_bytes());
            reserved = std::max(reserved, reserve[i] - s.assumptions.cuda_context_bytes);
        }
        d.planned_bytes = most;
        d.planned_reserved_bytes = reserved;
        if (first.allocated_bytes) d.measured_bytes = *first.allocated_bytes + first.tried_bytes;
        // The run got through every phase before the failing one: a planner step that needs more
        // than the card there describes another run (an assumed sequence, recompute or batch).
        // Not where the failing line creates an optimizer moment: that is the first step, whose
        // earlier phases ran before the moments existed (torch.optim and FusedAdam make them lazily).
        for (const StepMoment& mo : timeline)
            if (!context.creates_moment && mo.phase != StepPhase::StartUp && mo.phase < d.phase && first.total_bytes &&
                mo.allocated_bytes() > *first.total_bytes && mo.allocated_bytes() > d.earlier_peak_bytes.value_or(0.0)) {
                d.earlier_peak_bytes = mo.allocated_bytes();
                d.earlier_peak_phase = mo.phase;
            }
    }
    d.remedies = oom_remedies(s, d.moment, d.phase, zero_known, context);
    // A full card outside PyTorch's cache wants the same changes as a capacity shortage.
    if ((d.cause == OomCause::Capacity || d.cause == OomCause::OutsideAllocator) && d.moment == OomMoment::InStep)
        d.fixes = capacity_fixes(s, d.phase, d.term, context);
    // The planner short of the log at the failing moment: a fix it calls fitting by less than that
    // shortfall may not have saved this run (the shortfall need not carry over to the fix's own
    // peak, so the verdict stays the planner's and the margin is named).
    d.far_below_log = d.planned_bytes && d.measured_bytes && *d.planned_bytes < (1.0 - kMomentFarBelowLog) * *d.measured_bytes;
    // A step far past the planner's bytes ran without the offload, whatever the options say.
    if (d.far_below_log) say_offload_not_in_effect(log, s, zero_known, "ran out of GPU memory far past the planner's bytes", d);
    if (d.planned_bytes && d.measured_bytes && *d.planned_bytes < (1.0 - kMomentBelowLog) * *d.measured_bytes && !d.far_below_log) {
        d.below_log_bytes = *d.measured_bytes - *d.planned_bytes;
        for (OomFix& f : d.fixes) f.spare_under_shortfall = f.fits && f.usable_bytes - f.peak_bytes < *d.below_log_bytes;
    }
    return d;
}

}  // namespace zp
