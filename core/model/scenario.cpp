#include "core/model/scenario.h"

#include "core/base/errors.h"
#include "core/base/units.h"
#include "core/model/batch_rule.h"
#include "core/model/deepspeed_release.h"
#include "core/model/experts.h"
#include "core/model/limits.h"
#include "core/model/linear_modules.h"
#include "core/model/mics.h"
#include "core/model/trainable_params.h"

#include <algorithm>
#include <cmath>

namespace zp {

std::int64_t effective_global_batch(const Training& t, std::int64_t world_size) {
    if (t.global_batch > 0) return t.global_batch;
    // Within the global batch's own range (a hand-written session may hold anything up to 2^53).
    const std::int64_t wanted = std::clamp<std::int64_t>(t.automatic_batch_sequences, 1, limits::kGlobalBatch.max);
    return next_multiple(wanted, t.micro_batch * world_size);
}

std::string nearest_multiples(std::int64_t n, std::int64_t step) {
    if (step <= 0) return "";
    const std::int64_t below = n / step * step, above = below < n ? below + step : below;
    if (below <= 0 || below == above) return std::to_string(above);
    return std::to_string(below) + " or " + std::to_string(above);
}

std::int64_t gradient_accumulation_steps(const Training& t, std::int64_t world_size) {
    const std::int64_t global = effective_global_batch(t, world_size);
    const BatchRule r = deepspeed_batch_rule(global, t.micro_batch, std::nullopt, world_size);
    if (!r.error.empty()) {
        // DeepSpeed's world size here is the data-parallel ranks, not the GPUs: under tensor or
        // pipeline parallelism the two differ, so the advice names the ranks and the batches that work.
        // What is wrong and what to do first, DeepSpeed's own words after them.
        const std::int64_t step = t.micro_batch * world_size;
        std::string message = "global batch " + std::to_string(global) + " does not split into micro batches of " +
                              std::to_string(t.micro_batch) + " over " + std::to_string(world_size) +
                              " data-parallel GPUs: make it a multiple of micro batch x data-parallel GPUs";
        if (step > 0) message += " = " + std::to_string(step) + ", such as " + nearest_multiples(global, step);
        throw InputError(message + " (DeepSpeed: \"" + r.error + "\")");
    }
    return r.gas;
}

namespace {

// Throws "<what> must be [kind ]<range>[unit]" unless `v` is in `r` (core/model/limits.h).
template <class T>
void check(const limits::Range<T>& r, T v, const std::string& what, const std::string& unit = "", const std::string& kind = "") {
    if (!r.contains(v)) throw InputError(what + " must be " + kind + limits::describe(r) + unit + ", got " + limits::format_limit(v));
}

// DeepSpeed-Ulysses' constraints, each where DeepSpeed or Megatron-DeepSpeed refuses it.
void validate_ulysses(const Scenario& s) {
    const Parallelism& p = s.parallel;
    const ModelSpec& m = s.model;
    const std::int64_t u = p.ulysses;
    if (u <= 1) return;
    const std::string sp = "Ulysses sequence parallelism " + std::to_string(u);
    // Megatron-DeepSpeed megatron/initialize.py _initialize_distributed: "sequence_parallel_size > 1
    // enables DeepSpeed's sequence parallel, which is not compatible with Megatron-LM's sequence parallel".
    if (p.sequence_parallel)
        throw InputError(sp + " does not combine with Megatron's --sequence-parallel (Megatron-DeepSpeed's initialize.py refuses both)");
    // Megatron-DeepSpeed megatron/core/parallel_state.py initialize_model_parallel asserts "DeepSpeed's
    // sequence parallel does not work with tensor parallel or pipeline parallel"; DeepSpeed's own
    // groups (runtime/sequence_parallel/parallel_state_sp.py) are sequence x data only.
    if (p.tensor > 1 || p.pipeline > 1)
        throw InputError(
            sp + " runs without tensor and pipeline parallelism (Megatron-DeepSpeed: \"DeepSpeed's sequence parallel does not work " +
            "with tensor parallel or pipeline parallel\"); use --tp 1 --pp 1");
    // DeepSpeed-MoE's expert groups (utils/groups.py) are built over the data-parallel ranks without
    // the sequence-parallel ones; the planner does not model the two together.
    if (p.expert > 1)
        throw InputError(sp + " with expert parallelism " + std::to_string(p.expert) + " is not modelled; use --ep 1 or --sp 1");
    // parallel_state_sp.py initialize_sequence_parallel: "world_size ... is not divisible by sequence_parallel_size".
    const std::int64_t N = s.cluster.world_size();
    if (N % u != 0)
        throw InputError(std::to_string(N) + " GPUs do not split into " + sp + " groups: the GPU count must be a multiple of " +
                         std::to_string(u));
    // DeepSpeed runtime/sequence_parallel/ulysses_sp.py UlyssesSPAttentionHF: "Attention head count ... is not
    // divisible by SP size"; each rank attends with heads/SP of them over the whole sequence.
    if (m.heads % u != 0)
        throw InputError(sp + " must divide the attention heads (" + std::to_string(m.heads) + "): each rank attends with heads/" +
                         std::to_string(u));
    // The same class, GQA: "KV attention head count ... is not divisible by SP size ... or vice versa";
    // with SP above the key/value heads it replicates them (repeat_interleave) to one per rank.
    if (m.kv_heads % u != 0 && u % m.kv_heads != 0)
        throw InputError(sp + " must divide the key/value heads (" + std::to_string(m.kv_heads) +
                         ") or be a multiple of them (DeepSpeed replicates key/value heads when SP exceeds them)");
    // Each rank holds seq/SP tokens (ulysses_sp.py: local_seq_length = seq_length // sp; the ALST
    // tutorial: "it has to be divisible by sequence_parallel_size").
    if (s.training.seq_len % u != 0)
        throw InputError(sp + " must divide the sequence length (" + std::to_string(s.training.seq_len) + "): each rank holds seq/" +
                         std::to_string(u) + " tokens");
}

}  // namespace

// Megatron-DeepSpeed's constraints (megatron/arguments.py, mpu/initialize.py; DeepSpeed
// runtime/pipe/engine.py).
void validate_parallelism(const Scenario& s) {
    const Parallelism& p = s.parallel;
    const ModelSpec& m = s.model;
    const std::int64_t N = s.cluster.world_size();
    if (p.tensor < 1 || p.pipeline < 1 || p.virtual_stages < 1 || p.ulysses < 1)
        throw InputError("tensor, pipeline, Ulysses sequence-parallel and virtual pipeline sizes must be at least 1");
    if (N % p.model_parallel() != 0)
        throw InputError(std::to_string(N) + " GPUs do not split into tensor " + std::to_string(p.tensor) + " x pipeline " +
                         std::to_string(p.pipeline) + " x data-parallel groups: the GPU count must be a multiple of " +
                         std::to_string(p.model_parallel()));
    validate_ulysses(s);
    if (p.tensor > 1 && s.cluster.gpus_per_node % p.tensor != 0)
        throw InputError("tensor parallelism " + std::to_string(p.tensor) + " must divide the " + std::to_string(s.cluster.gpus_per_node) +
                         " GPUs per node: its all-reduces run every layer and need NVLink");
    if (!tensor_splits_attention(m, p.tensor)) {
        // Each tensor rank takes whole query heads and whole key/value groups, or, past the groups,
        // an equal share of one group's query heads (tensor_splits_attention); the largest size
        // that does is what can be asked instead.
        std::int64_t fits = 1;
        for (std::int64_t t = p.tensor - 1; t > 1 && fits == 1; --t)
            if (tensor_splits_attention(m, t) && s.cluster.gpus_per_node % t == 0) fits = t;
        throw InputError("tensor parallelism " + std::to_string(p.tensor) + " must divide the attention heads (" + std::to_string(m.heads) +
                         ") and divide or be a multiple of the key/value heads (" + std::to_string(m.kv_heads) +
                         "): Megatron gives each tensor rank whole heads and whole key/value groups or an equal share of one; use "
                         "tensor " +
                         std::to_string(fits) + " or less, with pipeline, ZeRO or data parallelism for the rest");
    }
    if (!tensor_runs_stage(m, p, s.zero.stage))
        throw InputError("tensor parallelism " + std::to_string(p.tensor) + " past the " + std::to_string(m.kv_heads) +
                         " key/value heads runs in Megatron-Core, whose distributed optimizer (--use-distributed-optimizer) "
                         "partitions the optimizer states as ZeRO-1 does; ZeRO-2 and 3 are DeepSpeed's: use --stage 0 or 1");
    if (p.pipeline > m.layers)
        throw InputError("pipeline " + std::to_string(p.pipeline) + " has more stages than the model's " + std::to_string(m.layers) +
                         " layers");
    // DeepSpeed's PipelineModule spreads layers unevenly when they do not divide (the most loaded
    // stage takes the ceiling); Megatron's interleaved schedule needs equal chunks.
    if (p.virtual_stages > 1 && m.layers % (p.pipeline * p.virtual_stages) != 0)
        throw InputError("pipeline " + std::to_string(p.pipeline) + " x virtual stages " + std::to_string(p.virtual_stages) +
                         " must divide the " + std::to_string(m.layers) + " layers");
    if (!pipeline_runs_stage(p, s.zero.stage))
        throw InputError(
            "pipeline parallelism works with ZeRO stage 0 or 1 only: DeepSpeed's PipelineEngine asserts "
            "\"ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism\"; use --stage 0 or 1, or no pipeline");
    if (p.sequence_parallel && p.tensor < 2) throw InputError("Megatron sequence parallelism needs tensor parallelism of 2 or more");
    if (p.virtual_stages > 1 && p.pipeline < 2) throw InputError("virtual pipeline stages need pipeline parallelism of 2 or more");
    validate_experts(s);
}

namespace {
// What PyTorch FSDP runs (core/model/engine.h): its sharding strategies are stages 0, 2 and 3,
// CPUOffload moves parameters, gradients and the step to the host together, and the planner models
// it for data parallelism alone (no ZeRO++, MiCS, tensor, pipeline, expert or Ulysses ranks).
void validate_fsdp(const Scenario& s) {
    const FsdpSetup& f = s.fsdp;
    if (!is_fsdp(f)) {
        // Engine auto plans FSDP with it and DeepSpeed without (recommend_engines: with_engine).
        if (f.hybrid_shard && !f.auto_engine)
            throw InputError(
                "HYBRID_SHARD is PyTorch FSDP's (--engine fsdp or fsdp2); DeepSpeed's layout of states sharded inside a "
                "node and replicated across nodes is MiCS (--mics-shard-size with the GPUs per node)");
        return;
    }
    const ZeroSetup& z = s.zero;
    const std::string engine = to_string(f.engine);
    // Hybrid sharding shards inside each node, at stages 2 and 3; at NO_SHARD and on nodes of one
    // GPU it changes nothing (fsdp_hybrid_sharding: the plan and its exports are FULL_SHARD's, since
    // FSDP1's HYBRID_SHARD there falls back to NO_SHARD over one-GPU groups, _init_utils.py, a
    // warning only, and never synchronises the gradients across nodes).
    // FSDP2's words are fully_shard's arguments (zero_setups.h fsdp_setup_name), FSDP1's its strategies.
    const bool fsdp2 = f.engine == Engine::Fsdp2;
    const std::string offload = fsdp2 ? "offload_policy=CPUOffloadPolicy()" : "CPUOffload(offload_params=True)";
    const std::string stage2 = fsdp2 ? reshard_after_forward_argument(2) : "SHARD_GRAD_OP";
    const std::string stage3 = fsdp2 ? reshard_after_forward_argument(3) : "FULL_SHARD";
    if (z.stage == 1)
        throw InputError("engine " + engine + " has no optimizer-only sharding (ZeRO stage 1): use stage 2 (" + stage2 + ") or 3 (" +
                         stage3 + ")" + (fsdp2 ? "" : ", or 0 (NO_SHARD)"));
    if (f.engine == Engine::Fsdp2 && z.stage == 0)
        throw InputError("engine fsdp2 (fully_shard) always shards: use stage 2 or 3, or engine fsdp for NO_SHARD (stage 0)");
    if (z.offload_optimizer == OffloadDevice::Nvme || z.offload_param == OffloadDevice::Nvme)
        throw InputError("engine " + engine + " offloads to the CPU only (" + offload + "); NVMe offload is DeepSpeed's (ZeRO-Infinity)");
    if ((z.offload_optimizer == OffloadDevice::Cpu) != (z.offload_param == OffloadDevice::Cpu))
        throw InputError("engine " + engine + " offloads parameters, gradients and the optimizer step together (" + offload +
                         "): set offload_optimizer and offload_param both to cpu, or both to none");
    // PyTorch runs CPUOffload with every strategy, but SHARD_GRAD_OP keeps the whole 16-bit model
    // gathered through forward and backward and NO_SHARD the whole model: the planner models it at
    // FULL_SHARD, where it frees the GPU.
    if (z.offload_param == OffloadDevice::Cpu && z.stage != 3)
        throw InputError("engine " + engine + ": " + offload + " is planned with " + stage3 + " (stage 3) only, where it frees the GPU; " +
                         stage2 + " keeps the whole 16-bit model gathered from forward to backward" +
                         (fsdp2 ? "" : ", NO_SHARD the whole model") + ": use --stage 3, or no offload");
    // Pure fp16 (the model loaded in fp16, no MixedPrecision): AdamW's exp_avg_sq in fp16 underflows
    // ((1 - beta2) g^2 below fp16's 6e-8 for |g| under about 1e-3), and without a policy the
    // Trainer builds no GradScaler: the update diverges. bf16 has fp32's exponent range.
    if (f.precision == FsdpPrecision::Pure && s.training.precision == Precision::Fp16)
        throw InputError("engine " + engine +
                         ": pure fp16 (the model loaded in fp16, no MixedPrecision) keeps AdamW's second moment in fp16, where it "
                         "underflows, and has no loss scaling: use --precision bf16 for pure 16-bit, or --fsdp-precision mixed with fp16");
    if (zeropp_switches(z).any() || z.mics_shard_size > 1)
        throw InputError("engine " + engine + ": ZeRO++ (hpZ, qwZ, qgZ) and MiCS are DeepSpeed's; turn them off for FSDP");
    const Parallelism& p = s.parallel;
    if (p.tensor > 1 || p.pipeline > 1 || p.expert > 1 || p.ulysses > 1)
        throw InputError("engine " + engine +
                         " is planned for data parallelism only: tensor, pipeline, expert and Ulysses sizes must be 1");
    // The Trainer's and Accelerate's step is per_device_train_batch_size x gradient_accumulation_steps
    // x GPUs sequences: a global batch that is not a multiple has no such run. Said in those words
    // here; DeepSpeed's batch rule (gradient_accumulation_steps quotes its assertion) is not FSDP's.
    const Training& t = s.training;
    const std::int64_t step = (t.auto_micro_batch ? 1 : t.micro_batch) * data_parallel_size(s);
    if (t.global_batch > 0 && step > 0 && t.global_batch % step != 0)
        throw InputError("global batch " + std::to_string(t.global_batch) + " does not split over " +
                         std::to_string(data_parallel_size(s)) + " GPUs" +
                         (t.auto_micro_batch ? std::string() : " in micro batches of " + std::to_string(t.micro_batch)) + ": under " +
                         engine + " a step is per_device_train_batch_size x gradient_accumulation_steps x GPUs sequences, so make it a " +
                         "multiple of " + std::to_string(step) + ", such as " + nearest_multiples(t.global_batch, step));
}

// Op-level selective checkpointing (core/model/op_sac.h) is modelled where torchtitan applies it as
// the planner counts it: a dense decoder block trained whole, flash attention, data parallelism.
// Elsewhere the ops it saves are not the ones counted, so it is refused rather than guessed.
void validate_op_sac(const Scenario& s) {
    const Training& t = s.training;
    if (t.checkpointing != Checkpointing::SelectiveOp) return;
    const ModelSpec& m = s.model;
    const std::string what = "selective-op recompute (torchtitan's op-level selective activation checkpointing) ";
    const std::string instead = "; use --checkpointing full or selective";
    if (m.experts > 1 || uses_mla(m) || m.encoder_decoder)
        throw InputError(what + "is modelled for dense decoder blocks: " + m.name +
                         (m.experts > 1 ? " routes its tokens to experts"
                          : uses_mla(m) ? " has latent attention"
                                        : " is an encoder-decoder") +
                         instead);
    // An nn.Linear with a bias runs aten.addmm, which the policy neither saves nor counts
    // (torchtitan's models have none): its matmuls would not be the ones op_sac.h counts.
    if (m.qkv_bias || m.out_bias || m.mlp_bias)
        throw InputError(what + "counts bias-free matmuls (aten.mm), as torchtitan's models have: " + m.name +
                         "'s linear layers carry biases" + instead);
    if (s.finetune.adapters() || s.finetune.freeze_layers > 0)
        throw InputError(what +
                         "is modelled for blocks trained whole: LoRA's adapters and frozen layers change which matmuls' outputs it keeps" +
                         instead);
    if (!t.flash_attention)
        throw InputError(what + "keeps the output of PyTorch's flash attention kernels: turn --flash-attention on" + instead);
    if (t.tiled_mlp) throw InputError(what + "and TiledMLP both take over the MLP's backward: choose one" + instead);
    const Parallelism& p = s.parallel;
    if (p.tensor > 1 || p.pipeline > 1 || p.ulysses > 1 || p.expert > 1)
        throw InputError(what + "is modelled for data parallelism (FSDP or ZeRO): tensor, pipeline, Ulysses and expert sizes must be 1" +
                         instead);
    if (is_fsdp(s.fsdp) && s.fsdp.precision == FsdpPrecision::Autocast)
        throw InputError(what + "is modelled with FSDP's MixedPrecision policy, as torchtitan runs it: use --fsdp-precision mixed or pure" +
                         instead);
}
}  // namespace

// DeepSpeed's bf16 master weights and optimizer states (ZeroSetup::bf16_master_weights), as
// DeepSpeed asserts them (runtime/config.py _do_error_check, base_optimizer.py
// _configure_master_weights) and as far as the planner models them (on the GPU).
std::string master_weights_refusal(const Scenario& s) {
    const ZeroSetup& z = s.zero;
    if (!z.bf16_master_weights) return {};
    if (is_fsdp(s.fsdp))
        return "bf16 master weights and optimizer states are DeepSpeed ZeRO options (bf16_master_weights_and_grads); "
               "under PyTorch FSDP train in pure bf16 (--fsdp-precision pure) instead";
    if (s.training.precision != Precision::Bf16)
        return "bf16 master weights and optimizer states need bf16 training (DeepSpeed's bf16 section): use --precision bf16";
    if (z.stage < 1)
        return "bf16 master weights and optimizer states are only supported with ZeRO stage 1, 2 or 3 (DeepSpeed runtime/config.py)";
    if (z.offload_optimizer != OffloadDevice::None)
        return "bf16 master weights and optimizer states with offload_optimizer (DeepSpeedCPUAdam with "
               "fp32_optimizer_states=False) are not modelled: the planner keeps them on the GPU; drop the offload or "
               "the bf16 master weights";
    return {};
}

void validate(const Scenario& s) {
    validate(s.model);
    const Cluster& c = s.cluster;
    if (c.nodes <= 0 || c.gpus_per_node <= 0) throw InputError("the cluster needs at least one node with at least one GPU");
    check(limits::kGpusPerNode, c.gpus_per_node, "GPUs per node");
    check(limits::kNodes, c.nodes, "the node count");
    if (!limits::kWorldSize.contains(c.world_size()))
        throw InputError("at most " + limits::format_limit(limits::kWorldSize.max) + " GPUs are supported (nodes x GPUs per node)");
    check(limits::kGpuMemoryGib, c.gpu.memory_gib, "GPU memory", " GiB");
    check(limits::kPeakTflops, c.gpu.peak_tflops_16bit, "GPU peak TFLOP/s");
    check(limits::kPeakTflopsFp8, c.gpu.peak_tflops_fp8, "GPU FP8 peak TFLOP/s", " (0: no FP8)");
    check(limits::kPeakTflopsFp4, c.gpu.peak_tflops_fp4, "GPU FP4 peak TFLOP/s", " (0: no FP4)");
    check(limits::kIntraNodeGBytesPerS, c.intra_node_gbytes_per_s, "intra-node bandwidth", " GB/s");
    check(limits::kInterNodeGbitsPerS, c.inter_node_gbits_per_s, "inter-node bandwidth", " Gbit/s");
    check(limits::kNicsPerNode, c.nics_per_node, "NICs per node", " (0: one per GPU)");
    check(limits::kPcieGBytesPerS, c.pcie_gbytes_per_s, "PCIe bandwidth", " GB/s");
    check(limits::kCpuRamGib, bytes_to_gib(c.cpu_ram_bytes_per_node), "CPU RAM per node", " GiB");
    check(limits::kNvmeGib, bytes_to_gib(c.nvme_bytes_per_node), "NVMe capacity per node", " GiB");
    check(limits::kNvmeGBytesPerS, c.nvme_gbytes_per_s, "NVMe bandwidth", " GB/s");
    check(limits::kCpuAdamParamsPerSecond, c.cpu_adam_params_per_second, "CPU Adam throughput");
    const Training& t = s.training;
    check(limits::kSeqLen, t.seq_len, "sequence length");
    check(limits::kMicroBatch, t.micro_batch, "micro batch");
    check(limits::kGlobalBatch, t.global_batch, "global batch", " (0: automatic)");
    check(limits::kDataloaderWorkers, t.dataloader_workers, "dataloader workers per process");
    check(limits::kLogitMetrics, t.logit_metrics, "metrics over the logits per micro step");
    check(limits::kDataSecondsPerSample, t.data_seconds_per_sample, "data pipeline seconds per sample");
    // bitsandbytes' 8-bit and paged optimizers as the Trainer names them (training_args.py
    // OptimizerNames: adamw_bnb_8bit, paged_adamw_32bit, paged_adamw_8bit, lion_8bit, paged_lion_*).
    if (t.optimizer_storage != OptimizerStorage::Standard && t.optimizer != Optimizer::AdamW && t.optimizer != Optimizer::Adam &&
        t.optimizer != Optimizer::Lion)
        throw InputError(std::string("optimizer storage '") + to_string(t.optimizer_storage) +
                         "' is bitsandbytes' and comes with adamw, adam or lion, not " + to_string(t.optimizer) +
                         "; use --optimizer-storage standard");
    if (t.fp8_gemms && !(c.gpu.peak_tflops_fp8 > 0))
        throw InputError("FP8 matmuls need FP8 tensor cores, which the " + c.gpu.display_name +
                         " does not have (Hopper, Ada, Blackwell and MI300-class GPUs do; a session saved before "
                         "format 18 keeps no FP8 rate: choose the GPU again); use --fp8 off");
    if (t.fp8_gemms && s.finetune.method == FineTuneMethod::Qlora)
        throw InputError(
            "FP8 matmuls and QLoRA do not combine: bitsandbytes' 4-bit layers are not nn.Linear, so Accelerate "
            "converts none of them to Transformer Engine; use --fp8 off or LoRA on a 16-bit base");
    if (t.fp8_gemms && t.fp8_scaling == Fp8Scaling::Mxfp8 && !c.gpu.compute_capability_10)
        throw InputError("MXFP8 needs compute capability 10 (B200, B300, GB200, GB300): Transformer Engine refuses it on the " +
                         c.gpu.display_name +
                         " (pytorch/quantization.py _compute_mxfp8_support); use --fp8 on for per-tensor delayed scaling");
    // convert_model swaps every nn.Linear whose sizes divide by 16 for a plain te.Linear; Llama-4's
    // Llama4Router is an nn.Linear subclass whose forward also picks the top-k experts and returns
    // (scores, logits) (transformers models/llama4/modeling_llama4.py), so after the swap
    // Llama4TextMoe's "router_scores, router_logits = self.router(hidden_states)" gets the logits alone.
    if (t.fp8_gemms && s.model.family == "llama4" && s.model.experts > 1 && runs_in_fp8(s.model.hidden, s.model.experts))
        throw InputError(
            "FP8 matmuls through Accelerate break Llama-4's mixture: convert_model replaces its Llama4Router (an "
            "nn.Linear subclass that also routes) with a plain te.Linear, which returns only the router logits; "
            "use --fp8 off");
    if (t.fp8_gemms && t.precision != Precision::Bf16)
        throw InputError("FP8 matmuls run under bf16 autocast (Accelerate's mixed_precision: fp8); use --precision bf16");
    const ZeroSetup& z = s.zero;
    if (!limits::kZeroStage.contains(z.stage)) throw InputError("ZeRO stage must be 0, 1, 2 or 3");
    // FSDP's own words first: its setups are not DeepSpeed's (validate_fsdp).
    validate_fsdp(s);
    if (z.offload_optimizer != OffloadDevice::None && z.stage == 0)
        throw InputError("offload_optimizer needs ZeRO stage 1, 2 or 3 (DeepSpeed ignores it at stage 0)");
    if (z.offload_param != OffloadDevice::None && z.stage != 3) throw InputError("offload_param is valid only with ZeRO stage 3");
    if (z.offload_optimizer == OffloadDevice::Nvme && z.stage != 3)
        throw InputError(
            "offload_optimizer nvme needs ZeRO stage 3 (ZeRO-Infinity); at stage 1 and 2 DeepSpeed silently offloads to the CPU instead (stage_1_and_2.py)");
    // ZeRO++: hpZ's secondary partition lives within a node (partition_parameters.py
    // _create_zero_param_parallel_group groups consecutive ranks). The switches take effect at
    // stage 3 only (effective_zeropp), so other stages are not an error: DeepSpeed ignores them.
    if (z.hpz_partition_size < 1) throw InputError("zero_hpz_partition_size must be 1 (off) or more");
    if (z.hpz_partition_size > 1 && s.cluster.gpus_per_node % z.hpz_partition_size != 0)
        throw InputError("zero_hpz_partition_size " + std::to_string(z.hpz_partition_size) + " must divide the " +
                         std::to_string(s.cluster.gpus_per_node) +
                         " GPUs per node: hpZ's secondary partition lives within a node (usually the node's GPU count)");
    if (!limits::kLinearTileFactor.contains(z.linear_tile_factor) || z.linear_tile_factor > s.model.hidden)
        throw InputError("the TiledLinear tile factor " + std::to_string(z.linear_tile_factor) + " must be 1 (off) up to the hidden size " +
                         std::to_string(s.model.hidden) + " (deepspeed.zero.TiledLinear splits each input into at most its features)");
    if (const std::string refusal = master_weights_refusal(s); !refusal.empty()) throw InputError(refusal);
    validate_parallelism(s);
    validate_mics(s);
    // fp32 with offload is allowed: stage_1_and_2.py and stage3.py make their fp32 partition with
    // .clone().float() whatever the weights' dtype (PEFT's ZeRO-3 offload examples train in fp32).
    validate_finetune(s);
    validate_op_sac(s);
    const Assumptions& a = s.assumptions;
    check(limits::kHeadroom, a.headroom, "headroom", "", "a fraction ");
    check(limits::kCudaContextGib, bytes_to_gib(a.cuda_context_bytes), "CUDA context", " GiB");
    check(limits::kMfu, a.mfu, "MFU", "", "a fraction ");
    check(limits::kCommOverlapFraction, a.comm_overlap_fraction, "the communication overlap", "", "a fraction ");
    check(limits::kCollectiveLatencySeconds, a.collective_latency_seconds, "the collective latency", " s");
    check(limits::kTokenBudget, a.token_budget, "the token budget", " tokens");
    check(limits::kHostProcessGib, bytes_to_gib(a.host_process_bytes), "host memory per training process", " GiB");
    check(limits::kHostProcessGib, bytes_to_gib(a.host_worker_bytes), "host memory per dataloader worker", " GiB");
    // Named as DeepSpeed's config names them, which is what a user edits.
    const std::pair<double, const char*> sizes[] = {{z.reduce_bucket_elems, "reduce_bucket_size"},
                                                    {z.allgather_bucket_elems, "allgather_bucket_size"},
                                                    {z.stage3_prefetch_bucket_elems, "stage3_prefetch_bucket_size"},
                                                    {z.stage3_max_live_parameters, "stage3_max_live_parameters"},
                                                    {z.stage3_param_persistence_threshold, "stage3_param_persistence_threshold"},
                                                    {z.sub_group_size, "sub_group_size"},
                                                    {z.offload_param_buffer_size, "offload_param buffer_size"}};
    for (const auto& [v, name] : sizes) check(limits::kBucketElems, v, name, " elements");
    if (!s.deepspeed_release.empty() && !parse_deepspeed_release(s.deepspeed_release))
        throw InputError("the DeepSpeed release must be a release like 0.3 or 0.14.2, got '" + s.deepspeed_release + "'");
    check_release_features(s);
}

ZeroPlusPlus effective_zeropp(const Scenario& s) {
    const ZeroSetup& z = s.zero;
    ZeroPlusPlus out;
    if (z.stage != 3) return out;
    out.quantized_weights = z.quantized_weights;
    // qgZ's all-to-all runs only across nodes: on one node stage3.py __avg_scatter_grads reduces with
    // the 16-bit reduce_scatter_coalesced ("if self.all2all_process_group is not None and num_nodes > 1").
    out.quantized_gradients = z.quantized_gradients && s.cluster.nodes > 1;
    const bool hpz_fits = z.hpz_partition_size > 1 && s.cluster.gpus_per_node % z.hpz_partition_size == 0;
    // hpZ's groups are consecutive global ranks whatever the model parallelism
    // (utils/groups.py _create_zero_param_parallel_group: range(i * size, (i + 1) * size), no mpu),
    // and Megatron puts the tensor-parallel ranks of a replica next to each other: with tensor
    // parallelism one group would hold different tensor shards, so no secondary partition is
    // planned there (DeepSpeed's ZeRO++ tutorial runs hpZ at --tensor-model-parallel-size 1).
    const bool hpz_groups_replicas = s.parallel.tensor <= 1;
    if (hpz_fits && hpz_groups_replicas && z.offload_param == OffloadDevice::None && z.hpz_partition_size < zero_partition_size(s))
        out.hpz_partition_size = z.hpz_partition_size;
    return out;
}

namespace {
// Elements of one rank's hidden-state tensor per token of the sequence: micro batch x hidden / u.
double hidden_state_elements_per_token(const Scenario& s) {
    return static_cast<double>(std::max<std::int64_t>(s.training.micro_batch, 1)) *
           static_cast<double>(std::max<std::int64_t>(s.model.hidden, 1)) / static_cast<double>(ulysses_size(s.parallel));
}
constexpr double kInt32IndexedElements = 2147483648.0;  // 2^31
}  // namespace

double rank_hidden_state_elements(const Scenario& s) {
    return hidden_state_elements_per_token(s) * static_cast<double>(s.training.seq_len);
}

std::int64_t kernel_index_limit_seq_len(const Scenario& s) {
    if (s.training.int64_kernel_indexing) return 0;
    return static_cast<std::int64_t>(std::ceil(kInt32IndexedElements / hidden_state_elements_per_token(s)));  // the first that reaches 2^31
}

bool within_kernel_index(const Scenario& s) {
    const std::int64_t limit = kernel_index_limit_seq_len(s);
    return limit == 0 || s.training.seq_len < limit;
}

bool recompute_stops_early_at_full(const Scenario& s) {
    const Training& t = s.training;
    if (is_fsdp(s.fsdp)) return s.fsdp.checkpoint_early_stop;
    if (t.reentrant_recompute) return false;
    // Megatron-DeepSpeed's (its layouts, its GPT's head on the word embedding, its gradient
    // accumulation, DeepSpeed's MoE layer) and deepspeed.checkpointing's (partition_activations)
    // CheckpointFunction re-enters. ALST's checkpoint offload (cpu_checkpointing) is non-reentrant.
    const Parallelism& p = s.parallel;
    const bool megatron = p.tensor > 1 || p.pipeline > 1 || p.expert > 1 || t.lm_head == LmHead::EmbeddingWeight ||
                          t.gradient_accumulation == GradientAccumulation::MainGrad ||
                          t.gradient_accumulation == GradientAccumulation::Fused || t.partition_activations;
    // DeepSpeed's releases before 0.11.0 predate torch 2.1 and its early stop (release_firsts).
    return !megatron && release_has(s, release_firsts::kTorchEarlyStop) && !recompute_must_reenter(s);
}

bool reentrant_recompute_matters(const Scenario& s) {
    Scenario early = s;
    early.fsdp.engine = Engine::DeepSpeed;
    early.training.checkpointing = Checkpointing::Full;
    early.training.reentrant_recompute = false;
    return recompute_skips_last_linear(early.model, early.training, early.finetune, recompute_stops_early(early));
}

}  // namespace zp
