#include "ui/widgets/edit_spin_box.h"

#include <QScopedValueRollback>

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
        if (!showing_) emit valueEdited(v);
    });
}

void EditDoubleSpinBox::showValue(double v) {
    // Compare as shown: the spin box rounds to its decimals.
    if (value() == valueFromText(textFromValue(v))) return;
    const QScopedValueRollback showing(showing_, true);
    setValue(v);
}

}  // namespace zp::ui
