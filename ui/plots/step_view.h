#pragma once
// Step view ("Memory over one step"): the selected setup's allocated memory per GPU at every
// moment of one training step (core/memory/step_timeline.h, every layer), stacked in the
// memory view's slice colours, with the caching allocator's reserve plus the CUDA context as a
// line (what nvidia-smi would show, core/memory/allocator.h), the peak allocated and the peak
// reserved marked and labelled, and the GPU's capacity and usable memory. Phases are shaded
// bands named below the axis.
// The selected setup is the one the config preview shows: the recommended candidate while the
// selection follows the plan, else the clicked setup's bar. With pipelining, the rank of the
// stage whose peak decides the fit (core/memory/fit_stage.h), named in the axis caption.
// The view rebuilds only while it is visible (ui/widgets/lazy_view.h).
// A diagnosed training log (File > Diagnose a Training Log...) marks the moment it ran out of
// memory: that phase's moments highlighted and named.
#include "core/model/step_phase.h"

#include <QList>
#include <QPair>
#include <QSharedPointer>
#include <QVector>
#include "ui/widgets/lazy_view.h"

#include <optional>

class QCustomPlot;
class QCPAxisTickerText;
class QCPGraph;
class QCPItemRect;
class QCPItemStraightLine;

namespace zp {
struct StepMoment;
}

namespace zp::ui {

class LegendStrip;
class PlannerDocument;
class PlotLabel;

class StepView : public LazyView {
    Q_OBJECT
public:
    explicit StepView(PlannerDocument* doc, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }
    LegendStrip* legend() const { return legend_; }

    // For tests: points per stacked component, the labels, and where the lines are (GiB).
    int pointCount() const;
    // Top of the stack (all five components) at moment `index`, in GiB.
    double stackTopGib(int index) const;
    double reservedGib(int index) const;
    QString allocatedPeakLabel() const;
    QString reservedPeakLabel() const;
    double capacityGib() const;
    double usableGib() const;
    // The phase names on the x axis, in order.
    QStringList phaseLabels() const;

    // The failing moment of a diagnosed log: `phase`'s moments highlighted and named with
    // `label`; nullopt clears it.
    void setFailingPhase(std::optional<StepPhase> phase, const QString& label = QString());
    std::optional<StepPhase> failingPhase() const { return failing_phase_; }
    // For tests: the first and last highlighted moment, or (-1, -1) when nothing is highlighted.
    QPair<int, int> failingMoments() const { return failing_moments_; }
    QString failingLabel() const;
    // Whether the failing moment's label, as last drawn, lies inside the plot's axis rect (true when hidden).
    bool failingLabelInsidePlot() const;

private:
    void rebuild() override;
    void restyle() override;
    void styleBands();
    void placePhaseLabels();
    void placeFailingMarker(const std::vector<StepMoment>& timeline);
    void fitFailingLabel();  // wrapped to the room between its band and the plot's far edge
    Qt::Alignment allocatedLabelSide(const QVector<double>& reserved, int peak, double peak_gib, double y_max,
                                     Qt::Alignment preferred) const;

    PlannerDocument* doc_;
    QCustomPlot* plot_;
    LegendStrip* legend_;
    QList<QCPGraph*> stack_;  // cumulative: params, + gradients, + optimizer states, + activations, + buffers
    QCPGraph* reserved_;
    QCPGraph* peaks_;  // the two peak points
    QCPItemStraightLine* capacity_;
    QCPItemStraightLine* usable_;
    PlotLabel* allocated_label_;
    PlotLabel* reserved_label_;
    PlotLabel* note_;              // why nothing is drawn
    QList<QCPItemRect*> bands_;    // one per phase, every other one shaded; made on first use
    QList<double> phase_middles_;  // x of each phase's name
    QStringList phase_names_;      // the names, without the row padding
    QSharedPointer<QCPAxisTickerText> phase_ticker_;
    QSharedPointer<QCPAxisTickerText> capacity_ticker_;
    double capacity_gib_ = 0;
    double usable_gib_ = 0;
    std::optional<StepPhase> failing_phase_;
    QString failing_text_;
    QCPItemRect* failing_band_ = nullptr;
    PlotLabel* failing_label_ = nullptr;
    QPair<int, int> failing_moments_{-1, -1};
};

}  // namespace zp::ui
