#pragma once
// Where in a training step a moment of the memory timeline lies (core/memory/step_timeline.h).
// Names in core/model/enum_names.h.

namespace zp {

enum class StepPhase {
    StartUp,         // deepspeed.initialize: model on the GPU, flattening, fp32 partitions, optimizer states
    Forward,         // one forward layer
    Loss,            // LM head, logits, fp32 up-cast, log-softmax and its gradient
    Backward,        // one backward layer
    Metrics,         // the loop's metrics over the logits, after the backward (Training::logit_metrics)
    GradientReduce,  // the reduce at the gradient-accumulation boundary
    OptimizerStep,   // fp32 gradient partition and the optimizer's temporaries
    ParameterGather  // the 16-bit parameters gathered (ZeRO-1/2) or released (ZeRO-3) after the step
};

}  // namespace zp
