#pragma once
// GPU layout view ("GPU layout"): the cluster's nodes and GPUs as Megatron-DeepSpeed places the
// ranks (core/model/parallel_layout.h rank_coordinates): each node a box, each GPU a cell
// coloured by its pipeline stage (hue; the shade alternates between data-parallel replicas),
// each tensor-parallel group outlined; under the GPUs a bar row per all-to-all group kind
// (DeepSpeed-Ulysses, expert parallel; core's ulysses_group_ranks / expert_group_ranks), a
// colour per group, striped when the group spans nodes. Above the drawing
// the layout ("TP 4 x PP 12 x DP 8"),
// below it which collectives cross the network (layout_links). With too many GPUs for cells of
// kMinCellPixels, or more than kMaxCells, the nodes are drawn as boxes striped by stage only.
// The layout depends on the scenario alone; like the step view, the view rebuilds only while
// shown (ui/widgets/lazy_view.h). The drawing's accessible description states the layout in words.
#include "ui/widgets/lazy_view.h"

class QLabel;

namespace zp::ui {

class PlannerDocument;
class LayoutCanvas;

class GpuLayoutView : public LazyView {
    Q_OBJECT
public:
    // Cells narrower than this, or more GPUs than this, and the nodes become stage-striped boxes.
    static constexpr int kMinCellPixels = 5;
    static constexpr int kMaxCells = 1024;
    // A cluster of more nodes is drawn by this many evenly spaced nodes (each box a node of the run,
    // its tooltip naming it): a million one-GPU nodes would be a million sub-pixel boxes, and
    // their ranks' coordinates a second's work on every change.
    static constexpr int kMaxNodeBoxes = 512;

    explicit GpuLayoutView(PlannerDocument* doc, QWidget* parent = nullptr);

    // For tests: the layout line, the legend, the drawing, and what it draws at its current size.
    QString layoutText() const;
    QString legendText() const;
    QWidget* drawing() const;
    int cellCount() const;      // GPU cells drawn (0 when the nodes are drawn as boxes only)
    int nodeBoxCount() const;   // node boxes drawn
    int gpusPerLine() const;    // GPU cells in a line of a node box (0 when the nodes are drawn as boxes only)
    int groupRowCount() const;  // bar rows of all-to-all groups (Ulysses, experts) under the GPUs

private:
    void rebuild() override;
    void restyle() override;

    PlannerDocument* doc_;
    QLabel* summary_;
    LayoutCanvas* canvas_;
    QLabel* legend_;
};

}  // namespace zp::ui
