#include "ui/chart/plot_label.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>

namespace zp::ui {

PlotLabel::PlotLabel(QCustomPlot* plot) : QCPItemText(plot) {}

void PlotLabel::relayout(const QFont& font) {
    laid_text_ = text();
    laid_font_ = font;
    lines_.clear();
    line_widths_.clear();
    const QFontMetricsF fm(font);
    line_spacing_ = fm.lineSpacing();
    qreal widest = 0;
    for (const QString& line : laid_text_.split(QLatin1Char('\n'))) {
        auto layout = std::make_unique<QTextLayout>(line, font);
        layout->setCacheEnabled(true);  // keep the shaped glyphs for the next draw
        layout->beginLayout();
        QTextLine l = layout->createLine();
        if (l.isValid()) l.setLineWidth(1e6);
        layout->endLayout();
        const qreal w = l.isValid() ? l.naturalTextWidth() : 0;
        widest = std::max(widest, w);
        line_widths_.push_back(w);
        lines_.push_back(std::move(layout));
    }
    text_size_ = QSizeF(widest, line_spacing_ * static_cast<qreal>(lines_.size()));
}

double PlotLabel::boxHeight() const {
    const QMargins pad = padding();
    const auto lines = static_cast<double>(text().count(QLatin1Char('\n')) + 1);
    return lines * QFontMetricsF(mainFont()).lineSpacing() + pad.top() + pad.bottom();
}

QRectF PlotLabel::boxToDraw() {
    const QFont font = mainFont();
    if (text() != laid_text_ || font != laid_font_) relayout(font);
    return boxAt(position->pixelPosition());
}

QRectF PlotLabel::boxAt(const QPointF& anchor) const {
    const QMargins pad = padding();
    const QSizeF size(text_size_.width() + pad.left() + pad.right(), text_size_.height() + pad.top() + pad.bottom());
    const Qt::Alignment a = positionAlignment();
    qreal x = anchor.x(), y = anchor.y();
    if (a & Qt::AlignHCenter) x -= size.width() / 2;
    else if (a & Qt::AlignRight) x -= size.width();
    if (a & Qt::AlignVCenter) y -= size.height() / 2;
    else if (a & Qt::AlignBottom) y -= size.height();
    // Whole pixels: text on a half-pixel origin is drawn blurred.
    return QRectF(QPointF(std::round(x), std::round(y)), size);
}

void PlotLabel::draw(QCPPainter* painter) {
    const QFont font = mainFont();
    if (text() != laid_text_ || font != laid_font_) relayout(font);
    const QRectF box = boxAt(position->pixelPosition());
    drawn_box_ = box;
    if (!box.intersects(clipRect())) return;
    const QBrush brush = mainBrush();
    const QPen pen = mainPen();
    if ((brush.style() != Qt::NoBrush && brush.color().alpha() != 0) || (pen.style() != Qt::NoPen && pen.color().alpha() != 0)) {
        painter->setPen(pen);
        painter->setBrush(brush);
        painter->drawRect(box);
    }
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(mainColor()));
    const QMargins pad = padding();
    const Qt::Alignment a = textAlignment();
    for (std::size_t i = 0; i < lines_.size(); ++i) {
        qreal x = box.left() + pad.left();
        const qreal slack = text_size_.width() - line_widths_[i];
        if (a & Qt::AlignHCenter) x += slack / 2;
        else if (a & Qt::AlignRight) x += slack;
        lines_[i]->draw(painter, QPointF(std::round(x), box.top() + pad.top() + line_spacing_ * static_cast<qreal>(i)));
    }
}

}  // namespace zp::ui
