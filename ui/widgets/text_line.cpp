#include "ui/widgets/text_line.h"

#include <QEvent>
#include <QPainter>

namespace zp::ui {

TextLine::TextLine(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAttribute(Qt::WA_OpaquePaintEvent);  // paints its own background: parents need not repaint beneath it
    setFixedHeight(fontMetrics().height() + 2);
}

void TextLine::setText(const QString& text) {
    if (text == text_) return;
    text_ = text;
    setToolTip(text);
    setAccessibleName(text);  // painted, not a QLabel: screen readers read it from here
    update();
}

QSize TextLine::sizeHint() const { return {fontMetrics().averageCharWidth() * 40, fontMetrics().height() + 2}; }
QSize TextLine::minimumSizeHint() const { return {fontMetrics().averageCharWidth() * 8, fontMetrics().height() + 2}; }

void TextLine::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange) setFixedHeight(fontMetrics().height() + 2);
}

void TextLine::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(backgroundRole()));
    p.setPen(palette().color(QPalette::WindowText));
    p.drawText(rect(), Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(text_, Qt::ElideRight, width()));
}

}  // namespace zp::ui
