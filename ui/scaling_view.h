#pragma once
// Scaling view: per-GPU memory against GPU count (log axis, 1 to 4096) for each stage, with
// the capacity line and the current GPU count marked, so the user sees where each stage fits.
#include <QWidget>

class QCustomPlot;

namespace zp::ui {

class LegendStrip;
class PlannerDocument;

class ScalingView : public QWidget {
    Q_OBJECT
public:
    explicit ScalingView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }
    double markerGpus() const { return marker_gpus_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();
    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    double marker_gpus_ = 0;
};

}  // namespace zp::ui
