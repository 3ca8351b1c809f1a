#pragma once
// What the memory and time views share: one stacked bar per setup of the overview, at
// x = 1, 2, ... in the overview's order, with
//   - the setups' short names as x ticks, "ZeRO-2+CPU" on two lines so seven fit, in one
//     ticker kept across rebuilds;
//   - a pool of labels above the bars, made on first use and hidden when not needed (creating
//     items on every slider move cost a third of the redraw);
//   - the x range, and which bar a mouse position is on;
//   - labels kept apart: before each replot a label wider than the bar pitch has its lines
//     wrapped at spaces (wrapToWidth, ui/chart/axis_label_fit.h); the view's full text is kept.
// The views keep what differs: the parts, their colours, the labels' text and the y axis.
#include "ui/chart/legend_strip.h"

#include <QFont>
#include <QList>
#include <QMargins>
#include <QMetaObject>
#include <QSharedPointer>
#include <QStringList>

#include <cstddef>
#include <functional>
#include <vector>

class QCustomPlot;
class QCPAxisTickerText;
class QCPBars;
class QObject;
class QPalette;
class QPoint;
class QString;

namespace zp {
struct Candidate;
}

namespace zp::ui {

class PlotLabel;
struct PinnedPlan;

class SetupBarChart {
public:
    // Every label above a bar gets `labelPadding`.
    SetupBarChart(QCustomPlot* plot, const QMargins& labelPadding);
    ~SetupBarChart();
    SetupBarChart(const SetupBarChart&) = delete;
    SetupBarChart& operator=(const SetupBarChart&) = delete;

    // A part of every bar, stacked on the parts added before it.
    QCPBars* addPart(const QString& name);
    // New bars: clears every part's data, names the ticks after the setups and fits the x range.
    void setSetups(const std::vector<Candidate>& bars);
    static double key(std::size_t bar) { return static_cast<double>(bar + 1); }
    // The pixels kept between neighbouring labels: a label line has the pitch less its padding and this.
    static constexpr double kLabelGapPixels = 6;
    // The word after "✗" on a bar that does not fit: why the setup cannot run there (Fit::refusal:
    // bf16 master, FSDP, pipeline, tensor, experts), else what it overflows (GPU, host, NVMe). The
    // memory and time views mark a bar alike.
    static QString misfitMark(const Candidate& c);
    // What joins a caption's details ("mb 2 · no recompute"): a caption still wider than its room at
    // the smallest font loses them from the last (fitLabel), so a view writes its details with it.
    static QString detailSeparator() { return QStringLiteral(" \u00B7 "); }
    // A setup the engine does not have (FSDP's ZeRO-1, its NVMe tier): no figures to draw, only its mark.
    static bool notRun(const Candidate& c);
    // The label above `bar`, made visible.
    PlotLabel* label(std::size_t bar);
    // Hides the labels of bars `first` and after.
    void hideLabelsFrom(std::size_t first);
    // The least top of a value axis `axis_px` pixels tall that shows every label whole, each as
    // fitted (its lines and padding) standing on its position, with `slack_px` above it; 2x a
    // label's position where the axis is not twice the label's height.
    double leastTopForLabels(double axis_px, double slack_px) const;
    // The bar under the pixel position (within most of its width), or -1.
    int barAt(const QPoint& pos) const;
    // Hovering a bar shows tooltip(bar); pressing one calls clicked(bar). `context` owns the connections.
    void onBars(QObject* context, std::function<QString(int)> tooltip, std::function<void(int)> clicked);
    // A right-hand axis with no line and no grid, for one named tick (a capacity): the ticker to fill.
    QSharedPointer<QCPAxisTickerText> addCapacityAxis();
    // Pinned plans, ghosted behind the live bars: per pin one outlined, translucent bar per setup
    // of height tops[pin][bar], each pin a little narrower than the one before so every outline
    // shows around the live bar. Bars past `tops` are cleared.
    void setGhosts(const std::vector<std::vector<double>>& tops);
    // The ghost's height for tests: 0 when there is none.
    double ghostValue(int pin, int bar) const;
    // The legend's entries for the ghosts: "Pinned: <name>", outlined in the pin's colour.
    static void appendGhostLegend(QList<LegendStrip::Entry>& entries, const std::vector<PinnedPlan>& pins, const QPalette& palette);
    // Wraps the labels to the pitch. The chart does it before each replot and, when the pitch moved,
    // after the replot's layout; a view whose label texts depend on the pitch (TimeView's captions)
    // sets them in its own afterLayout handler and fits them again there, in the same replot.
    void fitLabels();

private:
    double pitchPixels() const;               // between neighbouring bars
    void fitLabel(qsizetype i, double room);  // label i's text wrapped, and its font made smaller, to `room` pixels

    QCustomPlot* plot_;
    QMargins label_padding_;
    QList<QCPBars*> parts_;
    QSharedPointer<QCPAxisTickerText> ticker_;
    QList<PlotLabel*> labels_;
    // Per label: the text and font the view set, what fitLabel showed for them, and the room it
    // fitted them to (-1: one bar, shown as set).
    struct LabelFit {
        QString full_text;
        QFont full_font;
        QString text;
        QFont font;
        double room = -2;
    };
    QList<LabelFit> fits_;
    double fitted_pitch_ = -1;  // the pitch the labels were fitted to
    QMetaObject::Connection before_replot_, after_layout_, after_replot_;
    QList<QCPBars*> ghosts_;  // one per pin, made on first use
    std::size_t bars_ = 0;
};

}  // namespace zp::ui
