#pragma once
// The one table of names for every scenario enum. to_string, the parsers, the CLI help, the
// window's combo boxes, the session reader and the README's lists all come from here; adding an
// optimizer means adding one row below (and its model in core/memory and core/time).
#include "core/base/errors.h"
#include "core/base/phrase.h"
#include "core/model/scenario.h"

#include <array>
#include <string>
#include <string_view>

namespace zp {

template <class E>
struct EnumName {
    E value;
    const char* name;  // lowercase, what files and the command line spell
};

// One specialisation per enum: `what` names the field in error messages, `names` lists every
// value once in display order, `aliases` are extra spellings the parser also accepts.
template <class E>
struct EnumVocabulary;

template <>
struct EnumVocabulary<Precision> {
    static constexpr const char* what = "precision";
    static constexpr std::array<EnumName<Precision>, 3> names{
        {{Precision::Bf16, "bf16"}, {Precision::Fp16, "fp16"}, {Precision::Fp32, "fp32"}}};
    static constexpr std::array<EnumName<Precision>, 0> aliases{};
};

template <>
struct EnumVocabulary<Optimizer> {
    static constexpr const char* what = "optimizer";
    static constexpr std::array<EnumName<Optimizer>, 7> names{{{Optimizer::AdamW, "adamw"},
                                                               {Optimizer::Adam, "adam"},
                                                               {Optimizer::Lamb, "lamb"},
                                                               {Optimizer::Lion, "lion"},
                                                               {Optimizer::Adagrad, "adagrad"},
                                                               {Optimizer::SgdMomentum, "sgd-momentum"},
                                                               {Optimizer::Sgd, "sgd"}}};
    static constexpr std::array<EnumName<Optimizer>, 2> aliases{
        {{Optimizer::SgdMomentum, "sgd_momentum"}, {Optimizer::SgdMomentum, "momentum"}}};
};

template <>
struct EnumVocabulary<OptimizerStorage> {
    static constexpr const char* what = "optimizer storage";
    static constexpr std::array<EnumName<OptimizerStorage>, 4> names{{{OptimizerStorage::Standard, "standard"},
                                                                      {OptimizerStorage::EightBit, "8bit"},
                                                                      {OptimizerStorage::Paged, "paged"},
                                                                      {OptimizerStorage::PagedEightBit, "paged-8bit"}}};
    static constexpr std::array<EnumName<OptimizerStorage>, 2> aliases{
        {{OptimizerStorage::EightBit, "8-bit"}, {OptimizerStorage::PagedEightBit, "paged-8-bit"}}};
};

template <>
struct EnumVocabulary<Checkpointing> {
    static constexpr const char* what = "checkpointing";
    static constexpr std::array<EnumName<Checkpointing>, 4> names{{{Checkpointing::None, QT_TRANSLATE_NOOP("Core", "none")},
                                                                   {Checkpointing::Selective, QT_TRANSLATE_NOOP("Core", "selective")},
                                                                   {Checkpointing::SelectiveOp, QT_TRANSLATE_NOOP("Core", "selective-op")},
                                                                   {Checkpointing::Full, QT_TRANSLATE_NOOP("Core", "full")}}};
    static constexpr std::array<EnumName<Checkpointing>, 0> aliases{};
};

template <>
struct EnumVocabulary<OffloadDevice> {
    static constexpr const char* what = "offload device";
    static constexpr std::array<EnumName<OffloadDevice>, 3> names{
        {{OffloadDevice::None, "none"}, {OffloadDevice::Cpu, "cpu"}, {OffloadDevice::Nvme, "nvme"}}};
    static constexpr std::array<EnumName<OffloadDevice>, 0> aliases{};
};

template <>
struct EnumVocabulary<Convention> {
    static constexpr const char* what = "convention";
    static constexpr std::array<EnumName<Convention>, 2> names{{{Convention::DeepSpeed, "deepspeed"}, {Convention::Paper, "paper"}}};
    static constexpr std::array<EnumName<Convention>, 0> aliases{};
};

template <>
struct EnumVocabulary<MlpActivation> {
    static constexpr const char* what = "MLP activation";
    static constexpr std::array<EnumName<MlpActivation>, 2> names{{{MlpActivation::Fused, "fused"}, {MlpActivation::GeluNew, "gelu-new"}}};
    // transformers' own name for it.
    static constexpr std::array<EnumName<MlpActivation>, 1> aliases{{{MlpActivation::GeluNew, "gelu_new"}}};
};

template <>
struct EnumVocabulary<NormKind> {
    static constexpr const char* what = "norm";
    static constexpr std::array<EnumName<NormKind>, 2> names{{{NormKind::LayerNorm, "layernorm"}, {NormKind::RmsNorm, "rmsnorm"}}};
    static constexpr std::array<EnumName<NormKind>, 0> aliases{};
};

template <>
struct EnumVocabulary<LossKernel> {
    static constexpr const char* what = "loss kernel";
    static constexpr std::array<EnumName<LossKernel>, 4> names{{{LossKernel::Full, "full"},
                                                                {LossKernel::Chunked, "chunked"},
                                                                {LossKernel::Shifted, "shifted"},
                                                                {LossKernel::Xentropy, "xentropy"}}};
    // Liger-Kernel's fused linear cross-entropy is the chunked loss people use.
    static constexpr std::array<EnumName<LossKernel>, 2> aliases{{{LossKernel::Chunked, "liger"}, {LossKernel::Chunked, "fused"}}};
};

template <>
struct EnumVocabulary<GradientAccumulation> {
    static constexpr const char* what = "gradient accumulation";
    static constexpr std::array<EnumName<GradientAccumulation>, 4> names{{{GradientAccumulation::Autograd, "autograd"},
                                                                          {GradientAccumulation::MainGrad, "main-grad"},
                                                                          {GradientAccumulation::Fused, "fused"},
                                                                          {GradientAccumulation::Bf16Optimizer, "bf16-optimizer"}}};
    static constexpr std::array<EnumName<GradientAccumulation>, 0> aliases{};
};

template <>
struct EnumVocabulary<AttentionSoftmax> {
    static constexpr const char* what = "attention softmax";
    static constexpr std::array<EnumName<AttentionSoftmax>, 2> names{
        {{AttentionSoftmax::Fused, "fused"}, {AttentionSoftmax::Unfused, "unfused"}}};
    // transformers names the unfused path attn_implementation="eager".
    static constexpr std::array<EnumName<AttentionSoftmax>, 1> aliases{{{AttentionSoftmax::Unfused, "eager"}}};
};

template <>
struct EnumVocabulary<LmHead> {
    static constexpr const char* what = "LM head";
    static constexpr std::array<EnumName<LmHead>, 2> names{{{LmHead::Module, "module"}, {LmHead::EmbeddingWeight, "embedding-weight"}}};
    // Megatron's GPT reads its head so.
    static constexpr std::array<EnumName<LmHead>, 1> aliases{{{LmHead::EmbeddingWeight, "megatron"}}};
};

template <>
struct EnumVocabulary<Job> {
    static constexpr const char* what = "job";
    static constexpr std::array<EnumName<Job>, 6> names{{{Job::Custom, "custom"},
                                                         {Job::PreTraining, "pretrain"},
                                                         {Job::FullFineTune, "finetune"},
                                                         {Job::Lora, "lora"},
                                                         {Job::Qlora, "qlora"},
                                                         {Job::LongContext, "long-context"}}};
    static constexpr std::array<EnumName<Job>, 3> aliases{
        {{Job::PreTraining, "pretraining"}, {Job::FullFineTune, "full-finetune"}, {Job::LongContext, "alst"}}};
};

template <>
struct EnumVocabulary<Engine> {
    static constexpr const char* what = "engine";
    static constexpr std::array<EnumName<Engine>, 3> names{
        {{Engine::DeepSpeed, "deepspeed"}, {Engine::Fsdp, "fsdp"}, {Engine::Fsdp2, "fsdp2"}}};
    static constexpr std::array<EnumName<Engine>, 2> aliases{{{Engine::Fsdp, "fsdp1"}, {Engine::Fsdp2, "fully_shard"}}};
};

template <>
struct EnumVocabulary<PipelineSend> {
    static constexpr const char* what = "pipeline send";
    static constexpr std::array<EnumName<PipelineSend>, 2> names{
        {{PipelineSend::Whole, "whole"}, {PipelineSend::ScatterGather, "scatter-gather"}}};
    static constexpr std::array<EnumName<PipelineSend>, 0> aliases{};
};

template <>
struct EnumVocabulary<FsdpPrecision> {
    static constexpr const char* what = "FSDP precision";
    static constexpr std::array<EnumName<FsdpPrecision>, 3> names{
        {{FsdpPrecision::Mixed, "mixed"}, {FsdpPrecision::Autocast, "autocast"}, {FsdpPrecision::Pure, "pure"}}};
    static constexpr std::array<EnumName<FsdpPrecision>, 1> aliases{{{FsdpPrecision::Autocast, "amp"}}};
};

template <>
struct EnumVocabulary<StepPhase> {
    static constexpr const char* what = "step phase";
    static constexpr std::array<EnumName<StepPhase>, 8> names{
        {{StepPhase::StartUp, QT_TRANSLATE_NOOP("Core", "start-up")},
         {StepPhase::Forward, QT_TRANSLATE_NOOP("Core", "forward")},
         {StepPhase::Loss, QT_TRANSLATE_NOOP("Core", "loss")},
         {StepPhase::Backward, QT_TRANSLATE_NOOP("Core", "backward")},
         {StepPhase::Metrics, QT_TRANSLATE_NOOP("Core", "metrics")},
         {StepPhase::GradientReduce, QT_TRANSLATE_NOOP("Core", "gradient reduce")},
         {StepPhase::OptimizerStep, QT_TRANSLATE_NOOP("Core", "optimizer step")},
         {StepPhase::ParameterGather, QT_TRANSLATE_NOOP("Core", "parameter gather")}}};
    static constexpr std::array<EnumName<StepPhase>, 0> aliases{};
};

template <>
struct EnumVocabulary<HostPhase> {
    static constexpr const char* what = "host phase";
    static constexpr std::array<EnumName<HostPhase>, 4> names{{{HostPhase::Loading, "loading"},
                                                               {HostPhase::Initialize, "initialize"},
                                                               {HostPhase::Training, "training"},
                                                               {HostPhase::CheckpointSave, "checkpoint save"}}};
    static constexpr std::array<EnumName<HostPhase>, 0> aliases{};
};

template <>
struct EnumVocabulary<FineTuneMethod> {
    static constexpr const char* what = "fine-tuning method";
    static constexpr std::array<EnumName<FineTuneMethod>, 3> names{
        {{FineTuneMethod::Full, "full"}, {FineTuneMethod::Lora, "lora"}, {FineTuneMethod::Qlora, "qlora"}}};
    static constexpr std::array<EnumName<FineTuneMethod>, 0> aliases{};
};

template <>
struct EnumVocabulary<BasePrecision> {
    static constexpr const char* what = "base precision";
    static constexpr std::array<EnumName<BasePrecision>, 6> names{{{BasePrecision::Auto, "auto"},
                                                                   {BasePrecision::Bf16, "bf16"},
                                                                   {BasePrecision::Fp16, "fp16"},
                                                                   {BasePrecision::Int8, "int8"},
                                                                   {BasePrecision::Nf4, "nf4"},
                                                                   {BasePrecision::Fp4, "fp4"}}};
    static constexpr std::array<EnumName<BasePrecision>, 0> aliases{};
};

template <>
struct EnumVocabulary<LoraTargets> {
    static constexpr const char* what = "LoRA targets";
    static constexpr std::array<EnumName<LoraTargets>, 4> names{{{LoraTargets::Default, "default"},
                                                                 {LoraTargets::Attention, "attention"},
                                                                 {LoraTargets::AllLinear, "all-linear"},
                                                                 {LoraTargets::Modules, "modules"}}};
    static constexpr std::array<EnumName<LoraTargets>, 1> aliases{{{LoraTargets::AllLinear, "all_linear"}}};
};

template <>
struct EnumVocabulary<QuantStorage> {
    static constexpr const char* what = "quant storage";
    static constexpr std::array<EnumName<QuantStorage>, 5> names{{{QuantStorage::Auto, "auto"},
                                                                  {QuantStorage::Uint8, "uint8"},
                                                                  {QuantStorage::Bf16, "bf16"},
                                                                  {QuantStorage::Fp16, "fp16"},
                                                                  {QuantStorage::Fp32, "fp32"}}};
    static constexpr std::array<EnumName<QuantStorage>, 0> aliases{};
};

// Every value with its name, in display order.
template <class E>
constexpr const auto& enum_names() {
    return EnumVocabulary<E>::names;
}

// "bf16|fp16|fp32" (or with another separator): the accepted spellings for help and errors.
template <>
struct EnumVocabulary<Fp8Scaling> {
    static constexpr const char* what = "FP8 scaling";
    static constexpr std::array<EnumName<Fp8Scaling>, 2> names{{{Fp8Scaling::Delayed, "delayed"}, {Fp8Scaling::Mxfp8, "mxfp8"}}};
    static constexpr std::array<EnumName<Fp8Scaling>, 0> aliases{};
};

template <class E>
std::string choice_list(std::string_view separator = "|") {
    std::string out;
    for (const auto& n : EnumVocabulary<E>::names) {
        if (!out.empty()) out += separator;
        out += n.name;
    }
    return out;
}

// The value named `s` (a name or an alias); throws InputError "<what> must be one of a|b|c, got 'x'".
template <class E>
E parse_enum(std::string_view s) {
    for (const auto& n : EnumVocabulary<E>::names)
        if (s == n.name) return n.value;
    for (const auto& n : EnumVocabulary<E>::aliases)
        if (s == n.name) return n.value;
    throw InputError(std::string(EnumVocabulary<E>::what) + " must be one of " + choice_list<E>() + ", got '" + std::string(s) + "'");
}

inline Precision parse_precision(std::string_view s) { return parse_enum<Precision>(s); }
inline Optimizer parse_optimizer(std::string_view s) { return parse_enum<Optimizer>(s); }
inline OptimizerStorage parse_optimizer_storage(std::string_view s) { return parse_enum<OptimizerStorage>(s); }
// bitsandbytes' storage an optimizer's name or description states, the Trainer's optim names
// (training_args.py OptimizerNames: "paged_adamw_32bit", "adamw_bnb_8bit", "paged_lion_8bit") and
// prose alike ("PagedAdamW8bit", "8-bit Adam"): paged and/or 8-bit; Standard when it names neither.
OptimizerStorage optimizer_storage_named(std::string_view text);
inline Checkpointing parse_checkpointing(std::string_view s) { return parse_enum<Checkpointing>(s); }
inline OffloadDevice parse_offload_device(std::string_view s) { return parse_enum<OffloadDevice>(s); }
inline Convention parse_convention(std::string_view s) { return parse_enum<Convention>(s); }
inline NormKind parse_norm_kind(std::string_view s) { return parse_enum<NormKind>(s); }
inline MlpActivation parse_mlp_activation(std::string_view s) { return parse_enum<MlpActivation>(s); }
inline LossKernel parse_loss_kernel(std::string_view s) { return parse_enum<LossKernel>(s); }
inline GradientAccumulation parse_gradient_accumulation(std::string_view s) { return parse_enum<GradientAccumulation>(s); }
inline AttentionSoftmax parse_attention_softmax(std::string_view s) { return parse_enum<AttentionSoftmax>(s); }
inline LmHead parse_lm_head(std::string_view s) { return parse_enum<LmHead>(s); }
inline Fp8Scaling parse_fp8_scaling(std::string_view s) { return parse_enum<Fp8Scaling>(s); }
inline FineTuneMethod parse_finetune_method(std::string_view s) { return parse_enum<FineTuneMethod>(s); }
inline BasePrecision parse_base_precision(std::string_view s) { return parse_enum<BasePrecision>(s); }
inline LoraTargets parse_lora_targets(std::string_view s) { return parse_enum<LoraTargets>(s); }
inline QuantStorage parse_quant_storage(std::string_view s) { return parse_enum<QuantStorage>(s); }
inline Engine parse_engine(std::string_view s) { return parse_enum<Engine>(s); }
inline Job parse_job(std::string_view s) { return parse_enum<Job>(s); }
inline FsdpPrecision parse_fsdp_precision(std::string_view s) { return parse_enum<FsdpPrecision>(s); }
inline PipelineSend parse_pipeline_send(std::string_view s) { return parse_enum<PipelineSend>(s); }

}  // namespace zp
