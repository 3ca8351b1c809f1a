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
    // `entries` are drawn. `held` are entries that come and go as a slider moves (the axis cut):
    // laid out after `entries` but not drawn, so that the strip keeps their room. When one appears
    // it takes that room; without it the strip gained a row, and the plot beneath it jumped down
    // by a row, every time a drag crossed the point where the axis is cut.
    void setEntries(const QList<Entry>& entries, const QList<Entry>& held = {});
    // `entries`, then `occasional` (the axis cut) drawn while `shown`; once it has been shown, its
    // room is held while it is not, so a drag back and forth across it moves the plot once, not at
    // every crossing. Not before: a plot that never shows it keeps the row.
    void setEntries(const QList<Entry>& entries, const Entry& occasional, bool shown);
    const QList<Entry>& entries() const { return entries_; }
    const QList<Entry>& held() const { return held_; }
    // The colour the names are drawn in (tests check its contrast with the background).
    QColor textColor() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    // The room: the window keeps the held entries' room; an exported picture has no slider to
    // move, and shows only what is drawn.
    enum class Room { WithHeld, DrawnOnly };
    int heightForWidth(int width, Room room) const;
    // Paints the entries laid out for `width` with `p` (the window, or an exported picture: the
    // same strokes on any device, so SVG and PDF keep them as vectors).
    void paintEntries(QPainter& p, int width, Room room = Room::WithHeld) const;
    // Where each drawn entry is at the strip's width (tests check that none leaves it or meets another).
    QList<QRect> entryRects() const { return layoutFor(width(), Room::WithHeld).mid(0, entries_.size()); }

protected:
    void paintEvent(QPaintEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    // Entries in reading order at their natural widths, wrapped into rows that fit `width`;
    // the space left in a row is shared out between its entries. One rectangle per entry laid
    // out: the drawn ones, then (Room::WithHeld) the held ones.
    QList<QRect> layoutFor(int width, Room room) const;
    // Each entry's natural width, drawn then held, shaped once per entries and font: layout asks
    // for them at every width the splitter tries (sizeHint, heightForWidth, paint).
    const QList<int>& entryWidths() const;
    int rowHeight() const;

    QList<Entry> entries_, held_;
    bool occasional_shown_ = false;    // the occasional entry has been drawn: its room is held since
    mutable QList<int> entry_widths_;  // empty: to be measured
};

}  // namespace zp::ui
