#pragma once
// Memory view: one stacked bar per setup (DDP, ZeRO-1, -2, -3, -2+CPU, -3+CPU, -3+NVMe),
// slices in their fixed colours, lines at capacity and at capacity minus headroom, setups
// that do not fit marked, the recommended one highlighted, exact GiB per slice on hover.
#include "ui/setup_bar_chart.h"

#include <QSharedPointer>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPItemRect;
class QCPItemStraightLine;
class QCPItemText;
class QCPAxisTickerText;

namespace zp::ui {

class LegendStrip;
class PlannerDocument;

class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }
    // The text the hover tooltip shows for bar `index` (tests read it).
    QString barTooltip(int index) const;
    // Plotted slice height in GiB for tests: slice 0..5, bar 0..6.
    double sliceGib(int slice, int bar) const;
    int highlightedBar() const { return highlighted_; }

signals:
    void setupClicked(int index);

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void showSelection();
    void restyle();

    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    QList<QCPBars*> slices_;
    QCPItemStraightLine* capacity_ = nullptr;
    QCPItemStraightLine* usable_ = nullptr;
    // Created once and updated: creating items on every slider move cost a third of the redraw.
    QCPItemRect* frame_ = nullptr;
    QCPItemText* note_ = nullptr;
    SetupBarChart chart_;                                // bars, setup ticks, bar labels, x range
    QSharedPointer<QCPAxisTickerText> capacity_ticker_;  // the right-hand axis: one tick at GPU capacity
    int highlighted_ = -1;
};

}  // namespace zp::ui
