#include "ui/controls/groups/host_group.h"

#include "core/base/units.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include <QCheckBox>
#include <QFormLayout>

namespace zp::ui {

HostGroup::HostGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Host (per node)"), parent) {
    buildRowsWhenShown({"cpu_ram", "nvme", "pin_memory", "load_in_16bit", "low_cpu_mem_usage", "dataloader_workers"}, [this] {
        addRows();
        connectEdits();
    });
}

void HostGroup::addRows() {
    cpu_ram_ =
        named(tip(new EditDoubleSpinBox, tr("Host RAM per node. CPU offload keeps optimizer states (and parameters) here.")), "cpu_ram");
    cpu_ram_->setDecimals(0);
    setValidRange(cpu_ram_, limits::kCpuRamGib);
    cpu_ram_->setSuffix(tr(" GiB"));
    form_->addRow(tr("CPU RAM"), cpu_ram_);
    nvme_ = named(tip(new EditDoubleSpinBox, tr("NVMe capacity per node. ZeRO-Infinity (stage 3) can offload states here.")), "nvme");
    nvme_->setDecimals(0);
    setValidRange(nvme_, limits::kNvmeGib);
    nvme_->setSuffix(tr(" GiB"));
    form_->addRow(tr("NVMe"), nvme_);
    // How each process loads the model and whether offload buffers are pinned: what host RAM
    // peaks on (core/memory/host_memory.cpp; the Host RAM tab shows each phase).
    pin_memory_ = named(tip(new QCheckBox(tr("Pinned offload buffers")),
                            tr("offload_*.pin_memory: faster copies, but PyTorch rounds each pinned buffer up to a power of two.")),
                        "pin_memory");
    pin_memory_->setAccessibleName(tr("Pinned offload buffers"));
    form_->addRow(pin_memory_);
    load_16bit_ = named(tip(new QCheckBox(tr("Load the model in 16-bit")),
                            tr("from_pretrained(torch_dtype=torch.bfloat16), or transformers v5's default dtype on a 16-bit "
                               "checkpoint. Off: fp32, the default before v5, twice the host RAM in every process while loading.")),
                        "load_in_16bit");
    load_16bit_->setAccessibleName(tr("Load the model in 16-bit"));
    form_->addRow(load_16bit_);
    low_cpu_mem_ = named(tip(new QCheckBox(tr("low_cpu_mem_usage")),
                             tr("The model is built on the meta device, so no checkpoint shard is held beside it while loading: "
                                "from_pretrained(low_cpu_mem_usage=True), and always from transformers 4.51. Off: the default "
                                "before 4.51.")),
                         "low_cpu_mem_usage");
    low_cpu_mem_->setAccessibleName(tr("low_cpu_mem_usage"));
    form_->addRow(low_cpu_mem_);
    // Training::dataloader_workers: each worker process's host RAM (host_memory.cpp) and the data
    // pipeline's pace (step_time.cpp add_data_wait).
    workers_ = addCountRow("dataloader_workers", tr("Data loader workers"),
                           tr("DataLoader worker processes per training process (TrainingArguments.dataloader_num_workers). "
                              "Each holds its own host RAM; together they load the data pipeline's samples in parallel."),
                           limits::kDataloaderWorkers, tr("none (main process)"));
}

void HostGroup::connectEdits() {
    connect(cpu_ram_, &EditDoubleSpinBox::valueEdited, this, [this](double gib) {
        edit(EditCpuRam, tr("Change host RAM"), [&](Scenario& s) { s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(gib); });
    });
    connect(nvme_, &EditDoubleSpinBox::valueEdited, this, [this](double gib) {
        edit(EditNvme, tr("Change NVMe capacity"), [&](Scenario& s) { s.cluster.nvme_bytes_per_node = gib_to_bytes(gib); });
    });
    connect(pin_memory_, &QCheckBox::clicked, this,
            [this](bool on) { edit(EditPinMemory, tr("Toggle pinned offload buffers"), [&](Scenario& s) { s.zero.pin_memory = on; }); });
    connect(load_16bit_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditLoad16bit, tr("Toggle 16-bit model loading"), [&](Scenario& s) { s.training.load_in_16bit = on; });
    });
    connect(low_cpu_mem_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditLowCpuMemUsage, tr("Toggle low_cpu_mem_usage"), [&](Scenario& s) { s.training.low_cpu_mem_usage = on; });
    });
    connect(workers_, &EditSpinBox::valueEdited, this, [this](int n) {
        edit(EditDataloaderWorkers, tr("Change data loader workers"), [&](Scenario& s) { s.training.dataloader_workers = n; });
    });
}

void HostGroup::syncWaitingRows(const Scenario& s) {
    cpu_ram_->showValue(bytes_to_gib(s.cluster.cpu_ram_bytes_per_node));
    nvme_->showValue(bytes_to_gib(s.cluster.nvme_bytes_per_node));
    setCheckedIfChanged(pin_memory_, s.zero.pin_memory);
    setCheckedIfChanged(load_16bit_, s.training.load_in_16bit);
    setCheckedIfChanged(low_cpu_mem_, s.training.low_cpu_mem_usage);
    workers_->showValue(static_cast<int>(s.training.dataloader_workers));
}

}  // namespace zp::ui
