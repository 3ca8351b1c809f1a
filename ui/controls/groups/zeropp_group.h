#pragma once
// The ZeRO++ box (core/model/scenario.h ZeroPlusPlus), switches for the ZeRO-3 setups: hpZ,
// qwZ and qgZ, with hpZ on auto a line with what the plan chose; MiCS (core/model/mics.h); and
// how many parameters ZeRO-3 keeps gathered (ZeroSetup::stage3_max_live_parameters).
#include "ui/controls/control_group.h"

class QCheckBox;
class QLabel;

namespace zp::ui {

class ZeroppGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit ZeroppGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s) override;

private:
    void connectEdits();
    void showZeroppInfo();
    void showMaxLive(double current);

    QComboBox* hpz_;
    QCheckBox* quantized_weights_;
    QCheckBox* quantized_gradients_;
    QLabel* zeropp_info_;  // with hpZ on auto: what the plan chose
    QComboBox* mics_shard_;
    QComboBox* max_live_;
};

}  // namespace zp::ui
