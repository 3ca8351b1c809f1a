#pragma once
// A slider with a spin box beside it. The slider covers a span on a linear or logarithmic
// scale, the values worth dragging through; the spin box accepts every valid value
// (setValidRange, from core/model/limits.h), so a value beyond the span is shown exactly,
// with the slider at its end. The unit is the spin box's suffix.
// Emits valueEdited only for user edits (slider or spin box), never for setValue(), so the
// ControlPanel can show the document's value without blocking signals.
#include <QWidget>

class QSlider;

namespace zp::ui {

class EditDoubleSpinBox;

class ScaledSlider : public QWidget {
    Q_OBJECT
public:
    enum class Scale { Linear, Logarithmic };

    // The slider spans [low, high]; the spin box accepts the same until setValidRange.
    ScaledSlider(double low, double high, int decimals, const QString& suffix, Scale scale, QWidget* parent = nullptr);

    double value() const;
    void setValue(double v);  // no valueEdited
    // The values the spin box accepts, a superset of the slider's span. The spin box keeps the
    // width the span needs, so the panel's layout does not depend on the extreme values.
    void setValidRange(double minimum, double maximum);
    void setToolTips(const QString& tip);
    // The spin box's suffix while it shows 1 (" GPU"); the suffix given to the constructor otherwise.
    void setSuffixOfOne(const QString& suffix);
    // The slider steps through powers of two (GPU counts, sequence lengths); its arrow keys then step
    // one power of two, PageUp/PageDown three.
    void setPowerOfTwoSnapping(bool on);
    // The spin box's EditDoubleSpinBox::showSignificantDigits.
    void showSignificantDigits(int significant, int least_decimals);
    QSlider* slider() const { return slider_; }

signals:
    void valueEdited(double value);

protected:
    bool eventFilter(QObject* watched, QEvent* e) override;

private:
    void fitSpinWidth();
    double fromSlider(int position) const;
    int toSlider(double value) const;

    QSlider* slider_;
    EditDoubleSpinBox* spin_;
    double low_, high_;
    Scale scale_;
    bool powers_of_two_ = false;
    QString suffix_, suffix_of_one_;  // the spin box's suffix for other values, and for 1 (empty: the same)
    bool showing_ = false;            // setValue is moving the slider: not a user edit
};

}  // namespace zp::ui
