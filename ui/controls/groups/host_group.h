#pragma once
// The Host (per node) box: host RAM and NVMe, pinned offload buffers, and how each process
// loads the model, its data loader workers: what host RAM peaks on (core/memory/host_memory.cpp).
#include "ui/controls/control_group.h"

class QCheckBox;

namespace zp::ui {

class EditSpinBox;

class HostGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit HostGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void syncWaitingRows(const Scenario& s) override;

private:
    void addRows();
    void connectEdits();

    EditDoubleSpinBox* cpu_ram_ = nullptr;
    EditDoubleSpinBox* nvme_ = nullptr;
    QCheckBox* pin_memory_ = nullptr;
    QCheckBox* load_16bit_ = nullptr;
    QCheckBox* low_cpu_mem_ = nullptr;
    EditSpinBox* workers_ = nullptr;  // Training::dataloader_workers
};

}  // namespace zp::ui
