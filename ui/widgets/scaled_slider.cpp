#include "ui/widgets/scaled_slider.h"

#include "ui/widgets/edit_spin_box.h"

#include <QHBoxLayout>
#include <QScopedValueRollback>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace zp::ui {

namespace {
constexpr int kSteps = 1000;
}

ScaledSlider::ScaledSlider(double low, double high, int decimals, const QString& suffix, Scale scale, QWidget* parent)
    : QWidget(parent),
      slider_(new QSlider(Qt::Horizontal, this)),
      spin_(new EditDoubleSpinBox(this)),
      low_(low),
      high_(high),
      scale_(scale) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    slider_->setRange(0, kSteps);
    spin_->setRange(low, high);
    spin_->setDecimals(decimals);
    spin_->setSuffix(suffix);
    // Wide enough for the span's values and for "00000.00 <unit>", whichever is wider.
    const int minimum = spin_->fontMetrics().horizontalAdvance(QStringLiteral("00000.00 ") + suffix) + 24;
    spin_->setFixedWidth(std::max(minimum, spin_->sizeHint().width()));
    layout->addWidget(slider_, 1);
    layout->addWidget(spin_);
    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        if (showing_) return;
        spin_->showValue(fromSlider(pos));
        emit valueEdited(spin_->value());
    });
    connect(spin_, &EditDoubleSpinBox::valueEdited, this, [this](double v) {
        if (showing_) return;  // setValidRange clamping the shown value
        {
            const QScopedValueRollback showing(showing_, true);
            slider_->setValue(toSlider(v));
        }
        emit valueEdited(v);
    });
}

double ScaledSlider::fromSlider(int position) const {
    const double t = static_cast<double>(position) / kSteps;
    double v = scale_ == Scale::Logarithmic ? low_ * std::pow(high_ / low_, t) : low_ + (high_ - low_) * t;
    if (powers_of_two_) v = std::pow(2.0, std::round(std::log2(std::max(v, 1.0))));
    return std::clamp(v, low_, high_);
}

int ScaledSlider::toSlider(double value) const {
    const double v = std::clamp(value, low_, high_);
    const double t = scale_ == Scale::Logarithmic ? std::log(v / low_) / std::log(high_ / low_) : (v - low_) / (high_ - low_);
    return static_cast<int>(std::lround(t * kSteps));
}

double ScaledSlider::value() const { return spin_->value(); }

void ScaledSlider::setValue(double v) {
    // Setting an unchanged value still repaints the spin box (and the group box beneath it).
    if (spin_->value() == spin_->valueFromText(spin_->textFromValue(v)) && slider_->value() == toSlider(v)) return;
    const QScopedValueRollback showing(showing_, true);
    spin_->showValue(v);
    slider_->setValue(toSlider(v));
}

void ScaledSlider::setValidRange(double minimum, double maximum) {
    const QScopedValueRollback showing(showing_, true);
    spin_->setRange(minimum, maximum);  // may clamp the shown value; the document's value is set again on the next sync
}

void ScaledSlider::setToolTips(const QString& tip) {
    slider_->setToolTip(tip);
    spin_->setToolTip(tip);
}

void ScaledSlider::setPowerOfTwoSnapping(bool on) { powers_of_two_ = on; }

}  // namespace zp::ui
