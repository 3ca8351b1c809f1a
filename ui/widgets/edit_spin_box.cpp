#include "ui/widgets/edit_spin_box.h"

#include <QScopedValueRollback>

#include <algorithm>
#include <cmath>

namespace zp::ui {

EditSpinBox::EditSpinBox(QWidget* parent) : QSpinBox(parent) {
    setKeyboardTracking(false);  // one edit per typed number, not one per digit
    connect(this, &QSpinBox::valueChanged, this, [this](int v) {
        if (!showing_) emit valueEdited(v);
    });
}

void EditSpinBox::showValue(int v) {
    // An unchanged setValue still repaints the spin box.
    if (value() == v) return;
    const QScopedValueRollback showing(showing_, true);
    setValue(v);
}

EditDoubleSpinBox::EditDoubleSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {
    setKeyboardTracking(false);
    connect(this, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        // "-0" typed is -0.0, which passes every ">= 0" check and would be stored with its sign:
        // adding +0.0 makes it zero (IEEE 754: -0 + +0 = +0 when rounding to nearest).
        if (!showing_) emit valueEdited(v + 0.0);
    });
}

void EditDoubleSpinBox::showSignificantDigits(int significant, int least_decimals) {
    significant_ = significant;
    least_decimals_ = least_decimals;
    setSuffix(suffix());  // shown again in the new form, and the size hint measured again (QAbstractSpinBox caches it)
}

QString EditDoubleSpinBox::textFromValue(double v) const {
    if (significant_ <= 0) return QDoubleSpinBox::textFromValue(v);
    const int magnitude = v != 0 ? static_cast<int>(std::floor(std::log10(std::abs(v)))) : 0;
    const int shown = std::clamp(significant_ - 1 - magnitude, std::min(least_decimals_, decimals()), decimals());
    QString text = locale().toString(v, 'f', shown);
    // As QDoubleSpinBox::textFromValue: the group separator only when asked for.
    if (!isGroupSeparatorShown()) text.remove(locale().groupSeparator());
    return text;
}

void EditDoubleSpinBox::showValue(double v) {
    // Compare as shown: the spin box rounds to its decimals.
    if (value() == valueFromText(textFromValue(v))) return;
    const QScopedValueRollback showing(showing_, true);
    setValue(v);
}

}  // namespace zp::ui
