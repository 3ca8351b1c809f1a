#include "ui/plots/scaling_view.h"

#include "core/base/units.h"
#include "core/model/mics.h"
#include "core/search/overview.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/chart/replot_queue.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/translations.h"
#include "ui/qcustomplot_include.h"

#include <QFontMetricsF>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace zp::ui {

namespace {
// One colour per stage, distinct from each other on light and dark backgrounds.
QColor stageColor(int stage) {
    static const QColor colors[] = {QColor(0xb0, 0x7a, 0xa1), QColor(0xe1, 0x57, 0x59), QColor(0x59, 0xa1, 0x4f), QColor(0x4e, 0x79, 0xa7)};
    return colors[stage];
}
// The same names as the memory and time views' bars: the core's label for the stage alone, in
// the engine's words (NO_SHARD, SHARD_GRAD_OP, FULL_SHARD under FSDP).
QString stageName(int stage, Engine engine, bool hybrid_shard) {
    return QString::fromStdString(short_setup_label(SetupKey{stage, OffloadDevice::None, OffloadDevice::None}, engine, hybrid_shard));
}
// The curves' legend: every stage the engine runs (core engine_runs_setup: FSDP has no ZeRO-1,
// FSDP2 no NO_SHARD; their curves stay empty).
QList<LegendStrip::Entry> curveEntries(const FsdpSetup& engine) {
    QList<LegendStrip::Entry> entries;
    for (int stage = 0; stage <= 3; ++stage)
        if (engine_runs_setup(engine, SetupKey{stage, OffloadDevice::None, OffloadDevice::None}))
            entries.append({stageName(stage, engine.engine, engine.hybrid_shard), stageColor(stage), LegendStrip::Swatch::Line});
    return entries;
}
}  // namespace

ScalingView::ScalingView(PlannerDocument* doc, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      plot_(newPlot(this)),
      legend_(new LegendStrip(this)),
      capacity_(new QCPItemStraightLine(plot_)),
      capacity_label_(new PlotLabel(plot_)),
      marker_(new QCPItemStraightLine(plot_)),
      marker_label_(new PlotLabel(plot_)) {
    embedPlot(this, plot_, QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeItems, legend_);  // curves stay smooth
    named_engine_ = doc_->scenario().fsdp.engine;
    named_hybrid_ = false;  // rebuild names the curves by the plan's choice
    for (int stage = 0; stage <= 3; ++stage) {
        QCPGraph* g = plot_->addGraph();
        g->setName(stageName(stage, named_engine_, named_hybrid_));
        g->setPen(QPen(stageColor(stage), 2.2));
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, stageColor(stage), 4));
        graphs_.append(g);
    }
    base_legend_ = curveEntries(doc_->scenario().fsdp);
    legend_->setEntries(base_legend_);
    // Right end, above the line: the curves there are below capacity unless nothing fits.
    capacity_label_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    capacity_label_->setPadding(QMargins(2, 0, 4, 1));
    marker_label_->position->setType(QCPItemPosition::ptPlotCoords);
    marker_label_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    marker_label_->setPadding(QMargins(4, 0, 4, 0));
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->xAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> ticker(new QCPAxisTickerLog);
    ticker->setLogBase(4);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setNumberFormat(QStringLiteral("f"));
    plot_->xAxis->setNumberPrecision(0);
    plot_->xAxis->setLabel(tr("GPUs (log scale)"));
    plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    QSharedPointer<QCPAxisTickerLog> yticker(new QCPAxisTickerLog);
    yticker->setLogBase(2);  // 8, 16, 32, 64 ... GiB: labels every doubling
    plot_->yAxis->setTicker(yticker);
    plot_->yAxis->setNumberFormat(QStringLiteral("gb"));
    plot_->yAxis->setLabel(tr("Needed per GPU at the step's peak (GiB, log scale)"));
    connect(doc_, &PlannerDocument::resultsChanged, this, &ScalingView::rebuild);
    connect(doc_, &PlannerDocument::pinsChanged, this, &ScalingView::showPins);
    showPins();  // and rebuild()
}

// Each pin's own stage as a dashed line in its colour: the pinned plan's memory against GPU
// count. Then rebuild(), whose axis range takes the lines in.
void ScalingView::showPins() {
    const std::vector<PinnedPlan>& pins = doc_->pins();
    while (pin_lines_.size() < static_cast<qsizetype>(pins.size())) {
        QCPGraph* g = plot_->addGraph();
        pin_lines_.append(g);
    }
    QList<LegendStrip::Entry> entries = base_legend_;
    for (qsizetype p = 0; p < pin_lines_.size(); ++p) {
        QCPGraph* g = pin_lines_[p];
        g->setPen(QPen(pinColor(static_cast<int>(p), palette()), 1.6, Qt::DashLine));
        g->data()->clear();
        g->setVisible(p < static_cast<qsizetype>(pins.size()));
        if (!g->visible()) continue;
        const PinnedPlan& pin = pins[static_cast<std::size_t>(p)];
        for (const ScalingSeries& series : pin.overview.scaling) {
            if (series.stage != pin.pin.scenario.zero.stage) continue;
            for (const ScalingPoint& point : series.points) g->addData(static_cast<double>(point.gpus), bytes_to_gib(point.required_bytes));
        }
        entries.append({tr("Pinned: %1 (%2)")
                            .arg(QString::fromStdString(pin.pin.name), stageName(pin.pin.scenario.zero.stage, pin.pin.scenario.fsdp.engine,
                                                                                 fsdp_hybrid_sharding(pin.pin.scenario))),
                        pinColor(static_cast<int>(p), palette()), LegendStrip::Swatch::Line});
    }
    legend_->setEntries(entries);
    rebuild();
}

int ScalingView::pinLinePoints(int pin) const {
    if (pin < 0 || pin >= pin_lines_.size() || !pin_lines_[pin]->visible()) return 0;
    return pin_lines_[pin]->data()->size();
}

void ScalingView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) showPins();  // and rebuild()
}

void ScalingView::rebuild() {
    const Overview& o = doc_->overview();
    const Scenario& s = doc_->scenario();
    // The curves run through the plan's bars (core/search/overview.cpp: each stage's curve from its
    // candidate), so they are named as those are: hybrid sharding where the plan chose it.
    const bool hybrid = std::any_of(o.plan.per_setup.begin(), o.plan.per_setup.end(), [](const Candidate& c) { return c.hybrid_shard; });
    if (s.fsdp.engine != named_engine_ || hybrid != named_hybrid_) {
        // Another engine: the curves' names in its words, the pins' entries kept after them.
        const QList<LegendStrip::Entry> pins = legend_->entries().mid(base_legend_.size());
        named_engine_ = s.fsdp.engine;
        named_hybrid_ = hybrid;
        FsdpSetup named = doc_->scenario().fsdp;
        named.hybrid_shard = hybrid;
        base_legend_ = curveEntries(named);
        for (int stage = 0; stage <= 3; ++stage) graphs_[stage]->setName(stageName(stage, named_engine_, named_hybrid_));
        legend_->setEntries(base_legend_ + pins);
    }
    const QPalette pal = palette();
    applyPalette(plot_, pal);
    double lo = 1e300, hi = 0;
    for (QCPGraph* g : graphs_) g->data()->clear();
    for (const ScalingSeries& series : o.scaling) {
        if (series.stage < 0 || series.stage >= graphs_.size()) continue;
        QCPGraph* g = graphs_[series.stage];
        for (const ScalingPoint& p : series.points) {
            const double gib = bytes_to_gib(p.required_bytes);
            g->addData(static_cast<double>(p.gpus), gib);
            lo = std::min(lo, gib);
            hi = std::max(hi, gib);
        }
    }
    // The pins' dashed lines stay in view too.
    for (const QCPGraph* g : pin_lines_) {
        if (!g->visible()) continue;
        for (const QCPGraphData& p : *g->data()) {
            lo = std::min(lo, p.value);
            hi = std::max(hi, p.value);
        }
    }
    const double capacity = s.cluster.gpu.memory_gib;
    capacity_->setPen(QPen(capacityColor(pal), 2));
    capacity_->point1->setCoords(1, capacity);
    capacity_->point2->setCoords(4096, capacity);
    marker_gpus_ = static_cast<double>(s.cluster.world_size());
    marker_->setPen(QPen(highlightColor(pal), 2, Qt::DashLine));
    marker_->point1->setCoords(marker_gpus_, 1);
    marker_->point2->setCoords(marker_gpus_, 10);

    plot_->xAxis->setRange(0.8, 5000);
    lo = std::min(lo, capacity);
    hi = std::max(hi, capacity);
    plot_->yAxis->setRange(std::max(lo / 1.5, 1e-3), hi * 1.5);
    placeLabels(capacity);
    queueReplot(plot_);
}

// The curves' values at `gpus` (each curve's first point at or past it).
QVector<double> ScalingView::curvesAt(double gpus) const {
    QVector<double> values;
    for (const QCPGraph* g : graphs_) {
        if (g->data()->isEmpty()) continue;
        auto at = g->data()->findBegin(gpus, false);
        if (at == g->data()->constEnd()) --at;
        values.append(at->value);
    }
    return values;
}

QVector<double> ScalingView::curvesBetween(double from, double to) const {
    QVector<double> values;
    for (const QCPGraph* g : graphs_)
        for (const QCPGraphData& p : *g->data())
            if (p.key >= from && p.key <= to) values.append(p.value);
    return values.isEmpty() ? curvesAt(from) : values;
}

// The capacity's and the marker's labels, on the plot's background (a curve ran through "GPU 80 GiB"
// and "1 GPUs" sat over the curves' first points), each on a side of its line no curve takes there.
void ScalingView::placeLabels(double capacity) {
    const QPalette pal = palette();
    const QColor label_bg = labelBackground(pal);
    const QCPRange y = plot_->yAxis->range();
    const auto height = [&](double gib) { return std::log(gib / y.lower) / std::log(y.upper / y.lower); };  // 0 bottom, 1 top
    // A label's height as a share of the axis's (a guess before the first layout).
    const double axis_pixels = plot_->axisRect()->height();
    const double label = axis_pixels > 0 ? (QFontMetricsF(capacity_label_->font()).height() + 2) / axis_pixels : 0.08;
    // At the right end, unless the GPU-count marker's label stands there (from 512 GPUs: a label
    // right of the 512 line ran into "GPU 79.6 GiB", a window review): then at the left end, so the
    // two do not meet when the capacity line runs along the top (a 100M model on 4096 GPUs).
    const bool marker_right = marker_gpus_ >= 512;
    const QString capacity_text = tr("GPU %1").arg(capacityText(capacity));
    // The GPU counts the label spans from its end of the line (the curves' points under it count,
    // not only the end's: a point at 1,024 GPUs stood under a label anchored at 4,096).
    const double end = marker_right ? 1 : 4096;
    double far = marker_right ? 8 : 512;
    if (plot_->axisRect()->width() > 0) {
        const double span = QFontMetricsF(capacity_label_->font()).horizontalAdvance(capacity_text) + 8;
        const double px = plot_->xAxis->coordToPixel(end);
        far = plot_->xAxis->pixelToCoord(marker_right ? px + span : px - span);
    }
    int above = 0, below = 0;
    for (double v : curvesBetween(std::min(end, far), std::max(end, far))) {
        const double d = height(v) - height(capacity);
        above += d >= 0 && d <= label ? 1 : 0;
        below += d < 0 && -d <= label ? 1 : 0;
    }
    const bool capacity_below = above > below || height(capacity) + label > 1;
    capacity_label_->position->setCoords(marker_right ? 1 : 4096, capacity);
    capacity_label_->setPositionAlignment((marker_right ? Qt::AlignLeft : Qt::AlignRight) |
                                          (capacity_below ? Qt::AlignTop : Qt::AlignBottom));
    capacity_label_->setColor(capacityColor(pal));
    capacity_label_->setBrush(label_bg);
    capacity_label_->setText(capacity_text);
    // At the top, unless a curve runs there at the marker (the curves start high at one GPU).
    bool top_taken = false, bottom_taken = false;
    for (double v : curvesAt(marker_gpus_)) {
        top_taken = top_taken || height(v) > 1 - 1.5 * label;
        bottom_taken = bottom_taken || height(v) < 1.5 * label;
    }
    const bool marker_bottom = top_taken && !bottom_taken;
    marker_label_->position->setCoords(marker_gpus_, marker_bottom ? 0.98 : 0.02);
    marker_label_->setPositionAlignment((marker_right ? Qt::AlignRight : Qt::AlignLeft) | (marker_bottom ? Qt::AlignBottom : Qt::AlignTop));
    marker_label_->setColor(highlightColor(pal));
    marker_label_->setBrush(label_bg);
    marker_label_->setText(marker_gpus_ == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(static_cast<qint64>(marker_gpus_)));
}

}  // namespace zp::ui
