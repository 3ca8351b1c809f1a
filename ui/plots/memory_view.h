#pragma once
// Memory view: one stacked bar per setup (DDP, ZeRO-1, -2, -3, -2+CPU, -3+CPU, -3+NVMe),
// slices in their fixed colours (the steady state), a dashed box per setup at the step's peak
// reserved memory (what nvidia-smi shows; hatched where it rises above the slices), lines at
// capacity and at capacity minus headroom (named on the right-hand axis), setups that do not fit
// (judged on the peak) marked, each captioned with what must fit, the recommended one highlighted
// with its spare (must fit up to the usable line, "17.0 GiB to spare", the bracket drawn from its
// caption up), a cut axis said in the legend, exact GiB per slice and the peaks on hover; each pinned plan's
// bars ghosted behind (outlined, translucent, in the pin's colour).
#include "ui/chart/setup_bar_chart.h"

#include <QSharedPointer>
#include <QSizeF>
#include <QString>
#include <QWidget>

namespace zp {
struct Candidate;
}

class QCustomPlot;
class QCPBars;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemLine;
class QCPAxisTickerText;

namespace zp::ui {

class LegendStrip;
class PlotLabel;
class PlannerDocument;

class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }
    // The text the hover tooltip shows for bar `index` (tests read it).
    QString barTooltip(int index) const;
    // Plotted slice height in GiB for tests: slice 0..5, bar 0..6 (the parameters: frozen and trained together).
    double sliceGib(int slice, int bar) const;
    // Of the parameters slice, the frozen base's part (drawn beneath the trained weights), GiB.
    double frozenGib(int bar) const;
    // Plotted peak reserved memory (the dashed box's top) in GiB, bar 0..6.
    double peakReservedGib(int bar) const;
    // Whether a bar runs past the top of the axis (then the legend says so and the labels stand on the bars).
    bool axisCut() const { return cut_in_legend_; }
    int highlightedBar() const { return highlighted_; }
    // Pin `pin`'s ghosted bar for setup `bar` (its top, GiB), 0 when not drawn.
    double ghostGib(int pin, int bar) const;

signals:
    void setupClicked(int index);

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void showSelection();
    void restyle();
    void setLegend(bool withFrozen, bool axisCut);
    void showSpare(double key, const Candidate& c);
    QSizeF spareRoom() const;
    void fitSpare();
    bool fitRange();  // the y range for the plot's height; true when it changed

    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    QList<QCPBars*> slices_;
    // Fine-tuning: the frozen base as stored, stacked under the parameters slice, which then
    // holds only the trained weights; named in the legend only while some bar has it.
    QCPBars* frozen_ = nullptr;
    bool frozen_in_legend_ = false;
    bool cut_in_legend_ = false;  // the legend says the axis is cut (at 4x GPU memory)
    // The step's peak reserved per setup: hatched behind the slices (visible where the peak rises
    // above them) and a dashed outline in front (visible where it is below their top).
    QCPBars* peak_fill_ = nullptr;
    QCPBars* peak_outline_ = nullptr;
    QCPItemStraightLine* capacity_ = nullptr;
    QCPItemStraightLine* usable_ = nullptr;
    // Created once and updated: creating items on every slider move cost a third of the redraw.
    QCPItemRect* frame_ = nullptr;
    QCPItemLine* spare_ = nullptr;  // the recommended setup's headroom, must fit to usable; drawn from its caption (fitSpare)
    PlotLabel* spare_label_ = nullptr;
    QString spare_text_;                                 // "17.0 GiB to spare", before it is fitted
    QString spare_bytes_;                                // "17.0 GiB"
    QSizeF spare_room_;                                  // the pixels it was fitted to
    bool spare_wanted_ = false;                          // the recommended bar has a spare to show (fitSpare may hide it)
    double spare_from_gib_ = 0;                          // where the bracket starts before fitSpare moves it above the label
    double spare_bar_top_gib_ = 0;                       // the recommended bar's top, where its own label stands
    SetupBarChart chart_;                                // bars, setup ticks, bar labels, x range
    QSharedPointer<QCPAxisTickerText> capacity_ticker_;  // the right-hand axis: one tick at GPU capacity
    int highlighted_ = -1;
    // The y range's inputs from the last rebuild: the highest label's bar top (the cap when bars
    // are cut) and the least top (the capacity line in view); fitRange adds the labels' room.
    double range_top_gib_ = 0;
    double range_floor_gib_ = 0;
    bool range_relaid_ = false;  // this replot laid the plot out again for a new range (once a replot)
};

}  // namespace zp::ui
