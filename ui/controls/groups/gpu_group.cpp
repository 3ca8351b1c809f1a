#include "ui/controls/groups/gpu_group.h"

#include "core/base/errors.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/search/scenario_edits.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include <QFormLayout>
#include <QLabel>

#include <cmath>

namespace zp::ui {

using Scale = ScaledSlider::Scale;

GpuGroup::GpuGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("GPUs"), parent) {
    node_ = named(tip(new QComboBox(this), tr("A whole node as sold: its GPU, GPUs per node, network and NICs, host RAM, NVMe and host "
                                              "memory bandwidth. Keeps the GPU count, in whole nodes. My cluster: the node differs from "
                                              "every one listed, in a field below or in a rate a session carries (CPU Adam, NVMe, PCIe); "
                                              "choosing it opens the node's fields.")),
                  "node");
    std::vector<FamilyEntry> nodes;
    for (const auto& c : cluster_presets())
        nodes.push_back({QString::fromStdString(c.display_name), QString::fromStdString(c.name), gpu_family(c.cluster.gpu.name)});
    addFamilyGroupedItems(node_, nodes);
    node_->addItem(tr("My cluster"), kCustomEntry);
    node_->setAccessibleName(tr("Node type"));
    form_->addRow(tr("Node"), node_);
    gpus_ = named(new ScaledSlider(1, 4096, 0, tr(" GPUs"), Scale::Logarithmic), "gpu_count");
    gpus_->setValidRange(static_cast<double>(limits::kWorldSize.min), static_cast<double>(limits::kWorldSize.max));
    gpus_->setSuffixOfOne(tr(" GPU"));  // "1 GPU", not "1 GPUs"
    gpus_->setPowerOfTwoSnapping(true);
    gpus_->setToolTips(tr("Data-parallel GPUs in total (log scale). ZeRO partitions model states across all of them."));
    form_->addRow(tr("GPU count"), gpus_);
    node_size_ =
        named(tip(new EditSpinBox, tr("GPUs in one node. Communication inside a node uses the intra-node link, across nodes the network.")),
              "gpus_per_node");
    setValidRange(node_size_, limits::kGpusPerNode);
    form_->addRow(tr("GPUs per node"), node_size_);
    gpu_error_ = new QLabel;
    gpu_error_->setObjectName(QStringLiteral("gpu_count_error"));  // the refusal of a GPU count (tests find it by name)
    gpu_error_->setWordWrap(true);
    gpu_error_->setVisible(false);
    form_->addRow(gpu_error_);
    gpu_ = named(tip(new QComboBox(this), tr("GPU model: sets memory, peak 16-bit TFLOP/s and the intra-node link.")), "gpu");
    std::vector<FamilyEntry> gpus;
    for (const auto& g : gpu_presets())
        gpus.push_back({QString::fromStdString(g.display_name), QString::fromStdString(g.name), gpu_family(g.name)});
    addFamilyGroupedItems(gpu_, gpus);
    gpu_->addItem(tr("Custom"), QLatin1String(kCustomGpuName));
    form_->addRow(tr("GPU"), gpu_);
    connectEdits();
    // The memory of a custom GPU: under Advanced but on "My cluster", so built when first shown
    // (control_group.h).
    buildRowsWhenShown({"gpu_memory"}, [this] {
        gpu_mem_ = named(new ScaledSlider(4, 256, 1, tr(" GiB"), Scale::Linear), "gpu_memory");
        setValidRange(gpu_mem_, limits::kGpuMemoryGib, 1);
        gpu_mem_->setToolTips(tr("Memory per GPU. The capacity line in the memory view."));
        form_->addRow(tr("GPU memory"), gpu_mem_);
        connect(gpu_mem_, &ScaledSlider::valueEdited, this, [this](double gib) {
            edit(EditGpuMemory, tr("Change GPU memory"), [&](Scenario& s) { s.cluster.gpu = custom_gpu(s.cluster.gpu, gib); });
        });
    });
}

void GpuGroup::connectEdits() {
    connect(gpus_, &ScaledSlider::valueEdited, this, [this](double v) { editGpuCount(v, node_size_->value()); });
    connect(node_size_, &EditSpinBox::valueEdited, this, [this](int v) { editGpuCount(gpus_->value(), v); });
    connect(node_, &QComboBox::activated, this, [this](int index) {
        const QString name = node_->itemData(index).toString();
        if (name == kCustomEntry ||
            name.isEmpty()) {  // a family header is never a node  // the fields below are the node: nothing to apply, the list shows the document's
            showDocument(doc_->scenario());
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
        if (name == QLatin1String(kCustomGpuName) ||
            name.isEmpty()) {  // a family header is never a GPU  // the memory below makes a custom GPU; the list shows the document's
            showDocument(doc_->scenario());
            return;
        }
        edit(EditGpu, tr("Choose GPU %1").arg(gpu_->itemText(index)),
             [&](Scenario& s) { s = with_gpu(s, gpu_preset(name.toStdString())); });
    });
}

void GpuGroup::editGpuCount(double gpus, int nodeSize) {
    try {
        const Scenario s = with_gpu_count(doc_->scenario(), static_cast<std::int64_t>(std::llround(gpus)), nodeSize);
        gpu_error_->setVisible(false);
        doc_->edit(s, tr("Change GPU count"), EditGpus);
    } catch (const InputError& e) {
        gpu_error_->setText(QString::fromStdString(e.what()) + tr(": change the GPU count or the GPUs per node."));
        gpu_error_->setVisible(true);
    }
}

void GpuGroup::sync(const Scenario& s) {
    // On part of one node several presets can hold the GPUs in use: the one shown stays while it
    // still does (one GPU of the two-GPU workstation did not turn into the one-GPU workstation).
    const ClusterPreset* node = cluster_preset_of(s.cluster);
    if (const std::string shown = node_->currentData().toString().toStdString(); node && node->name != shown)
        for (const ClusterPreset& p : cluster_presets())
            if (p.name == shown && is_run_of(s.cluster, p)) node = &p;
    setIndexIfChanged(node_, node_->findData(node ? QString::fromStdString(node->name) : QString(kCustomEntry)));
    gpus_->setValue(static_cast<double>(s.cluster.world_size()));
    if (s.cluster.nodes > 1 || node_size_->value() < s.cluster.gpus_per_node)
        node_size_->showValue(static_cast<int>(s.cluster.gpus_per_node));
    int gpu_index = gpu_->findData(QString::fromStdString(s.cluster.gpu.name));
    if (gpu_index < 0) gpu_index = gpu_->findData(QLatin1String(kCustomGpuName));
    setIndexIfChanged(gpu_, gpu_index);
}

void GpuGroup::syncWaitingRows(const Scenario& s) { gpu_mem_->setValue(s.cluster.gpu.memory_gib); }

}  // namespace zp::ui
