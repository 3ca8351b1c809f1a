#pragma once
// The transformers release a run uses, where its behaviour changes what the planner models: the
// Training fields that are no argument the run passes but that release's default. `validate` reads
// it from a case's "transformers", the command line from --transformers-release, the window from
// Training's "transformers release". Unlike DeepSpeed's (deepspeed_release.h) it is not kept in the
// plan: the switches it sets are. The exports are written for today's transformers whatever it
// says: they name the recompute (gradient_checkpointing_kwargs, from 4.35) and load in bf16
// (torch_dtype), and write no low_cpu_mem_usage; the loss of a release before 4.46 is the model's
// own and no export brings it back.
#include "core/model/scenario.h"

#include <array>
#include <optional>
#include <string_view>

namespace zp {

struct TransformersRelease {
    int major = 0, minor = 0, patch = 0;
};

// "4.46", "4.31.0", "5.0.1" (a release without a patch reads as .0); nullopt for anything else
// ("latest", "4.x", "5.0.0rc1", "4.57.0.dev0").
std::optional<TransformersRelease> parse_transformers_release(std::string_view text);

// The first release with each default the planner models (huggingface/transformers tags).
namespace transformers_firsts {
// The causal-LM loss leaves the model's forward for src/transformers/loss/loss_utils.py
// ForCausalLMLoss (the gradient-accumulation fix; Hugging Face blog "Fixing Gradient Accumulation",
// 2024-10-16). Before, each *ForCausalLM shifted a copy of the logits it returned, up-cast where its
// family's forward did (LossKernel::Shifted: LlamaForCausalLM 4.31 "logits = logits.float()",
// "shift_logits = ...contiguous()"; core/model/logits.h forward_upcasts_logits).
// Not told apart: ForCausalLMLoss itself shifted an fp32 copy until PR #35646 (2025-01, after 4.48.0)
// padded the labels instead; the planner counts today's (LossKernel::Full) from 4.46, one fp32
// logits-sized copy short for 4.46 to 4.48.
inline constexpr TransformersRelease kLossOutsideModel{4, 46, 0};
// from_pretrained builds every model on the meta device and fills it tensor by tensor outside
// ZeRO-3; low_cpu_mem_usage is ignored (PR #36963; get_init_context; Training::low_cpu_mem_usage).
inline constexpr TransformersRelease kMetaDeviceLoad{4, 51, 0};
// from_pretrained's dtype defaults to "auto", the checkpoint's (PR #42805; Training::load_in_16bit).
inline constexpr TransformersRelease kAutoDtype{5, 0, 0};
// The Trainer's gradient checkpointing is non-reentrant by default (PR #43203;
// Training::reentrant_recompute).
inline constexpr TransformersRelease kNonReentrantCheckpointing{5, 0, 0};
}  // namespace transformers_firsts

// Sets load_in_16bit, low_cpu_mem_usage and reentrant_recompute as `release` behaves when the run
// passes none of them, and the model's own loss (LossKernel::Full from 4.46, Shifted before); a
// loss the run replaces (Liger's chunked one, flash-attn's xentropy) or Megatron's GPT's
// (LmHead::EmbeddingWeight) stays. An FSDP plan reads
// FSDP's checkpointing, not reentrant_recompute (scenario.h recompute_stops_early).
void apply_transformers_release(Training& t, const TransformersRelease& release);

// Whether those fields of `t` are what `release` sets.
bool follows_transformers_release(const Training& t, const TransformersRelease& release);

// The releases the planner tells apart, newest first: within an era every release behaves the same
// for what the planner models. `last` is the era's last minor release (its patch unread), unset for
// today's. 4.57 was the last 4.x minor before 5.0.
struct TransformersReleaseEra {
    TransformersRelease first, last;
};
inline constexpr std::array<TransformersReleaseEra, 4> kTransformersReleaseEras{{
    {{5, 0, 0}, {}},
    {{4, 51, 0}, {4, 57, 0}},
    {{4, 46, 0}, {4, 50, 0}},
    {{0, 0, 0}, {4, 45, 0}},
}};

}  // namespace zp
