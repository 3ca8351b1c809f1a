#pragma once
// One transformer layer's modules as ZeRO-3 handles them: the hooked modules, the gathered ones
// and their sizes, and how far ZeRO-3's prefetch runs ahead of the module computing. The step
// time (core/time/step_time.cpp) and the gathered working set in memory (core/memory/buffers.cpp)
// both read them here.
#include "core/model/scenario.h"

namespace zp {

namespace zero3_costs {
// Module containers per layer that carry hooks besides the linears and norms: the layer, its
// attention and its MLP.
inline constexpr double kContainersPerLayer = 3;
}  // namespace zero3_costs

// Modules per transformer layer with hooks, and those of them gathered (parameters above
// stage3_param_persistence_threshold stay resident: norms and biases of any real model).
struct LayerModules {
    double hooked = 0;
    double gathered = 0;
    double largest_params = 0;  // the largest gathered module's parameters
    double layer_params = 0;
};
LayerModules layer_modules(const ModelSpec& m, const ZeroSetup& z);
// The same for PyTorch FSDP wrapped by decoder layer (transformer_layer_cls_to_wrap, what the
// Trainer and Accelerate do): one FlatParameter a layer, gathered by one all-gather, no hooks on
// the modules inside it.
LayerModules fsdp_unit_modules(const ModelSpec& m);

// The trainable parameter tensors of one transformer layer (what model.parameters() yields per
// layer with requires_grad): full training, every Linear's weight and bias (a mixture's every
// expert's, its router's), the norms' weights and LayerNorm's biases, QK-norm, gpt-oss's sinks;
// LoRA, lora_A and lora_B of each adapted module. Per-parameter hooks (DeepSpeed ZeRO-1/2's
// gradient hooks, core/time/step_time.cpp) run once per tensor whatever its size. Under expert
// parallelism of `expert_parallel` ranks a rank holds experts / expert_parallel of each mixture.
double trainable_tensors_per_layer(const ModelSpec& m, const FineTune& f, std::int64_t expert_parallel = 1);

// Elements ZeRO-3 has gathered or gathering ahead of the module computing, when the next module
// has `next_module_params`. partitioned_param_coordinator.py fetch_sub_module prefetches while the
// elements in flight are under min(stage3_prefetch_bucket_size, stage3_max_live_parameters - those
// available), adding a parameter before it checks: the next parameter always goes whole, so a
// module larger than the bucket still runs one ahead. A bucket of 0 prefetches nothing.
double zero3_prefetch_elems(const ZeroSetup& z, double next_module_params);

// Whether that prefetch, run after every module's fetch, fills stage3_max_live_parameters: from the
// second step about max_live elements are gathered through the forward and the backward. Every
// hooked module fetches (containers, norms, activations and dropouts too), more fetches than a
// layer has gathered parameters, so the prefetch runs further ahead layer by layer until the
// available elements reach max_live (partitioned_param_coordinator.py _fetch_sub_module_impl,
// edaa7221 lines 421-486). Not with NVMe-offloaded parameters (the loop stops at
// _is_currently_on_nvme: they are prefetched from NVMe to the host instead), a bucket of 0, or a
// mixture, whose routed experts change the trace from step to step (an invalid trace prefetches
// nothing) unless its MoE blocks are ZeRO-3 leaf modules. Nor before DeepSpeed v0.6.0
// (ZeroSetup::zero3_prefetch_to_max_live), which kept one prefetch bucket in flight.
bool zero3_prefetch_fills_max_live(const ModelSpec& m, const ZeroSetup& z, const LayerModules& modules);

// What ZeRO-3 keeps gathered from a module's forward into its backward, on a rank that holds
// `rank_elems` of the model's parameters (a t-th under tensor parallelism), and so what each pass
// gathers. partitioned_param_coordinator.py __params_to_release (DeepSpeed edaa7221, lines
// 634-665): once the module trace is complete (from the second micro step), a module's parameters
// are not released if they come again within stage3_max_reuse_distance elements of the trace
// that follows. The trace is one forward and backward: reset_step starts it at each forward
// (parameter_offload.py _start_of_forward_hook) and the look-ahead stops at its end, so what the
// backward releases is released. Between a module x layers before the forward's end and its reuse
// lie the rest of the forward (x layers), the LM head's forward and backward hooks (V x h each,
// tied or not) and the backward down to it: 2x layers in all, a module at a time. Under full
// recompute each layer's forward runs again in the backward and the module's own recompute is
// its reuse: for the k-th layer from the end every module's distance is (3k - 2) layers, so whole
// layers are kept. The head, whose backward follows its forward with only the loss between,
// always stays. A tied embedding is the head's matrix too: when the layers in between are not all
// kept, the matrix is released after the embedding's forward, gathered again for the head and for
// the embedding's backward (so a tied head costs the backward no gather it saves).
// Megatron's GPT (LmHead::EmbeddingWeight, scenario.h) has no head module: the root module gathers
// the word embedding with each forward and holds it through the backward, and the trace counts it
// once between the forward's end and the backward (the root's backward pre-hook fetches it), so
// the distance loses V x h once, and the backward gathers neither the head nor the embedding.
struct Zero3Kept {
    double layers = 0;         // the forward's last layers kept (a fraction: a module at a time)
    double layer_share = 0;    // one layer's share of the model's parameters (its gathered Linears)
    double head_share = 0;     // the LM head matrix's share (vocabulary x hidden)
    bool matrix_held = false;  // the vocabulary matrix gathered through forward and backward (Megatron's GPT)
    // What each pass gathers, as a share of the rank's weights.
    double forward_gather_share = 1, backward_gather_share = 1;
};
// `layer_elems`: one layer's gathered Linears, the whole model's (LayerModules::layer_params).
Zero3Kept zero3_kept_for_backward(const ModelSpec& m, double layer_elems, const Training& t, double rank_elems);

}  // namespace zp
