#pragma once
// The Network box: the bandwidth between nodes, the NICs it runs over, the link inside a node.
#include "ui/controls/control_group.h"

namespace zp::ui {

class EditSpinBox;

class NetworkGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit NetworkGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void syncWaitingRows(const Scenario& s) override;

private:
    void addRows();
    void connectEdits();

    ScaledSlider* inter_bw_ = nullptr;
    EditSpinBox* nics_ = nullptr;
    QComboBox* intra_bw_ = nullptr;
};

}  // namespace zp::ui
