#pragma once
// The advance of a line of text in one font, measured once. QFontMetricsF::horizontalAdvance
// shapes its string on every call (qfontmetrics.cpp: a QStackTextEngine, then QTextEngine::width);
// fitting a bar label asks the same lines up to three times (wrapToWidth, then the widest wrapped
// line, then each whole line for its mark), and that shaping was a tenth of a slider change's
// redraw (bench_gui under callgrind). One memo lives for one fit: nothing is kept across changes.
#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QString>

namespace zp::ui {

class TextWidths {
public:
    explicit TextWidths(const QFont& font) : metrics_(font) {}
    explicit TextWidths(const QFontMetricsF& metrics) : metrics_(metrics) {}

    double of(const QString& line) {
        const auto at = widths_.constFind(line);
        if (at != widths_.constEnd()) return *at;
        const double width = metrics_.horizontalAdvance(line);
        widths_.insert(line, width);
        return width;
    }

private:
    QFontMetricsF metrics_;
    QHash<QString, double> widths_;
};

}  // namespace zp::ui
