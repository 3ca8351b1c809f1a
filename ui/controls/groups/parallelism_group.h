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

private:
    void connectEdits();
    void showLayoutInfo();

    QComboBox* tensor_parallel_;
    EditSpinBox* pipeline_parallel_;
    EditSpinBox* virtual_stages_;
    QCheckBox* sequence_parallel_;
    QComboBox* pipeline_send_;
    QComboBox* ulysses_;
    QComboBox* expert_parallel_;
    WrappedText* layout_info_;
};

}  // namespace zp::ui
