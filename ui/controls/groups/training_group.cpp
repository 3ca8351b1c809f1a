#include "ui/controls/groups/training_group.h"

#include "core/model/deepspeed_release.h"
#include "core/model/logits.h"
#include "core/model/release_eras.h"
#include "core/model/transformers_release.h"
#include "core/search/scenario_edits.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QStandardItemModel>

#include <cmath>
#include <vector>

namespace zp::ui {

using Scale = ScaledSlider::Scale;

TrainingGroup::TrainingGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Training"), parent) {
    addStepRows();
    connectEdits();
    // The kernels, memory, output and long-context rows: under Advanced in every job but the
    // long-context one, so built when first shown (control_group.h).
    buildRowsWhenShown({"flash_attention",
                        "attention_softmax",
                        "lm_head",
                        "loss_fp32_upcast",
                        "loss_kernel",
                        "gradient_accumulation",
                        "fused_optimizer",
                        "bf16_master_weights",
                        "fp8_gemms",
                        "fp8_scaling",
                        "data_seconds_per_sample",
                        "optimizer_storage",
                        "headroom",
                        "convention",
                        "kv_cache_in_training",
                        "outputs_kept",
                        "logit_metrics",
                        "tiled_mlp",
                        "reentrant_recompute",
                        "cpu_checkpointing",
                        "partition_activations",
                        "expandable_segments",
                        "int64_kernel_indexing"},
                       [this] {
                           addMemoryRows();
                           addOutputRows();
                           addLongContextRows();
                           connectWaitingEdits();
                       });
}

void TrainingGroup::addStepRows() {
    engine_ =
        named(tip(new QComboBox(this), tr("The engine the run launches with: DeepSpeed ZeRO, or PyTorch FSDP (FULL_SHARD is ZeRO-3, "
                                          "SHARD_GRAD_OP ZeRO-2, NO_SHARD DDP; no ZeRO-1, ZeRO++, MiCS or NVMe), or FSDP2's fully_shard "
                                          "(reshard_after_forward True is ZeRO-3, False ZeRO-2).")),
              "engine");
    const auto engineLabel = [](Engine e) {
        switch (e) {
        case Engine::DeepSpeed: return tr("DeepSpeed");
        case Engine::Fsdp: return tr("PyTorch FSDP");
        case Engine::Fsdp2: return tr("FSDP2 (fully_shard)");
        }
        return QString::fromLatin1(to_string(e));
    };
    engine_->addItem(tr("auto (the faster)"), QStringLiteral("auto"));  // the recommender plans both engines
    addEnumItems<Engine>(engine_, engineLabel);
    form_->addRow(tr("Engine"), engine_);
    fsdp_precision_ =
        named(tip(new QComboBox(this), tr("FSDP's dtypes: an fp32 model with MixedPrecision (the Trainer's and Accelerate's bf16), "
                                          "an fp32 model under torch.autocast, or the model loaded in the training dtype.")),
              "fsdp_precision");
    const auto fsdpPrecisionLabel = [](FsdpPrecision p) {
        switch (p) {
        case FsdpPrecision::Mixed: return tr("fp32 + MixedPrecision");
        case FsdpPrecision::Autocast: return tr("fp32 + autocast");
        case FsdpPrecision::Pure: return tr("model in 16 bits");
        }
        return QString::fromLatin1(to_string(p));
    };
    addEnumItems<FsdpPrecision>(fsdp_precision_, fsdpPrecisionLabel);
    form_->addRow(tr("FSDP dtypes"), fsdp_precision_);
    hybrid_shard_ = addBox(tr("FSDP hybrid sharding (per node)"),
                           tr("HYBRID_SHARD: the model states sharded over each node's GPUs and replicated across nodes; the "
                              "gathers stay inside the node, each gradient shard is all-reduced across nodes. Off, the "
                              "recommendation plans both across nodes and keeps the faster."),
                           "hybrid_shard");
    addReleaseRow();
    precision_ =
        named(tip(new QComboBox(this), tr("bf16/fp16: mixed precision with fp32 master weights; fp32: no master copy.")), "precision");
    addEnumItems<Precision>(precision_);
    form_->addRow(tr("Precision"), precision_);
    optimizer_ =
        named(tip(new QComboBox(this), tr("Optimizer state per parameter: Adam/AdamW/LAMB 8 bytes, Lion/Adagrad/SGD+momentum 4, SGD 0.")),
              "optimizer");
    addEnumItems<Optimizer>(optimizer_);
    form_->addRow(tr("Optimizer"), optimizer_);
    // The slider spans 128 to 16M tokens (ALST's lengths); the spin box takes every valid length.
    seq_ = named(new ScaledSlider(128, 16777216, 0, tr(" tokens"), Scale::Logarithmic), "seq_len");
    seq_->setValidRange(static_cast<double>(limits::kSeqLen.min), static_cast<double>(limits::kSeqLen.max));
    seq_->setPowerOfTwoSnapping(true);
    seq_->setToolTips(tr("Sequence length. Activations grow with it (quadratically without flash attention)."));
    form_->addRow(tr("Sequence"), seq_);
    // A double spin box with no decimals: a QSpinBox holds at most 2^31 - 1, the limit is 2^40
    // (doubles count exactly up to 2^53).
    global_batch_ = named(
        tip(new EditDoubleSpinBox,
            tr("Sequences per optimizer step (DeepSpeed's train_batch_size). Auto: 64, or one sequence per data-parallel rank once the long-context job has set it, raised to a multiple of micro batch x data-parallel ranks.")),
        "global_batch");
    global_batch_->setDecimals(0);
    global_batch_->setRange(static_cast<double>(limits::kAutomaticGlobalBatch), static_cast<double>(limits::kGlobalBatch.max));
    global_batch_->setSpecialValueText(tr("auto"));
    form_->addRow(tr("Global batch"), global_batch_);
    micro_batch_ = named(
        tip(new EditSpinBox, tr("Sequences per GPU per forward pass. Auto: the recommender picks it for every setup; a number fixes it.")),
        "micro_batch");
    micro_batch_->setRange(0, static_cast<int>(limits::kMicroBatch.max));  // 0 shows "auto": the recommender searches it
    micro_batch_->setSpecialValueText(tr("auto"));
    form_->addRow(tr("Micro batch"), micro_batch_);
    checkpointing_ = named(
        tip(new QComboBox(this), tr("Activation recompute: none, selective (recompute attention scores), selective-op (torchtitan's "
                                    "op-level checkpointing: keep every other matmul's output and the attention output) or full "
                                    "(keep only layer inputs). Auto: the recommender picks none, selective or full for every setup.")),
        "checkpointing");
    checkpointing_->addItem(tr("auto"), QStringLiteral("auto"));
    addEnumItems<Checkpointing>(checkpointing_);
    form_->addRow(tr("Recompute"), checkpointing_);
}

void TrainingGroup::addMemoryRows() {
    flash_ = named(
        tip(new QCheckBox(tr("Flash attention")), tr("Flash attention never stores the attention scores (5 a s\u00b2 b bytes per layer).")),
        "flash_attention");
    form_->addRow(flash_);
    addSoftmaxRow();
    addLmHeadRow();
    loss_upcast_ = named(tip(new QCheckBox(tr("fp32 loss up-cast")),
                             tr("The loss up-casts the 16-bit logits to fp32 (transformers' default): an fp32 copy of the logits "
                                "at the loss, often the step's peak.")),
                         "loss_fp32_upcast");
    loss_upcast_->setAccessibleName(tr("fp32 loss up-cast"));
    form_->addRow(loss_upcast_);
    loss_kernel_ = named(tip(new QComboBox(this), tr("Full: the logits of the whole micro batch at once. Chunked (Liger's fused linear "
                                                     "cross-entropy): the loss in chunks, without the full logits. Shifted: transformers "
                                                     "before 4.46, whose model shifts a copy of the logits it returns (up-cast to "
                                                     "fp32 by Llama and its kin, not by GPT-2, GPT-NeoX, BLOOM or Falcon).")),
                         "loss_kernel");
    const auto lossKernelLabel = [](LossKernel k) {
        switch (k) {
        case LossKernel::Full: return tr("full");
        case LossKernel::Chunked: return tr("chunked (Liger)");
        case LossKernel::Shifted: return tr("shifted copy (transformers < 4.46)");
        case LossKernel::Xentropy: return tr("fused cross-entropy (flash-attn)");
        }
        return QString::fromLatin1(to_string(k));
    };
    addEnumItems<LossKernel>(loss_kernel_, lossKernelLabel);
    loss_kernel_->setAccessibleName(tr("Loss kernel"));
    form_->addRow(tr("Loss kernel"), loss_kernel_);
    addAccumulationRow();
    fused_optimizer_ = named(tip(new QCheckBox(tr("Fused optimizer (DeepSpeed FusedAdam)")),
                                 tr("DeepSpeed's fused optimizer (its \"optimizer\" block). Off: torch.optim's, whose step allocates "
                                    "temporaries the size of the fp32 partition.")),
                             "fused_optimizer");
    fused_optimizer_->setAccessibleName(tr("Fused optimizer (DeepSpeed FusedAdam)"));
    form_->addRow(fused_optimizer_);
    bf16_master_ = addBox(tr("bf16 master weights and optimizer states"),
                          tr("DeepSpeed's bf16_master_weights_and_grads with bf16_optimizer_states: the master weights, the gradient "
                             "the optimizer steps and its moments in bf16. bf16 at ZeRO 1-3 with the optimizer on the GPU."),
                          "bf16_master_weights");
    addFp8Rows();
    addDataRows();
    optimizer_storage_ = named(tip(new QComboBox(this), tr("Where the optimizer's moments live. Standard: fp32 in the GPU's allocator. "
                                                           "bitsandbytes: 8-bit (a quarter of the bytes); paged (CUDA managed memory, "
                                                           "outside the allocator, moved to host RAM when the card is full).")),
                               "optimizer_storage");
    const auto storageLabel = [](OptimizerStorage o) {
        switch (o) {
        case OptimizerStorage::Standard: return tr("standard (fp32)");
        case OptimizerStorage::EightBit: return tr("8-bit (bitsandbytes)");
        case OptimizerStorage::Paged: return tr("paged (bitsandbytes)");
        case OptimizerStorage::PagedEightBit: return tr("paged 8-bit (bitsandbytes)");
        }
        return QString::fromLatin1(to_string(o));
    };
    addEnumItems<OptimizerStorage>(optimizer_storage_, storageLabel);
    optimizer_storage_->setAccessibleName(tr("Optimizer states"));
    form_->addRow(tr("Optimizer states"), optimizer_storage_);
    headroom_ = named(tip(new EditDoubleSpinBox, tr("GPU memory kept free: a setup fits when its total is below capacity minus headroom.")),
                      "headroom");
    headroom_->setDecimals(0);
    setValidRange(headroom_, limits::kHeadroom, 100);
    headroom_->setSuffix(tr(" %"));
    form_->addRow(tr("Headroom"), headroom_);
    const auto conventionLabel = [](Convention c) {
        switch (c) {
        case Convention::DeepSpeed: return tr("DeepSpeed implementation");
        case Convention::Paper: return tr("ZeRO paper (K = 12)");
        }
        return QString::fromLatin1(to_string(c));
    };
    convention_ = addEnumRow<Convention>(
        "convention", tr("Convention"),
        tr("Model-state accounting: DeepSpeed's implementation (20 bytes/param at stage 0) or the ZeRO paper's K = 12 (16 bytes/param)."),
        conventionLabel);
}

void TrainingGroup::addSoftmaxRow() {
    const auto softmaxLabel = [](AttentionSoftmax a) {
        switch (a) {
        case AttentionSoftmax::Fused: return tr("fused (Megatron)");
        case AttentionSoftmax::Unfused: return tr("unfused (eager)");
        }
        return QString::fromLatin1(to_string(a));
    };
    attention_softmax_ = addEnumRow<AttentionSoftmax>("attention_softmax", tr("Softmax"),
                                                      tr("Without flash attention, how the attention scores are scaled, masked and "
                                                         "soft-maxed. Unfused: one kernel each, as Hugging Face's eager attention "
                                                         "runs them, a pass over the scores each. Fused: Megatron's "
                                                         "FusedScaleMaskSoftmax, one kernel."),
                                                      softmaxLabel);
}

void TrainingGroup::addLmHeadRow() {
    const auto headLabel = [](LmHead h) {
        switch (h) {
        case LmHead::Module: return tr("module (Hugging Face)");
        case LmHead::EmbeddingWeight: return tr("word embedding (Megatron)");
        }
        return QString::fromLatin1(to_string(h));
    };
    lm_head_ = addEnumRow<LmHead>("lm_head", tr("LM head"),
                                  tr("Where the logits' weight is read, which decides how ZeRO-3 gathers the vocabulary "
                                     "matrix. Module: Hugging Face's lm_head, gathered for its forward and kept into its "
                                     "backward. Word embedding: Megatron's GPT reads its tied embedding in the model's "
                                     "forward; ZeRO-3 keeps it gathered through the forward and the backward."),
                                  headLabel);
}

void TrainingGroup::addAccumulationRow() {
    const auto accumulationLabel = [](GradientAccumulation g) {
        switch (g) {
        case GradientAccumulation::Autograd: return tr("autograd (DeepSpeed)");
        case GradientAccumulation::MainGrad: return tr("main-grad (Megatron-LM)");
        case GradientAccumulation::Fused: return tr("fused (Megatron-LM)");
        case GradientAccumulation::Bf16Optimizer: return tr("fp32 copy (BF16_Optimizer)");
        }
        return QString::fromLatin1(to_string(g));
    };
    gradient_accumulation_ = addEnumRow<GradientAccumulation>(
        "gradient_accumulation", tr("Gradient accumulation"),
        tr("Where the gradients of a step's micro batches are summed at ZeRO 0/1. Autograd: DeepSpeed's engine "
           "adds each micro batch's 16-bit gradient into the last, a pass over the parameters. Main-grad "
           "hook: Megatron-LM adds it into its main_grad buffer. Fused: Megatron-LM's "
           "--gradient-accumulation-fusion, inside the weight-gradient GEMM, no pass. fp32 copy: DeepSpeed's "
           "BF16_Optimizer (bf16 at ZeRO 0 with a pipeline) adds it into an fp32 copy every micro batch."),
        accumulationLabel);
}

void TrainingGroup::addDataRows() {
    data_seconds_ = named(tip(new EditDoubleSpinBox, tr("What the data pipeline takes to read, tokenize and collate one sample on a "
                                                        "process (0: it keeps up). Loading runs beside the GPUs: a step waits only "
                                                        "for what it takes past the rest of the step.")),
                          "data_seconds_per_sample");
    data_seconds_->setDecimals(2);
    setValidRange(data_seconds_, limits::kDataSecondsPerSample);
    data_seconds_->setSuffix(tr(" s a sample"));
    data_seconds_->setAccessibleName(tr("Data pipeline"));
    form_->addRow(tr("Data pipeline"), data_seconds_);
}

void TrainingGroup::addFp8Rows() {
    fp8_ = addBox(tr("FP8 matmuls (Transformer Engine)"),
                  tr("Accelerate's mixed_precision fp8: every Linear whose sizes divide by 16 runs in FP8 on the GPU's "
                     "FP8 tensor cores (DelayedScaling, E4M3 forward, E5M2 gradients); each keeps an FP8 copy of its "
                     "weight for backward. bf16 only; the step time is a peak-ratio estimate."),
                  "fp8_gemms");
    fp8_scaling_ = named(tip(new QComboBox(this), tr("How Transformer Engine scales the FP8 tensors. Per tensor: DelayedScaling, one scale "
                                                     "a tensor from its amax history. MXFP8: one scale per 32 elements, a rowwise and a "
                                                     "columnwise copy of each tensor (about 2.06 bytes a weight parameter kept for "
                                                     "backward); compute capability 10 only (B200, B300, GB200, GB300).")),
                         "fp8_scaling");
    const auto scalingLabel = [](Fp8Scaling f) {
        switch (f) {
        case Fp8Scaling::Delayed: return tr("per tensor (delayed scaling)");
        case Fp8Scaling::Mxfp8: return tr("MXFP8 (blocks of 32)");
        }
        return QString::fromLatin1(to_string(f));
    };
    addEnumItems<Fp8Scaling>(fp8_scaling_, scalingLabel);
    fp8_scaling_->setAccessibleName(tr("FP8 scaling"));
    form_->addRow(tr("FP8 scaling"), fp8_scaling_);
}

void TrainingGroup::addOutputRows() {
    kv_cache_ = addBox(tr("Model returns its KV cache"),
                       tr("use_cache left on: every layer's keys and values are returned and kept until the output is "
                          "dropped. transformers turns it off only with its own gradient checkpointing; FSDP's or "
                          "Accelerate's checkpointing leaves it on."),
                       "kv_cache_in_training");
    outputs_kept_ = addBox(tr("Loop keeps the last output"),
                           tr("A training loop that keeps \"outputs = model(**batch)\" holds its logits through the "
                              "backward and the step, and the previous step's (and KV cache) through the next forward. "
                              "The Trainer drops it before the backward."),
                           "outputs_kept");
    // Training::logit_metrics (core/model/logits.h: what each moves and holds a logit).
    logit_metrics_ = addCountRow("logit_metrics", tr("Train metrics"),
                                 tr("Cross-entropy metrics the training loop computes over each micro batch's logits after its "
                                    "backward, outside autograd: Composer's train metrics (llm-foundry's MPT sets two). The "
                                    "Trainer and DeepSpeed's examples compute none."),
                                 limits::kLogitMetrics, tr("none"));
}

QCheckBox* TrainingGroup::addBox(const QString& text, const QString& tooltip, const char* name) {
    QCheckBox* b = named(tip(new QCheckBox(text), tooltip), name);
    b->setAccessibleName(text);
    form_->addRow(b);
    return b;
}

void TrainingGroup::addLongContextRows() {
    // Recompute's implementation, then ALST's parts (docs/design.md §4.17); Ulysses is the Model
    // parallelism group's sequence size, the tiled loss the loss kernel above.
    const auto box = [this](const QString& text, const QString& tooltip, const char* name) { return addBox(text, tooltip, name); };
    tiled_mlp_ = box(tr("Tiled MLP (ALST)"),
                     tr("DeepSpeed's TiledMLP: the MLP runs in shards of about hidden-size tokens and keeps only its input; its "
                        "forward runs again in backward."),
                     "tiled_mlp");
    // Training::reentrant_recompute (core/model/scenario.h recompute_stops_early).
    reentrant_ = box(tr("Re-entrant recompute"),
                     tr("DeepSpeed with full recompute: each layer is re-run whole in backward, as re-entrant checkpointing "
                        "does (the Trainer before transformers 5.0). Off: non-reentrant, which stops before a dense layer's "
                        "down projection (transformers 5, the exports). Changes nothing for Megatron layouts, mixtures, "
                        "adapters, FP8, tiled MLPs or a dropout after the MLP; FSDP recomputes through its own checkpointing."),
                     "reentrant_recompute");
    cpu_checkpointing_ = box(tr("Checkpoints in host RAM"),
                             tr("With full recompute, each layer's checkpointed input waits in host memory between forward and "
                                "backward (ALST's activation checkpoint offload; DeepSpeed's cpu_checkpointing)."),
                             "cpu_checkpointing");
    partition_activations_ = box(tr("Checkpoints split over tensor ranks"),
                                 tr("With full recompute and tensor parallelism, each tensor-parallel GPU keeps a share of every "
                                    "checkpointed layer input and gathers it back before the layer is recomputed (DeepSpeed's "
                                    "partition_activations)."),
                                 "partition_activations");
    expandable_segments_ = box(tr("Expandable segments"),
                               tr("PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: no cached memory is stranded when an "
                                  "allocation fails."),
                               "expandable_segments");
    int64_kernels_ = box(tr("64-bit kernel indexing"),
                         tr("FlashAttention-3 and Liger-Kernel with int64 indexing. Off: FlashAttention-2 and older Liger fail once "
                            "a GPU's tokens x hidden reach 2^31 elements."),
                         "int64_kernel_indexing");
}

void TrainingGroup::connectLongContextEdits() {
    connect(tiled_mlp_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditTiledMlp, tr("Toggle tiled MLP"), [&](Scenario& s) { s.training.tiled_mlp = on; }); });
    connect(reentrant_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditReentrantRecompute, tr("Toggle re-entrant recompute"), [&](Scenario& s) { s.training.reentrant_recompute = on; });
    });
    connect(cpu_checkpointing_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditCpuCheckpointing, tr("Toggle checkpoints in host RAM"), [&](Scenario& s) { s.training.cpu_checkpointing = on; });
    });
    connect(partition_activations_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditPartitionActivations, tr("Toggle checkpoints split over tensor ranks"),
             [&](Scenario& s) { s.training.partition_activations = on; });
    });
    connect(expandable_segments_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditExpandableSegments, tr("Toggle expandable segments"), [&](Scenario& s) { s.training.expandable_segments = on; });
    });
    connect(int64_kernels_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditKernelIndex, tr("Toggle 64-bit kernel indexing"), [&](Scenario& s) { s.training.int64_kernel_indexing = on; });
    });
}

namespace {
QString releaseText(const DeepSpeedRelease& r) { return QStringLiteral("%1.%2.%3").arg(r.major).arg(r.minor).arg(r.patch); }
QString minorText(const TransformersRelease& r) { return QStringLiteral("%1.%2").arg(r.major).arg(r.minor); }
}  // namespace

// Eras newest first, each item's data its index: the newest "X or later", the oldest "before" the
// next one's first release, the rest "first to last".
template <typename Eras, typename Text>
void TrainingGroup::addEraItems(QComboBox* combo, const Eras& eras, Text text) {
    for (std::size_t i = 0; i < eras.size(); ++i) {
        const QString label = i == 0                 ? tr("%1 or later").arg(text(eras[i].first))
                              : i + 1 == eras.size() ? tr("before %1").arg(text(eras[i - 1].first))
                                                     : tr("%1 to %2").arg(text(eras[i].first), text(eras[i].last));
        combo->addItem(label, static_cast<int>(i));
    }
}

// The era (an index) whose release the switches follow, or "set switch by switch" (-1); the eras
// a choice would not show as themselves disabled (core/model/release_eras.h).
void TrainingGroup::showEra(QComboBox* combo, int era, const std::vector<bool>& offered) {
    const int switches = combo->findData(-1);
    if (era < 0 && switches < 0) combo->addItem(tr("set switch by switch"), -1);
    if (era >= 0 && switches >= 0) combo->removeItem(switches);
    if (auto* items = qobject_cast<QStandardItemModel*>(combo->model()))
        for (std::size_t i = 0; i < offered.size(); ++i)
            if (QStandardItem* item = items->item(combo->findData(static_cast<int>(i)))) item->setEnabled(offered[i]);
    setIndexIfChanged(combo, combo->findData(era));
}

// The release eras the core tells apart (core/model/deepspeed_release.h, transformers_release.h).
void TrainingGroup::addReleaseRow() {
    release_ = named(tip(new QComboBox(this), tr("The DeepSpeed release the run uses, where its behaviour changes the plan: stage 3's "
                                                 "host gradient buffer and prefetch to stage3_max_live_parameters (0.6.0), ZeRO-2's "
                                                 "whole-bucket all-reduce (0.12.4), hpZ read by a recomputed layer's gathers (0.13.2).")),
                     "deepspeed_release");
    release_->setAccessibleName(tr("DeepSpeed release"));
    addEraItems(release_, kDeepSpeedReleaseEras, releaseText);
    form_->addRow(tr("DeepSpeed release"), release_);
    transformers_release_ =
        named(tip(new QComboBox(this), tr("The transformers release the run uses, where its defaults change the plan: the model's own "
                                          "loss outside its forward (4.46), every model loaded on the meta device (4.51), the "
                                          "checkpoint's dtype and non-reentrant gradient checkpointing (5.0). It sets the Host box's "
                                          "16-bit load and low_cpu_mem_usage, Re-entrant recompute and the loss.")),
              "transformers_release");
    transformers_release_->setAccessibleName(tr("transformers release"));
    addEraItems(transformers_release_, kTransformersReleaseEras, minorText);
    form_->addRow(tr("transformers release"), transformers_release_);
}

void TrainingGroup::syncRelease(const Scenario& s) {
    const EraChoice deepspeed = era_choice(
        kDeepSpeedReleaseEras, s.zero, [](ZeroSetup& z, const DeepSpeedRelease& r) { apply_deepspeed_release(z, r); },
        [](const ZeroSetup& z, const DeepSpeedRelease& r) { return follows_release(z, r); });
    showEra(release_, deepspeed.shown, deepspeed.offered);
    const EraChoice transformers = era_choice(
        kTransformersReleaseEras, s.training, [](Training& t, const TransformersRelease& r) { apply_transformers_release(t, r); },
        [](const Training& t, const TransformersRelease& r) { return follows_transformers_release(t, r); });
    showEra(transformers_release_, transformers.shown, transformers.offered);
}

void TrainingGroup::connectOutputEdits() {
    connect(kv_cache_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditKvCache, tr("Toggle KV cache in training"), [&](Scenario& s) { s.training.kv_cache_in_training = on; });
    });
    connect(outputs_kept_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditOutputsKept, tr("Toggle kept output"), [&](Scenario& s) { s.training.outputs_kept = on; }); });
    connect(logit_metrics_, &EditSpinBox::valueEdited, this,
            [this](int v) { edit(EditLogitMetrics, tr("Change train metrics"), [&](Scenario& s) { s.training.logit_metrics = v; }); });
}

void TrainingGroup::connectReleaseEdits() {
    connect(release_, &QComboBox::activated, this, [this](int index) {
        const int era = release_->itemData(index).toInt();
        if (era < 0) return;
        edit(EditDeepSpeedRelease, tr("Change DeepSpeed release"), [era](Scenario& s) {
            // The era's switches, and its last release as the run's (today's for the newest): the
            // features the plan may use and the keys its ds_config holds (Scenario::deepspeed_release).
            const DeepSpeedReleaseEra& chosen = kDeepSpeedReleaseEras[static_cast<std::size_t>(era)];
            apply_deepspeed_release(s.zero, chosen.first);
            s.deepspeed_release = era == 0 ? std::string() : release_text(chosen.last);
        });
    });
    connect(transformers_release_, &QComboBox::activated, this, [this](int index) {
        const int era = transformers_release_->itemData(index).toInt();
        if (era < 0) return;
        edit(EditTransformersRelease, tr("Change transformers release"),
             [era](Scenario& s) { apply_transformers_release(s.training, kTransformersReleaseEras[static_cast<std::size_t>(era)].first); });
    });
}

void TrainingGroup::connectEdits() {
    connectReleaseEdits();
    onActivated(engine_, EditEngine, tr("Change engine"), [](Scenario& s, const std::string& v) {
        s.fsdp.auto_engine = v == "auto";
        if (!s.fsdp.auto_engine) s = with_engine(s, parse_enum<Engine>(v));
    });
    connect(hybrid_shard_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditHybridShard, tr("Change FSDP hybrid sharding"), [&](Scenario& s) { s.fsdp.hybrid_shard = on; }); });
    onActivated(fsdp_precision_, EditFsdpPrecision, tr("Change FSDP dtypes"),
                [](Scenario& s, const std::string& v) { s.fsdp.precision = parse_enum<FsdpPrecision>(v); });
    onActivated(precision_, EditPrecision, tr("Change precision"),
                [](Scenario& s, const std::string& v) { s.training.precision = parse_enum<Precision>(v); });
    onActivated(optimizer_, EditOptimizer, tr("Change optimizer"),
                [](Scenario& s, const std::string& v) { s.training.optimizer = parse_enum<Optimizer>(v); });
    onActivated(checkpointing_, EditCheckpointing, tr("Change recompute"), [](Scenario& s, const std::string& v) {
        s.training.auto_checkpointing = v == "auto";
        if (v != "auto") s.training.checkpointing = parse_enum<Checkpointing>(v);
    });
    connect(seq_, &ScaledSlider::valueEdited, this, [this](double v) {
        edit(EditSeq, tr("Change sequence length"), [&](Scenario& s) { s.training.seq_len = static_cast<std::int64_t>(std::llround(v)); });
    });
    connect(global_batch_, &EditDoubleSpinBox::valueEdited, this, [this](double v) {
        edit(EditGlobalBatch, tr("Change global batch"),
             [&](Scenario& s) { s.training.global_batch = static_cast<std::int64_t>(std::llround(v)); });
    });
    connect(micro_batch_, &EditSpinBox::valueEdited, this, [this](int v) {
        edit(EditMicroBatch, tr("Change micro batch"), [&](Scenario& s) {
            s.training.auto_micro_batch = v == 0;
            s.training.micro_batch = v == 0 ? 1 : v;
        });
    });
}

void TrainingGroup::connectWaitingEdits() {
    connectLongContextEdits();
    onActivated(convention_, EditConvention, tr("Change convention"),
                [](Scenario& s, const std::string& v) { s.assumptions.convention = parse_enum<Convention>(v); });
    connect(flash_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditFlash, tr("Toggle flash attention"), [&](Scenario& s) { s.training.flash_attention = on; }); });
    connect(loss_upcast_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditLossUpcast, tr("Toggle fp32 loss up-cast"), [&](Scenario& s) { s.training.loss_fp32_upcast = on; });
    });
    onActivated(loss_kernel_, EditLossKernel, tr("Change loss kernel"),
                [](Scenario& s, const std::string& v) { s.training.loss_kernel = parse_enum<LossKernel>(v); });
    onActivated(attention_softmax_, EditAttentionSoftmax, tr("Change softmax"),
                [](Scenario& s, const std::string& v) { s.training.attention_softmax = parse_enum<AttentionSoftmax>(v); });
    onActivated(lm_head_, EditLmHead, tr("Change LM head"),
                [](Scenario& s, const std::string& v) { s.training.lm_head = parse_enum<LmHead>(v); });
    onActivated(gradient_accumulation_, EditGradientAccumulation, tr("Change gradient accumulation"),
                [](Scenario& s, const std::string& v) { s.training.gradient_accumulation = parse_enum<GradientAccumulation>(v); });
    onActivated(fp8_scaling_, EditFp8Scaling, tr("Change FP8 scaling"),
                [](Scenario& s, const std::string& v) { s.training.fp8_scaling = parse_enum<Fp8Scaling>(v); });
    onActivated(optimizer_storage_, EditOptimizerStorage, tr("Change optimizer states"),
                [](Scenario& s, const std::string& v) { s.training.optimizer_storage = parse_enum<OptimizerStorage>(v); });
    connectOutputEdits();
    connect(fp8_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditFp8, tr("Toggle FP8 matmuls"), [&](Scenario& s) { s.training.fp8_gemms = on; }); });
    connect(bf16_master_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditBf16MasterWeights, tr("Toggle bf16 master weights"), [&](Scenario& s) { s.zero.bf16_master_weights = on; });
    });
    connect(fused_optimizer_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditFusedOptimizer, tr("Toggle fused optimizer"), [&](Scenario& s) { s.training.fused_optimizer = on; });
    });
    connect(data_seconds_, &EditDoubleSpinBox::valueEdited, this, [this](double v) {
        edit(EditDataSecondsPerSample, tr("Change data pipeline"), [&](Scenario& s) { s.training.data_seconds_per_sample = v; });
    });
    connect(headroom_, &EditDoubleSpinBox::valueEdited, this,
            [this](double pct) { edit(EditHeadroom, tr("Change headroom"), [&](Scenario& s) { s.assumptions.headroom = pct / 100.0; }); });
}

void TrainingGroup::sync(const Scenario& s) {
    setIndexIfChanged(engine_, s.fsdp.auto_engine ? 0 : engine_->findData(QString::fromLatin1(to_string(s.fsdp.engine))));
    setIndexIfChanged(fsdp_precision_, fsdp_precision_->findData(QString::fromLatin1(to_string(s.fsdp.precision))));
    fsdp_precision_->setEnabled(is_fsdp(s.fsdp) || s.fsdp.auto_engine);
    setCheckedIfChanged(hybrid_shard_, s.fsdp.hybrid_shard);
    hybrid_shard_->setEnabled((is_fsdp(s.fsdp) || s.fsdp.auto_engine) && s.cluster.nodes > 1);
    syncRelease(s);
    release_->setEnabled(!is_fsdp(s.fsdp) || s.fsdp.auto_engine);
    setIndexIfChanged(precision_, precision_->findData(QString::fromLatin1(to_string(s.training.precision))));
    setIndexIfChanged(optimizer_, optimizer_->findData(QString::fromLatin1(to_string(s.training.optimizer))));
    seq_->setValue(static_cast<double>(s.training.seq_len));
    global_batch_->showValue(static_cast<double>(s.training.global_batch));
    micro_batch_->showValue(s.training.auto_micro_batch ? 0 : static_cast<int>(s.training.micro_batch));
    setIndexIfChanged(checkpointing_, s.training.auto_checkpointing
                                          ? 0
                                          : checkpointing_->findData(QString::fromLatin1(to_string(s.training.checkpointing))));
}

void TrainingGroup::syncWaitingRows(const Scenario& s) {
    setCheckedIfChanged(flash_, s.training.flash_attention);
    setIndexIfChanged(attention_softmax_, attention_softmax_->findData(QString::fromLatin1(to_string(s.training.attention_softmax))));
    attention_softmax_->setEnabled(!s.training.flash_attention);  // flash attention keeps no score matrix
    setIndexIfChanged(lm_head_, lm_head_->findData(QString::fromLatin1(to_string(s.training.lm_head))));
    setCheckedIfChanged(loss_upcast_, s.training.loss_fp32_upcast);
    setIndexIfChanged(loss_kernel_, loss_kernel_->findData(QString::fromLatin1(to_string(s.training.loss_kernel))));
    setIndexIfChanged(gradient_accumulation_,
                      gradient_accumulation_->findData(QString::fromLatin1(to_string(s.training.gradient_accumulation))));
    setCheckedIfChanged(fused_optimizer_, s.training.fused_optimizer);
    setCheckedIfChanged(bf16_master_, s.zero.bf16_master_weights);
    setCheckedIfChanged(fp8_, s.training.fp8_gemms);
    // FP8 needs FP8 tensor cores and bf16 (scenario.cpp validate); shown on so it can be turned off.
    fp8_->setEnabled(s.training.fp8_gemms || (s.cluster.gpu.peak_tflops_fp8 > 0 && s.training.precision == Precision::Bf16));
    setIndexIfChanged(fp8_scaling_, fp8_scaling_->findData(QString::fromLatin1(to_string(s.training.fp8_scaling))));
    // MXFP8 needs compute capability 10 (scenario.cpp validate); shown chosen so it can be changed back.
    fp8_scaling_->setEnabled(s.training.fp8_gemms && (s.cluster.gpu.compute_capability_10 || s.training.fp8_scaling == Fp8Scaling::Mxfp8));
    setCheckedIfChanged(kv_cache_, s.training.kv_cache_in_training);
    setCheckedIfChanged(outputs_kept_, s.training.outputs_kept);
    logit_metrics_->showValue(static_cast<int>(s.training.logit_metrics));
    // Metrics read the logits, which a chunked loss never builds (core/model/logits.h returns_logits);
    // shown set so they can be cleared.
    logit_metrics_->setEnabled(returns_logits(s.training) || s.training.logit_metrics > 0);
    setIndexIfChanged(optimizer_storage_, optimizer_storage_->findData(QString::fromLatin1(to_string(s.training.optimizer_storage))));
    setCheckedIfChanged(tiled_mlp_, s.training.tiled_mlp);
    setCheckedIfChanged(reentrant_, s.training.reentrant_recompute);
    // Enabled where it changes the plan (a DeepSpeed full recompute that could stop early).
    reentrant_->setEnabled((s.training.auto_checkpointing || s.training.checkpointing == Checkpointing::Full) &&
                           (!is_fsdp(s.fsdp) || s.fsdp.auto_engine) && reentrant_recompute_matters(s));
    setCheckedIfChanged(cpu_checkpointing_, s.training.cpu_checkpointing);
    // Checkpoints go to the host only under full recompute (activations.cpp).
    cpu_checkpointing_->setEnabled(s.training.auto_checkpointing || s.training.checkpointing == Checkpointing::Full);
    setCheckedIfChanged(partition_activations_, s.training.partition_activations);
    partition_activations_->setEnabled((s.training.auto_checkpointing || s.training.checkpointing == Checkpointing::Full) &&
                                       (s.parallel.auto_tensor || s.parallel.tensor > 1));
    setCheckedIfChanged(expandable_segments_, s.training.expandable_segments);
    setCheckedIfChanged(int64_kernels_, s.training.int64_kernel_indexing);
    headroom_->showValue(s.assumptions.headroom * 100.0);
    data_seconds_->showValue(s.training.data_seconds_per_sample);
    setIndexIfChanged(convention_, convention_->findData(QString::fromLatin1(to_string(s.assumptions.convention))));
}

}  // namespace zp::ui
