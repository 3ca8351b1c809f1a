#pragma once
// A slider with a spin box beside it, on a linear or logarithmic scale, with a unit in the
// spin box suffix. Emits valueEdited only for user edits, never for setValue().
#include <QWidget>

class QSlider;
class QDoubleSpinBox;

namespace zp::ui {

class LogSlider : public QWidget {
    Q_OBJECT
public:
    LogSlider(double minimum, double maximum, int decimals, const QString& suffix, bool logarithmic, QWidget* parent = nullptr);

    double value() const;
    void setValue(double v);               // no valueEdited
    void setRange(double minimum, double maximum);
    void setToolTips(const QString& tip);
    void setSpecialValueText(const QString& text);  // shown at the minimum ("auto")
    void setIntegerSnapping(bool powersOfTwo);      // slider steps through powers of two
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* spinBox() const { return spin_; }

signals:
    void valueEdited(double value);

private:
    double fromSlider(int position) const;
    int toSlider(double value) const;

    QSlider* slider_;
    QDoubleSpinBox* spin_;
    double min_, max_;
    bool log_;
    bool powers_of_two_ = false;
};

}  // namespace zp::ui
