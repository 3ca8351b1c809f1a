#pragma once
// Memory view: one stacked bar per setup (DDP, ZeRO-1, -2, -3, -2+CPU, -3+CPU, -3+NVMe),
// slices in their fixed colours, lines at capacity and at capacity minus headroom, setups
// that do not fit marked, the recommended one highlighted, exact GiB per slice on hover.
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QCPItemStraightLine;

namespace zp::ui {

class PlannerDocument;

class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
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
    void restyle();
    int barAt(const QPoint& pos) const;

    PlannerDocument* doc_;
    QCustomPlot* plot_;
    QList<QCPBars*> slices_;
    QCPItemStraightLine* capacity_ = nullptr;
    QCPItemStraightLine* usable_ = nullptr;
    int highlighted_ = -1;
};

}  // namespace zp::ui
