#pragma once
// The Model parallelism box (core/model/scenario.h Parallelism, Megatron-DeepSpeed's layout):
// tensor, pipeline and its virtual stages, Megatron's sequence parallelism, what a pipeline stage
// sends per tensor rank, Ulysses, experts, and a line with the data-parallel groups of the layout.
#include "ui/controls/control_group.h"

class QCheckBox;

namespace zp::ui {

class WrappedText;

class EditSpinBox;

class ParallelismGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit ParallelismGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s) override;
    void syncWaitingRows(const Scenario& s) override;

private:
    void addSizeRows();
    void connectEdits();
    void showLayoutInfo();

    QComboBox* tensor_parallel_ = nullptr;
    EditSpinBox* pipeline_parallel_ = nullptr;
    EditSpinBox* virtual_stages_ = nullptr;
    QCheckBox* sequence_parallel_ = nullptr;
    QComboBox* pipeline_send_ = nullptr;
    QComboBox* ulysses_ = nullptr;
    QComboBox* expert_parallel_ = nullptr;
    WrappedText* layout_info_ = nullptr;
};

}  // namespace zp::ui
