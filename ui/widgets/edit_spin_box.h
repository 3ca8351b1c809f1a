#pragma once
// Spin boxes that tell the user's edits from the document's updates, as ScaledSlider does:
// valueEdited fires for typing (on Return or focus loss: keyboard tracking is off), the
// arrows, the wheel and the keys, never for showValue(). The ControlPanel connects
// valueEdited and shows the document with showValue(), so it needs no QSignalBlocker.
#include <QDoubleSpinBox>
#include <QSpinBox>

namespace zp::ui {

class EditSpinBox : public QSpinBox {
    Q_OBJECT
public:
    explicit EditSpinBox(QWidget* parent = nullptr);
    void showValue(int v);  // no valueEdited

signals:
    void valueEdited(int value);

private:
    bool showing_ = false;
};

class EditDoubleSpinBox : public QDoubleSpinBox {
    Q_OBJECT
public:
    explicit EditDoubleSpinBox(QWidget* parent = nullptr);
    void showValue(double v);  // no valueEdited

signals:
    void valueEdited(double value);

private:
    bool showing_ = false;
};

}  // namespace zp::ui
