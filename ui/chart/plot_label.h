#pragma once
// A text item for the plots that shapes its text once per change of text or font.
// QCPItemText measures and then draws its text through QPainter::drawText on every replot,
// laying the text out twice each time; with some twenty labels that was a tenth of a slider
// change. This item keeps one QTextLayout per line and only draws them. It honours the
// QCPItemText settings the views use (position alignment, text alignment, padding, colour,
// brush, pen, font); rotation is not supported.
#include "ui/qcustomplot_include.h"

#include <QTextLayout>

#include <memory>
#include <vector>

namespace zp::ui {

class PlotLabel : public QCPItemText {
    Q_OBJECT
public:
    explicit PlotLabel(QCustomPlot* plot);
    // The text box in pixels (padding included) as last drawn; tests check that labels do not overlap.
    QRectF drawnBox() const { return drawn_box_; }
    // The height of its box as draw() lays it out for the present text and font: a line spacing a
    // line, and the padding (views leave room for it before it is drawn).
    double boxHeight() const;
    // The text box in pixels (padding included) where draw() will put it for the present text, font
    // and position: for a view that places labels apart after the layout, before they are drawn.
    QRectF boxToDraw();

protected:
    void draw(QCPPainter* painter) override;

private:
    void relayout(const QFont& font);
    QRectF boxAt(const QPointF& anchor) const;

    QString laid_text_;
    QFont laid_font_;
    std::vector<std::unique_ptr<QTextLayout>> lines_;
    std::vector<qreal> line_widths_;
    QSizeF text_size_;
    qreal line_spacing_ = 0;
    QRectF drawn_box_;
};

}  // namespace zp::ui
