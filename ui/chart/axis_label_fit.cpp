#include "ui/chart/axis_label_fit.h"

#include "ui/chart/replot_queue.h"
#include "ui/chart/text_widths.h"
#include "ui/qcustomplot_include.h"

#include <QFontMetrics>
#include <QPointer>
#include <QScopeGuard>
#include <QStringList>

#include <cstdlib>

namespace zp::ui {

QString twoLineTitle(const QString& title) {
    const qsizetype middle = title.size() / 2;
    qsizetype best = -1;
    const auto consider = [&](qsizetype at) {
        if (at > 0 && at < title.size() && (best < 0 || std::abs(at - middle) < std::abs(best - middle))) best = at;
    };
    for (qsizetype i = 0; i + 1 < title.size(); ++i) {
        if ((title[i] == QLatin1Char(',') || title[i] == QLatin1Char(':')) && title[i + 1] == QLatin1Char(' ')) consider(i + 1);
        if (title[i] == QLatin1Char(' ') && title[i + 1] == QLatin1Char('(')) consider(i);
        // Chinese titles: after a full-width comma or colon, before a full-width parenthesis.
        if (title[i] == QChar(0xFF0C) || title[i] == QChar(0xFF1A)) consider(i + 1);
        if (title[i + 1] == QChar(0xFF08)) consider(i + 1);
    }
    if (best < 0)
        for (qsizetype i = 0; i < title.size(); ++i)
            if (title[i] == QLatin1Char(' ')) consider(i);
    if (best < 0) return title;
    return title.left(best).trimmed() + QLatin1Char('\n') + title.mid(best).trimmed();
}

namespace {

// A number and its unit read as one: "15.77 s", "3.16k tok/s", "2.1M tok", "17.0 GiB". The space at
// `at` joins them when the word before it starts with a digit and the word after is a short one
// that does not ("15.77" over "s" read as two figures).
bool joinsNumberAndUnit(const QString& line, qsizetype at) {
    const qsizetype word_start = line.lastIndexOf(QLatin1Char(' '), at - 1) + 1;
    qsizetype next_end = line.indexOf(QLatin1Char(' '), at + 1);
    if (next_end < 0) next_end = line.size();
    constexpr qsizetype kLongestUnit = 5;  // "tok/s", "days"
    return line[word_start].isDigit() && at + 1 < line.size() && !line[at + 1].isDigit() && next_end - (at + 1) <= kLongestUnit;
}

void wrapLine(const QString& line, TextWidths& widths, double width, QStringList& out) {
    if (widths.of(line) <= width) {
        out << line;
        return;
    }
    // "✗ pipeline", "★ best": the mark alone (its colour and the tooltip say the rest). A mark is a
    // symbol; punctuation ("· 无重计算", the separator a wrap put first) is not one.
    if (line.size() > 2 && line[1] == QLatin1Char(' ') && line[0].isSymbol()) {
        out << line.left(1);
        return;
    }
    const qsizetype middle = line.size() / 2;
    qsizetype best = -1;
    for (qsizetype i = 1; i + 1 < line.size(); ++i) {
        if (line[i] != QLatin1Char(' ')) continue;
        const qsizetype word_start = line.lastIndexOf(QLatin1Char(' '), i - 1) + 1;
        if (i - word_start <= 1) continue;  // a mark before its word
        if (joinsNumberAndUnit(line, i)) continue;
        if (best < 0 || std::abs(i - middle) < std::abs(best - middle)) best = i;
    }
    if (best < 0) {
        out << line;
        return;
    }
    wrapLine(line.left(best), widths, width, out);
    wrapLine(line.mid(best + 1), widths, width, out);
}

}  // namespace

QString wrapToWidth(const QString& text, TextWidths& widths, double width) {
    QStringList out;
    for (const QString& line : text.split(QLatin1Char('\n'))) wrapLine(line, widths, width, out);
    return out.join(QLatin1Char('\n'));
}

QString wrapToWidth(const QString& text, const QFontMetricsF& metrics, double width) {
    TextWidths widths(metrics);
    return wrapToWidth(text, widths, width);
}

void fitAxisLabels(QCustomPlot* plot) {
    // After the replot's layout, which gives the axes their heights; a title that changes moves the
    // margins, so the plot is laid out again before it is drawn (relayoutInReplot).
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [p = QPointer<QCustomPlot>(plot)] {
        if (!p) return;
        // The relayout below announces afterLayout again, inside this call. A key axis's lines take
        // height from the value axis, whose title may then take two lines and width from the key
        // axis: each fit only shrinks the rect, but the nesting is bounded here (the sequence view
        // guards its own fits the same way), and the next replot fits again.
        constexpr int kMostNestedFits = 3;
        const int depth = p->property("zpAxisFitDepth").toInt();
        if (depth >= kMostNestedFits) return;
        p->setProperty("zpAxisFitDepth", depth + 1);
        const auto restore = qScopeGuard([&] {
            if (p) p->setProperty("zpAxisFitDepth", depth);
        });
        bool changed = false;
        for (QCPAxis* axis : {p->yAxis, p->yAxis2, p->xAxis, p->xAxis2}) {
            if (!axis || !axis->visible() || axis->label().isEmpty()) continue;
            // The title as the view set it: what is shown, unless it is the form set here.
            QString full = axis->property("zpFullLabel").toString();
            if (axis->label() != full && axis->label() != axis->property("zpShownLabel").toString()) full = axis->label();
            axis->setProperty("zpFullLabel", full);
            // A value axis's title stands along its height, in two lines at most; a key axis's (the
            // step view's "ZeRO-2, micro batch 1, recompute none: moments of one step (does not fit:
            // ...)", cut at 1480x920 beside a diagnosis) runs along its width, wrapped to it.
            const bool vertical = axis->orientation() == Qt::Vertical;
            const double length = vertical ? axis->axisRect()->height() : axis->axisRect()->width();
            const bool fits = QFontMetrics(axis->labelFont()).horizontalAdvance(full) <= length;
            const QString shown = fits ? full : vertical ? twoLineTitle(full) : wrapToWidth(full, QFontMetricsF(axis->labelFont()), length);
            axis->setProperty("zpShownLabel", shown);
            if (shown != axis->label()) {
                axis->setLabel(shown);
                changed = true;
            }
        }
        if (changed) relayoutInReplot(p);
    });
}

}  // namespace zp::ui
