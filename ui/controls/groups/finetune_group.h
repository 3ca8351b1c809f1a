#pragma once
// The Fine-tuning box (core/model/finetune.h): the method, the user's choice and never searched,
// and the LoRA adapters' rank, targets and frozen base.
#include "ui/controls/control_group.h"

namespace zp::ui {

class EditSpinBox;

class FinetuneGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit FinetuneGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s);

private:
    void connectEdits();

    QComboBox* finetune_method_;
    EditSpinBox* lora_rank_;
    QComboBox* lora_targets_;
    QComboBox* base_precision_;
};

}  // namespace zp::ui
