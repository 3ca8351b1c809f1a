#pragma once
// A plot legend as its own widget above the plot. QCustomPlot's legend is laid out and its
// text shaped and drawn again on every replot, although it never changes while a slider
// moves: that was a tenth of the work of a slider change. This one paints only when its
// entries, font or palette change.
#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

namespace zp::ui {

class LegendStrip : public QWidget {
    Q_OBJECT
public:
    // A filled box (bar slices), a line with a dot (curves), an outline (the peak marker), a dashed
    // line (the usable memory), an axis break (the memory plot's "Axis cut at 4x GPU memory", kept
    // off the bars).
    enum class Swatch { Box, Line, Outline, Dashed, Break };
    struct Entry {
        QString name;
        QColor color;
        Swatch swatch = Swatch::Box;
    };

    explicit LegendStrip(QWidget* parent = nullptr);
    void setEntries(const QList<Entry>& entries);
    const QList<Entry>& entries() const { return entries_; }
    // The colour the names are drawn in (tests check its contrast with the background).
    QColor textColor() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // Paints the entries laid out for `width` with `p` (the window, or an exported picture: the
    // same strokes on any device, so SVG and PDF keep them as vectors).
    void paintEntries(QPainter& p, int width) const;
    // Where each entry is drawn at the strip's width (tests check that none leaves it or meets another).
    QList<QRect> entryRects() const { return layoutFor(width()); }

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    // Entries in reading order at their natural widths, wrapped into rows that fit `width`;
    // the space left in a row is shared out between its entries. One rectangle per entry.
    QList<QRect> layoutFor(int width) const;
    // Each entry's natural width, shaped once per entries and font: layout asks for them at every
    // width the splitter tries (sizeHint, heightForWidth, paint).
    const QList<int>& entryWidths() const;
    int rowHeight() const;

    QList<Entry> entries_;
    mutable QList<int> entry_widths_;  // empty: to be measured
};

}  // namespace zp::ui
