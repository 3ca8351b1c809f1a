#pragma once
// What a training log's out-of-memory failure was (core/io/oom_log.h) held against the planner's
// step for the run it describes (core/diagnose/log_setup.h or the options): whether it is a
// shortage of capacity at all, the step timeline's term the failing request is
// (core/memory/step_timeline.cpp: "12.94 GiB = the fp32 master partition: 4 bytes x 13.90B
// parameters / 4 ranks"), the planner's allocated bytes at that moment beside the log's, and the
// changes the planner confirms fit the same GPUs.
#include "core/base/units.h"
#include "core/io/oom_log.h"
#include "core/model/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace zp {

enum class OomCause {
    Capacity,          // the step needs more than the GPU holds: change the setup
    DevicePlacement,   // several processes on one GPU (every rank on GPU 0): not capacity
    Fragmentation,     // the allocator reserves enough but in pieces: not capacity
    Evaluation,        // generation or evaluation ran out, not the training step
    HostMemory,        // host memory (pinned, shared) that CUDA or NCCL reports as out of memory: not the GPU
    OutsideAllocator,  // NCCL, cuBLAS or a CUDA call found no room beside PyTorch's cache: the card is full
    CardHadRoom,       // the card had far more free than the request: the driver or runtime refused, not the plan
    TensorShape        // one request kShapeBeyondCards cards or more: an overflowed or mis-shaped tensor, not the plan
};

// A term of the step timeline a failing request can be, with its formula in the run's numbers.
struct OomTerm {
    std::string name;     // "the fp32 master partition"
    std::string formula;  // "4 bytes x 13.90B parameters / 4 ranks"
    double bytes = 0;
    StepPhase phase = StepPhase::StartUp;
};

// One change to the run and the planner's peak for it on the same GPUs.
struct OomFix {
    std::string change;  // "ZeRO-3", "DeepSpeed's fused Adam instead of torch.optim's", ...
    Scenario scenario;   // the run with the change
    double peak_bytes = 0;
    double usable_bytes = 0;
    bool fits = false;
    double step_seconds = 0;  // for the recommender's plan, else 0
    // Fits with less to spare than the planner is below the log at the failing moment
    // (OomDiagnosis::below_log_bytes): the planner's verdict, on a margin the run may not have.
    bool spare_under_shortfall = false;
};

struct OomDiagnosis {
    OomCause cause = OomCause::Capacity;
    std::vector<std::string> evidence;  // what in the message says so
    std::vector<std::string> advice;    // for a cause other than capacity: what to change instead
    OomMoment moment = OomMoment::Unknown;
    StepPhase phase = StepPhase::StartUp;
    std::string moment_from;           // "frame _init_group", "the requested size", "the failing line"
    std::optional<OomTerm> term;       // the term the request (or the failing line) is
    std::optional<double> term_error;  // |term - request| / request when matched by size
    // The planner's allocated bytes at the failing moment (the most in that phase) and the log's
    // allocated bytes plus the request: what the moment needed.
    std::optional<double> planned_bytes, measured_bytes;
    // The planner's reserve by PyTorch at that moment (core/memory/allocator.h reserved_along,
    // without the CUDA context), beside the message's "reserved in total by PyTorch".
    std::optional<double> planned_reserved_bytes;
    std::vector<OomFix> fixes;          // capacity only: cheapest first, then the recommender's plan
    std::vector<std::string> remedies;  // what frees memory at the moment, for this run (oom_remedies)
    // Where the planner has the failing moment more than kMomentBelowLog below the log's bytes: what it
    // lacks there; a fix that fits with less to spare is marked (OomFix::spare_under_shortfall).
    std::optional<double> below_log_bytes;
    bool far_below_log = false;          // more than kMomentFarBelowLog below: another run, no margin named
    bool offload_not_in_effect = false;  // the log shows the optimizer offload the setup has was not in effect (say_offload_not_in_effect)
    // Where the planner's own step needs more than the card before the failing moment (a phase the
    // run got past): that moment's allocated bytes and phase; an assumed value is off.
    std::optional<double> earlier_peak_bytes;
    StepPhase earlier_peak_phase = StepPhase::StartUp;
    // A rank killed for host memory (OomSource::HostKill), with the model known: the host moment the
    // line before the kill names (host_phase_of_line; the planner's peak moment when it names none),
    // the planner's host bytes per node there (core/memory/host_memory.h) and the node's RAM.
    bool host_kill = false;         // diagnose_host_kill's: the log's end was a rank killed, not a GPU failure
    bool host_phase_named = false;  // host_phase is the log's (else the planner's host peak)
    std::optional<HostPhase> host_phase;
    std::optional<double> planned_host_bytes, host_ram_bytes;
};

// The host moment a log line names: DeepSpeed's "initializing optimizer states" and "Before
// initializing" messages and the optimizer's set-up are deepspeed.initialize; Hugging Face's
// "Loading checkpoint shards" and from_pretrained are loading; the Trainer's loss line and a
// progress bar's rate are training; "Saving" and save_checkpoint are a checkpoint save.
// DeepSpeed's own "Loading checkpoint from" (a resume) is none of the planner's.
std::optional<HostPhase> host_phase_of_line(const std::string& line);
// For a rank killed for host memory: the host moment the log names; with the run `s` (nullptr when
// the planner cannot run it) the planner's host bytes per node there, or at its peak, and the
// node's RAM. Its callers list none of the GPU's remedies: they free no host memory.
void diagnose_host_kill(const OomLog& log, const Scenario* s, OomDiagnosis& d);

// The planner's bytes at the failing moment may be this share below the log's (allocated plus the
// request) before a fix that fits by less than the shortfall is marked: within it the request's
// rounding and the allocator's own blocks.
inline constexpr double kMomentBelowLog = 0.02;
// Beyond this share below the log the planner describes another run (a value assumed, the model):
// a gap that large is no margin to weigh fixes by, and the output says so instead. A chosen bound,
// above validate's tolerances on known runs (allocated 15%, reserved 20%: core/validation), so a
// miss past it is not the model's error on the run the log is.
inline constexpr double kMomentFarBelowLog = 0.25;

// What frees memory at the moment (oom_remedies) for this run: at data parallelism 1 no ZeRO stage
// partitions anything (the DeepSpeed#237 maintainer: "your data parallelism is 1, so there is no
// memory reduction"), so only more data-parallel GPUs are named there. With `zero_known` (the
// log or the user gave the ZeRO setup, not the default scenario's) what the setup already has or
// cannot use is left out: a stage-3 setting below stage 3 (sub_group_size is read by stage3.py
// only), a higher stage at stage 3, the optimizer offload that is already on. Whatever is known,
// a remedy of the other engine is left out (a DeepSpeed key for a PyTorch FSDP run, and FSDP's
// CPUOffload for a DeepSpeed one).
// What the log itself says beyond the moment: the model code its frames run (a Hugging Face-only
// kernel means nothing to Megatron's GPTModel) and whether the failing allocation creates an
// optimizer moment (a fused kernel creates the same one).
struct RemedyContext {
    ModelCode code = ModelCode::Any;
    bool creates_moment = false;
};
RemedyContext remedy_context(const OomLog& log);
std::vector<std::string> oom_remedies(const Scenario& s, OomMoment moment, StepPhase phase, bool zero_known = false,
                                      const RemedyContext& context = {});

// A request matches a term when they differ by at most this fraction of the request: PyTorch
// prints two decimals (12.94 GiB is 12.935-12.945) and a parameter count stated to three
// significant figures (13.9B) is 0.4% off, so 2% covers both and still tells the fp32 master of a
// rank (4 B x P / N) from a 16-bit copy of the whole model (2 B x P) unless N is 2.
inline constexpr double kOomTermTolerance = 0.02;
// Fragmentation: reserved but unallocated memory at least the request, the allocator held enough
// in pieces (PyTorch's hint: "If reserved but unallocated memory is large try setting
// PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"), with the allocated memory and the request
// under this share of the card; above it the run is short of memory (capacity), the pieces only
// where it ran out first.
inline constexpr double kFragmentedBelowShareOfCard = 0.90;
// One request this many times the whole card is no plan's: a micro batch or sequence mistaken by a
// factor of a few asks a card or a few (MusePose#20: 243 GiB of a 16 GiB card, capacity with the shape
// named); two orders of magnitude past it is a size computed wrong, overflowed or uninitialised
// (Qwen3-VL#334: 538,976,288 GiB of 47.54, sampling with beams, a bug the same call without them
// does not show).
inline constexpr double kShapeBeyondCards = 100.0;
// Memory outside PyTorch's allocator worth naming: beyond the CUDA context and cuBLAS's and NCCL's
// usual workspaces (about a GiB: Assumptions::cuda_context_bytes).
inline constexpr double kOutsidePyTorchBytes = 2.0 * kBytesPerGiB;
// The card had room: PyTorch's free figure at least twice the segment the allocator asked CUDA for
// and this much beyond it (the figure is read after the failure, so a little may have changed).
inline constexpr double kCardHadRoomBeyondBytes = 1.0 * kBytesPerGiB;

// The cause the message and frames show (capacity unless something says otherwise).
OomCause oom_cause(const OomLog& log, std::vector<std::string>* evidence, std::vector<std::string>* advice);
// The terms of `s`'s step a single request can be, in the order the step allocates them.
std::vector<OomTerm> oom_request_terms(const Scenario& s);
// The term nearest `request_bytes` within kOomTermTolerance (the first of equal ones), if any.
std::optional<OomTerm> match_request(double request_bytes, const std::vector<OomTerm>& terms, double* error);
// The whole diagnosis of `log` for the run `s`; `zero_known` as for oom_remedies.
OomDiagnosis diagnose_oom(const OomLog& log, const Scenario& s, bool zero_known = false);

// With `zero_known` and the optimizer offloaded in `s`, an out-of-memory in the optimizer step means
// the offload was not in effect: that is put first in `d`'s remedies, with `evidence` ("ran out of
// GPU memory far past the planner's bytes") saying how this log shows it.
void say_offload_not_in_effect(const OomLog& log, const Scenario& s, bool zero_known, const std::string& evidence, OomDiagnosis& d);
// The traceback's torch.optim Adam frame (torch/optim/adam.py, adamw.py: _init_group,
// _multi_tensor_adam(w), _single_tensor_adam(w)), or "": torch's optimizer stepped on the GPU.
std::string torch_optimizer_frame(const OomLog& log);

}  // namespace zp
