#pragma once
// Host view ("Host RAM per node"): one stacked bar per setup, a node's host memory at the
// moment of the run it peaks (loading the model, deepspeed.initialize, training or saving a
// checkpoint; core/memory/host_memory.h), split into the host slices (core/memory/host_slices.h),
// with a line at the node's RAM. Labels give the peak and when it happens; the tooltip lists
// every phase. Like the step view, it rebuilds only while visible
// (ui/widgets/lazy_view.h).
#include "ui/chart/setup_bar_chart.h"

#include <QSharedPointer>
#include "ui/widgets/lazy_view.h"

class QCustomPlot;
class QCPBars;
class QCPItemStraightLine;
class QCPAxisTickerText;

namespace zp::ui {

class LegendStrip;
class PlannerDocument;

class HostView : public LazyView {
    Q_OBJECT
public:
    explicit HostView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }

    // For tests: the plotted slice in GiB (slice 0..5 of host_slices(), bar 0..), the bar's
    // caption, its tooltip, and the capacity line in GiB.
    double sliceGib(int slice, int bar) const;
    QString barCaption(int bar) const;
    QString barTooltip(int bar) const;
    double capacityGib() const;
    // Whether the node's RAM is far above the bars, the axis fitted to them and the RAM named at
    // its top edge (the line out of view).
    bool ramAboveBars() const { return ram_above_; }

signals:
    void setupClicked(int index);

private:
    void rebuild() override;
    void restyle() override;

    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    SetupBarChart chart_;
    QList<QCPBars*> slices_;
    QCPItemStraightLine* capacity_ = nullptr;
    QSharedPointer<QCPAxisTickerText> capacity_ticker_;
    bool ram_above_ = false;
    // The RAM above this many times the tallest bar leaves the axis to the bars.
    static constexpr double kRamAboveBars = 3.0;
};

}  // namespace zp::ui
