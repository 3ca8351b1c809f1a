#include "ui/chart/legend_strip.h"

#include <QPainter>

#include <algorithm>

namespace zp::ui {

namespace {
constexpr int kMargin = 4;  // pixels around the strip
constexpr int kGap = 6;     // between swatch and name
}  // namespace

LegendStrip::LegendStrip(QWidget* parent) : QWidget(parent) {
    // Same background as the plot beneath it, so legend and plot read as one panel.
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 0.9);
    setFont(f);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void LegendStrip::setEntries(const QList<Entry>& entries, const QList<Entry>& held) {
    const auto same = [](const Entry& a, const Entry& b) { return a.name == b.name && a.color == b.color && a.swatch == b.swatch; };
    const auto equal = [&same](const QList<Entry>& a, const QList<Entry>& b) {
        return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same);
    };
    if (equal(entries, entries_) && equal(held, held_)) return;
    // The same entries in the same order, one more or fewer of them drawn: the layout stands.
    const QList<Entry> all = entries + held;
    const bool same_room = equal(all, entries_ + held_);
    entries_ = entries;
    held_ = held;
    if (!same_room) {
        entry_widths_.clear();
        updateGeometry();
    }
    update();
}

void LegendStrip::setEntries(const QList<Entry>& entries, const Entry& occasional, bool shown) {
    occasional_shown_ = occasional_shown_ || shown;
    if (shown) setEntries(entries + QList<Entry>{occasional});
    else setEntries(entries, occasional_shown_ ? QList<Entry>{occasional} : QList<Entry>());
}

QColor LegendStrip::textColor() const { return palette().color(QPalette::Text); }

int LegendStrip::rowHeight() const { return fontMetrics().height() + 4; }

const QList<int>& LegendStrip::entryWidths() const {
    if (entry_widths_.size() != entries_.size() + held_.size()) {
        const QFontMetrics fm = fontMetrics();
        entry_widths_.clear();
        for (const QList<Entry>* list : {&entries_, &held_})
            for (const Entry& e : *list)
                entry_widths_.append(2 * fm.height() + kGap + fm.horizontalAdvance(e.name) + 3 * kGap);  // swatch, gap, name, space
    }
    return entry_widths_;
}

void LegendStrip::changeEvent(QEvent* e) {
    if (e->type() == QEvent::FontChange || e->type() == QEvent::StyleChange) entry_widths_.clear();
    QWidget::changeEvent(e);
}

QList<QRect> LegendStrip::layoutFor(int width, Room room) const {
    const int usable = std::max(1, width - 2 * kMargin);
    QList<QList<int>> rows{{}};
    int used = 0;
    const QList<int>& widths = entryWidths();
    for (const int w : room == Room::WithHeld ? widths : widths.mid(0, entries_.size())) {
        if (!rows.back().isEmpty() && used + w > usable) {
            rows.append(QList<int>());
            used = 0;
        }
        rows.back().append(w);
        used += w;
    }
    QList<QRect> rects;
    const int row_height = rowHeight();
    for (int r = 0; r < rows.size(); ++r) {
        int natural = 0;
        for (int w : rows[r]) natural += w;
        const int extra = rows.size() > 1 || natural > usable ? 0 : (usable - natural) / std::max(1, static_cast<int>(rows[r].size()));
        int x = kMargin;
        for (int w : rows[r]) {
            rects.append(QRect(x, kMargin + r * row_height, w + extra, row_height));
            x += w + extra;
        }
    }
    return rects;
}

int LegendStrip::heightForWidth(int width, Room room) const {
    const QList<QRect> rects = layoutFor(width, room);
    return rects.isEmpty() ? 2 * kMargin + rowHeight() : rects.back().bottom() + 1 + kMargin;
}

int LegendStrip::heightForWidth(int width) const { return heightForWidth(width, Room::WithHeld); }

// The width asked for is the drawn entries' (a held one's room is height kept, not width
// claimed: the splitters share the window out as before); the least width fits every entry,
// held ones too, so that one drawn later is never cut.
QSize LegendStrip::sizeHint() const {
    int width = 2 * kMargin;
    for (const int w : entryWidths().mid(0, entries_.size())) width += w;
    return {width, heightForWidth(width)};
}

QSize LegendStrip::minimumSizeHint() const {
    int widest = 0;
    for (const int w : entryWidths()) widest = std::max(widest, w);
    return {2 * kMargin + widest, heightForWidth(2 * kMargin + widest)};
}

void LegendStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintEntries(p, width());
}

void LegendStrip::paintEntries(QPainter& p, int width, Room room) const {
    p.save();
    p.setFont(font());
    p.setRenderHint(QPainter::Antialiasing);
    const int swatch_width = 2 * fontMetrics().height();
    const QList<QRect> rects = layoutFor(width, room);
    for (int i = 0; i < entries_.size(); ++i) {
        const Entry& e = entries_[i];
        const QRect& r = rects[i];
        const QRect swatch(r.x(), r.y() + 2, swatch_width, r.height() - 4);
        if (e.swatch == Swatch::Box) {
            p.fillRect(swatch.adjusted(0, 1, 0, -1), e.color);
        } else if (e.swatch == Swatch::Outline) {
            p.setPen(QPen(e.color, 1));
            p.drawRect(QRectF(swatch.adjusted(1, 1, -1, -1)));
        } else if (e.swatch == Swatch::Dashed) {
            p.setPen(QPen(e.color, 1.5, Qt::DashLine));
            p.drawLine(swatch.left(), swatch.center().y(), swatch.right(), swatch.center().y());
        } else if (e.swatch == Swatch::Break) {
            // Two slanted strokes, the usual mark of a cut axis.
            p.setPen(QPen(e.color, 1.5));
            const int h = swatch.height(), x = swatch.center().x();
            for (int dx : {-3, 3}) p.drawLine(x + dx - h / 3, swatch.bottom(), x + dx + h / 3, swatch.top());
        } else {
            p.setPen(QPen(e.color, 2.2));
            const int mid = swatch.center().y();
            p.drawLine(swatch.left(), mid, swatch.right(), mid);
            p.setBrush(e.color);
            p.drawEllipse(QPointF(swatch.center().x(), mid + 0.5), 2.5, 2.5);
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(textColor());
        p.drawText(QRect(swatch.right() + kGap, r.y(), r.width() - swatch_width - kGap, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   e.name);
    }
    p.restore();
}

}  // namespace zp::ui
