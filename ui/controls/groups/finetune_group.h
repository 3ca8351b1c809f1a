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
    void syncWaitingRows(const Scenario& s) override;

private:
    void addRows();
    void connectEdits();

    QComboBox* finetune_method_ = nullptr;
    EditSpinBox* lora_rank_ = nullptr;
    QComboBox* lora_targets_ = nullptr;
    QComboBox* base_precision_ = nullptr;
};

}  // namespace zp::ui
