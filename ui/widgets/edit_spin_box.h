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
    // Shows `significant` digits, at least `least_decimals` decimals and at most decimals(): a
    // model of 14.7M parameters reads "0.0147 B", not "0.01" (decimals() 4), 8.03 B stays "8.03".
    void showSignificantDigits(int significant, int least_decimals);
    // `v` as the box shows it, read back: what an edit of that text would set.
    double asShown(double v) const { return valueFromText(textFromValue(v)); }
    QString textFromValue(double v) const override;

signals:
    void valueEdited(double value);

private:
    bool showing_ = false;
    int significant_ = 0;  // 0: decimals() decimals, as QDoubleSpinBox
    int least_decimals_ = 0;
};

}  // namespace zp::ui
