#pragma once
// The memory of one GPU along one training step, moment by moment: what
// torch.cuda.memory_allocated() would read at start-up, after each forward layer, in the loss,
// at each backward layer, at the reduce, in the optimizer step and after it. Every term is in
// step_timeline.cpp with the DeepSpeed, PyTorch or transformers code path it models;
// docs/design.md §4.7 lists them. The peak allocated memory is the largest moment; the caching
// allocator's reserve on top of it is core/memory/allocator.h.
#include "core/memory/activations.h"
#include "core/memory/buffers.h"
#include "core/memory/model_states.h"
#include "core/model/scenario.h"
#include "core/model/step_phase.h"
#include "core/model/trainable_params.h"

#include <array>
#include <cstdint>
#include <vector>

namespace zp {

// Allocated bytes on one GPU at one moment, split as the memory slices are.
struct StepMoment {
    StepPhase phase = StepPhase::StartUp;
    std::int64_t layer = 0;             // forward/backward: the transformer layer, 1 = first; else 0
    double params_bytes = 0;            // 16-bit weights resident (ZeRO-3: the partition)
    double gradients_bytes = 0;         // 16-bit gradients held; the fp32 gradient partition in the step
    double optimizer_states_bytes = 0;  // fp32 master weights and optimizer moments on the GPU
    double activations_bytes = 0;       // stored activations, the layer being computed, loss tensors
    double buffers_bytes = 0;           // buckets, ZeRO-3 gathered parameters, optimizer and start-up temporaries
    double persistent_bytes = 0;        // the part of the above allocated for the whole run
    // Blocks freed but held by the caching allocator until another stream is done with them
    // (recordStream: each block's free waits for an event): in the reserve, neither allocated nor
    // required (an allocation that fails synchronises the events and frees them first).
    double deferred_free_bytes = 0;
    const char* cause = "";  // what is allocated at this moment, in a few words

    double allocated_bytes() const { return params_bytes + gradients_bytes + optimizer_states_bytes + activations_bytes + buffers_bytes; }
    // Bytes allocated and freed within a step: what the caching allocator recycles.
    double cycling_bytes() const { return allocated_bytes() - persistent_bytes; }
};

enum class TimelineDetail {
    PeakCandidates,  // only the moments where a maximum can lie (each phase's largest): for the peak
    EveryLayer       // every forward and backward layer too: for the drawn timeline and --json
};

// What the timeline is built from, computed by the slices' own functions (estimate_memory
// computes them once for both).
struct TimelineInputs {
    double params = 0;               // trainable parameters (parameter_count in plain full training)
    double whole_weights_bytes = 0;  // every weight as stored: the model on one GPU before ZeRO-3 partitions it
    double whole_params = 0;         // every parameter, trainable and frozen
    double partition_elems = 0;      // ZeRO-1/2's partition of `params` on this rank (experts over their own group: core/model/experts.h)
    ModelStateBytes states;
    ActivationBytes activations;
    BufferBytes buffers;
};
TimelineInputs timeline_inputs(const Scenario& s);
// The same, with the rank's parameter split the caller has already (rank_parameter_split(s)).
TimelineInputs timeline_inputs(const Scenario& s, const ParameterSplit& rank_split);

// The rank's parameter split, ZeRO partition and model states do not depend on the micro batch,
// the buckets or the recompute policy, and the activations depend on the micro batch and the
// recompute policy only (activation_bytes takes no ZeroSetup). A caller that varies only those
// (the recommender, one ZeRO setup at a time; MemoryMemo in core/memory/memory_model.h) keeps one
// memo and gets the same inputs without recomputing them. One slot per pipeline rank asked for
// (the first and the last stage of a pipelined rank, or the one rank). Reset it when anything
// else changes.
struct TimelineMemo {
    struct States {
        bool valid = false;
        std::int64_t pipeline_rank = 0;
        double params = 0, whole_weights_bytes = 0, whole_params = 0, partition_elems = 0;
        ModelStateBytes states;
    };
    struct Activations {
        bool valid = false;
        std::int64_t pipeline_rank = 0;
        std::int64_t micro_batch = 0;
        Checkpointing checkpointing = Checkpointing::None;
        ActivationBytes value;
    };
    // The buffers depend on the buckets alone of what varies (buffer_bytes): one slot per bucket
    // choice asked for, the search's few in turn.
    struct Buffers {
        bool valid = false;
        double reduce_bucket_elems = 0, allgather_bucket_elems = 0;
        bool overlap_comm = false;
        BufferBytes value;
    };
    std::array<States, 2> states;
    std::array<Activations, 2> activations;
    std::array<Buffers, 8> buffers;
    std::size_t next_buffers = 0;  // the slot a new bucket choice takes when all are used
};
TimelineInputs timeline_inputs(const Scenario& s, TimelineMemo& memo);

// The moments of one optimizer step in the order they happen. Within the forward (backward) pass
// the allocation grows (shrinks) linearly layer by layer, so the first and last layer of each
// pass and the other phases are enough for the maximum (TimelineDetail::PeakCandidates).
std::vector<StepMoment> step_timeline(const Scenario& s, TimelineDetail detail);

}  // namespace zp
