#include "core/time/step_time.h"

#include "core/base/units.h"
#include "core/hardware/host_rates.h"
#include "core/memory/activations.h"
#include "core/memory/fsdp_memory.h"
#include "core/memory/model_states.h"
#include "core/model/experts.h"
#include "core/model/layer_modules.h"
#include "core/model/logits.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/model/trainable_params.h"
#include "core/time/collectives.h"
#include "core/time/flops.h"

#include <algorithm>
#include <cmath>

namespace zp {
namespace {

std::int64_t launches(double elems, double bucket_elems) {
    if (bucket_elems <= 0) return 1;
    return static_cast<std::int64_t>(std::ceil(elems / bucket_elems));
}

// The share of a compute window the gradient reduce and the gathers can hide behind
// (Assumptions::comm_overlap_fraction). DeepSpeed's overlap_comm switches its side streams;
// FSDP's reduce-scatters and all-gathers always run on their own (_runtime_utils.py
// _post_backward_hook on the "post_backward" stream, _unshard on "unshard"): no switch.
double overlap_fraction(const Scenario& s) { return s.zero.overlap_comm || is_fsdp(s.fsdp) ? s.assumptions.comm_overlap_fraction : 0.0; }

}  // namespace

CommVolume comm_volume(double params, int stage, std::int64_t gas, const Training& t, const ZeroSetup& z) {
    const double elem = bytes_per_element(t.precision);
    const double S = elem * params;
    const double G = static_cast<double>(gas);
    CommVolume v;
    switch (stage) {
    case 0:
        // Gradients accumulate locally; one all-reduce per step (engine.py allreduce_gradients), in
        // buckets of MEMORY_OPT_ALLREDUCE_SIZE whatever reduce_bucket_size says.
        v.allreduce_bytes = S;
        v.collectives = launches(params, deepspeed::defaults::kEngineAllreduceBucketElems);
        break;
    case 1:
        // Gradients accumulate locally; one all-reduce per step at the boundary (stage_1_and_2.py
        // allreduce_bucket: dist.all_reduce of each bucket), and step() all-gathers the updated
        // 16-bit partitions (all_gather_dp_groups), as at stage 2: DeepSpeedZeroOptimizer runs both
        // stages (BF16_Optimizer's update_lp_params likewise).
        v.allreduce_bytes = S;
        v.allgather_bytes = S;
        v.collectives = launches(params, z.reduce_bucket_elems) + 1;
        break;
    case 2:
        // ZeRO-2 reduces gradients every micro step, each bucket all-reduced whole since v0.12.4
        // (ZeroSetup::multi_rank_bucket_allreduce) or reduced to its owners before (a
        // reduce-scatter's bytes), and all-gathers the updated parameters once: one
        // all_gather_into_tensor per parameter group, whatever allgather_bucket_size says
        // (runtime/utils.py all_gather_dp_groups -> all_gather_into_tensor_dp_groups).
        (z.multi_rank_bucket_allreduce ? v.allreduce_bytes : v.reduce_scatter_bytes) = S * G;
        v.allgather_bytes = S;
        v.collectives = gas * launches(params, z.reduce_bucket_elems) + 1;
        break;
    default:
        // ZeRO-3 gathers parameters for forward and again for backward, and reduce-scatters
        // gradients, every micro step: the ZeRO paper's 1.5x of data parallelism (Sec. 7.2.2), times G.
        v.reduce_scatter_bytes = S * G;
        v.allgather_bytes = 2 * S * G;
        v.collectives = gas * (launches(params, z.reduce_bucket_elems) + 2 * launches(params, z.stage3_prefetch_bucket_elems));
        break;
    }
    return v;
}

UlyssesTraffic ulysses_traffic(const Scenario& s) {
    UlyssesTraffic out;
    const double u = static_cast<double>(ulysses_size(s.parallel));
    if (u <= 1) return out;
    const ModelSpec& m = s.model;
    const double e = bytes_per_element(s.training.precision);
    const double tokens = static_cast<double>(s.training.seq_len) * static_cast<double>(s.training.micro_batch) / u;  // b x s/u
    const double heads = static_cast<double>(m.heads);
    // GQA: with u above the key/value heads DeepSpeed replicates them to u (ulysses_sp.py
    // repeat_interleave by kv_replication_factor) before the all-to-all: max(kv, u) heads move.
    const double kv_heads = std::max(static_cast<double>(m.kv_heads > 0 ? m.kv_heads : m.heads), u);
    const double d = static_cast<double>(m.head_dim);
    // deepspeed/sequence/layer.py DistributedAttention.forward: _SeqAllToAll of query, key and value
    // (scatter the heads, gather the sequence), then of the context (scatter the sequence, gather the
    // heads); _SeqAllToAll.backward is the same all-to-all the other way for each gradient. Each rank
    // holds a b x s/u x (heads x d) tensor and keeps 1/u of it: it sends (u-1)/u of it.
    const double share = (u - 1.0) / u;
    out.forward_bytes = share * e * tokens * d * (heads + 2.0 * kv_heads + heads);
    out.backward_bytes = out.forward_bytes;
    if (s.training.checkpointing == Checkpointing::Full) out.recompute_bytes = out.forward_bytes;
    // The Ulysses group's ranks are consecutive (parallel_state_sp.py, Megatron-DeepSpeed's
    // parallel_state.py: ranks i*sp .. (i+1)*sp - 1): NVLink when every group sits in a node.
    out.link = ulysses_link(s);
    return out;
}

double ulysses_all_to_all_seconds(const Scenario& s) {
    const UlyssesTraffic x = ulysses_traffic(s);
    if (x.link == GroupLink::None) return 0.0;
    const Cluster& c = s.cluster;
    const double bytes = x.forward_bytes + x.backward_bytes + x.recompute_bytes;
    // A rank sends an equal chunk to each of the u-1 others: over NVLink to the group's ranks in its
    // node, over the network to the rest; the two links run at once, the slower one decides.
    double seconds = bytes / (intra_node_bus_gbytes_per_s(c) * kBytesPerGB);
    if (x.link == GroupLink::InterNode) {
        const double u = static_cast<double>(ulysses_size(s.parallel));
        const double in_node = std::min(u, static_cast<double>(std::max<std::int64_t>(c.gpus_per_node, 1)));
        const double remote = (u - in_node) / (u - 1.0);
        seconds = std::max(bytes * (1.0 - remote) / (intra_node_bus_gbytes_per_s(c) * kBytesPerGB),
                           bytes * remote / (inter_node_bus_gbytes_per_s(c) * kBytesPerGB));
    }
    const double layers = static_cast<double>(std::max<std::int64_t>(s.model.layers, 1));
    const double calls = 4.0 * (2.0 + (x.recompute_bytes > 0 ? 1.0 : 0.0));  // per layer: 4 forward, 4 backward, 4 recompute
    // layer.py's default (no sp_stream) runs them on the compute stream between the layer's kernels: exposed.
    return layers * (seconds + calls * s.assumptions.collective_latency_seconds);
}

// Exposed time of each collective, by how DeepSpeed schedules it (docs/design.md §5.2):
//   stage 0   DeepSpeedEngine.allreduce_gradients (deepspeed/runtime/engine.py) after the last
//             backward: exposed.
//   stage 1   with overlap_comm, stage_1_and_2.py registers backward hooks and reduces bucket by
//             bucket on reduction_stream (reduce_ipg_grads / average_tensor) during the boundary
//             micro step's backward: hidden up to f x that backward; without, reduce_gradients
//             after it: exposed. step() then all-gathers the updated 16-bit partitions
//             (all_gather_dp_groups): exposed.
//   stage 2   the same hooks reduce every micro step's gradients during its backward, bucket by
//             bucket (all-reduced whole since v0.12.4: ZeroSetup::multi_rank_bucket_allreduce;
//             hidden up to f x each backward); step() then all-gathers the updated 16-bit
//             partitions (all_gather_dp_groups): exposed.
//   stage 3   partitioned_param_coordinator.py fetch_sub_module prefetches the next modules'
//             parameters up to stage3_prefetch_bucket_size while the current one computes, in
//             forward and backward; the gradients are reduce-scattered from backward hooks on a
//             separate stream (stage3.py __reduce_and_partition_ipg_grads). Hidden up to f x the
//             pass, times the share of a layer the prefetch bucket and max_live_parameters let run
//             ahead; each module's gather is one launch (its latency, collective_latency_seconds,
//             waits when nothing is prefetched), and every module's hooks take host time
//             (Assumptions::zero3_hook_seconds_per_module) that the GPU only hides when its own work per
//             layer is longer.
// f = Assumptions::comm_overlap_fraction: the share of a compute window a collective on another
// stream can use (NCCL kernels take SMs and HBM bandwidth from the compute they overlap).
namespace {

// The cache around compute_time, the split and ZeRO-3's modules: with a memo (the recommender,
// one layout) each is computed once for what it reads and reused; without one (a single
// estimate) computed directly, with no memo to build or compare. The formula does not know
// which: it asks these three.
// What of a layer each rank computes: its tensor and Ulysses shares.
RankShare rank_share(const Parallelism& p) {
    return {
        .tensor = static_cast<double>(p.tensor), .ulysses = static_cast<double>(ulysses_size(p)), .sequence_parallel = p.sequence_parallel};
}

// The calibration's scale on the whole compute model (compute_time.h kReferenceMfu).
double compute_scale(const Scenario& s) { return s.assumptions.mfu / kReferenceMfu; }

// No engine hooks: each layer pays only its kernels' host time, the scenario's.
LayerHooks launches_only(const Scenario& s) { return {.host_seconds_per_kernel = s.assumptions.host_seconds_per_kernel}; }

// Expert parallelism's routed token slots per token (0 without it).
double routed_slots(const Scenario& s) { return uses_expert_parallelism(s) ? routed_slots_per_token(s) : 0.0; }

// What each of the loop's metrics over the logits moves a logit (core/model/logits.h); 0 without
// any, where compute_time does not read it.
double metric_bytes_per_logit(const Scenario& s) { return s.training.logit_metrics > 0 ? metric_traffic_bytes_per_logit(s) : 0.0; }

ComputeTime cached_compute_time(ComputeTimeMemo* memo, const Scenario& s, std::int64_t gas, double optimizer_params, double scale,
                                const LayerHooks& hooks, double routed_slots) {
    const RankShare share = rank_share(s.parallel);
    const double metric_bytes = metric_bytes_per_logit(s);
    const bool stops_early = recompute_stops_early(s);
    const auto compute = [&](double params) {
        return compute_time(s.model, s.training, s.cluster.gpu, gas, params, scale, hooks, s.finetune, routed_slots, share,
                            s.assumptions.gemm_efficiency_scale, s.assumptions.flash_attention_scale, stops_early, metric_bytes);
    };
    if (!memo) return compute(optimizer_params);
    ComputeTimeMemo::Entry& e = memo->lines[memo->line][hooks.any() ? 1 : 0];
    if (!e.valid || e.gas != gas || e.scale != scale || !(e.hooks == hooks) || e.routed_slots != routed_slots || !(e.share == share) ||
        !(e.training == s.training) || e.stops_early != stops_early || e.metric_bytes != metric_bytes) {
        e = {true,
             s.training,
             gas,
             scale,
             hooks,
             routed_slots,
             share,
             stops_early,
             metric_bytes,
             compute(0.0),
             gpu_optimizer_rate(s.training, s.cluster.gpu)};
    }
    ComputeTime c = e.without_optimizer;
    add_gpu_optimizer(c, e.optimizer.seconds(optimizer_params, scale));
    return c;
}

ParameterSplit cached_split(ComputeTimeMemo* memo, const Scenario& s) {
    if (!memo) return rank_parameter_split(s);
    if (!memo->split_valid) {
        memo->split = rank_parameter_split(s);
        memo->split_valid = true;
    }
    return memo->split;
}

LayerModules cached_modules(ComputeTimeMemo* memo, const Scenario& s) {
    if (!memo) return layer_modules(s.model, s.zero);
    if (!memo->modules_valid || memo->modules_persistence_threshold != s.zero.stage3_param_persistence_threshold) {
        memo->modules = layer_modules(s.model, s.zero);
        memo->modules_persistence_threshold = s.zero.stage3_param_persistence_threshold;
        memo->modules_valid = true;
    }
    return memo->modules;
}

double exposed_seconds(double comm, double window) { return std::max(0.0, comm - window); }

// What every part of the step reads: the scenario and the rank's sizes.
struct StepContext {
    const Scenario& s;
    const Cluster& c;
    // ZeRO's collectives and partitions run over the data-parallel ranks (the world without
    // tensor/pipeline parallelism), times the Ulysses ranks (zero_partition_size); P is the most
    // loaded rank's share of the model.
    double N = 0, g = 0;
    // The ranks each model state is split over: N, or the shard group where the states are
    // replicated across groups (MiCS, FSDP's HYBRID_SHARD: zero_shard_size).
    double shard = 0;
    // Fine-tuning: the optimizer, the gradient collectives and the offloaded states are the
    // trainable parameters' (P in plain full training); ZeRO-3 gathers, and offload_param moves,
    // every weight as stored (core/model/trainable_params.h).
    ParameterSplit split;
    double P = 0, weight_elem = 0, whole_weights = 0;
    std::int64_t gas = 1;
    double G = 1;
    // Gradient reduces a step: one a micro step (G), or one for FSDP under no_sync
    // (fsdp_accumulates_unsharded_gradients, core/memory/fsdp_memory.h).
    double gradient_reduces = 1;
    // All-reduces a step of the gradient shard across replicated shard groups: FSDP's HYBRID_SHARD
    // one after each gradient reduce, MiCS one at the accumulation boundary (apply_mics).
    double replica_all_reduces = 1;
    int stage = 0;
    // Under expert parallelism the partition is the dense parameters over DP and the rank's routed
    // experts over DP / EP (core/model/experts.h zero_partition_elems).
    double partition_elems = 0;
    bool cpu_optimizer = false;
    LayerModules modules;  // stage 3 only
    // ZeRO-3: the share of the weights each pass gathers (the backward's less what stays gathered
    // from the forward: layer_modules.h zero3_kept_for_backward), and the layers the backward gathers.
    double forward_gather_share = 1, backward_gather_share = 1, backward_gathered_layers = 1;
    double tp = 1, pp = 1, u = 1, layers = 1, stage_layers = 1;
};

// 1F1B's bubble, in micro steps of the slowest stage: (p-1) per step with equal stages, (p-1)/v
// with v interleaved model chunks (Narayanan et al. 2021 Sec. 2.2.1-2.2.2: bubble fraction
// (p-1)/m, (p-1)/(v m)); none without a pipeline. With unequal stages (the last one carries the LM
// head, the first the extra layers) the slowest stage k sets the steady state, m micro steps of
// t_k, and the bubble is what the others add: the first micro batch's forward reaches k through
// the stages before it and the last one's backward returns through them, the stages after k do the
// same between k's last forward and its last backward, so a step takes m t_k + the sum of the
// other stages' t_i (a flow shop of m identical jobs: its makespan is the sum of the stage times
// plus (m - 1) times the largest). The stages' micro steps sum to the whole model's (each layer is
// on one stage, the head on the last), so the others' sum is `whole` less the slowest's: (p-1) t
// when the stages are equal. Interleaving divides it by v as above.
double bubble_micro_steps(const Parallelism& p, double whole_micro_step_seconds, double slowest_micro_step_seconds) {
    if (p.pipeline <= 1 || !(slowest_micro_step_seconds > 0)) return 0.0;
    const double others = std::max(whole_micro_step_seconds - slowest_micro_step_seconds, 0.0) / slowest_micro_step_seconds;
    return others / static_cast<double>(p.virtual_stages);
}

double model_layers(const Scenario& s) { return static_cast<double>(std::max<std::int64_t>(s.model.layers, 1)); }

// The most loaded pipeline stage's layers: ceil(L/p) (DeepSpeed's PipelineModule may spread them
// unevenly); all L without a pipeline.
double stage_layers(const Scenario& s) { return std::ceil(model_layers(s) / static_cast<double>(s.parallel.pipeline)); }

// A pipeline's slowest stage (compute_time has cut each layer by tensor and Ulysses parallelism
// already: RankShare): the first, with the most layers (partition_uniform gives the extra ones to
// the first L mod p stages: core/model/parallel_layout.h), or the last, with its layers and the LM
// head (pipeline_stage_time). For a pipeline (p > 1): the callers skip it without one.
ComputeTime slowest_stage_time(const Scenario& s, const ComputeTime& whole, std::int64_t gas) {
    const std::int64_t p = s.parallel.pipeline;
    const ComputeTime first = pipeline_stage_time(whole, stage_layers(s), model_layers(s), gas, false);
    const double last_layers = static_cast<double>(zp::stage_layers(std::max<std::int64_t>(s.model.layers, 1), p, p - 1));
    const ComputeTime last = pipeline_stage_time(whole, last_layers, model_layers(s), gas, true);
    return last.micro_step_seconds >= first.micro_step_seconds ? last : first;
}

// Summing the G micro batches' gradients (Training::gradient_accumulation, core/model/scenario.h),
// a streaming pass over the rank's trainable parameters on the compute stream at the end of a
// micro batch's backward: Autograd adds the 16-bit gradient into .grad from the second micro batch
// on (reads both, writes one: 3 x 16-bit bytes); MainGrad adds .grad into main_grad every micro
// batch (reads the gradient, reads and writes main_grad: fp32 with bf16, where Megatron-LM
// accumulates in fp32, else the parameters' dtype); Bf16Optimizer adds every micro batch's
// gradient, converted to fp32, into an fp32 copy (18 bytes); Fused none. At ZeRO-0/1 only: ZeRO-2/3 and
// FSDP reduce every micro batch's gradients instead (their collectives). In each micro step (the
// average over the G), so a pipeline's bubble carries it too; / scale as the rest of the compute.
void add_gradient_accumulation(const StepContext& x, double scale, ComputeTime& ct) {
    const Scenario& s = x.s;
    if (x.stage > 1 || x.G <= 1 || is_fsdp(s.fsdp)) return;
    double passes = 0, bytes_per_param = 0;
    switch (s.training.gradient_accumulation) {
    case GradientAccumulation::Autograd:
        passes = x.G - 1.0;
        bytes_per_param = 3.0 * x.weight_elem;
        break;
    case GradientAccumulation::MainGrad: {
        passes = x.G;
        const double main_grad_elem = s.training.precision == Precision::Bf16 ? 4.0 : x.weight_elem;
        bytes_per_param = x.weight_elem + 2.0 * main_grad_elem;
        break;
    }
    case GradientAccumulation::Bf16Optimizer:
        passes = x.G;
        bytes_per_param = x.weight_elem + 4.0 + 4.0 + 2.0 * 4.0;  // read bf16, write and read the fp32 temporary, read and write the copy
        break;
    case GradientAccumulation::Fused: return;
    }
    const double seconds = passes * bytes_per_param * x.P / streaming_bytes_per_second(s.cluster.gpu) / scale;
    ct.accumulation_seconds = seconds;
    ct.memory_seconds += seconds;
    ct.backward_seconds += seconds / x.G;
    ct.micro_step_seconds += seconds / x.G;
    ct.total_seconds = x.G * ct.micro_step_seconds + ct.optimizer_seconds;
}

// Compute (core/time/compute_time.h) on this rank: ZeRO-3's hook time split off as overhead, the
// tensor, pipeline and Ulysses shares, 1F1B's bubble.
void add_compute(const StepContext& x, ComputeTimeMemo* memo, StepTime& st) {
    const Scenario& s = x.s;
    // The GPU optimizer updates this GPU's partition (all of P at stage 0).
    const double gpu_optimizer_params = x.cpu_optimizer ? 0.0 : x.partition_elems;
    const double routed = routed_slots(s);
    const double scale = compute_scale(s);
    // The host time DeepSpeed's hooks add to each layer (FSDP hooks each unit, a decoder layer, not
    // each module, and its hooks were not fitted: none here):
    //   stage 3    every module's hooks, forward and backward (Assumptions::zero3_hook_seconds_per_module, fitted);
    //   stage 1-2  a hook on each trainable parameter's gradient (stage_1_and_2.py: up to v0.16.4
    //              create_reduce_and_remove_grad_hooks at stage 2 and at stage 1 with overlap_comm;
    //              since v0.16.5 create_gradient_handling_hooks, also at stage 1 without it, where it
    //              only keeps count and is not charged). Its reduce_ready_partitions_and_remove_grads
    //              copies the gradient into the ipg bucket (reduce_independent_p_g_buckets_and_remove_grads)
    //              in Python: a kernel's host time (Assumptions::host_seconds_per_kernel) per tensor, no constant of its
    //              own, in every backward at stage 2 and in the accumulation boundary's at stage 1
    //              (`partition_gradients or is_gradient_accumulation_boundary()`): 1/G of it a micro
    //              step. It shows where the backward is launch-bound, as ZeRO-3's hooks do.
    const LayerHooks no_hooks = launches_only(s);
    LayerHooks hooks = no_hooks;
    if (!is_fsdp(s.fsdp)) {
        if (x.stage == 3) hooks.forward_seconds = hooks.backward_seconds = x.modules.hooked * s.assumptions.zero3_hook_seconds_per_module;
        else if (x.stage == 2 || (x.stage == 1 && s.zero.overlap_comm))
            hooks.backward_seconds = trainable_tensors_per_layer(s.model, s.finetune, s.parallel.expert) *
                                     s.assumptions.host_seconds_per_kernel * (x.stage == 2 ? 1.0 : 1.0 / x.G);
    }
    st.compute = cached_compute_time(memo, s, x.gas, gpu_optimizer_params, scale, hooks, routed);
    if (x.stage == 3 && hooks.any()) {
        // What the hooks add over the same compute without them counts as ZeRO-3 overhead.
        const ComputeTime plain = cached_compute_time(memo, s, x.gas, gpu_optimizer_params, scale, no_hooks, routed);
        st.zero3_overhead_seconds = st.compute.total_seconds - plain.total_seconds;
        st.compute = plain;
    }
    const Parallelism& par = s.parallel;
    const double whole_micro_step = st.compute.micro_step_seconds;
    if (par.pipeline > 1) st.compute = slowest_stage_time(s, st.compute, x.gas);
    const double bubble = bubble_micro_steps(par, whole_micro_step, st.compute.micro_step_seconds);
    add_gradient_accumulation(x, scale, st.compute);
    st.pipeline_bubble_seconds = bubble * st.compute.micro_step_seconds;
    st.compute_seconds = st.compute.total_seconds + st.pipeline_bubble_seconds;
}

// ZeRO's collectives before overlap: ring times of the all-reduce, reduce-scatter and gathers,
// the latency of one launch and the launches.
struct ZeroCollectives {
    CommVolume v;
    double bus = 0, lat = 0;
    double ar = 0, rs = 0, ag = 0;
    double zeropp_kernel_seconds = 0;  // ZeRO++'s (de)quantisation kernels, exposed
};

// ZeRO++ (arXiv 2306.10209 Sec. 3-4) replaces ZeRO-3's three collectives per micro step:
//   qwZ  the gathers move int8 (1 byte an element instead of weight_elem), then dequantise;
//   hpZ  the backward gathers from the secondary partition over the hpZ group (intra-node bus,
//        16-bit), not from every rank; before DeepSpeed v0.13.2 (ZeroSetup::hpz_in_recompute)
//        not a recomputed layer's, which its forward hooks gather as the forward's, over every
//        rank (and int8 with qwZ);
//   qgZ  gradients reduce by an int4 all-to-all inside the node, then an int4 all-to-all of each
//        GPU's 1/g share across nodes (coalesced_collectives.py all_to_all_quant_reduce).
// The (de)quantisation kernels stream their tensors through HBM on the compute stream
// (csrc/quantization): about 3 bytes an element per gather (read int8, write 16-bit) and per
// gradient reduce (quantise, reduce, dequantise): added as exposed ZeRO-3 overhead.
void apply_zeropp(const StepContext& x, const ZeroPlusPlus& zpp, ZeroCollectives& z) {
    const Cluster& c = x.c;
    const double q = zpp.quantized_weights ? 1.0 / x.weight_elem : 1.0;
    const double elems = x.whole_weights / x.weight_elem;
    const double fwd_gather = allgather_seconds(x.forward_gather_share * x.whole_weights * q * x.G, x.N, z.bus);
    const bool hpz_backward =
        zpp.hpz_partition_size > 1 && (x.s.zero.hpz_in_recompute || !recomputes_layer_forward(x.s.training.checkpointing));
    const double bwd_gather = hpz_backward ? allgather_seconds(x.backward_gather_share * x.whole_weights * x.G,
                                                               static_cast<double>(zpp.hpz_partition_size), intra_node_bus_gbytes_per_s(c))
                                           : x.backward_gather_share / x.forward_gather_share * fwd_gather;
    z.ag = fwd_gather + bwd_gather;
    const double hbm = streaming_bytes_per_second(c.gpu);
    if (zpp.quantized_weights)
        z.zeropp_kernel_seconds += (x.forward_gather_share + (hpz_backward ? 0.0 : x.backward_gather_share)) * x.G * 3.0 * elems / hbm;
    if (zpp.quantized_gradients) {
        const double n = static_cast<double>(c.nodes);
        const double int4_bytes = z.v.reduce_scatter_bytes / x.weight_elem * 0.5;
        z.rs = reduce_scatter_seconds(int4_bytes, x.g, intra_node_bus_gbytes_per_s(c)) +
               (n > 1 ? reduce_scatter_seconds(int4_bytes / x.g, n, inter_node_bus_gbytes_per_s(c)) : 0.0);
        z.zeropp_kernel_seconds += 3.0 * z.v.reduce_scatter_bytes / x.weight_elem / hbm;
    }
}

// MiCS (mics.py; Zhang et al. arXiv 2205.00119: fewer participants per collective, the global
// gradient synchronisation amortised over the accumulation) moves ZeRO-3's collectives into the
// shard group of S consecutive ranks, R = world / S groups:
//   gathers   every module, forward and backward of each micro step, over the shard group
//             (MiCS_Init._flat_all_gather_with_coalescing_manager, group=param_shard_group): on
//             NVLink when the group sits in a node. With mics_hierarchical_params_gather and a group
//             over span nodes (_hierarchical_all_gather_params): first an all-gather of the partition
//             among the span ranks with the same local index (inter-node group, 1/per-node of the
//             weights), then one inside each node of the whole weights (intra-node group).
//   gradients reduce-scatter every micro step over the shard group (stage3.py reduces over
//             dp_process_group, which MiCS_Optimizer.__init__ sets to param_shard_group), then, at
//             the gradient accumulation boundary only (allreduce_mics_shard_grads returns unless
//             is_gradient_accumulation_boundary()), an all-reduce of the rank's gradient partition
//             (P / S elements in the gradient accumulation dtype, the model's by default:
//             engine.py get_data_types) across the replicate group of R ranks S apart.
// FSDP's HYBRID_SHARD is the same with the node as the shard group, except that it all-reduces the
// gradient shard every time it reduce-scatters (_runtime_utils.py _reduce_grad: all_reduce over
// _inter_node_pg right after each unit's reduce_scatter_tensor, on the post-backward stream, in
// reduce_dtype): once a step under no_sync, every micro step otherwise (gradient_reduces).
void apply_mics(const StepContext& x, const MicsGroups& mics, ZeroCollectives& z) {
    const Cluster& c = x.c;
    const double S = static_cast<double>(mics.shard), R = static_cast<double>(mics.replicas);
    const double shard_bus = mics.crosses_nodes ? z.bus : intra_node_bus_gbytes_per_s(c);
    if (mics.hierarchical) {
        const double span = static_cast<double>(mics.span_nodes), per_node = S / span;
        const double intra = mics.shard % c.gpus_per_node == 0 ? intra_node_bus_gbytes_per_s(c) : z.bus;
        z.ag = allgather_seconds(z.v.allgather_bytes / per_node, span, inter_node_bus_gbytes_per_s(c)) +
               allgather_seconds(z.v.allgather_bytes, per_node, intra);
    } else {
        z.ag = allgather_seconds(z.v.allgather_bytes, S, shard_bus);
    }
    z.rs = reduce_scatter_seconds(z.v.reduce_scatter_bytes, S, shard_bus);
    // The replicate group's ranks are S apart (g / S of them in a node): on other nodes whenever
    // there is more than one.
    z.ar = x.replica_all_reduces * (allreduce_seconds(x.weight_elem * x.P / S, R,
                                                      c.nodes > 1 ? bottleneck_gbytes_per_s(c, x.g / S) : intra_node_bus_gbytes_per_s(c)) +
                                    (R > 1 ? ring_latency_seconds(c, R, x.s.assumptions.collective_latency_seconds) : 0.0));
}

// Communication on the bottleneck link, plus a launch latency per bucket. The ZeRO group's
// ranks in one node (collectives.h): rank order puts the tensor-parallel ranks innermost, then
// data (and Ulysses), then pipeline (DeepSpeed's PipeModelDataParallelTopology axes
// ['pipe', 'data', 'model']; Megatron's parallel_state.py), so a node holds g / t of them.
ZeroCollectives zero_collectives(const StepContext& x) {
    const Scenario& s = x.s;
    const double N = x.N, P = x.P;
    ZeroCollectives z;
    const double zero_ranks_per_node = std::min(N, std::max(1.0, x.g / x.tp));
    z.bus = bottleneck_gbytes_per_s(x.c, zero_ranks_per_node);
    z.v = comm_volume(P, x.stage, x.gas, s.training, s.zero);
    if (x.u > 1 && (x.stage == 1 || x.stage == 2) && !is_fsdp(s.fsdp)) {
        // DeepSpeed-Ulysses: ZeRO-1/2 reduce the gradients in fp32 (stage_1_and_2.py allreduce_bucket:
        // "if pg_correctness_test or self.sequence_parallel_size > 1: communication_data_type =
        // torch.float32"); at these stages the all-reduced and reduce-scattered bytes are the
        // gradients', the all-gathered the 16-bit parameters'.
        const double fp32 = 4.0 / bytes_per_element(s.training.precision);
        z.v.allreduce_bytes *= fp32;
        z.v.reduce_scatter_bytes *= fp32;
    }
    if (is_fsdp(s.fsdp)) {
        // SHARD_GRAD_OP reduce-scatters its gradients (DeepSpeed's bucket switch is not FSDP's).
        if (x.stage == 2) {
            z.v.reduce_scatter_bytes += z.v.allreduce_bytes;
            z.v.allreduce_bytes = 0;
        }
        // Under no_sync the accumulated unsharded gradient is reduce-scattered once, in the last micro step.
        z.v.reduce_scatter_bytes *= x.gradient_reduces / x.G;
        // FSDP reduces gradients in the gathered dtype too (fp32 under autocast, no reduce_dtype).
        const double dtype_ratio = x.weight_elem / bytes_per_element(s.training.precision);
        z.v.reduce_scatter_bytes *= dtype_ratio;
        z.v.allreduce_bytes *= dtype_ratio;
        z.v.allgather_bytes *= dtype_ratio;
    }
    // Frozen weights are gathered too, as stored; the backward skips what the forward kept.
    if (x.stage == 3) z.v.allgather_bytes = (x.forward_gather_share + x.backward_gather_share) * x.whole_weights * x.G;
    // MiCS and FSDP's HYBRID_SHARD: the rings are the shard groups (core/model/mics.h).
    const MicsGroups mics = replicated_shard_groups(s);
    const double ring = mics.on() ? static_cast<double>(mics.shard) : N;
    // A longer ring, more hops; a shard group inside a node has no network hop.
    z.lat = mics.on() && !mics.crosses_nodes ? s.assumptions.collective_latency_seconds
                                             : ring_latency_seconds(x.c, ring, s.assumptions.collective_latency_seconds);
    z.ar = allreduce_seconds(z.v.allreduce_bytes, N, z.bus);
    z.rs = reduce_scatter_seconds(z.v.reduce_scatter_bytes, N, z.bus);
    z.ag = allgather_seconds(z.v.allgather_bytes, N, z.bus);
    if (x.split.expert > 0 && P > 0) {
        // Expert parallelism: the routed experts' gradients and updated partitions go over the
        // expert-data-parallel group of DP / EP ranks (stage_1_and_2.py _configure_moe_settings;
        // at stage 0 engine.py _reduce_expert_gradients), the rest over DP.
        const double Ne = static_cast<double>(expert_data_parallel_size(s));
        const double dense = (P - x.split.expert) / P, expert = x.split.expert / P;
        z.ar = allreduce_seconds(z.v.allreduce_bytes * dense, N, z.bus) + allreduce_seconds(z.v.allreduce_bytes * expert, Ne, z.bus);
        z.rs = reduce_scatter_seconds(z.v.reduce_scatter_bytes * dense, N, z.bus) +
               reduce_scatter_seconds(z.v.reduce_scatter_bytes * expert, Ne, z.bus);
        z.ag = allgather_seconds(z.v.allgather_bytes * dense, N, z.bus) + allgather_seconds(z.v.allgather_bytes * expert, Ne, z.bus);
    }
    if (x.stage == 3 && N > 1) {
        const ZeroPlusPlus zpp = effective_zeropp(s);
        if (zpp.any()) apply_zeropp(x, zpp, z);
    }
    if (x.stage >= 2 && mics.on()) apply_mics(x, mics, z);  // MiCS at stage 3 only; _HYBRID_SHARD_ZERO2 at 2
    return z;
}

// Overlap: the exposed part of each ZeRO collective (the schedule in the comment above).
// f = Assumptions::comm_overlap_fraction of each compute window.
void add_exposed_zero_collectives(const StepContext& x, const ZeroCollectives& z, StepTime& st) {
    const Scenario& s = x.s;
    const double G = x.G, ar = z.ar, rs = z.rs, ag = z.ag, lat = z.lat;
    st.comm_total_seconds = ar + rs + ag + static_cast<double>(z.v.collectives) * lat;
    if (x.N <= 1) return;
    const double f = overlap_fraction(s);
    const double forward = st.compute.forward_seconds, backward = st.compute.backward_seconds;
    switch (x.stage) {
    case 0: st.exposed_allreduce_seconds = ar + static_cast<double>(z.v.collectives) * lat; break;
    case 1:
        st.exposed_allreduce_seconds =
            exposed_seconds(ar + static_cast<double>(launches(x.P, s.zero.reduce_bucket_elems)) * lat, f * backward);
        st.exposed_allgather_seconds = ag + lat;  // after the step, before the next forward
        break;
    case 2: {
        // Each micro step's gradient reduce: all-reduced buckets (ar) or reduce-scattered (rs), one of them.
        const double buckets = static_cast<double>(launches(x.P, s.zero.reduce_bucket_elems));
        // FSDP under no_sync: one reduce, behind the last micro step's backward.
        const double reduces = x.gradient_reduces;
        const double reduce = reduces * exposed_seconds((ar + rs) / reduces + buckets * lat, f * backward);
        if (ar > 0 && rs > 0) {
            // _HYBRID_SHARD_ZERO2: each reduce-scatter inside the node, then its all-reduce across nodes.
            st.exposed_reduce_scatter_seconds = reduces * exposed_seconds(rs / reduces + buckets * lat, f * backward);
            st.exposed_allreduce_seconds = reduce - st.exposed_reduce_scatter_seconds;
        } else {
            (ar > 0 ? st.exposed_allreduce_seconds : st.exposed_reduce_scatter_seconds) = reduce;
        }
        st.exposed_allgather_seconds = ag + lat;
        break;
    }
    default: {
        // Per micro step: a gather of S in forward, a gather of S and a reduce-scatter of S in backward.
        const LayerModules& modules = x.modules;
        // How far the gathers run ahead of the module computing: stage3_max_live_parameters where
        // the prefetch fills it (layer_modules.h zero3_prefetch_fills_max_live, as the memory model
        // holds it), else one prefetch bucket or the next module.
        const double lookahead = zero3_prefetch_fills_max_live(s.model, s.zero, modules)
                                     ? s.zero.stage3_max_live_parameters
                                     : zero3_prefetch_elems(s.zero, modules.largest_params);
        // FSDP gathers a unit (a decoder layer) at a time and prefetches the next one
        // (BACKWARD_PRE; in forward the CPU issues the next unit's all-gather while this one
        // computes, up to limit_all_gathers' two in flight): a whole layer ahead.
        const double ahead = is_fsdp(s.fsdp) ? 1.0
                                             : std::min({1.0, lookahead / std::max(modules.layer_params, 1.0),
                                                         s.zero.stage3_max_live_parameters / std::max(2 * modules.layer_params, 1.0)});
        const double L = static_cast<double>(s.model.layers);
        // Gathers per micro step: every layer's modules in forward, those not kept in backward.
        const double gathers = modules.gathered * (L + x.backward_gathered_layers);
        const double ag_micro = ag / ((x.forward_gather_share + x.backward_gather_share) * G);
        const double ag_forward = x.forward_gather_share * ag_micro, ag_backward = x.backward_gather_share * ag_micro;
        const double reduces = x.gradient_reduces;  // FSDP under no_sync: one
        const double rs_micro = rs / reduces;
        const double fwd = exposed_seconds(ag_forward, f * ahead * forward);
        const double bwd_ag = exposed_seconds(ag_backward, f * ahead * backward);
        const double bwd_rs = exposed_seconds(rs_micro, std::max(0.0, f * backward - (ag_backward - bwd_ag)));
        st.exposed_allgather_seconds = G * (fwd + bwd_ag);
        st.exposed_reduce_scatter_seconds = reduces * bwd_rs;
        // MiCS's replica all-reduce runs in the last micro step's gradient reduction, on the same
        // stream (partition_grads, called from __reduce_and_partition_ipg_grads): what it adds there.
        // HYBRID_SHARD's follows each of its reduces (apply_mics).
        if (ar > 0) {
            const double syncs = x.replica_all_reduces;
            st.exposed_allreduce_seconds =
                syncs * (exposed_seconds(rs_micro + ar / syncs, std::max(0.0, f * backward - (ag_backward - bwd_ag))) - bwd_rs);
        }
        // Launch latency of each module's gather, waited on for the part not prefetched.
        st.zero3_overhead_seconds += G * gathers * lat * (1 - ahead * f) + z.zeropp_kernel_seconds;
        break;
    }
    }
}

// Tensor, pipeline, expert and Ulysses communication: on the compute stream, exposed.
void add_model_parallel_comm(const StepContext& x, StepTime& st) {
    const Scenario& s = x.s;
    const Cluster& c = x.c;
    const Parallelism& par = s.parallel;
    const double G = x.G;
    // Megatron's tensor-parallel collectives run on the compute stream, every layer (Shoeybi et al.
    // 2019 Sec. 3: two all-reduces in forward, two in backward, two more when a layer is recomputed;
    // with sequence parallelism each becomes an all-gather and a reduce-scatter of the same bytes,
    // Korthikanti Sec. 4.2.2), over the t GPUs of a node: exposed.
    const double layer_activation = x.weight_elem * static_cast<double>(s.training.seq_len) * static_cast<double>(s.training.micro_batch) *
                                    static_cast<double>(s.model.hidden);
    if (par.tensor > 1) {
        const double per_layer = 4.0 + (s.training.checkpointing == Checkpointing::Full ? 2.0 : 0.0);
        const double count = per_layer * x.stage_layers * G;
        st.tensor_parallel_seconds =
            count * (allreduce_seconds(layer_activation, x.tp, intra_node_bus_gbytes_per_s(c)) + s.assumptions.collective_latency_seconds);
        // More ranks than key/value groups (tensor_replicates_kv_groups): megatron/core/transformer/
        // attention.py all-gathers each layer's QKV output over the tensor ranks (all_gather_last_dim_
        // from_tensor_parallel_region), (q + 2 kv) wide for every token; its backward reduce-scatters
        // the gradient, and a recomputed layer gathers again.
        if (tensor_replicates_kv_groups(s.model, par.tensor)) {
            const ModelSpec& m = s.model;
            const double qkv_width = static_cast<double>((m.heads + 2 * m.kv_heads) * m.head_dim);
            const double qkv_bytes = layer_activation / static_cast<double>(m.hidden) * qkv_width;
            const double gathers = 2.0 + (s.training.checkpointing == Checkpointing::Full ? 1.0 : 0.0);
            st.tensor_parallel_seconds +=
                gathers * x.stage_layers * G *
                (allgather_seconds(qkv_bytes, x.tp, intra_node_bus_gbytes_per_s(c)) + s.assumptions.collective_latency_seconds);
        }
        // Partitioned checkpoints (DeepSpeed checkpointing.py gather_partitioned_activations): one
        // all_gather of the layer's input over the tensor ranks before each recomputed layer, on
        // the compute stream. Sequence parallelism's own gathers are counted above.
        if (s.training.partition_activations && s.training.checkpointing == Checkpointing::Full && !par.sequence_parallel)
            st.tensor_parallel_seconds +=
                x.stage_layers * G *
                (allgather_seconds(layer_activation, x.tp, intra_node_bus_gbytes_per_s(c)) + s.assumptions.collective_latency_seconds);
    }
    if (x.u > 1) {
        st.ulysses_seconds = ulysses_all_to_all_seconds(s) * G;
        st.comm_total_seconds += st.ulysses_seconds;
    }
    if (par.pipeline > 1) {
        // Point-to-point between stages, each micro step: the activation forward and its gradient
        // backward, blocking on the compute stream. Each tensor rank sends a t-th of it (DeepSpeed's
        // PipelineEngine, Megatron-LM's scatter/gather; Megatron's sequence parallelism), or the
        // whole (Megatron-Core) (Parallelism::pipeline_send). Stages are N/p ranks apart (pipeline
        // outermost): across the network once a stage fills a node.
        const bool crosses_nodes = c.nodes > 1 && c.world_size() / par.pipeline >= c.gpus_per_node;
        const double link = crosses_nodes ? inter_node_bus_gbytes_per_s(c) : intra_node_bus_gbytes_per_s(c);
        const PipelineSend send = effective_pipeline_send(s);
        const bool tensor_slice = send == PipelineSend::ScatterGather || par.sequence_parallel;
        const double sent = tensor_slice ? layer_activation / x.tp : layer_activation;
        const double latency = s.assumptions.collective_latency_seconds;
        // The receiver all-gathers a scattered slice over the tensor ranks before using it
        // (DeepSpeed's PartitionedTensor.full(), Megatron-LM's gather_split_1d_tensor), on the
        // compute stream; with sequence parallelism the slice is the next stage's input as it is.
        // DeepSpeed's engine also re-gathers a stage's own output before its backward
        // (_exec_backward_pass, part_output.full()): one more such gather a micro step, not counted.
        const bool gathered = send == PipelineSend::ScatterGather && !par.sequence_parallel && par.tensor > 1;
        const double gather = gathered ? allgather_seconds(layer_activation, x.tp, intra_node_bus_gbytes_per_s(c)) + latency : 0.0;
        st.pipeline_p2p_seconds = G * 2.0 * (sent / (link * kBytesPerGB) + latency + gather);
    }
    if (uses_expert_parallelism(s)) {
        // DeepSpeed-MoE (sharded_moe.py MOELayer.forward; Rajbhandari et al. 2022 Sec. 5, GShard
        // Algorithm 2): every MoE layer sends the (experts, capacity, h) tensor to the expert-parallel
        // group and the outputs back, and each backward does both again (_AllToAll.backward): four
        // per MoE layer and micro step, six with full recompute. They run on the compute stream
        // between the gate and the experts: exposed. A rank sends (EP-1)/EP of its tensor, which
        // nccl-tests' all-to-all moves at the link's bus bandwidth (busBw = algBw x (n-1)/n); the group
        // is EP consecutive data-parallel ranks, inside a node when tensor x EP divides it.
        const double link = expert_group_inside_node(s) ? intra_node_bus_gbytes_per_s(c) : inter_node_bus_gbytes_per_s(c);
        const double moe_stage_layers = static_cast<double>(moe_layers(s.model)) * x.stage_layers / x.layers;
        const double count = static_cast<double>(all_to_alls_per_layer(s)) * moe_stage_layers * G;
        st.expert_all_to_all_seconds = count * (all_to_all_bytes(s) / (link * kBytesPerGB) + s.assumptions.collective_latency_seconds);
        st.comm_total_seconds += st.expert_all_to_all_seconds;
    }
}

// PyTorch FSDP's CPUOffload(offload_params=True), which moves parameters and gradients together
// (torch/distributed/fsdp/_flat_param.py): init_flat_param_attributes pins the host shard ("Pin the
// memory for faster H2D transfer") and a sharded gradient buffer (_cpu_grad); pre_unshard copies
// the shard to the GPU non_blocking on the unshard stream, ahead of its all-gather, for forward and,
// under FULL_SHARD, again for backward; the post-backward hook copies the reduced gradient shard into
// _cpu_grad non_blocking; torch.optim steps the host shard in place, and the next pre_unshard brings
// it up, so nothing comes up after the step. The copies share the unshard stream's window with the
// all-gathers (`hidden_allgather_seconds`, the part of them already behind compute): what exceeds
// f x (forward + backward) is exposed. The host step is torch.optim's on CPU tensors: DeepSpeed's
// CPU Adam rate (Cluster::cpu_adam_params_per_second) over host_rates::kTorchCpuAdamSlowdown.
void add_fsdp_cpu_offload(const StepContext& x, double hidden_allgather_seconds, StepTime& st) {
    const Scenario& s = x.s;
    const double f = overlap_fraction(s);
    const double pcie = host_rates::host_link_bytes_per_second(x.c.pcie_gbytes_per_s, true);
    const double shard_bytes = (fsdp_storage_bytes(s) * x.P + x.split.frozen_bytes + x.split.quant_state_bytes) / x.shard;
    const double passes = x.stage == 3 ? 2.0 : 1.0;
    // The reduced gradient shard comes down every micro step, or once under no_sync (fsdp_memory.h).
    const double copies =
        (passes * shard_bytes + fsdp_storage_bytes(s) * x.partition_elems * x.gradient_reduces / x.G) / pcie;  // per micro step
    const double window = f * (st.compute.forward_seconds + st.compute.backward_seconds);
    st.pcie_seconds += x.G * exposed_seconds(copies + hidden_allgather_seconds / x.G, window);
    st.cpu_optimizer_seconds = (x.partition_elems * x.g) * host_rates::kTorchCpuAdamSlowdown / x.c.cpu_adam_params_per_second;
}

// Offload (ZeRO-Offload arXiv 2101.06840 Sec. 4; ZeRO-Infinity arXiv 2104.07857 Sec. 5-6); FSDP's
// CPUOffload above. `hidden_allgather_seconds`: the ZeRO-3/FSDP all-gathers' time behind compute.
void add_offload(const StepContext& x, double hidden_allgather_seconds, StepTime& st) {
    const Scenario& s = x.s;
    const Cluster& c = x.c;
    const double G = x.G, g = x.g;
    const double f = overlap_fraction(s);
    const double backward = st.compute.backward_seconds;
    const bool pinned = s.zero.pin_memory;
    const double pcie = host_rates::host_link_bytes_per_second(c.pcie_gbytes_per_s, pinned);
    const double nvme = c.nvme_gbytes_per_s * kBytesPerGB;
    if (is_fsdp(s.fsdp) && x.cpu_optimizer) {
        add_fsdp_cpu_offload(x, hidden_allgather_seconds, st);
    } else if (x.cpu_optimizer) {
        // 16-bit gradients of the partition go down from the reduction hooks every micro step
        // (stage_1_and_2.py async_inplace_copy_grad_to_fp32_buffer_from_gpu, on the copy stream:
        // hidden up to f x backward); the CPU step (csrc/adam/cpu_adam_impl.cpp) runs after backward
        // on the node's share, then the updated 16-bit partition comes up: exposed. Into pageable
        // memory the copy blocks the host (host_rates.h): nothing of it is hidden.
        const double partition = x.partition_elems;
        const double down = 2.0 * partition / pcie;
        st.pcie_seconds += G * (pinned ? exposed_seconds(down, f * backward) : down) + 2.0 * partition / pcie;
        st.cpu_optimizer_seconds = (partition * g) / c.cpu_adam_params_per_second;  // the node's g ranks' partitions
        if (s.zero.offload_optimizer == OffloadDevice::Nvme) {
            // ZeRO-Infinity swaps the fp32 master and the moments in and out around the CPU step
            // (deepspeed/runtime/swap_tensor/partitioned_optimizer_swapper.py). DeepSpeed's default
            // pipeline_read/pipeline_write = false (zero/offload_config.py) runs them in turn.
            const double state_bytes = (4.0 + optimizer_moment_bytes_per_param(s.training.optimizer)) * partition * g;
            st.nvme_seconds += 2.0 * state_bytes / nvme;
        }
    }
    if (s.zero.offload_param != OffloadDevice::None && !is_fsdp(s.fsdp)) {
        // Each rank brings its 16-bit partition to the GPU for forward and for backward, every
        // micro step (parameter_offload.py, on the gather path: not hidden).
        st.pcie_seconds += 2.0 * (x.whole_weights / x.shard) * G / pcie;
        // With the optimizer on the GPU (offload_param alone), the step writes each updated fp32
        // partition into the host's 16-bit one (stage3.py _reassign_or_swap_out_partitioned_parameters:
        // fp16_partitioned_groups_flat[i].copy_(fp32_partitioned_groups_flat[i]); for NVMe, through the
        // pinned swap buffers first): once a step, on the step's path, exposed.
        if (!x.cpu_optimizer) st.pcie_seconds += x.weight_elem * x.partition_elems / pcie;
        if (s.zero.offload_param == OffloadDevice::Nvme) {
            // The node's partitions come up from NVMe for forward and backward, every micro step, ahead
            // of use: the coordinator swaps in the partitions of the parameters next in its trace
            // (partitioned_param_coordinator.py __prefetch_nvme_param_partitions, swap_in(async_op=True),
            // as many as the swapper has free buffers), so they read while the layers before compute
            // (ZeRO-Infinity Sec. 6.2's overlap-centric design): exposed past that share of the
            // micro step. The updated 16-bit partition goes back after the optimizer step: exposed.
            const double reads = 2.0 * x.whole_weights / x.shard * g / nvme;
            const double window = s.assumptions.comm_overlap_fraction * (st.compute.forward_seconds + backward);
            st.nvme_seconds += G * exposed_seconds(reads, window) + x.weight_elem * x.P / x.shard * g / nvme;
        }
    }
    if (s.training.cpu_checkpointing && s.training.checkpointing == Checkpointing::Full) {
        // Activation checkpoints in host memory: each layer's input goes down in forward and comes
        // back in backward, every micro step. ArcticTraining's offload (monkey_patches.py) copies
        // with a blocking .to("cpu") into pageable memory: on the compute path, nothing hidden.
        // What goes down is what activation_bytes keeps on the host (cpu_bytes_per_gpu, every layer's input).
        const double checkpoints = activation_bytes(s.model, s.training, s.finetune, s.parallel).cpu_bytes_per_gpu;
        st.pcie_seconds += G * 2.0 * checkpoints / host_rates::host_link_bytes_per_second(c.pcie_gbytes_per_s, false);
    }
    st.offload_seconds = st.pcie_seconds + st.cpu_optimizer_seconds + st.nvme_seconds;
}

// The data pipeline (Training::data_seconds_per_sample): each process reads, tokenizes and collates
// the samples of its G micro batches (with sequence parallelism every rank of the group loads the
// same ones and keeps its shard: the step's samples per data-parallel rank), W dataloader workers
// in parallel (torch DataLoader num_workers; 0: the main process). PyTorch's DataLoader prefetches
// (prefetch_factor batches a worker) and CUDA runs kernels asynchronously, so loading proceeds while
// the GPUs work: a step waits only for what loading takes past the rest of the step. A slow
// pipeline bounds the step at its own pace, whatever the sequence length or GPU count.
void add_data_wait(const StepContext& x, StepTime& st) {
    const Training& t = x.s.training;
    if (!(t.data_seconds_per_sample > 0)) return;
    const double workers = static_cast<double>(std::max<std::int64_t>(t.dataloader_workers, 1));
    const double loading = x.G * static_cast<double>(t.micro_batch) * t.data_seconds_per_sample / workers;
    st.data_wait_seconds = std::max(0.0, loading - (st.compute_seconds + st.comm_seconds + st.offload_seconds));
}

StepTime estimate_step_with(const Scenario& s, ComputeTimeMemo* memo, const ParameterSplit* known_split) {
    const Cluster& c = s.cluster;
    StepContext x{.s = s, .c = c, .split = {}, .modules = {}};
    x.N = static_cast<double>(zero_partition_size(s));
    x.shard = static_cast<double>(zero_shard_size(s));
    x.g = static_cast<double>(c.gpus_per_node);
    x.split = known_split ? *known_split : cached_split(memo, s);
    x.P = x.split.trainable;
    x.weight_elem = bytes_per_element(s.training.precision);
    // FSDP gathers and reduces in its gathered dtype (fp32 under Autocast: core/memory/fsdp_memory.h).
    if (is_fsdp(s.fsdp)) x.weight_elem = fsdp_gathered_bytes(s);
    x.whole_weights = x.weight_elem * x.P + x.split.frozen_bytes + x.split.quant_state_bytes;
    StepTime st;
    const std::int64_t data_parallel = data_parallel_size(s);
    st.gradient_accumulation_steps = gradient_accumulation_steps(s.training, data_parallel);
    x.gas = st.gradient_accumulation_steps;
    x.G = static_cast<double>(x.gas);
    x.gradient_reduces = fsdp_accumulates_unsharded_gradients(s, x.gas) ? 1.0 : x.G;
    x.replica_all_reduces = is_fsdp(s.fsdp) ? x.gradient_reduces : 1.0;
    const double global = static_cast<double>(effective_global_batch(s.training, data_parallel));
    st.tokens_per_step = global * static_cast<double>(s.training.seq_len);
    const StepFlops flops = step_flops(s, st.tokens_per_step);
    st.model_flops = flops.model;
    st.hardware_flops = flops.hardware;

    x.stage = s.zero.stage;
    x.cpu_optimizer = s.zero.offload_optimizer != OffloadDevice::None;
    x.partition_elems = zero_partition_elems(s, x.split);
    if (x.stage == 3) x.modules = is_fsdp(s.fsdp) ? fsdp_unit_modules(s.model) : cached_modules(memo, s);
    const Parallelism& par = s.parallel;
    x.tp = static_cast<double>(par.tensor);
    x.pp = static_cast<double>(par.pipeline);
    x.layers = model_layers(s);
    x.stage_layers = stage_layers(s);
    x.u = static_cast<double>(ulysses_size(par));
    x.backward_gathered_layers = x.layers;
    if (x.stage == 3 && !is_fsdp(s.fsdp)) {
        const Zero3Kept kept = zero3_kept_for_backward(s.model, x.modules.layer_params, s.training, x.P + x.split.frozen);
        x.forward_gather_share = kept.forward_gather_share;
        x.backward_gather_share = kept.backward_gather_share;
        x.backward_gathered_layers = x.layers - kept.layers;
    }

    add_compute(x, memo, st);
    const ZeroCollectives zero = zero_collectives(x);
    add_exposed_zero_collectives(x, zero, st);
    add_model_parallel_comm(x, st);
    st.comm_seconds = st.exposed_allreduce_seconds + st.exposed_reduce_scatter_seconds + st.exposed_allgather_seconds +
                      st.zero3_overhead_seconds + st.tensor_parallel_seconds + st.pipeline_p2p_seconds + st.expert_all_to_all_seconds +
                      st.ulysses_seconds;
    add_offload(x, x.N > 1 ? zero.ag - st.exposed_allgather_seconds : 0.0, st);
    add_data_wait(x, st);

    const double world = static_cast<double>(c.world_size());
    st.seconds = st.compute_seconds + st.comm_seconds + st.offload_seconds + st.data_wait_seconds;
    st.tokens_per_second = st.tokens_per_step / st.seconds;
    st.model_tflops_per_gpu = st.model_flops / st.seconds / world / 1e12;
    st.mfu = st.model_tflops_per_gpu / c.gpu.peak_tflops_16bit;
    st.slowdown_percent = (st.seconds / st.compute_seconds - 1.0) * 100.0;
    st.budget_seconds = s.assumptions.token_budget / st.tokens_per_second;
    st.budget_gpu_hours = st.budget_seconds * world / 3600.0;
    return st;
}

}  // namespace

StepTime estimate_step(const Scenario& s) { return estimate_step_with(s, nullptr, nullptr); }

StepTime estimate_step(const Scenario& s, const ParameterSplit& rank_split) { return estimate_step_with(s, nullptr, &rank_split); }

double step_seconds_lower_bound(const Scenario& s) {
    const std::int64_t gas = gradient_accumulation_steps(s.training, data_parallel_size(s));
    const ComputeTime ct = compute_time(s.model, s.training, s.cluster.gpu, gas, 0.0, compute_scale(s), launches_only(s), s.finetune,
                                        routed_slots(s), rank_share(s.parallel), s.assumptions.gemm_efficiency_scale,
                                        s.assumptions.flash_attention_scale, recompute_stops_early(s), metric_bytes_per_logit(s));
    const double micro = s.parallel.pipeline > 1 ? slowest_stage_time(s, ct, gas).micro_step_seconds : ct.micro_step_seconds;
    return (static_cast<double>(gas) + bubble_micro_steps(s.parallel, ct.micro_step_seconds, micro)) * micro;
}

StepTime estimate_step(const Scenario& s, ComputeTimeMemo& memo) { return estimate_step_with(s, &memo, nullptr); }

}  // namespace zp
