#pragma once
// Sequence length view ("How long can my sequences be?"): on top, one bar per setup of the
// overview at the longest sequence it fits (core/search/max_sequence.h), labelled with the length
// and what stops the next one; below, for the chosen setup, tokens per second and the step time
// against the sequence length, with the longest as a wall and the scenario's own length as a
// target line the user drags (or sets with the arrow keys) to change the plan's sequence length.
// It computes only while visible (ui/widgets/lazy_view.h).
#include "core/search/max_sequence.h"
#include "ui/chart/setup_bar_chart.h"
#include "ui/widgets/lazy_view.h"

#include <QSharedPointer>
#include <QSize>

class QCustomPlot;
class QCPBars;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;

namespace zp::ui {

class DurationTicker;
class LegendStrip;
class PlannerDocument;
class PlotLabel;

class SequenceView : public LazyView {
    Q_OBJECT
public:
    // What the panel is, for screen readers: its own description and its side tab page's (LazyPage).
    static QString description();
    explicit SequenceView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return bars_plot_; }
    QCustomPlot* curvePlot() const { return curve_plot_; }
    LegendStrip* legend() const { return legend_; }

    // For tests: what is drawn.
    const SequenceOverview& overview() const { return overview_; }
    double barTokens(int bar) const;    // the bar's height: its longest sequence (0: none)
    ZeroSetup barSetup(int bar) const;  // the setup the bar stands for (setupClicked's index)
    QString barCaption(int bar) const;
    double targetTokens() const;  // where the target line is
    double wallTokens() const;    // where the chosen setup's longest is drawn
    int curvePoints() const;      // points of the tokens/s curve
    QString summary() const;      // the line above the plots
    // What a drag of the target line ends with: the plan's sequence length becomes `tokens`,
    // rounded to the granularity (one undo step).
    void setTarget(double tokens);

signals:
    void setupClicked(int index);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild() override;
    void restyle() override;
    void drawBars();
    void fitBarsTitle();       // the bars' axis title, or its unit alone where even two lines do not fit
    void fitBarsHeadroom();    // the bars' axis top, so the tallest bar's caption fits above it
    double barsFloor() const;  // the bars' log axis starts here (drawBars)
    void drawCurves();
    void separateCurveLabels();  // the target's label below the longest length's where they meet
    QString limitShortName(SequenceLimit l) const;

    PlannerDocument* doc_;
    QLabel* summary_;
    QCustomPlot* bars_plot_;
    QCustomPlot* curve_plot_;
    LegendStrip* legend_;
    SetupBarChart chart_;
    QCPBars* bars_ = nullptr;
    QCPGraph* tokens_ = nullptr;
    QCPGraph* tokens_beyond_ = nullptr;
    QCPGraph* step_ = nullptr;
    QSharedPointer<DurationTicker> step_ticker_;  // the step-time axis, in the unit of its top
    QCPItemStraightLine* wall_ = nullptr;
    QCPItemStraightLine* target_ = nullptr;
    PlotLabel* target_label_ = nullptr;
    PlotLabel* wall_label_ = nullptr;
    SequenceOverview overview_;
    bool dragging_ = false;
    double bars_top_ = 0;        // the tallest bar's tokens
    QStringList captions_;       // per bar: its full caption, of which fitBarsHeadroom shows what fits
    bool fitting_bars_ = false;  // in fitBarsTitle / fitBarsHeadroom, whose relayout announces afterLayout again
    QSize title_chosen_for_;     // the plot's size when fitBarsTitle last chose the title
};

}  // namespace zp::ui
