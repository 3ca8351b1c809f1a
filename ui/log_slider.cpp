#include "ui/log_slider.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

namespace zp::ui {

namespace {
constexpr int kSteps = 1000;
}

LogSlider::LogSlider(double minimum, double maximum, int decimals, const QString& suffix, bool logarithmic, QWidget* parent)
    : QWidget(parent), slider_(new QSlider(Qt::Horizontal, this)), spin_(new QDoubleSpinBox(this)), min_(minimum), max_(maximum),
      log_(logarithmic) {
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    slider_->setRange(0, kSteps);
    spin_->setRange(minimum, maximum);
    spin_->setDecimals(decimals);
    spin_->setSuffix(suffix);
    spin_->setKeyboardTracking(false);
    spin_->setMinimumWidth(spin_->fontMetrics().horizontalAdvance(QStringLiteral("00000.00 ") + suffix) + 24);
    layout->addWidget(slider_, 1);
    layout->addWidget(spin_);
    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        const double v = fromSlider(pos);
        {
            const QSignalBlocker block(spin_);
            spin_->setValue(v);
        }
        emit valueEdited(spin_->value());
    });
    connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        {
            const QSignalBlocker block(slider_);
            slider_->setValue(toSlider(v));
        }
        emit valueEdited(v);
    });
}

double LogSlider::fromSlider(int position) const {
    const double t = static_cast<double>(position) / kSteps;
    double v = log_ ? min_ * std::pow(max_ / min_, t) : min_ + (max_ - min_) * t;
    if (powers_of_two_) v = std::pow(2.0, std::round(std::log2(std::max(v, 1.0))));
    return std::clamp(v, min_, max_);
}

int LogSlider::toSlider(double value) const {
    const double v = std::clamp(value, min_, max_);
    const double t = log_ ? std::log(v / min_) / std::log(max_ / min_) : (v - min_) / (max_ - min_);
    return static_cast<int>(std::lround(t * kSteps));
}

double LogSlider::value() const { return spin_->value(); }

void LogSlider::setValue(double v) {
    // Setting an unchanged value still repaints the spin box (and the group box beneath it).
    if (spin_->value() == spin_->valueFromText(spin_->textFromValue(v)) && slider_->value() == toSlider(v)) return;
    const QSignalBlocker b1(slider_), b2(spin_);
    spin_->setValue(v);
    slider_->setValue(toSlider(v));
}

void LogSlider::setRange(double minimum, double maximum) {
    min_ = minimum;
    max_ = maximum;
    const QSignalBlocker b(spin_);
    spin_->setRange(minimum, maximum);
}

void LogSlider::setToolTips(const QString& tip) {
    slider_->setToolTip(tip);
    spin_->setToolTip(tip);
}

void LogSlider::setSpecialValueText(const QString& text) { spin_->setSpecialValueText(text); }

void LogSlider::setIntegerSnapping(bool powersOfTwo) { powers_of_two_ = powersOfTwo; }

}  // namespace zp::ui
