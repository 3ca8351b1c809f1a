#pragma once
// Time view: step time per setup split into compute, exposed communication and offload,
// with tokens/s above each bar; each pinned plan's step times ghosted behind.
#include "ui/chart/setup_bar_chart.h"

#include "core/base/format.h"

#include "ui/chart/legend_strip.h"

#include <QList>
#include <QSharedPointer>
#include <QWidget>

class QCustomPlot;
class QCPBars;

namespace zp {
struct Overview;
}

namespace zp::ui {

class DurationTicker;
class LegendStrip;
class PlannerDocument;
class PlotLabel;

class TimeView : public QWidget {
    Q_OBJECT
public:
    explicit TimeView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }
    // Whether a bar runs past the top of the axis (the legend then says the axis is cut).
    bool axisCut() const { return axis_cut_; }
    // The unit the step-time axis reads in, chosen from its top (its title names it).
    DurationUnit axisUnit() const;
    // Pin `pin`'s ghosted step time for setup `bar` (seconds), 0 when not drawn.
    double ghostSeconds(int pin, int bar) const { return chart_.ghostValue(pin, bar); }

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void updateLegend(bool waits_for_data);  // the parts, waiting for data when a bar has it, and the pins
    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    SetupBarChart chart_;  // bars, setup ticks, bar labels, x range
    // The stacked parts of each bar (TimePart in plot_style.h).
    QCPBars* compute_;
    QCPBars* comm_;
    QCPBars* offload_;
    QCPBars* data_wait_;                     // waiting for the data pipeline (StepTime::data_wait_seconds)
    PlotLabel* note_;                        // why there are no times; created once and updated
    QSharedPointer<DurationTicker> ticker_;  // the step-time axis: seconds, ticked in the unit of its top
    void setAxisUnit(double top_seconds);    // the ticker's unit and the title that names it
    // Whether the bars are far enough apart for the tokens/s line under each time (not at
    // 1280x720, where neighbouring captions overlapped); judged again after each layout.
    bool captionsRoomy() const;
    void setCaptions();  // the bars' labels: seconds, tokens/s when roomy, "no fit"
    static QString tokensCaption(const Candidate& c);
    static QString stepTokensCaption(const Candidate& c);
    bool roomy_ = true;
    // The bars' steps hold different numbers of tokens (each layout's own global batch under an
    // auto layout): their heights are not the same work, and each caption says how much its step is.
    bool mixed_steps_ = false;
    static double axisCapSeconds(const Overview& o, double top);  // how high the axis goes before cutting bars
    double label_cap_seconds_ = 0;                                // the labels stand at most this high (the axis cap)
    bool axis_cut_ = false;                                       // a bar runs past the top of the axis: the legend says so
    int widest_tokens_ = 0;                                       // pixels of the widest tokens/s line
    QList<LegendStrip::Entry> base_legend_;                       // the parts; each pin's entry follows them
};

}  // namespace zp::ui
