#include "ui/widgets/scaled_slider.h"

#include "ui/widgets/edit_spin_box.h"

#include <QHBoxLayout>
#include <QKeyEvent>
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
    suffix_ = suffix;
    fitSpinWidth();
    layout->addWidget(slider_, 1);
    layout->addWidget(spin_);
    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        if (showing_) return;
        spin_->showValue(spin_->asShown(fromSlider(pos)));  // the value as its text reads, so an edit sets what is shown
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

void ScaledSlider::showSignificantDigits(int significant, int least_decimals) {
    spin_->showSignificantDigits(significant, least_decimals);
    fitSpinWidth();  // the span's values as they are now written
}

void ScaledSlider::fitSpinWidth() {
    // Wide enough for the span's values and for "00000.00 <unit>", whichever is wider.
    const int minimum = spin_->fontMetrics().horizontalAdvance(QStringLiteral("00000.00 ") + suffix_) + 24;
    spin_->setMinimumWidth(0);
    spin_->setMaximumWidth(QWIDGETSIZE_MAX);
    spin_->setFixedWidth(std::max(minimum, spin_->sizeHint().width()));
}

void ScaledSlider::setValue(double v) {
    // Setting an unchanged value still repaints the spin box (and the group box beneath it).
    if (spin_->value() == spin_->asShown(v) && slider_->value() == toSlider(v)) return;
    const QScopedValueRollback showing(showing_, true);
    // The value as its text reads: holding 8.0303 behind "8.03", Return in the box re-read the text
    // as an edit to 8.03 (the size box then replaced the preset with a synthesized model).
    spin_->showValue(spin_->asShown(v));
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

void ScaledSlider::setSuffixOfOne(const QString& suffix) {
    if (suffix_of_one_.isEmpty())
        // Every change of the shown value, typed, dragged or set (showValue too emits valueChanged).
        connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
            const QString& wanted = v == 1 ? suffix_of_one_ : suffix_;
            if (spin_->suffix() != wanted) spin_->setSuffix(wanted);
        });
    suffix_of_one_ = suffix;
    if (spin_->value() == 1) spin_->setSuffix(suffix);
}

void ScaledSlider::setPowerOfTwoSnapping(bool on) {
    if (on == powers_of_two_) return;
    powers_of_two_ = on;
    if (on) slider_->installEventFilter(this);
    else slider_->removeEventFilter(this);
}

// With snapping, one of the slider's 1000 steps is about 1/80 of a doubling, so an arrow key moved
// nothing visible until some 40 presses added up to one. The keys step the snapped values instead:
// an arrow one power of two, PageUp/PageDown kPageDoublings. The mouse keeps the slider's own steps.
bool ScaledSlider::eventFilter(QObject* watched, QEvent* e) {
    if (watched != slider_ || !powers_of_two_ || e->type() != QEvent::KeyPress) return QWidget::eventFilter(watched, e);
    const auto* key = static_cast<QKeyEvent*>(e);
    if (key->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) return false;
    constexpr int kPageDoublings = 3;
    const int forward = slider_->isRightToLeft() ? -1 : 1;  // a horizontal slider's Right key in the reading direction
    int doublings = 0;
    switch (key->key()) {
    case Qt::Key_Right: doublings = forward; break;
    case Qt::Key_Left: doublings = -forward; break;
    case Qt::Key_Up: doublings = 1; break;
    case Qt::Key_Down: doublings = -1; break;
    case Qt::Key_PageUp: doublings = kPageDoublings; break;
    case Qt::Key_PageDown: doublings = -kPageDoublings; break;
    default: return false;
    }
    // From the value shown, which may be typed and not a power of two (12 steps to 16 or to 8).
    const double now = spin_->value();
    const double exponent = std::log2(std::max(now, 1.0));
    const double target = std::clamp(
        std::pow(2.0, doublings > 0 ? std::floor(exponent + 1e-9) + doublings : std::ceil(exponent - 1e-9) + doublings), low_, high_);
    if (doublings > 0 ? target <= now : target >= now) return true;  // at the end of the span, or beyond it that way
    const int position = toSlider(target);
    if (position != slider_->value()) {
        slider_->setValue(position);  // valueChanged: shown and emitted as an edit
    } else {
        // A typed value past the span's end, the slider already there: back to the end's value.
        spin_->showValue(fromSlider(position));
        emit valueEdited(spin_->value());
    }
    return true;
}

}  // namespace zp::ui
