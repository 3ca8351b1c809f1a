#pragma once
// The logits a model returns, and what the training loop's metrics over them move and hold
// (Training::logit_metrics): read by the step's time (core/time/compute_time.cpp) and its memory
// timeline (core/memory/step_timeline.cpp).
#include "core/model/scenario.h"

namespace zp {

// Whether the model's own forward up-casts the logits it returns, which is where transformers
// computed the causal-LM loss before 4.46 (LossKernel::Shifted): LlamaForCausalLM's "logits =
// logits.float()" (4.31) and the families written from it (Mistral, Mixtral, Qwen2, Gemma, Phi,
// Phi-3), GPT-J's and GPT-Neo's "lm_logits.to(torch.float32)". GPT2LMHeadModel, GPTNeoXForCausalLM,
// BloomForCausalLM and FalconForCausalLM shift the logits as the head returns them and take
// CrossEntropyLoss of those; T5ForConditionalGeneration takes it of its 16-bit logits unshifted.
// A family not listed (one with no transformers class before 4.46, or a model from dimensions) is
// taken to up-cast: the larger of the two. From 4.46 loss_utils.py ForCausalLMLoss up-casts for
// every model.
inline bool forward_upcasts_logits(const ModelSpec& m) {
    for (const char* family : {"gpt2", "gpt_neox", "bloom", "falcon", "t5"})
        if (m.family == family) return false;
    return true;
}

// Whether the loss runs under autocast: the Trainer's and Accelerate's mixed precision wrap the
// model's forward in torch.autocast under PyTorch FSDP, not under DeepSpeed, which runs the model
// in its 16-bit dtype (accelerate accelerator.py prepare_model: native AMP's autocast forward, skipped
// for DeepSpeed). There cross_entropy's nll_loss runs in fp32 (autocast_mode.h AT_FORALL_FP32) on
// an fp32 copy of 16-bit log-probabilities.
inline bool loss_under_autocast(const Scenario& s) { return is_fsdp(s.fsdp); }

// Whether the loss works on fp32 logits: Training::loss_fp32_upcast where the code up-casts
// (forward_upcasts_logits before 4.46).
inline bool loss_upcasts(const ModelSpec& m, const Training& t) {
    return t.loss_fp32_upcast && (t.loss_kernel != LossKernel::Shifted || forward_upcasts_logits(m));
}

// Whether the loss's cross-entropy takes an fp32 copy of 16-bit log-probabilities for nll_loss:
// a whole-logits loss (Full or Shifted) in 16 bits that is not up-cast, under autocast. `upcasts`
// is loss_upcasts(s.model, s.training), for a caller that has it (the step timeline).
inline bool loss_copies_log_probs_to_fp32(const Scenario& s, bool upcasts) {
    const Training& t = s.training;
    return loss_under_autocast(s) && !upcasts && t.precision != Precision::Fp32 &&
           (t.loss_kernel == LossKernel::Full || t.loss_kernel == LossKernel::Shifted);
}
inline bool loss_copies_log_probs_to_fp32(const Scenario& s) { return loss_copies_log_probs_to_fp32(s, loss_upcasts(s.model, s.training)); }

// Bytes of one logit as the model returns it: the compute dtype's, or fp32 where transformers
// before 4.46 up-casts them in the model's forward (LossKernel::Shifted with the up-cast:
// LlamaForCausalLM.forward's logits.float()).
inline double returned_logit_bytes(const ModelSpec& m, const Training& t) {
    const double k = bytes_per_element(t.precision);
    return t.loss_kernel == LossKernel::Shifted && t.precision != Precision::Fp32 && loss_upcasts(m, t) ? 4.0 : k;
}

// Whether the model returns its logits at all: Liger's fused linear cross-entropy (LossKernel::
// Chunked) never builds them.
inline bool returns_logits(const Training& t) { return t.loss_kernel != LossKernel::Chunked; }

// The logits of one micro batch on a rank of the last pipeline stage, elements: its tokens (the
// sequence split over the Ulysses ranks, each of which runs the head and the loss on its shard) x
// the vocabulary (split over the tensor-parallel ranks: Megatron's vocabulary-parallel head).
inline double rank_logits(const Scenario& s) {
    const Parallelism& par = s.parallel;
    const double tokens =
        static_cast<double>(s.training.seq_len) * static_cast<double>(s.training.micro_batch) / static_cast<double>(ulysses_size(par));
    return tokens * static_cast<double>(s.model.vocab) / static_cast<double>(std::max<std::int64_t>(par.tensor, 1));
}

// Whether the loop's metrics run under autocast: Composer's precision context is torch.autocast for
// amp_bf16 / amp_fp16, and no context when DeepSpeed runs the model (composer/trainer/trainer.py
// _get_precision_context: nullcontext() if deepspeed_enabled; v0.16.4 lines 312-315).
inline bool metrics_under_autocast(const Scenario& s) { return is_fsdp(s.fsdp); }

// One metric is a torch.nn.CrossEntropyLoss forward over the returned logits under no_grad
// (Training::logit_metrics). cross_entropy_loss runs log_softmax in the logits' own dtype (PyTorch
// aten/src/ATen/native/LossNLL.cpp cross_entropy_loss: at::log_softmax(self, class_dim,
// self.scalar_type()), an explicit dtype autocast keeps), then nll_loss, which autocast runs in fp32
// (aten/src/ATen/autocast_mode.h AT_FORALL_FP32): 16-bit log-probabilities get an fp32 copy; nll_loss
// reads one a row. Per logit of `in` bytes, one read and one write a kernel:
//   held beside the logits   the log-probabilities and their fp32 copy, in + 4 (in alone without the cast)
//   HBM traffic              log_softmax's read and write, the cast's: 2 in + in + 4 (2 in without it)
// 16-bit under autocast: 6 held, 10 moved; fp32 logits: 4 and 8; 16-bit without autocast: 2 and 4.
inline bool metric_casts_to_fp32(const Scenario& s) { return metrics_under_autocast(s) && returned_logit_bytes(s.model, s.training) < 4.0; }
inline double metric_held_bytes_per_logit(const Scenario& s) {
    return returned_logit_bytes(s.model, s.training) + (metric_casts_to_fp32(s) ? 4.0 : 0.0);
}
inline double metric_traffic_bytes_per_logit(const Scenario& s) {
    const double in = returned_logit_bytes(s.model, s.training);
    return 2.0 * in + (metric_casts_to_fp32(s) ? in + 4.0 : 0.0);
}

}  // namespace zp
