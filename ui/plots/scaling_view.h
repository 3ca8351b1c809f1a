#pragma once
// Scaling view: per-GPU memory against GPU count (log axis, 1 to 4096) for each stage, with
// the capacity line and the current GPU count marked, so the user sees where each stage fits;
// each pinned plan's own stage as a dashed line in the pin's colour.
#include "core/model/engine.h"
#include "ui/chart/legend_strip.h"

#include <QList>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;

namespace zp::ui {

class LegendStrip;
class PlannerDocument;
class PlotLabel;

class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }
    double markerGpus() const { return marker_gpus_; }
    // Points on pin `pin`'s dashed line (its own stage against GPU count), 0 when not drawn.
    int pinLinePoints(int pin) const;

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    void showPins();
    void placeLabels(double capacity);            // the capacity's and the marker's labels, clear of the curves
    QVector<double> curvesAt(double gpus) const;  // each stage curve's value there (GiB)
    // Every curve point from `from` to `to` GPUs (GiB), or curvesAt(from) when none lies there.
    QVector<double> curvesBetween(double from, double to) const;
    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    // Created once and updated on every change (see memory_view.h).
    QList<QCPGraph*> graphs_;  // one per stage, 0-3
    QCPItemStraightLine* capacity_;
    PlotLabel* capacity_label_;
    QCPItemStraightLine* marker_;
    PlotLabel* marker_label_;
    double marker_gpus_ = 0;
    QList<QCPGraph*> pin_lines_;  // one per pin, dashed, made on first use
    QList<LegendStrip::Entry> base_legend_;
    Engine named_engine_ = Engine::DeepSpeed;  // the engine whose words name the curves
    bool named_hybrid_ = false;                // and whether they are FSDP's hybrid strategies
};

}  // namespace zp::ui
