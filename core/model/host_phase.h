#pragma once
// When in a run a node's host memory is measured (core/memory/host_memory.h). Names in
// core/model/enum_names.h; the text says "while loading the model", "during training", ...

namespace zp {

enum class HostPhase {
    Loading,         // from_pretrained / model construction in every process, before deepspeed.initialize
    Initialize,      // deepspeed.initialize: flattening, the fp32 partitions being made and pinned
    Training,        // steady training, from the first optimizer step on (CPU Adam's moments exist)
    CheckpointSave,  // saving: the 16-bit model gathered or copied to the host on top of training's memory
};

}  // namespace zp
