#include "ui/control_panel.h"

#include "core/model/enum_names.h"
#include "core/model/errors.h"
#include "core/io/format.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/model/units.h"
#include "ui/log_slider.h"
#include "ui/planner_document.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace zp::ui {

namespace {

constexpr const char* kCustomModel = "__custom__";

struct IntraLink {
    const char* label;
    double gbytes_per_s;
};
// One direction per GPU. NVLink generations: V100 150, A100 300, H100 450 GB/s.
constexpr IntraLink kIntraLinks[] = {
    {"PCIe 3.0 x16 (16 GB/s)", 16}, {"PCIe 4.0 x16 (32 GB/s)", 32}, {"PCIe 5.0 x16 (64 GB/s)", 64},
    {"NVLink 2 (150 GB/s)", 150},   {"NVLink 3 (300 GB/s)", 300},   {"NVLink 4 (450 GB/s)", 450},
    {"Infinity Fabric (200 GB/s)", 200}, {"Infinity Fabric (448 GB/s)", 448},
};

QGroupBox* group(const QString& title, QFormLayout*& form) {
    auto* box = new QGroupBox(title);
    form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    return box;
}

// Only touch a widget whose value really changes: an unchanged setValue still repaints it.
template <typename W, typename V>
void setIfChanged(W* w, V value) {
    if (w->value() != value) w->setValue(value);
}
void setIndexIfChanged(QComboBox* box, int index) {
    if (box->currentIndex() != index) box->setCurrentIndex(index);
}

template <typename W>
W* tip(W* w, const QString& text) {
    w->setToolTip(text);
    return w;
}

}  // namespace

ControlPanel::ControlPanel(PlannerDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* layout = new QVBoxLayout(this);
    QFormLayout* f = nullptr;

    // Model
    layout->addWidget(group(tr("Model"), f));
    model_ = tip(new QComboBox, tr("A model with its exact parameter count and architecture. Changes every memory slice and the step time."));
    for (const auto& p : model_presets()) model_->addItem(QString::fromStdString(p.display_name), QString::fromStdString(p.name));
    model_->addItem(tr("Custom size (synthesized)"), QString::fromLatin1(kCustomModel));
    f->addRow(tr("Preset"), model_);
    auto* import = tip(new QPushButton(tr("Import config.json...")), tr("Read a Hugging Face config.json for the exact architecture"));
    f->addRow(QString(), import);
    size_ = new LogSlider(0.1, 2000, 2, tr(" B params"), true);
    size_->setToolTips(tr("Model size in billions of parameters (log scale, 100M to 2T). Moving it synthesizes an architecture "
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
    gpus_ = new LogSlider(1, 4096, 0, tr(" GPUs"), true);
    gpus_->setIntegerSnapping(true);
    gpus_->setToolTips(tr("Data-parallel GPUs in total (log scale). ZeRO partitions model states across all of them."));
    f->addRow(tr("GPU count"), gpus_);
    node_size_ = tip(new QSpinBox, tr("GPUs in one node. Communication inside a node uses the intra-node link, across nodes the network."));
    node_size_->setRange(1, 64);
    f->addRow(tr("GPUs per node"), node_size_);
    gpu_error_ = new QLabel;
    gpu_error_->setWordWrap(true);
    gpu_error_->setVisible(false);
    f->addRow(gpu_error_);
    gpu_ = tip(new QComboBox, tr("GPU model: sets memory, peak 16-bit TFLOP/s and the intra-node link."));
    for (const auto& g : gpu_presets()) gpu_->addItem(QString::fromStdString(g.display_name), QString::fromStdString(g.name));
    gpu_->addItem(tr("Custom"), QStringLiteral("custom"));
    f->addRow(tr("GPU"), gpu_);
    gpu_mem_ = new LogSlider(4, 256, 1, tr(" GiB"), false);
    gpu_mem_->setToolTips(tr("Memory per GPU. The capacity line in the memory view."));
    f->addRow(tr("GPU memory"), gpu_mem_);

    // Network
    layout->addWidget(group(tr("Network"), f));
    inter_bw_ = new LogSlider(1, 6400, 0, tr(" Gbit/s"), true);
    inter_bw_->setToolTips(tr("Network bandwidth per node, all NICs together (a DGX A100 has 8 x 200 Gbit/s). "
                              "Limits communication when there is more than one node."));
    f->addRow(tr("Inter-node"), inter_bw_);
    intra_bw_ = tip(new QComboBox, tr("Link between GPUs in a node, one direction per GPU. Limits communication on one node."));
    for (const auto& l : kIntraLinks) intra_bw_->addItem(tr(l.label), l.gbytes_per_s);
    f->addRow(tr("Intra-node"), intra_bw_);

    // Host
    layout->addWidget(group(tr("Host (per node)"), f));
    cpu_ram_ = tip(new QDoubleSpinBox, tr("Host RAM per node. CPU offload keeps optimizer states (and parameters) here."));
    cpu_ram_->setRange(0, 65536);
    cpu_ram_->setDecimals(0);
    cpu_ram_->setSuffix(tr(" GiB"));
    cpu_ram_->setKeyboardTracking(false);
    f->addRow(tr("CPU RAM"), cpu_ram_);
    nvme_ = tip(new QDoubleSpinBox, tr("NVMe capacity per node. ZeRO-Infinity (stage 3) can offload states here."));
    nvme_->setRange(0, 1000000);
    nvme_->setDecimals(0);
    nvme_->setSuffix(tr(" GiB"));
    nvme_->setKeyboardTracking(false);
    f->addRow(tr("NVMe"), nvme_);

    // Training
    layout->addWidget(group(tr("Training"), f));
    precision_ = tip(new QComboBox, tr("bf16/fp16: mixed precision with fp32 master weights; fp32: no master copy."));
    for (const char* p : {"bf16", "fp16", "fp32"}) precision_->addItem(QString::fromLatin1(p), QString::fromLatin1(p));
    f->addRow(tr("Precision"), precision_);
    optimizer_ = tip(new QComboBox, tr("Optimizer state per parameter: Adam/AdamW/LAMB 8 bytes, Lion/Adagrad/SGD+momentum 4, SGD 0."));
    for (const char* o : {"adamw", "adam", "lamb", "lion", "adagrad", "sgd-momentum", "sgd"}) optimizer_->addItem(QString::fromLatin1(o), QString::fromLatin1(o));
    f->addRow(tr("Optimizer"), optimizer_);
    seq_ = new LogSlider(128, 1048576, 0, tr(" tokens"), true);
    seq_->setIntegerSnapping(true);
    seq_->setToolTips(tr("Sequence length. Activations grow with it (quadratically without flash attention)."));
    f->addRow(tr("Sequence"), seq_);
    global_batch_ = tip(new QSpinBox, tr("Sequences per optimizer step (DeepSpeed's train_batch_size). Auto: 64, raised to a multiple of micro batch x GPUs."));
    global_batch_->setRange(0, 1 << 24);
    global_batch_->setSpecialValueText(tr("auto"));
    global_batch_->setKeyboardTracking(false);
    f->addRow(tr("Global batch"), global_batch_);
    micro_batch_ = tip(new QSpinBox, tr("Sequences per GPU per forward pass. Auto: the recommender picks it for every setup; a number fixes it."));
    micro_batch_->setRange(0, 4096);
    micro_batch_->setSpecialValueText(tr("auto"));
    micro_batch_->setKeyboardTracking(false);
    f->addRow(tr("Micro batch"), micro_batch_);
    checkpointing_ = tip(new QComboBox, tr("Activation recompute: none, selective (recompute attention scores) or full (keep only layer inputs). "
                                           "Auto: the recommender picks it for every setup."));
    checkpointing_->addItem(tr("auto"), QStringLiteral("auto"));
    for (const char* c : {"none", "selective", "full"}) checkpointing_->addItem(QString::fromLatin1(c), QString::fromLatin1(c));
    f->addRow(tr("Recompute"), checkpointing_);
    flash_ = tip(new QCheckBox(tr("Flash attention")), tr("Flash attention never stores the attention scores (5 a s\u00b2 b bytes per layer)."));
    f->addRow(flash_);
    headroom_ = tip(new QDoubleSpinBox, tr("GPU memory kept free: a setup fits when its total is below capacity minus headroom."));
    headroom_->setRange(0, 50);
    headroom_->setSuffix(tr(" %"));
    headroom_->setDecimals(0);
    headroom_->setKeyboardTracking(false);
    f->addRow(tr("Headroom"), headroom_);
    convention_ = tip(new QComboBox, tr("Model-state accounting: DeepSpeed's implementation (20 bytes/param at stage 0) or the ZeRO paper's K = 12 (16 bytes/param)."));
    convention_->addItem(tr("DeepSpeed implementation"), QStringLiteral("deepspeed"));
    convention_->addItem(tr("ZeRO paper (K = 12)"), QStringLiteral("paper"));
    f->addRow(tr("Convention"), convention_);
    layout->addStretch(1);

    // Edits
    connect(import, &QPushButton::clicked, this, &ControlPanel::importHfConfigRequested);
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = model_->currentData().toString();
        if (name == QLatin1String(kCustomModel)) return;
        Scenario s = doc_->scenario();
        s.model = model_preset(name.toStdString()).spec;
        doc_->edit(s, tr("Choose model %1").arg(model_->currentText()), EditModel);
    });
    connect(size_, &LogSlider::valueEdited, this, [this](double billions) {
        Scenario s = doc_->scenario();
        s.model = synthesize_model(static_cast<std::int64_t>(std::llround(billions * 1e9)));
        doc_->edit(s, tr("Change model size"), EditModelSize);
    });
    connect(gpus_, &LogSlider::valueEdited, this, [this](double v) { editGpuCount(v, node_size_->value()); });
    connect(node_size_, &QSpinBox::valueChanged, this, [this](int v) { editGpuCount(gpus_->value(), v); });
    connect(gpu_, &QComboBox::currentIndexChanged, this, [this] {
        const QString name = gpu_->currentData().toString();
        if (name == QLatin1String("custom")) return;
        Scenario s = doc_->scenario();
        s.cluster.gpu = gpu_preset(name.toStdString());
        s.cluster.intra_node_gbytes_per_s = s.cluster.gpu.intra_node_gbytes_per_s;
        s.cluster.pcie_gbytes_per_s = s.cluster.gpu.pcie_gbytes_per_s;
        doc_->edit(s, tr("Choose GPU %1").arg(gpu_->currentText()), EditGpu);
    });
    connect(gpu_mem_, &LogSlider::valueEdited, this, [this](double gib) {
        Scenario s = doc_->scenario();
        s.cluster.gpu.memory_gib = gib;
        s.cluster.gpu.name = "custom";
        s.cluster.gpu.display_name = "custom GPU";
        doc_->edit(s, tr("Change GPU memory"), EditGpuMemory);
    });
    connect(inter_bw_, &LogSlider::valueEdited, this, [this](double v) {
        Scenario s = doc_->scenario();
        s.cluster.inter_node_gbits_per_s = v;
        doc_->edit(s, tr("Change inter-node bandwidth"), EditInterBw);
    });
    connect(intra_bw_, &QComboBox::currentIndexChanged, this, [this] {
        Scenario s = doc_->scenario();
        s.cluster.intra_node_gbytes_per_s = intra_bw_->currentData().toDouble();
        doc_->edit(s, tr("Change intra-node link"), EditIntraBw);
    });
    connect(cpu_ram_, &QDoubleSpinBox::valueChanged, this, [this](double gib) {
        Scenario s = doc_->scenario();
        s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(gib);
        doc_->edit(s, tr("Change host RAM"), EditCpuRam);
    });
    connect(nvme_, &QDoubleSpinBox::valueChanged, this, [this](double gib) {
        Scenario s = doc_->scenario();
        s.cluster.nvme_bytes_per_node = gib_to_bytes(gib);
        doc_->edit(s, tr("Change NVMe capacity"), EditNvme);
    });
    const auto enum_edit = [this](QComboBox* box, int id, const QString& what, auto apply) {
        connect(box, &QComboBox::currentIndexChanged, this, [this, box, id, what, apply] {
            Scenario s = doc_->scenario();
            apply(s, box->currentData().toString().toStdString());
            doc_->edit(s, what, id);
        });
    };
    enum_edit(precision_, EditPrecision, tr("Change precision"), [](Scenario& s, const std::string& v) {
        s.training.precision = parse_precision(v);
        if (s.training.precision == Precision::Fp32) s.zero.offload_optimizer = s.zero.offload_param = OffloadDevice::None;
    });
    enum_edit(optimizer_, EditOptimizer, tr("Change optimizer"), [](Scenario& s, const std::string& v) { s.training.optimizer = parse_optimizer(v); });
    enum_edit(checkpointing_, EditCheckpointing, tr("Change recompute"), [](Scenario& s, const std::string& v) {
        s.training.auto_checkpointing = v == "auto";
        if (v != "auto") s.training.checkpointing = parse_checkpointing(v);
    });
    enum_edit(convention_, EditConvention, tr("Change convention"), [](Scenario& s, const std::string& v) { s.assumptions.convention = parse_convention(v); });
    connect(seq_, &LogSlider::valueEdited, this, [this](double v) {
        Scenario s = doc_->scenario();
        s.training.seq_len = static_cast<std::int64_t>(std::llround(v));
        doc_->edit(s, tr("Change sequence length"), EditSeq);
    });
    connect(global_batch_, &QSpinBox::valueChanged, this, [this](int v) {
        Scenario s = doc_->scenario();
        s.training.global_batch = v;
        doc_->edit(s, tr("Change global batch"), EditGlobalBatch);
    });
    connect(micro_batch_, &QSpinBox::valueChanged, this, [this](int v) {
        Scenario s = doc_->scenario();
        s.training.auto_micro_batch = v == 0;
        s.training.micro_batch = v == 0 ? 1 : v;
        doc_->edit(s, tr("Change micro batch"), EditMicroBatch);
    });
    connect(flash_, &QCheckBox::toggled, this, [this](bool on) {
        Scenario s = doc_->scenario();
        s.training.flash_attention = on;
        doc_->edit(s, tr("Toggle flash attention"), EditFlash);
    });
    connect(headroom_, &QDoubleSpinBox::valueChanged, this, [this](double pct) {
        Scenario s = doc_->scenario();
        s.assumptions.headroom = pct / 100.0;
        doc_->edit(s, tr("Change headroom"), EditHeadroom);
    });

    connect(doc_, &PlannerDocument::scenarioChanged, this, &ControlPanel::syncFromDocument);
    syncFromDocument();
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

void ControlPanel::syncFromDocument() {
    const Scenario& s = doc_->scenario();
    const QSignalBlocker b1(model_), b2(node_size_), b3(gpu_), b4(intra_bw_), b5(cpu_ram_), b6(nvme_), b7(precision_), b8(optimizer_),
        b9(global_batch_), b10(micro_batch_), b11(checkpointing_), b12(flash_), b13(headroom_), b14(convention_);
    int model_index = model_->findData(QString::fromStdString(s.model.name));
    if (model_index < 0) model_index = model_->findData(QString::fromLatin1(kCustomModel));
    setIndexIfChanged(model_, model_index);
    const double params = static_cast<double>(parameter_count(s.model));
    size_->setValue(params / 1e9);
    const QString info = (tr("%1 parameters, %2 layers, hidden %3%4")
                             .arg(QString::fromStdString(format_count(params)))
                             .arg(s.model.layers)
                             .arg(s.model.hidden)
                             .arg(s.model.synthesized ? tr(" (architecture synthesized from the size)") : QString()));
    if (model_info_->text() != info) model_info_->setText(info);
    gpus_->setValue(static_cast<double>(s.cluster.world_size()));
    if (s.cluster.nodes > 1 || node_size_->value() < s.cluster.gpus_per_node) setIfChanged(node_size_, static_cast<int>(s.cluster.gpus_per_node));
    int gpu_index = gpu_->findData(QString::fromStdString(s.cluster.gpu.name));
    if (gpu_index < 0) gpu_index = gpu_->findData(QStringLiteral("custom"));
    setIndexIfChanged(gpu_, gpu_index);
    gpu_mem_->setValue(s.cluster.gpu.memory_gib);
    inter_bw_->setValue(s.cluster.inter_node_gbits_per_s);
    int intra_index = intra_bw_->findData(s.cluster.intra_node_gbytes_per_s);
    if (intra_index < 0) {
        intra_bw_->addItem(tr("%1 GB/s").arg(s.cluster.intra_node_gbytes_per_s), s.cluster.intra_node_gbytes_per_s);
        intra_index = intra_bw_->count() - 1;
    }
    setIndexIfChanged(intra_bw_, intra_index);
    setIfChanged(cpu_ram_, bytes_to_gib(s.cluster.cpu_ram_bytes_per_node));
    setIfChanged(nvme_, bytes_to_gib(s.cluster.nvme_bytes_per_node));
    setIndexIfChanged(precision_, precision_->findData(QString::fromLatin1(to_string(s.training.precision))));
    setIndexIfChanged(optimizer_, optimizer_->findData(QString::fromLatin1(to_string(s.training.optimizer))));
    seq_->setValue(static_cast<double>(s.training.seq_len));
    setIfChanged(global_batch_, static_cast<int>(s.training.global_batch));
    setIfChanged(micro_batch_, s.training.auto_micro_batch ? 0 : static_cast<int>(s.training.micro_batch));
    setIndexIfChanged(checkpointing_, s.training.auto_checkpointing ? 0 : checkpointing_->findData(QString::fromLatin1(to_string(s.training.checkpointing))));
    if (flash_->isChecked() != s.training.flash_attention) flash_->setChecked(s.training.flash_attention);
    setIfChanged(headroom_, s.assumptions.headroom * 100.0);
    setIndexIfChanged(convention_, convention_->findData(QString::fromLatin1(to_string(s.assumptions.convention))));
}

}  // namespace zp::ui
