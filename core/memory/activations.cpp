#include "core/memory/activations.h"

#include "core/model/op_sac.h"

#include "core/model/experts.h"
#include "core/model/linear_modules.h"
#include "core/model/parallel_layout.h"
#include "core/model/trainable_params.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace zp {

namespace {
// The key and value width a rank keeps per token of its share. With more Ulysses ranks than
// key/value heads each head is repeated until every rank gets one (ulysses_sp.py
// UlyssesSPAttentionHF: kv_replication_factor = sp // kv_heads, repeat_interleave before the
// all-to-all): one head for all s tokens, u / kv_heads times the unrepeated share. With more
// tensor ranks than key/value groups (tensor_replicates_kv_groups) each rank keeps its group's
// whole key and value (megatron/core/transformer/attention.py: num_query_groups_per_partition = 1
// after the QKV all-gather; TE's FlashAttention backend copies them contiguous, so the gathered
// tensor is not kept): t heads' width before the split by t.
double kv_width(const ModelSpec& m, const TensorSplit& split) {
    const std::int64_t heads = std::max({m.kv_heads, std::max<std::int64_t>(split.ulysses, 1), split.tensor});
    return static_cast<double>(std::min(heads, std::max<std::int64_t>(m.heads, 1)) * m.head_dim);
}
}  // namespace

LayerActivationBytes layer_activation_bytes(const ModelSpec& m, std::int64_t seq, std::int64_t micro_batch, double element_bytes,
                                            const TensorSplit& split) {
    const double e = element_bytes;  // a stored tensor's element; dropout masks are 1 byte whatever the dtype
    // Tensor parallelism (Korthikanti Sec. 4.2.1): the attention heads' tensors and the MLP's ffn-wide
    // ones are split over t ranks; the layer norms' and dropouts' h-wide tensors are whole on every
    // rank unless sequence parallelism splits them along the sequence (Sec. 4.2.2).
    const double t = static_cast<double>(std::max<std::int64_t>(split.tensor, 1));
    const double rep = split.sequence_parallel ? 1.0 / t : 1.0;
    // DeepSpeed-Ulysses (deepspeed/sequence/layer.py DistributedAttention; Jacobs et al. 2023, arXiv
    // 2309.14509 Sec. 3.1): outside attention a rank holds s/u of the tokens with every channel
    // (h wide); the all-to-alls before the attention core trade that for all s tokens of a/u heads,
    // and the one after trades back. A Q, K or V tensor a rank keeps is then s x (a/u) heads x d =
    // (s/u) x a x d elements: the same bytes as s/u tokens of the full width. So every sbh term of
    // Korthikanti's per-layer formula (11sbh + 19sbh + 4sbh = 34sbh) becomes 34(s/u)bh: the formula
    // with s -> s/u. The score tensors are per head and per pair of tokens: (a/u) x s^2 x b, i.e.
    // 5as^2b/u, which is NOT the formula's 5a(s/u)^2b (u times that): a*s*sb below with sb already
    // divided by u gives (a/u) s^2 b.
    const double sb = static_cast<double>(seq) * static_cast<double>(micro_batch) /
                      static_cast<double>(std::max<std::int64_t>(split.ulysses, 1));  // this rank's tokens
    const double h = static_cast<double>(m.hidden);
    const double q = static_cast<double>(m.heads * m.head_dim);  // query / attention-output width
    const double kv = kv_width(m, split);                        // key and value width (GQA: smaller)
    const double a = static_cast<double>(m.heads);
    const double s = static_cast<double>(seq);

    LayerActivationBytes l;
    // Attention (paper: 11sbh + 5as^2b in 16 bits): QKV input eh, Q eq, K ekv, V ekv, output-projection
    // input eq, output dropout mask h  ->  e(h + 2q + 2kv) + h per token = 11h for multi-head attention
    // with q = kv = h and e = 2.
    l.attention = sb * ((e * h + h) * rep + e * (2 * q + 2 * kv) / t);
    // QK^T softmax output e*as^2b, its dropout mask as^2b, dropout output e*as^2b (5as^2b in 16 bits).
    l.scores = (2 * e + 1) * a * s * sb / t;
    // MLP (paper: 19sbh for f = 4h in 16 bits): input eh, first-projection output ef, activation output
    // ef, dropout mask h. Gated (SwiGLU): gate, up, activation and product, ef each. MoE: each token
    // passes through experts_per_token experts; under DeepSpeed's MoE layer (expert parallelism)
    // the experts run on the capacity-padded (experts, capacity, h) tensor instead, whose rows the
    // first expert GEMMs keep after the dispatch all-to-all, and whose outputs the gate weighting
    // keeps for its backward (sharded_moe.py MOELayer.forward, _sparse_decode): 2eh a row, the
    // rows split over the tensor-parallel ranks (drop_tokens).
    const bool ds_moe = split.routed_slots_per_token > 0 && m.experts > 1;
    const double width = ds_moe ? mlp_width_per_token(m, split.routed_slots_per_token) : mlp_width_per_token(m);
    l.mlp = sb * ((e * h + h) * rep + (m.gated_mlp ? 4.0 : 2.0) * e * width / t);
    // transformers' gelu_new (model_spec.h MlpActivation::GeluNew) keeps three more ffn-wide tensors
    // for its backward: tanh's output, 1 + tanh and 0.5 * x (the product's two inputs); pow keeps x,
    // the first projection's output already counted.
    if (m.activation == MlpActivation::GeluNew) l.mlp += sb * 3.0 * e * width / t;
    if (ds_moe)
        l.mlp += sb * split.routed_slots_per_token * 2 * e * h * static_cast<double>(moe_layers(m)) /
                 static_cast<double>(std::max<std::int64_t>(m.layers, 1)) / t;
    // Two layer norms, each keeping its input: 2e sbh (4sbh in 16 bits).
    l.norms = sb * 2 * e * h * rep;
    // QK-norm (ModelSpec::qk_norm: Qwen3, Qwen3-MoE, Gemma-3, OLMo-2): q_norm and k_norm keep their
    // inputs, the q and k projections' outputs, for their backward (transformers
    // modeling_qwen3.py Qwen3Attention: q_norm(q_proj(x).view(...)); an RMSNorm saves its input as
    // the two layer norms above do; Liger's LigerRMSNormFunction.forward saves X and a per-row
    // rstd). These are other tensors than the normalized, rotated q and k the attention core keeps
    // (counted above): e (q + kv) per token more, split over the tensor ranks. Ulysses wraps only
    // the attention core (ulysses_sp.py UlyssesSPAttentionHF), so the norms see the rank's s/u
    // tokens with every head, the key/value heads not yet repeated.
    if (m.qk_norm) {
        const double k_width = static_cast<double>(std::max<std::int64_t>(m.kv_heads > 0 ? m.kv_heads : m.heads, 1) * m.head_dim);
        l.norms += sb * e * (q + k_width) / t;
    }
    return l;
}

LayerActivationBytes frozen_layer_activation_bytes(const ModelSpec& m, std::int64_t seq, std::int64_t micro_batch, const FineTune& f,
                                                   double element_bytes, const TensorSplit& split) {
    const double e = element_bytes;
    LayerActivationBytes l = layer_activation_bytes(m, seq, micro_batch, e, split);
    const double t = static_cast<double>(std::max<std::int64_t>(split.tensor, 1));
    const double rep = split.sequence_parallel ? 1.0 / t : 1.0;
    const double sb = static_cast<double>(seq) * static_cast<double>(micro_batch) /
                      static_cast<double>(std::max<std::int64_t>(split.ulysses, 1));  // this rank's tokens (Ulysses: s/u)
    const double h = static_cast<double>(m.hidden);
    const double q = static_cast<double>(m.heads * m.head_dim);
    const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
    // Not kept: the q/k/v input eh and the output projection's input eq; the MLP's input eh and
    // its down projection's input ef per routed expert.
    l.attention -= sb * e * (h * rep + q / t);
    l.mlp -= sb * e * (h * rep + mlp_width_per_token(m) / t);
    if (!f.adapters()) return l;

    // Adapters, per layer: on a module of input width d, per token.
    const double r = static_cast<double>(f.lora_rank);
    const bool dropout = f.lora_dropout > 0;
    std::set<LinearRole> inputs_kept;
    for (const LinearModule& mod : adapted_modules(m, f)) {
        if (mod.role == LinearRole::Head) continue;
        // Instances per layer, times the share of the layer's tokens each computes.
        const double per_layer = static_cast<double>(mod.count) / L * mod.token_share;
        const double d = static_cast<double>(mod.in);
        double bytes = per_layer * e * r;               // lora_A's output, kept for lora_B's weight gradient
        if (dropout) bytes += per_layer * (e + 1) * d;  // dropout output and its 1-byte mask
        else if (inputs_kept.insert(mod.role == LinearRole::Router ? LinearRole::MlpInput : mod.role).second)
            // The down projections' input: the whole MLP width a token passes through (routed and
            // shared experts, mlp_width_per_token), or the attention/MLP input.
            bytes += e * (mod.role == LinearRole::MlpOutput ? mlp_width_per_token(m) : d);
        const bool attention = mod.role == LinearRole::AttentionInput || mod.role == LinearRole::AttentionOutput;
        (attention ? l.attention : l.mlp) += sb * bytes;
    }
    return l;
}

double tiled_mlp_bytes(const ModelSpec& m, double tokens, double element_bytes, const TensorSplit& split) {
    const double t = static_cast<double>(std::max<std::int64_t>(split.tensor, 1));
    const double rep = split.sequence_parallel ? 1.0 / t : 1.0;
    const double h = static_cast<double>(m.hidden);
    // ulysses_sp.py TiledMLP.forward: ctx.save_for_backward(x), the shards run under no_grad; the
    // caller sets num_shards = ceil(seqlen / hidden) (ArcticTraining model/tiled_compute.py), so
    // one shard of at most `hidden` tokens has its inner tensors alive at a time (and again in
    // backward, where each shard's forward is recomputed with grad).
    const double shards = std::ceil(tokens / std::max(h, 1.0));
    const double shard_tokens = shards > 0 ? std::ceil(tokens / shards) : 0.0;
    return tokens * element_bytes * h * rep + shard_tokens * (m.gated_mlp ? 4.0 : 2.0) * element_bytes * mlp_width_per_token(m) / t;
}

namespace {

// Liger-Kernel (LossKernel::Chunked; liger_kernel/transformers/monkey_patch.py apply_liger_kernel_to_llama
// and its siblings patch rope, rms_norm, swiglu and fused_linear_cross_entropy by default, as
// TRL's and the Trainer's use_liger_kernel do) on the Hugging Face decoders it patches, which
// have no dropout: no 1-byte masks, and LigerSiLUMulFunction saves only the gate and up
// outputs (ops/swiglu.py ctx.save_for_backward(a, b)), the down projection its input: three
// ffn-wide tensors where the eager SwiGLU keeps four. TiledMLP (Training::tiled_mlp) replaces the
// whole MLP module: what it keeps is its input and one shard, trained or frozen alike.
LayerActivationBytes kernel_layer(LayerActivationBytes l, const ModelSpec& m, const Training& t, double rank_tokens, double e,
                                  const TensorSplit& split) {
    const double tp = static_cast<double>(std::max<std::int64_t>(split.tensor, 1));
    const double rep = split.sequence_parallel ? 1.0 / tp : 1.0;
    if (t.loss_kernel == LossKernel::Chunked) {
        l.attention -= rank_tokens * static_cast<double>(m.hidden) * rep;
        l.mlp -= rank_tokens * (static_cast<double>(m.hidden) * rep + (m.gated_mlp ? e * mlp_width_per_token(m) / tp : 0.0));
    }
    if (t.tiled_mlp) l.mlp = tiled_mlp_bytes(m, rank_tokens, e, split);
    return l;
}

// Backward through a layer makes the gradients of its activations while the tensors the layer
// saved are still alive (autograd frees each after its own op's backward): counted op by op, the
// larger of the two blocks' gradients alive at once, on top of what the layer keeps.
//   MLP: the residual stream's and the MLP input's gradients (hidden wide each) and the MLP's own:
//        an elementwise activation's backward makes its input gradient while its output gradient
//        is alive (aten gelu_backward: two ffn-wide tensors); a gated MLP's product act(g) * u
//        makes both factors' gradients from the product's (aten mul backward), then silu_backward
//        the gate's: three; transformers' gelu_new runs its eight ops' backward the same way:
//        three; Liger's swiglu_backward writes the gate and up gradients into their saved inputs
//        (ops/swiglu.py), leaving the down projection's input gradient: one. TiledMLP: one shard.
//   attention with flash: the residual stream's and the attention output's gradients, flash-attn's
//        dq, its fp32 dq_accum, dk and dv, and under grouped-query attention dk and dv expanded to
//        every query head before they are summed (flash_attn_interface.py / mha_bwd: dq_accum
//        float, dk_expanded and dv_expanded when num_heads_k != num_heads).
//   attention without flash: the context's gradient, then two score-sized gradients at once: the
//        probabilities' from the context bmm, and the dropout's and the softmax's input
//        gradients each made while the one before is alive (aten native_dropout_backward,
//        _softmax_backward_data; Megatron's fused kernel writes its result into the incoming
//        gradient, scaled_masked_softmax.h, after the dropout's backward made that); then the
//        scores' bmm makes q's, k's and v's gradients.
double gradient_working_bytes(const ModelSpec& m, const Training& t, double rank_tokens, double e, const TensorSplit& split) {
    const double tp = static_cast<double>(std::max<std::int64_t>(split.tensor, 1));
    const double rep = split.sequence_parallel ? 1.0 / tp : 1.0;
    const double h = static_cast<double>(m.hidden);
    const double width = mlp_width_per_token(m);
    const double q = static_cast<double>(m.heads * m.head_dim);
    const double kv = kv_width(m, split);
    const bool liger = t.loss_kernel == LossKernel::Chunked;
    const double ffn_gradients = liger ? 1.0 : (m.gated_mlp || m.activation == MlpActivation::GeluNew ? 3.0 : 2.0);
    const double mlp_tokens = t.tiled_mlp ? std::min(rank_tokens, h) : rank_tokens;
    const double mlp_grad = rank_tokens * 2 * e * h * rep + mlp_tokens * ffn_gradients * e * width / tp;
    if (t.flash_attention) {
        const double attention_grad = rank_tokens * (e * h * rep + (e * (3 * q + 2 * kv + (kv < q ? 2 * q : 0.0)) + 4 * q) / tp);
        return std::max(mlp_grad, attention_grad);
    }
    // Score-sized: (a/t) heads x s keys for each of the rank's tokens (rank_tokens is s/u x b under Ulysses).
    const double score = e * static_cast<double>(m.heads) * static_cast<double>(t.seq_len) * rank_tokens / tp;
    const double attention_grad = rank_tokens * (e * h * rep + e * (2 * q + 2 * kv) / tp) + 2 * score;
    return std::max(mlp_grad, attention_grad);
}

// What each layer keeps to its backward under the recompute policy, and what rebuilding one layer
// takes: `layer` its activations (kernels applied), `sb` the rank's tokens, `e` bytes a 16-bit
// element.
void set_kept_per_layer(ActivationBytes& out, const ModelSpec& m, const Training& t, const LayerActivationBytes& layer, double ulysses_out,
                        double sb, double e, const Parallelism& par) {
    const double tp = static_cast<double>(std::max<std::int64_t>(par.tensor, 1));
    const double rep = par.sequence_parallel ? 1.0 / tp : 1.0;
    const double h = static_cast<double>(m.hidden);
    const double full_layer = out.whole_layer;
    switch (t.checkpointing) {
    case Checkpointing::None: out.per_layer_stored = full_layer; break;
    case Checkpointing::Selective:
        // Recompute the attention core (Table 2, 34sbh): the score tensors are never kept.
        out.per_layer_stored = layer.attention + layer.mlp + layer.norms + ulysses_out;
        break;
    case Checkpointing::SelectiveOp: {
        // Op-level SAC (core/model/op_sac.h): the layer's input, every second matmul's output and
        // flash attention's output in 16 bits, its log-sum-exp in fp32 (data parallelism only:
        // validate); backward rebuilds the rest of one layer at a time.
        const OpSacKept kept = op_sac_kept_per_token(m);
        out.per_layer_stored = sb * (e * kept.elements + 4.0 * kept.lse_fp32);
        out.recompute_working = full_layer;
        break;
    }
    case Checkpointing::Full: {
        // Keep each layer's input (2sbh in 16 bits; sequence-split with sequence parallelism) and
        // rebuild one layer at a time in backward. Partitioned (Training::partition_activations,
        // DeepSpeed checkpointing.py partition_activations) each tensor-parallel rank keeps a t-th
        // and gathers the whole input back before recomputing the layer, which then saves it as
        // its first norm's input: inside full_layer, no extra tensor.
        const double kept_share = t.partition_activations ? 1.0 / tp : rep;
        out.per_layer_stored = e * sb * h * kept_share;
        out.recompute_working = full_layer;
        break;
    }
    }
}

}  // namespace

ActivationBytes activation_bytes(const ModelSpec& m, const Training& t, const FineTune& f, const Parallelism& par) {
    const double e = bytes_per_element(t.precision);
    const TensorSplit split{par.tensor, par.sequence_parallel, par.expert > 1 ? routed_slots_per_token(m, t, par) : 0.0, par.ulysses};
    const double tp = static_cast<double>(std::max<std::int64_t>(par.tensor, 1));
    const double rep = par.sequence_parallel ? 1.0 / tp : 1.0;
    const double u = static_cast<double>(ulysses_size(par));
    const double sb = static_cast<double>(t.seq_len) * static_cast<double>(t.micro_batch) / u;  // this rank's tokens
    auto with_kernels = [&](const LayerActivationBytes& l) { return kernel_layer(l, m, t, sb, e, split); };
    const LayerActivationBytes trained = with_kernels(layer_activation_bytes(m, t.seq_len, t.micro_batch, e, split));
    const bool all_frozen = f.adapters();
    const std::int64_t frozen_layers = all_frozen ? m.layers : std::clamp<std::int64_t>(f.freeze_layers, 0, m.layers);
    const LayerActivationBytes layer =
        all_frozen ? with_kernels(frozen_layer_activation_bytes(m, t.seq_len, t.micro_batch, f, e, split)) : trained;
    const double L = static_cast<double>(m.layers);
    const double h = static_cast<double>(m.hidden);
    // Flash attention never materialises the a*s^2 scores (it recomputes them in backward).
    const double scores = t.flash_attention ? 0.0 : layer.scores;
    // Ulysses with flash attention keeps one more q-wide tensor: flash attention saves its output for
    // backward (flash_attn's FlashAttnFunc save_for_backward(q, k, v, out, ...)), and the all-to-all
    // after it (layer.py, _SeqAllToAll of context_layer) makes the output projection's input a new
    // tensor; without Ulysses the two are one (a reshape). Kept under selective recompute too: it
    // drops only the score tensors, and Megatron-DeepSpeed does not checkpoint the attention core
    // under DistributedAttention (megatron/model/transformer.py sets checkpoint_core_attention only
    // without ds sequence parallelism).
    const double ulysses_out = u > 1 && t.flash_attention ? e * sb * static_cast<double>(m.heads * m.head_dim) / tp : 0.0;
    const double full_layer = layer.attention + layer.mlp + layer.norms + scores + ulysses_out;

    ActivationBytes out;
    out.whole_layer = full_layer;
    out.gradient_working = gradient_working_bytes(m, t, sb, e, split);
    // The final norm's input and the LM head's input (2sbh each in 16 bits), the logits (2sbV) and,
    // in mixed precision, the fp32 copy the cross-entropy loss keeps, 4sbV (Korthikanti Sec. 4.3).
    // With tensor parallelism the logits are vocabulary-parallel (each rank t-th of V) and the head's
    // inputs sequence-split with sequence parallelism; with Ulysses each rank embeds, projects and
    // takes the loss of its s/u tokens (sb above). With pipeline parallelism the most loaded
    // stage is the first (below), which holds no logits: only the embedding's 1-byte dropout mask
    // of each micro batch in flight (Korthikanti Sec. 4.3).
    const double fp32_copy = t.precision == Precision::Fp32 ? 0.0 : 4.0;
    out.embedding_and_logits = par.pipeline > 1 ? sb * h * rep * static_cast<double>(par.pipeline)
                                                : sb * (2 * e * h * rep + (e + fp32_copy) * static_cast<double>(m.vocab) / tp);
    set_kept_per_layer(out, m, t, layer, ulysses_out, sb, e, par);
    if (!all_frozen && frozen_layers > 0) {
        // Full training with the first layers frozen: they keep a frozen layer's activations, or
        // none when the embedding is frozen too; per_layer_stored becomes the average.
        const LayerActivationBytes fl = with_kernels(frozen_layer_activation_bytes(m, t.seq_len, t.micro_batch, f, e, split));
        const double fz = static_cast<double>(frozen_layers);
        double frozen_kept = 0;
        if (!f.freeze_embeddings) {
            switch (t.checkpointing) {
            case Checkpointing::None: frozen_kept = fl.total() - (t.flash_attention ? fl.scores : 0.0) + ulysses_out; break;
            case Checkpointing::Selective: frozen_kept = fl.attention + fl.mlp + fl.norms + ulysses_out; break;
            case Checkpointing::SelectiveOp:  // not with frozen layers (validate)
            case Checkpointing::Full: frozen_kept = out.per_layer_stored; break;
            }
        }
        out.per_layer_stored = ((L - fz) * out.per_layer_stored + fz * frozen_kept) / L;
    }
    // Pipeline parallelism: the first stage runs L/p layers but, in 1F1B, holds p micro batches in
    // flight before its first backward: L layers' worth, as without pipelining (Korthikanti Sec.
    // 4.2.3); the interleaved schedule holds 1 + (p-1)/(p v) times that (v model chunks per rank).
    // With layers that do not divide, the first stage's ceil(L/p) layers, p times.
    // One stage (Parallelism::pipeline_rank i): its own layers, with the micro batches in flight
    // before its first backward: p - i in 1F1B; interleaved, (p - i - 1) 2 + (v - 1) p + 1 model
    // chunks of 1/v of its layers (Megatron's forward_backward_pipelining_with_interleaving,
    // num_warmup_microbatches, plus the one in its steady state). Only the first stage keeps the
    // embedding's dropout masks, only the last the logits (one micro batch: it runs each backward
    // right after its forward).
    if (par.pipeline > 1 && par.pipeline_rank >= 0) {
        const std::int64_t i = std::min(par.pipeline_rank, par.pipeline - 1);
        const double p = static_cast<double>(par.pipeline);
        const double v = static_cast<double>(std::max<std::int64_t>(par.virtual_stages, 1));
        const double di = static_cast<double>(i);
        const double in_flight = v > 1 ? ((p - di - 1.0) * 2.0 + (v - 1.0) * p + 1.0) / v : p - di;
        out.micro_batches_in_flight = in_flight;
        out.per_layer_stored *= in_flight * static_cast<double>(stage_layers(m.layers, par.pipeline, i)) / L;
        out.embedding_and_logits =
            (i == 0 ? sb * h * rep * in_flight : 0.0) +
            (i == par.pipeline - 1 ? sb * (2 * e * h * rep + (e + fp32_copy) * static_cast<double>(m.vocab) / tp) : 0.0);
    } else if (par.pipeline > 1) {
        const double p = static_cast<double>(par.pipeline);
        out.per_layer_stored *= p * std::ceil(L / p) / L;
        if (par.virtual_stages > 1) out.per_layer_stored *= 1.0 + (p - 1.0) / (p * static_cast<double>(par.virtual_stages));
    }
    if (t.fp8_gemms) {
        for (const LinearModule& l : linear_modules(m)) {
            const double params = static_cast<double>(l.in) * static_cast<double>(l.out);
            if (layer_linear_in_fp8(l)) out.fp8_weight_params_per_layer += static_cast<double>(l.count) / std::max(L, 1.0) * params;
            else if (head_linear_in_fp8(l)) out.fp8_head_weight_params = params;
        }
        out.fp8_weight_params_per_layer /= tp;
        out.fp8_head_weight_params /= tp;  // vocabulary-parallel
    }
    const double kept = L * out.per_layer_stored;
    if (t.cpu_checkpointing && t.checkpointing == Checkpointing::Full) {
        out.cpu_bytes_per_gpu = kept;
        out.gpu_bytes = out.per_layer_stored + out.recompute_working + out.embedding_and_logits;
    } else {
        out.gpu_bytes = kept + out.recompute_working + out.embedding_and_logits;
    }
    return out;
}

}  // namespace zp
