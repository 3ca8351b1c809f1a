#include "ui/controls/control_panel.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/model/enum_names.h"
#include "core/model/limits.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/model/trainable_params.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/widgets/edit_spin_box.h"
#include "ui/widgets/scaled_slider.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace zp::ui {

namespace {

// The model and node lists' entry for what is no preset (a model synthesized, imported or edited;
// a node with a field edited).
constexpr auto kCustomEntry = QLatin1String("__custom__");

using Scale = ScaledSlider::Scale;

QGroupBox* group(const QString& title, QFormLayout*& form) {
    auto* box = new QGroupBox(title);
    form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return box;
}

void setIndexIfChanged(QComboBox* box, int index) {
    if (box->currentIndex() != index) box->setCurrentIndex(index);
}

// A combo of GPU group sizes ("off" for 1, "8 GPUs"): refilled only when the list changes, the
// current size selected. Shows, never edits.
// `sizes` with 0 first shows an "auto" item for it (the recommender chooses).
void showGpuGroupSizes(QComboBox* box, std::vector<std::int64_t> sizes, std::int64_t current) {
    // A size the list does not offer (tensor 8 on nodes of 4) is shown as it is, not as the first item.
    if (std::find(sizes.begin(), sizes.end(), current) == sizes.end()) sizes.push_back(current);
    bool same = box->count() == static_cast<int>(sizes.size());
    for (int i = 0; same && i < box->count(); ++i) same = box->itemData(i).toLongLong() == sizes[static_cast<std::size_t>(i)];
    if (!same) {
        const QSignalBlocker block(box);
        box->clear();
        for (std::int64_t k : sizes)
            box->addItem(k == 0   ? ControlPanel::tr("auto")
                         : k == 1 ? ControlPanel::tr("off")
                                  : ControlPanel::tr("%1 GPUs").arg(k),
                         QVariant::fromValue<qlonglong>(k));
    }
    setIndexIfChanged(box, std::max(0, box->findData(QVariant::fromValue<qlonglong>(current))));
}

template <typename W>
W* tip(W* w, const QString& text) {
    w->setToolTip(text);
    return w;
}

template <typename W>
W* named(W* w, const char* objectName) {
    w->setObjectName(QLatin1String(objectName));
    return w;
}

// One item per name in the core's table (core/model/enum_names.h), the name as item data.
template <class E>
void addEnumItems(QComboBox* box) {
    // Shown in the window's language where core marks the name translatable (recompute: none, full, ...).
    for (const auto& n : enum_names<E>()) box->addItem(translatedCore(n.name), QString::fromLatin1(n.name));
}

// The valid range of a limit as a spin box with `decimals` can offer it, times `factor`
// (100 for a fraction shown in percent).
void setValidRange(EditDoubleSpinBox* box, const limits::RealRange& r, double factor = 1) {
    const double step = std::pow(10.0, -box->decimals());
    const limits::RealRange shown = limits::scaled(r, factor);
    box->setRange(limits::lowest_on_grid(shown, step), limits::highest_on_grid(shown, step));
}
void setValidRange(ScaledSlider* slider, const limits::RealRange& r, int decimals, double factor = 1) {
    const double step = std::pow(10.0, -decimals);
    const limits::RealRange shown = limits::scaled(r, factor);
    slider->setValidRange(limits::lowest_on_grid(shown, step), limits::highest_on_grid(shown, step));
}

}  // namespace

ControlPanel::ControlPanel(PlannerDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* layout = new QVBoxLayout(this);
    QFormLayout* f = nullptr;

    // Model
    layout->addWidget(group(tr("Model"), f));
    model_ = named(
        tip(new QComboBox, tr("A model with its exact parameter count and architecture. Changes every memory slice and the step time.")),
        "model");
    for (const auto& p : model_presets()) model_->addItem(QString::fromStdString(p.display_name), QString::fromStdString(p.name));
    model_->addItem(tr("Custom size (synthesized)"), kCustomEntry);
    f->addRow(tr("Preset"), model_);
    auto* import = tip(new QPushButton(tr("Import config.json...")), tr("Read a Hugging Face config.json for the exact architecture"));
    f->addRow(QString(), import);
    // The slider spans 100M to 2T parameters; the spin box takes any size the core accepts.
    size_ = named(new ScaledSlider(0.1, 2000, 2, tr(" B params"), Scale::Logarithmic), "model_size");
    setValidRange(size_, limits::kParams, 2, 1e-9);
    size_->setToolTips(
        tr("Model size in billions of parameters (log scale, 100M to 2T). Moving it synthesizes an architecture "
           "of that size (hidden = 128 x layers)."));
    f->addRow(tr("Size"), size_);
    model_info_ = new QLabel;
    model_info_->setWordWrap(true);
    // Two lines reserved, so a new model never re-lays out the panel.
    model_info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    model_info_->setFixedHeight(2 * model_info_->fontMetrics().lineSpacing() + 4);
    f->addRow(model_info_);

    // GPUs
    layout->addWidget(group(tr("GPUs"), f));
    node_ = named(tip(new QComboBox, tr("A whole node as sold: its GPU, GPUs per node, network and NICs, host RAM, NVMe and host "
                                        "memory bandwidth. Keeps the GPU count, in whole nodes. Custom: the node differs from "
                                        "every one listed, in a field below or in a rate a session carries (CPU Adam, NVMe, PCIe).")),
                  "node");
    for (const auto& c : cluster_presets()) node_->addItem(QString::fromStdString(c.display_name), QString::fromStdString(c.name));
    node_->addItem(tr("Custom"), kCustomEntry);
    node_->setAccessibleName(tr("Node type"));
    f->addRow(tr("Node"), node_);
    gpus_ = named(new ScaledSlider(1, 4096, 0, tr(" GPUs"), Scale::Logarithmic), "gpu_count");
    gpus_->setValidRange(static_cast<double>(limits::kWorldSize.min), static_cast<double>(limits::kWorldSize.max));
    gpus_->setPowerOfTwoSnapping(true);
    gpus_->setToolTips(tr("Data-parallel GPUs in total (log scale). ZeRO partitions model states across all of them."));
    f->addRow(tr("GPU count"), gpus_);
    node_size_ =
        named(tip(new EditSpinBox, tr("GPUs in one node. Communication inside a node uses the intra-node link, across nodes the network.")),
              "gpus_per_node");
    node_size_->setRange(static_cast<int>(limits::kGpusPerNode.min), static_cast<int>(limits::kGpusPerNode.max));
    f->addRow(tr("GPUs per node"), node_size_);
    gpu_error_ = new QLabel;
    gpu_error_->setWordWrap(true);
    gpu_error_->setVisible(false);
    f->addRow(gpu_error_);
    gpu_ = named(tip(new QComboBox, tr("GPU model: sets memory, peak 16-bit TFLOP/s and the intra-node link.")), "gpu");
    for (const auto& g : gpu_presets()) gpu_->addItem(QString::fromStdString(g.display_name), QString::fromStdString(g.name));
    gpu_->addItem(tr("Custom"), QLatin1String(kCustomGpuName));
    f->addRow(tr("GPU"), gpu_);
    gpu_mem_ = named(new ScaledSlider(4, 256, 1, tr(" GiB"), Scale::Linear), "gpu_memory");
    setValidRange(gpu_mem_, limits::kGpuMemoryGib, 1);
    gpu_mem_->setToolTips(tr("Memory per GPU. The capacity line in the memory view."));
    f->addRow(tr("GPU memory"), gpu_mem_);

    // Network
    layout->addWidget(group(tr("Network"), f));
    inter_bw_ = named(new ScaledSlider(1, 6400, 0, tr(" Gbit/s"), Scale::Logarithmic), "inter_node_bandwidth");
    setValidRange(inter_bw_, limits::kInterNodeGbitsPerS, 0);
    inter_bw_->setToolTips(
        tr("Network bandwidth per node, all NICs together (a DGX A100 has 8 x 200 Gbit/s). "
           "Limits communication when there is more than one node."));
    f->addRow(tr("Inter-node"), inter_bw_);
    nics_ = named(tip(new EditSpinBox, tr("Network cards that bandwidth runs over. A ring of a node's GPUs across nodes runs at "
                                          "its share of them, at most one card's rate (one per GPU: each GPU its share).")),
                  "nics_per_node");
    nics_->setRange(static_cast<int>(limits::kNicsPerNode.min), static_cast<int>(limits::kNicsPerNode.max));
    nics_->setSpecialValueText(tr("one per GPU"));
    f->addRow(tr("NICs per node"), nics_);
    intra_bw_ = named(tip(new QComboBox, tr("Link between GPUs in a node, one direction per GPU. Limits communication on one node.")),
                      "intra_node_bandwidth");
    // The link names are English only, like the preset names.
    for (const IntraNodeLink& l : intra_node_links()) intra_bw_->addItem(QString::fromUtf8(l.name), l.gbytes_per_s);
    f->addRow(tr("Intra-node"), intra_bw_);

    // Model parallelism (core/model/scenario.h Parallelism, Megatron-DeepSpeed's layout).
    layout->addWidget(group(tr("Model parallelism"), f));
    tensor_parallel_ = named(tip(new QComboBox, tr("Tensor parallelism: each layer's matrices split over this many GPUs of a node "
                                                   "(Megatron). Off: 1. Auto: the recommender chooses.")),
                             "tensor_parallel");
    tensor_parallel_->setAccessibleName(tr("Tensor parallel size"));
    f->addRow(tr("Tensor"), tensor_parallel_);
    pipeline_parallel_ = named(tip(new EditSpinBox, tr("Pipeline parallelism: the layers split into this many stages (1F1B). "
                                                       "DeepSpeed runs it with ZeRO stage 0 or 1 only. Auto: the recommender chooses.")),
                               "pipeline_parallel");
    pipeline_parallel_->setRange(0, static_cast<int>(limits::kLayers.max));  // 0 shows "auto" (Parallelism::auto_pipeline)
    pipeline_parallel_->setSpecialValueText(tr("auto"));
    pipeline_parallel_->setAccessibleName(tr("Pipeline parallel size"));
    f->addRow(tr("Pipeline"), pipeline_parallel_);
    virtual_stages_ = named(tip(new EditSpinBox, tr("Interleaved 1F1B: model chunks per pipeline GPU; shrinks the bubble, adds "
                                                    "communication. 1: plain 1F1B.")),
                            "virtual_stages");
    virtual_stages_->setRange(1, static_cast<int>(limits::kLayers.max));
    virtual_stages_->setAccessibleName(tr("Virtual pipeline stages"));
    f->addRow(tr("Virtual stages"), virtual_stages_);
    sequence_parallel_ = named(tip(new QCheckBox(tr("Sequence parallelism (Megatron)")),
                                   tr("Splits the layer norms' and dropouts' activations over the tensor-parallel GPUs too.")),
                               "sequence_parallel");
    sequence_parallel_->setAccessibleName(tr("Sequence parallelism (Megatron)"));
    f->addRow(sequence_parallel_);
    ulysses_ = named(tip(new QComboBox, tr("DeepSpeed-Ulysses (sequence_parallel_size): each sequence split over this many GPUs, "
                                           "all-to-alls around attention; divides the heads. Without tensor or pipeline parallelism.")),
                     "ulysses");
    ulysses_->setAccessibleName(tr("Ulysses sequence parallel size"));
    f->addRow(tr("Ulysses"), ulysses_);
    expert_parallel_ = named(tip(new QComboBox, tr("Expert parallelism (DeepSpeed-MoE ep_size): each GPU holds this share of the experts; "
                                                   "divides the experts and the data-parallel GPUs. Models with experts only.")),
                             "expert_parallel");
    expert_parallel_->setAccessibleName(tr("Expert parallel size"));
    f->addRow(tr("Experts"), expert_parallel_);
    layout_info_ = new QLabel;
    layout_info_->setWordWrap(true);
    f->addRow(layout_info_);

    // ZeRO++ (core/model/scenario.h ZeroPlusPlus): switches for the ZeRO-3 setups.
    layout->addWidget(group(tr("ZeRO++ (ZeRO-3 setups)"), f));
    hpz_ = named(tip(new QComboBox, tr("zero_hpz_partition_size: a second 16-bit partition over this many GPUs of a node, so the "
                                       "backward gathers over NVLink instead of the network. Costs 2P/size bytes per GPU. "
                                       "auto: the plan tries ZeRO++ off, hpZ over the node and hpZ with qwZ and qgZ across nodes, "
                                       "and keeps the fastest that fits.")),
                 "hpz_partition_size");
    hpz_->setAccessibleName(tr("hpZ partition size"));
    f->addRow(tr("hpZ"), hpz_);
    quantized_weights_ = named(tip(new QCheckBox(tr("Quantized weights (qwZ)")),
                                   tr("zero_quantized_weights: parameter gathers move int8, half the 16-bit bytes.")),
                               "quantized_weights");
    quantized_weights_->setAccessibleName(tr("Quantized weights (qwZ)"));
    f->addRow(quantized_weights_);
    quantized_gradients_ = named(tip(new QCheckBox(tr("Quantized gradients (qgZ)")),
                                     tr("zero_quantized_gradients: gradients reduce as int4, inside the node first, then across nodes.")),
                                 "quantized_gradients");
    quantized_gradients_->setAccessibleName(tr("Quantized gradients (qgZ)"));
    f->addRow(quantized_gradients_);
    zeropp_info_ = named(new QLabel, "zeropp_info");
    zeropp_info_->setWordWrap(true);
    f->addRow(zeropp_info_);
    // MiCS (core/model/mics.h): the primary partition over a shard group instead of every GPU.
    mics_shard_ = named(tip(new QComboBox, tr("mics_shard_size (MiCS): parameters, gradients and optimizer states are split over groups "
                                              "of this many GPUs and replicated across the groups, so the gathers stay inside a group. "
                                              "ZeRO-3 without offload or ZeRO++.")),
                        "mics_shard_size");
    mics_shard_->setAccessibleName(tr("MiCS shard size"));
    f->addRow(tr("MiCS"), mics_shard_);

    // Host
    layout->addWidget(group(tr("Host (per node)"), f));
    cpu_ram_ =
        named(tip(new EditDoubleSpinBox, tr("Host RAM per node. CPU offload keeps optimizer states (and parameters) here.")), "cpu_ram");
    cpu_ram_->setDecimals(0);
    setValidRange(cpu_ram_, limits::kCpuRamGib);
    cpu_ram_->setSuffix(tr(" GiB"));
    f->addRow(tr("CPU RAM"), cpu_ram_);
    nvme_ = named(tip(new EditDoubleSpinBox, tr("NVMe capacity per node. ZeRO-Infinity (stage 3) can offload states here.")), "nvme");
    nvme_->setDecimals(0);
    setValidRange(nvme_, limits::kNvmeGib);
    nvme_->setSuffix(tr(" GiB"));
    f->addRow(tr("NVMe"), nvme_);
    // How each process loads the model and whether offload buffers are pinned: what host RAM
    // peaks on (core/memory/host_memory.cpp; the Host RAM tab shows each phase).
    pin_memory_ = named(tip(new QCheckBox(tr("Pinned offload buffers")),
                            tr("offload_*.pin_memory: faster copies, but PyTorch rounds each pinned buffer up to a power of two.")),
                        "pin_memory");
    pin_memory_->setAccessibleName(tr("Pinned offload buffers"));
    f->addRow(pin_memory_);
    load_16bit_ = named(tip(new QCheckBox(tr("Load the model in 16-bit")),
                            tr("from_pretrained(torch_dtype=torch.bfloat16). Off: transformers' fp32 default, twice the host RAM "
                               "in every process while loading.")),
                        "load_in_16bit");
    load_16bit_->setAccessibleName(tr("Load the model in 16-bit"));
    f->addRow(load_16bit_);
    low_cpu_mem_ = named(tip(new QCheckBox(tr("low_cpu_mem_usage")),
                             tr("from_pretrained(low_cpu_mem_usage=True): the model is built on the meta device, so no checkpoint "
                                "shard is held beside it while loading.")),
                         "low_cpu_mem_usage");
    low_cpu_mem_->setAccessibleName(tr("low_cpu_mem_usage"));
    f->addRow(low_cpu_mem_);

    // Fine-tuning (core/model/finetune.h): the method is the user's choice, never searched.
    layout->addWidget(group(tr("Fine-tuning"), f));
    finetune_method_ = named(tip(new QComboBox, tr("Full: every weight trained. LoRA: adapters on a frozen 16-bit base (PEFT). "
                                                   "QLoRA: adapters on a base quantised to 4 or 8 bits (bitsandbytes).")),
                             "finetune_method");
    const auto methodLabel = [this](FineTuneMethod m) {
        switch (m) {
        case FineTuneMethod::Full: return tr("full");
        case FineTuneMethod::Lora: return tr("LoRA");
        case FineTuneMethod::Qlora: return tr("QLoRA");
        }
        return QString::fromLatin1(to_string(m));
    };
    for (const auto& n : enum_names<FineTuneMethod>()) finetune_method_->addItem(methodLabel(n.value), QString::fromLatin1(n.name));
    finetune_method_->setAccessibleName(tr("Fine-tuning method"));
    f->addRow(tr("Method"), finetune_method_);
    lora_rank_ =
        named(tip(new EditSpinBox, tr("LoRA rank r: each adapted Linear(in, out) trains r x (in + out) parameters.")), "lora_rank");
    lora_rank_->setRange(1, 65536);
    lora_rank_->setAccessibleName(tr("LoRA rank"));
    f->addRow(tr("LoRA rank"), lora_rank_);
    lora_targets_ = named(tip(new QComboBox, tr("Which Linear modules get adapters: PEFT's default for the model type, every attention "
                                                "projection, or every Linear but the output layer (all-linear).")),
                          "lora_targets");
    for (const auto& n : enum_names<LoraTargets>())
        if (n.value != LoraTargets::Modules) lora_targets_->addItem(QString::fromLatin1(n.name), QString::fromLatin1(n.name));
    lora_targets_->setAccessibleName(tr("LoRA target modules"));
    f->addRow(tr("Targets"), lora_targets_);
    base_precision_ = named(tip(new QComboBox, tr("How the frozen base is stored: auto (the training dtype; NF4 for QLoRA), 16-bit, "
                                                  "LLM.int8 or 4-bit NF4/FP4.")),
                            "base_precision");
    for (const auto& n : enum_names<BasePrecision>()) base_precision_->addItem(QString::fromLatin1(n.name), QString::fromLatin1(n.name));
    base_precision_->setAccessibleName(tr("Base precision"));
    f->addRow(tr("Base"), base_precision_);

    // Training
    layout->addWidget(group(tr("Training"), f));
    precision_ = named(tip(new QComboBox, tr("bf16/fp16: mixed precision with fp32 master weights; fp32: no master copy.")), "precision");
    addEnumItems<Precision>(precision_);
    f->addRow(tr("Precision"), precision_);
    optimizer_ = named(
        tip(new QComboBox, tr("Optimizer state per parameter: Adam/AdamW/LAMB 8 bytes, Lion/Adagrad/SGD+momentum 4, SGD 0.")), "optimizer");
    addEnumItems<Optimizer>(optimizer_);
    f->addRow(tr("Optimizer"), optimizer_);
    // The slider spans 128 to 1M tokens; the spin box takes every valid length.
    seq_ = named(new ScaledSlider(128, 1048576, 0, tr(" tokens"), Scale::Logarithmic), "seq_len");
    seq_->setValidRange(static_cast<double>(limits::kSeqLen.min), static_cast<double>(limits::kSeqLen.max));
    seq_->setPowerOfTwoSnapping(true);
    seq_->setToolTips(tr("Sequence length. Activations grow with it (quadratically without flash attention)."));
    f->addRow(tr("Sequence"), seq_);
    // A double spin box with no decimals: a QSpinBox holds at most 2^31 - 1, the limit is 2^40
    // (doubles count exactly up to 2^53).
    global_batch_ =
        named(tip(new EditDoubleSpinBox,
                  tr("Sequences per optimizer step (DeepSpeed's train_batch_size). Auto: 64, raised to a multiple of micro batch x GPUs.")),
              "global_batch");
    global_batch_->setDecimals(0);
    global_batch_->setRange(static_cast<double>(limits::kAutomaticGlobalBatch), static_cast<double>(limits::kGlobalBatch.max));
    global_batch_->setSpecialValueText(tr("auto"));
    f->addRow(tr("Global batch"), global_batch_);
    micro_batch_ = named(
        tip(new EditSpinBox, tr("Sequences per GPU per forward pass. Auto: the recommender picks it for every setup; a number fixes it.")),
        "micro_batch");
    micro_batch_->setRange(0, static_cast<int>(limits::kMicroBatch.max));  // 0 shows "auto": the recommender searches it
    micro_batch_->setSpecialValueText(tr("auto"));
    f->addRow(tr("Micro batch"), micro_batch_);
    checkpointing_ =
        named(tip(new QComboBox, tr("Activation recompute: none, selective (recompute attention scores) or full (keep only layer inputs). "
                                    "Auto: the recommender picks it for every setup.")),
              "checkpointing");
    checkpointing_->addItem(tr("auto"), QStringLiteral("auto"));
    addEnumItems<Checkpointing>(checkpointing_);
    f->addRow(tr("Recompute"), checkpointing_);
    flash_ = named(
        tip(new QCheckBox(tr("Flash attention")), tr("Flash attention never stores the attention scores (5 a s\u00b2 b bytes per layer).")),
        "flash_attention");
    f->addRow(flash_);
    loss_upcast_ = named(tip(new QCheckBox(tr("fp32 loss up-cast")),
                             tr("The loss up-casts the 16-bit logits to fp32 (transformers' default): an fp32 copy of the logits "
                                "at the loss, often the step's peak.")),
                         "loss_fp32_upcast");
    loss_upcast_->setAccessibleName(tr("fp32 loss up-cast"));
    f->addRow(loss_upcast_);
    loss_kernel_ = named(tip(new QComboBox, tr("Full: the logits of the whole micro batch at once. Chunked (Liger's fused linear "
                                               "cross-entropy): the loss in chunks, without the full logits.")),
                         "loss_kernel");
    const auto lossKernelLabel = [this](LossKernel k) {
        switch (k) {
        case LossKernel::Full: return tr("full");
        case LossKernel::Chunked: return tr("chunked (Liger)");
        }
        return QString::fromLatin1(to_string(k));
    };
    for (const auto& n : enum_names<LossKernel>()) loss_kernel_->addItem(lossKernelLabel(n.value), QString::fromLatin1(n.name));
    loss_kernel_->setAccessibleName(tr("Loss kernel"));
    f->addRow(tr("Loss kernel"), loss_kernel_);
    fused_optimizer_ = named(tip(new QCheckBox(tr("Fused optimizer (DeepSpeed FusedAdam)")),
                                 tr("DeepSpeed's fused optimizer (its \"optimizer\" block). Off: torch.optim's, whose step allocates "
                                    "temporaries the size of the fp32 partition.")),
                             "fused_optimizer");
    fused_optimizer_->setAccessibleName(tr("Fused optimizer (DeepSpeed FusedAdam)"));
    f->addRow(fused_optimizer_);
    headroom_ = named(tip(new EditDoubleSpinBox, tr("GPU memory kept free: a setup fits when its total is below capacity minus headroom.")),
                      "headroom");
    headroom_->setDecimals(0);
    setValidRange(headroom_, limits::kHeadroom, 100);
    headroom_->setSuffix(tr(" %"));
    f->addRow(tr("Headroom"), headroom_);
    convention_ = named(
        tip(new QComboBox,
            tr("Model-state accounting: DeepSpeed's implementation (20 bytes/param at stage 0) or the ZeRO paper's K = 12 (16 bytes/param).")),
        "convention");
    const auto conventionLabel = [this](Convention c) {
        switch (c) {
        case Convention::DeepSpeed: return tr("DeepSpeed implementation");
        case Convention::Paper: return tr("ZeRO paper (K = 12)");
        }
        return QString::fromLatin1(to_string(c));
    };
    for (const auto& n : enum_names<Convention>()) convention_->addItem(conventionLabel(n.value), QString::fromLatin1(n.name));
    f->addRow(tr("Convention"), convention_);
    layout->addStretch(1);

    // Edits: user-only signals (see the header), one edit() each.
    connect(import, &QPushButton::clicked, this, &ControlPanel::importHfConfigRequested);
    connect(model_, &QComboBox::activated, this, [this](int index) {
        const QString name = model_->itemData(index).toString();
        if (name == kCustomEntry) return;
        edit(EditModel, tr("Choose model %1").arg(model_->itemText(index)),
             [&](Scenario& s) { s.model = model_preset(name.toStdString()).spec; });
    });
    connect(size_, &ScaledSlider::valueEdited, this, [this](double billions) {
        edit(EditModelSize, tr("Change model size"),
             [&](Scenario& s) { s.model = synthesize_model(static_cast<std::int64_t>(std::llround(billions * 1e9))); });
    });
    connect(gpus_, &ScaledSlider::valueEdited, this, [this](double v) { editGpuCount(v, node_size_->value()); });
    connect(node_size_, &EditSpinBox::valueEdited, this, [this](int v) { editGpuCount(gpus_->value(), v); });
    connect(node_, &QComboBox::activated, this, [this](int index) {
        const QString name = node_->itemData(index).toString();
        if (name == kCustomEntry) {  // the fields below are the node: nothing to apply, the list shows the document's
            syncFromDocument();
            return;
        }
        const ClusterPreset& preset = cluster_preset(name.toStdString());
        node_size_->showValue(static_cast<int>(preset.cluster.gpus_per_node));  // the node's size, also on part of one node
        gpu_error_->setVisible(false);
        edit(EditNode, tr("Choose node %1").arg(node_->itemText(index)),
             [&](Scenario& s) { s = with_node(s, preset.cluster, s.cluster.world_size()); });
    });
    connect(gpu_, &QComboBox::activated, this, [this](int index) {
        const QString name = gpu_->itemData(index).toString();
        if (name == QLatin1String(kCustomGpuName)) {  // the memory below makes a custom GPU; the list shows the document's
            syncFromDocument();
            return;
        }
        edit(EditGpu, tr("Choose GPU %1").arg(gpu_->itemText(index)),
             [&](Scenario& s) { s.cluster.use_gpu(gpu_preset(name.toStdString())); });
    });
    connect(gpu_mem_, &ScaledSlider::valueEdited, this, [this](double gib) {
        edit(EditGpuMemory, tr("Change GPU memory"), [&](Scenario& s) { s.cluster.gpu = custom_gpu(s.cluster.gpu, gib); });
    });
    connect(inter_bw_, &ScaledSlider::valueEdited, this, [this](double v) {
        edit(EditInterBw, tr("Change inter-node bandwidth"), [&](Scenario& s) { s.cluster.inter_node_gbits_per_s = v; });
    });
    connect(nics_, &EditSpinBox::valueEdited, this,
            [this](int v) { edit(EditNics, tr("Change NICs per node"), [&](Scenario& s) { s.cluster.nics_per_node = v; }); });
    connect(intra_bw_, &QComboBox::activated, this, [this](int index) {
        edit(EditIntraBw, tr("Change intra-node link"),
             [&](Scenario& s) { s.cluster.intra_node_gbytes_per_s = intra_bw_->itemData(index).toDouble(); });
    });
    connect(cpu_ram_, &EditDoubleSpinBox::valueEdited, this, [this](double gib) {
        edit(EditCpuRam, tr("Change host RAM"), [&](Scenario& s) { s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(gib); });
    });
    connect(nvme_, &EditDoubleSpinBox::valueEdited, this, [this](double gib) {
        edit(EditNvme, tr("Change NVMe capacity"), [&](Scenario& s) { s.cluster.nvme_bytes_per_node = gib_to_bytes(gib); });
    });
    // The enum combos: the item's data is the core's name for the value.
    const auto onActivated = [this](QComboBox* box, int id, const QString& text, auto apply) {
        connect(box, &QComboBox::activated, this, [this, box, id, text, apply](int index) {
            const std::string name = box->itemData(index).toString().toStdString();
            edit(id, text, [&](Scenario& s) { apply(s, name); });
        });
    };
    onActivated(precision_, EditPrecision, tr("Change precision"),
                [](Scenario& s, const std::string& v) { s.training.precision = parse_enum<Precision>(v); });
    onActivated(finetune_method_, EditFineTuneMethod, tr("Change fine-tuning method"), [](Scenario& s, const std::string& v) {
        FineTune& ft = s.finetune;
        ft.method = parse_enum<FineTuneMethod>(v);
        // A quantised base goes with QLoRA, a 16-bit one with LoRA: switching picks the method's own.
        const bool quantised = is_quantized_base(ft.base_precision);
        if (ft.method == FineTuneMethod::Qlora ? !quantised : quantised) ft.base_precision = BasePrecision::Auto;
    });
    onActivated(lora_targets_, EditLoraTargets, tr("Change LoRA targets"),
                [](Scenario& s, const std::string& v) { s.finetune.targets = parse_enum<LoraTargets>(v); });
    onActivated(base_precision_, EditBasePrecision, tr("Change base precision"), [](Scenario& s, const std::string& v) {
        FineTune& ft = s.finetune;
        ft.base_precision = parse_enum<BasePrecision>(v);
        const bool quantised = is_quantized_base(ft.base_precision);
        if (quantised) ft.method = FineTuneMethod::Qlora;
        else if (ft.method == FineTuneMethod::Qlora && ft.base_precision != BasePrecision::Auto) ft.method = FineTuneMethod::Lora;
    });
    connect(lora_rank_, &EditSpinBox::valueEdited, this,
            [this](int r) { edit(EditLoraRank, tr("Change LoRA rank"), [&](Scenario& s) { s.finetune.lora_rank = r; }); });
    onActivated(optimizer_, EditOptimizer, tr("Change optimizer"),
                [](Scenario& s, const std::string& v) { s.training.optimizer = parse_enum<Optimizer>(v); });
    onActivated(checkpointing_, EditCheckpointing, tr("Change recompute"), [](Scenario& s, const std::string& v) {
        s.training.auto_checkpointing = v == "auto";
        if (v != "auto") s.training.checkpointing = parse_enum<Checkpointing>(v);
    });
    onActivated(convention_, EditConvention, tr("Change convention"),
                [](Scenario& s, const std::string& v) { s.assumptions.convention = parse_enum<Convention>(v); });
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
    connect(flash_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditFlash, tr("Toggle flash attention"), [&](Scenario& s) { s.training.flash_attention = on; }); });
    connect(loss_upcast_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditLossUpcast, tr("Toggle fp32 loss up-cast"), [&](Scenario& s) { s.training.loss_fp32_upcast = on; });
    });
    onActivated(loss_kernel_, EditLossKernel, tr("Change loss kernel"),
                [](Scenario& s, const std::string& v) { s.training.loss_kernel = parse_enum<LossKernel>(v); });
    connect(tensor_parallel_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(tensor_parallel_->itemData(index).toLongLong());
        edit(EditTensorParallel, tr("Change tensor parallelism"), [&](Scenario& s) {
            s.parallel.auto_tensor = size == 0;
            if (size == 0) {  // the search chooses; the stored size starts at 1 so no model or cluster edit refuses it
                s.parallel.tensor = 1;
                s.parallel.sequence_parallel = false;
                return;
            }
            s.parallel.tensor = size;
            if (size < 2) s.parallel.sequence_parallel = false;
        });
    });
    connect(pipeline_parallel_, &EditSpinBox::valueEdited, this, [this](int v) {
        edit(EditPipelineParallel, tr("Change pipeline parallelism"), [&](Scenario& s) {
            s.parallel.auto_pipeline = v == 0;
            if (v == 0) {
                s.parallel.pipeline = 1;
                s.parallel.virtual_stages = 1;
                return;
            }
            s.parallel.pipeline = v;
            if (v < 2) s.parallel.virtual_stages = 1;
        });
    });
    connect(virtual_stages_, &EditSpinBox::valueEdited, this, [this](int v) {
        edit(EditVirtualStages, tr("Change virtual pipeline stages"), [&](Scenario& s) { s.parallel.virtual_stages = v; });
    });
    connect(ulysses_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(ulysses_->itemData(index).toLongLong());
        edit(EditUlysses, tr("Change Ulysses sequence parallelism"), [&](Scenario& s) {
            s.parallel.auto_ulysses = size == 0;
            s.parallel.ulysses = std::max<std::int64_t>(size, 1);
        });
    });
    connect(expert_parallel_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(expert_parallel_->itemData(index).toLongLong());
        edit(EditExpertParallel, tr("Change expert parallelism"), [&](Scenario& s) {
            s.parallel.auto_expert = size == 0;
            s.parallel.expert = std::max<std::int64_t>(size, 1);
        });
    });
    connect(sequence_parallel_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditSequenceParallel, tr("Toggle sequence parallelism"), [&](Scenario& s) { s.parallel.sequence_parallel = on; });
    });
    connect(mics_shard_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(mics_shard_->itemData(index).toLongLong());
        edit(EditMicsShard, tr("Change MiCS shard size"), [&](Scenario& s) { s.zero.mics_shard_size = size; });
    });
    connect(hpz_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(hpz_->itemData(index).toLongLong());
        edit(EditHpz, tr("Change hpZ partition size"), [&](Scenario& s) {
            s.zero.auto_zeropp = size == 0;
            if (size == 0) {  // the plan chooses all three switches (ZeroSetup::auto_zeropp)
                apply_zeropp_choice(s.zero, ZeroppChoice::Off, s.cluster.gpus_per_node);
                return;
            }
            s.zero.hpz_partition_size = size;
        });
    });
    connect(quantized_weights_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditQuantizedWeights, tr("Toggle quantized weights"), [&](Scenario& s) { s.zero.quantized_weights = on; });
    });
    connect(quantized_gradients_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditQuantizedGradients, tr("Toggle quantized gradients"), [&](Scenario& s) { s.zero.quantized_gradients = on; });
    });
    connect(pin_memory_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditPinMemory, tr("Toggle pinned offload buffers"), [&](Scenario& s) { s.zero.pin_memory = on; }); });
    connect(load_16bit_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditLoad16bit, tr("Toggle 16-bit model loading"), [&](Scenario& s) { s.training.load_in_16bit = on; });
    });
    connect(low_cpu_mem_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditLowCpuMemUsage, tr("Toggle low_cpu_mem_usage"), [&](Scenario& s) { s.training.low_cpu_mem_usage = on; });
    });
    connect(fused_optimizer_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditFusedOptimizer, tr("Toggle fused optimizer"), [&](Scenario& s) { s.training.fused_optimizer = on; });
    });
    connect(headroom_, &EditDoubleSpinBox::valueEdited, this,
            [this](double pct) { edit(EditHeadroom, tr("Change headroom"), [&](Scenario& s) { s.assumptions.headroom = pct / 100.0; }); });

    connect(doc_, &PlannerDocument::scenarioChanged, this, &ControlPanel::syncFromDocument);
    connect(doc_, &PlannerDocument::resultsChanged, this, &ControlPanel::showLayoutInfo);
    connect(doc_, &PlannerDocument::resultsChanged, this, &ControlPanel::showZeroppInfo);
    syncFromDocument();
}

void ControlPanel::edit(int id, const QString& text, const std::function<void(Scenario&)>& mutate) {
    Scenario s = doc_->scenario();
    mutate(s);
    doc_->edit(s, text, id);
}

void ControlPanel::editGpuCount(double gpus, int nodeSize) {
    try {
        const Scenario s = with_gpu_count(doc_->scenario(), static_cast<std::int64_t>(std::llround(gpus)), nodeSize);
        gpu_error_->setVisible(false);
        doc_->edit(s, tr("Change GPU count"), EditGpus);
    } catch (const InputError& e) {
        gpu_error_->setText(QString::fromStdString(e.what()) + tr(": change the GPU count or the GPUs per node."));
        gpu_error_->setVisible(true);
    }
}

// Shows the document. Nothing here emits an edit: the panel listens only to user signals.
// The data-parallel groups of the layout; with a size on auto, the layout the plan chose.
void ControlPanel::showLayoutInfo() {
    const Scenario& s = doc_->scenario();
    QString layout;
    try {
        validate_parallelism(s);
        if (s.parallel.searched()) {
            const Scenario& chosen = doc_->exportScenario();       // the recommended candidate's layout
            const std::string& words = doc_->exportLayoutWords();  // the core's: "tensor 4 x pipeline 6 x data 16"
            layout = words.empty() ? tr("Chosen: %1").arg(translated(data_parallel_phrase(chosen)))
                                   : tr("Chosen: %1 (%2)").arg(QString::fromStdString(words), translated(data_parallel_phrase(chosen)));
        } else {
            layout = translated(data_parallel_phrase(s));  // the core's words: "8 GPUs", "8 data-parallel groups of 48 GPUs"
        }
    } catch (const InputError& e) {
        layout = QString::fromStdString(e.what());
    }
    if (layout_info_->text() != layout) layout_info_->setText(layout);
}

// With ZeRO++ on auto, the switches the plan chose, or off and why (the core's words).
void ControlPanel::showZeroppInfo() {
    const Phrase outcome = auto_zeropp_outcome(doc_->exportScenario(), doc_->overview());
    const QString text = outcome.text.empty() ? QString() : tr("Chosen: %1").arg(translated(outcome));
    if (zeropp_info_->text() != text) zeropp_info_->setText(text);
    zeropp_info_->setVisible(!text.isEmpty());
}

void ControlPanel::syncFromDocument() {
    const Scenario& s = doc_->scenario();
    int model_index = model_->findData(QString::fromStdString(s.model.name));
    if (model_index < 0) model_index = model_->findData(kCustomEntry);
    setIndexIfChanged(model_, model_index);
    const double params = static_cast<double>(parameter_count(s.model));
    size_->setValue(params / 1e9);
    const QString info = (tr("%1 parameters, %2 layers, hidden %3%4")
                              .arg(QString::fromStdString(format_count(params)))
                              .arg(s.model.layers)
                              .arg(s.model.hidden)
                              .arg(s.model.synthesized ? tr(" (architecture synthesized from the size)") : QString()));
    if (model_info_->text() != info) model_info_->setText(info);
    const ClusterPreset* node = cluster_preset_of(s.cluster);
    setIndexIfChanged(node_, node_->findData(node ? QString::fromStdString(node->name) : QString(kCustomEntry)));
    gpus_->setValue(static_cast<double>(s.cluster.world_size()));
    if (s.cluster.nodes > 1 || node_size_->value() < s.cluster.gpus_per_node)
        node_size_->showValue(static_cast<int>(s.cluster.gpus_per_node));
    int gpu_index = gpu_->findData(QString::fromStdString(s.cluster.gpu.name));
    if (gpu_index < 0) gpu_index = gpu_->findData(QLatin1String(kCustomGpuName));
    setIndexIfChanged(gpu_, gpu_index);
    gpu_mem_->setValue(s.cluster.gpu.memory_gib);
    inter_bw_->setValue(s.cluster.inter_node_gbits_per_s);
    nics_->showValue(static_cast<int>(s.cluster.nics_per_node));
    int intra_index = intra_bw_->findData(s.cluster.intra_node_gbytes_per_s);
    if (intra_index < 0) {
        // A link speed that is not in the table (typed on the command line, or from a session).
        intra_bw_->addItem(tr("%1 GB/s").arg(s.cluster.intra_node_gbytes_per_s), s.cluster.intra_node_gbytes_per_s);
        intra_index = intra_bw_->count() - 1;
    }
    setIndexIfChanged(intra_bw_, intra_index);
    cpu_ram_->showValue(bytes_to_gib(s.cluster.cpu_ram_bytes_per_node));
    nvme_->showValue(bytes_to_gib(s.cluster.nvme_bytes_per_node));
    setIndexIfChanged(precision_, precision_->findData(QString::fromLatin1(to_string(s.training.precision))));
    setIndexIfChanged(optimizer_, optimizer_->findData(QString::fromLatin1(to_string(s.training.optimizer))));
    seq_->setValue(static_cast<double>(s.training.seq_len));
    global_batch_->showValue(static_cast<double>(s.training.global_batch));
    micro_batch_->showValue(s.training.auto_micro_batch ? 0 : static_cast<int>(s.training.micro_batch));
    setIndexIfChanged(checkpointing_, s.training.auto_checkpointing
                                          ? 0
                                          : checkpointing_->findData(QString::fromLatin1(to_string(s.training.checkpointing))));
    if (flash_->isChecked() != s.training.flash_attention) flash_->setChecked(s.training.flash_attention);
    if (loss_upcast_->isChecked() != s.training.loss_fp32_upcast) loss_upcast_->setChecked(s.training.loss_fp32_upcast);
    setIndexIfChanged(loss_kernel_, loss_kernel_->findData(QString::fromLatin1(to_string(s.training.loss_kernel))));
    if (fused_optimizer_->isChecked() != s.training.fused_optimizer) fused_optimizer_->setChecked(s.training.fused_optimizer);
    if (pin_memory_->isChecked() != s.zero.pin_memory) pin_memory_->setChecked(s.zero.pin_memory);
    // The sizes core accepts (core/model/parallel_layout.h), "off" for 1.
    {
        std::vector<std::int64_t> tensor_sizes = tensor_parallel_sizes(s);
        tensor_sizes.insert(tensor_sizes.begin(), 0);
        showGpuGroupSizes(tensor_parallel_, tensor_sizes, s.parallel.auto_tensor ? 0 : s.parallel.tensor);
    }
    pipeline_parallel_->showValue(s.parallel.auto_pipeline ? 0 : static_cast<int>(s.parallel.pipeline));
    // With a size searched, the search also chooses the virtual stages and Megatron's sequence
    // parallelism (searched_layouts).
    virtual_stages_->showValue(static_cast<int>(s.parallel.virtual_stages));
    virtual_stages_->setEnabled(s.parallel.pipeline > 1 && !s.parallel.auto_pipeline);
    if (sequence_parallel_->isChecked() != s.parallel.sequence_parallel) sequence_parallel_->setChecked(s.parallel.sequence_parallel);
    sequence_parallel_->setEnabled(s.parallel.tensor > 1 && !s.parallel.auto_tensor);
    {
        // "auto" first, then the sizes core offers (the layout line says why one is refused).
        std::vector<std::int64_t> sizes = ulysses_degrees(s);
        sizes.insert(sizes.begin(), 0);
        showGpuGroupSizes(ulysses_, sizes, s.parallel.auto_ulysses ? 0 : s.parallel.ulysses);
        std::vector<std::int64_t> experts = expert_parallel_sizes(s.model);
        experts.insert(experts.begin(), 0);
        showGpuGroupSizes(expert_parallel_, experts, s.parallel.auto_expert ? 0 : s.parallel.expert);
        expert_parallel_->setEnabled(s.model.experts > 1 || s.parallel.expert > 1);  // a size a dense model refuses can be reset
    }
    showLayoutInfo();
    {
        std::vector<std::int64_t> sizes = node_group_sizes(s.cluster);
        sizes.insert(sizes.begin(), 0);  // "auto" first, as the layout sizes
        showGpuGroupSizes(hpz_, sizes, s.zero.auto_zeropp ? 0 : s.zero.hpz_partition_size);
    }
    if (quantized_weights_->isChecked() != s.zero.quantized_weights) quantized_weights_->setChecked(s.zero.quantized_weights);
    if (quantized_gradients_->isChecked() != s.zero.quantized_gradients) quantized_gradients_->setChecked(s.zero.quantized_gradients);
    showGpuGroupSizes(mics_shard_, mics_shard_sizes(s.cluster), s.zero.mics_shard_size);
    quantized_weights_->setEnabled(!s.zero.auto_zeropp);
    quantized_gradients_->setEnabled(!s.zero.auto_zeropp);
    showZeroppInfo();
    if (load_16bit_->isChecked() != s.training.load_in_16bit) load_16bit_->setChecked(s.training.load_in_16bit);
    if (low_cpu_mem_->isChecked() != s.training.low_cpu_mem_usage) low_cpu_mem_->setChecked(s.training.low_cpu_mem_usage);
    headroom_->showValue(s.assumptions.headroom * 100.0);
    setIndexIfChanged(convention_, convention_->findData(QString::fromLatin1(to_string(s.assumptions.convention))));
    const FineTune& ft = s.finetune;
    setIndexIfChanged(finetune_method_, finetune_method_->findData(QString::fromLatin1(to_string(ft.method))));
    lora_rank_->showValue(static_cast<int>(ft.lora_rank));
    int targets_index = lora_targets_->findData(QString::fromLatin1(to_string(ft.targets)));
    if (ft.targets == LoraTargets::Modules) {
        // Named modules come from a session or the command line: shown as they are.
        const QString label = tr("modules: %1").arg(QString::fromStdString(ft.target_modules));
        targets_index = lora_targets_->findText(label);
        if (targets_index < 0) {
            lora_targets_->addItem(label, QStringLiteral("modules"));
            targets_index = lora_targets_->count() - 1;
        }
    }
    setIndexIfChanged(lora_targets_, targets_index);
    setIndexIfChanged(base_precision_, base_precision_->findData(QString::fromLatin1(to_string(ft.base_precision))));
    lora_rank_->setEnabled(ft.adapters());
    lora_targets_->setEnabled(ft.adapters());
}

}  // namespace zp::ui
