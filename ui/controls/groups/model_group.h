#pragma once
// The Model box: a preset, a size to synthesize one, or a Hugging Face config.json.
#include "ui/controls/control_group.h"

class QPushButton;

namespace zp::ui {

class WrappedText;

class ModelGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit ModelGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s) override;

    QComboBox* modelCombo() const { return model_; }
    ScaledSlider* modelSizeSlider() const { return size_; }
    QPushButton* importButton() const { return import_; }  // the panel forwards its clicks

private:
    void connectEdits();

    QComboBox* model_;
    QPushButton* import_;
    ScaledSlider* size_;
    WrappedText* model_info_;
};

}  // namespace zp::ui
