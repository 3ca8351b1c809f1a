#pragma once
// The first box: what the plan is for (pre-training, a full fine-tune, LoRA, QLoRA, long context).
// Choosing a job gives the scenario that job's starting settings (core/presets/job_presets.h) and
// tells the panel which controls to show first (control_panel.cpp).
#include "ui/controls/control_group.h"

namespace zp::ui {

class JobGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit JobGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s) override;

    QComboBox* jobCombo() const { return job_; }
    static QString jobLabel(Job j);

private:
    QComboBox* job_;
};

}  // namespace zp::ui
