#include "ui/widgets/wrapped_text.h"

#include <QEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QStyle>

#include <algorithm>

namespace zp::ui {

namespace {
// What a word-wrapped QLabel with plain text measures and draws with (qlabel.cpp, Qt 6.4:
// QLabelPrivate::sizeForWidth, QLabel::paintEvent): left-aligned, centred vertically, wrapped at
// words, no margin, indent or frame; sizes measured without the vertical centring.
constexpr int kDrawFlags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap;
constexpr int kMeasureFlags = Qt::AlignLeft | Qt::TextWordWrap;
// QLabel's guess at a wrapped text's width when nothing constrains it: 80 average characters,
// halved while the text takes fewer than 4 lines, and again while fewer than 2.
constexpr int kGuessChars = 80;
constexpr int kUnbounded = 2000;  // QLabel's "any width" and "any height"
}  // namespace

WrappedText::WrappedText(QWidget* parent) : QWidget(parent) {
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred, QSizePolicy::Label);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void WrappedText::setText(const QString& text) {
    if (text == text_) return;
    const bool fixed_height = minimumHeight() == maximumHeight();
    // Not shown: nothing is laid out at a width yet, so the layout simply asks again.
    const bool compare = !fixed_height && isVisible();
    const int before = compare ? heightForWidth(width()) : 0;
    text_ = text;
    forgetSizes();
    setAccessibleName(text);  // painted, not a QLabel: screen readers read it from here
    if (!fixed_height) {
        const bool new_height = !compare || heightForWidth(width()) != before;
        if (new_height) updateGeometry();
        hints_stale_ = !new_height;
    }
    update();
}

QSize WrappedText::sizeForWidth(int width) const {
    const QFontMetrics fm = fontMetrics();
    // No text: QLabel's size of an empty label (one average character by one line).
    if (text_.isEmpty()) return QSize(fm.averageCharWidth(), fm.lineSpacing()).expandedTo(minimumSize());
    const QMargins m = contentsMargins();
    if (minimumWidth() > 0) width = std::max(width, minimumWidth());
    const bool guess = width < 0;
    int w = guess ? std::min(fm.averageCharWidth() * kGuessChars, maximumWidth()) : width;
    w -= m.left() + m.right();
    QRect br = fm.boundingRect(0, 0, w, kUnbounded, kMeasureFlags, text_);
    if (guess && br.height() < 4 * fm.lineSpacing() && br.width() > w / 2)
        br = fm.boundingRect(0, 0, w / 2, kUnbounded, kMeasureFlags, text_);
    if (guess && br.height() < 2 * fm.lineSpacing() && br.width() > w / 4)
        br = fm.boundingRect(0, 0, w / 4, kUnbounded, kMeasureFlags, text_);
    return QSize(br.width() + m.left() + m.right(), br.height() + m.top() + m.bottom()).expandedTo(minimumSize());
}

// QLabel::heightForWidth; an empty QLabel has none and is laid out at its size hint, one line.
int WrappedText::heightForWidth(int width) const {
    forgetSizesIfLimitsMoved();
    if (width != measured_width_) {
        measured_height_ = sizeForWidth(width).height();
        measured_width_ = width;
    }
    return measured_height_;
}

QSize WrappedText::sizeHint() const {
    forgetSizesIfLimitsMoved();
    if (!hint_.isValid()) hint_ = sizeForWidth(-1);
    return hint_;
}

QSize WrappedText::minimumSizeHint() const {
    // As QLabel: the widest word, and the height of one line (or the hint's, if less); an empty one its hint.
    forgetSizesIfLimitsMoved();
    if (!least_hint_.isValid())
        least_hint_ = text_.isEmpty()
                          ? sizeHint()
                          : QSize(sizeForWidth(0).width(), std::min(sizeForWidth(QWIDGETSIZE_MAX).height(), sizeHint().height()));
    return least_hint_;
}

void WrappedText::forgetSizes() const {
    hint_ = least_hint_ = QSize();
    measured_width_ = -1;
}

void WrappedText::forgetSizesIfLimitsMoved() const {
    if (minimumSize() == measured_least_ && maximumSize() == measured_most_ && contentsMargins() == measured_margins_) return;
    measured_least_ = minimumSize();
    measured_most_ = maximumSize();
    measured_margins_ = contentsMargins();
    forgetSizes();
}

void WrappedText::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) {
        forgetSizes();
        updateGeometry();
    }
}

void WrappedText::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    if (!hints_stale_) return;
    hints_stale_ = false;
    updateGeometry();
}

void WrappedText::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const int direction = text_.isRightToLeft() ? Qt::TextForceRightToLeft : Qt::TextForceLeftToRight;
    const int align = QStyle::visualAlignment(text_.isRightToLeft() ? Qt::RightToLeft : Qt::LeftToRight, Qt::Alignment(kDrawFlags));
    style()->drawItemText(&p, contentsRect(), align | direction, palette(), isEnabled(), text_, foregroundRole());
}

}  // namespace zp::ui
