#pragma once
// The GPUs box: the node as sold, the GPU count and GPUs per node, the GPU and its memory.
#include "ui/controls/control_group.h"

class QLabel;

namespace zp::ui {

class EditSpinBox;

class GpuGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit GpuGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s) override;
    void syncWaitingRows(const Scenario& s) override;

    QComboBox* nodeCombo() const { return node_; }
    ScaledSlider* gpuCountSlider() const { return gpus_; }
    QComboBox* gpuCombo() const { return gpu_; }

private:
    void connectEdits();
    void editGpuCount(double gpus, int nodeSize);

    QComboBox* node_ = nullptr;
    ScaledSlider* gpus_ = nullptr;
    EditSpinBox* node_size_ = nullptr;
    QLabel* gpu_error_ = nullptr;
    QComboBox* gpu_ = nullptr;
    ScaledSlider* gpu_mem_ = nullptr;
};

}  // namespace zp::ui
