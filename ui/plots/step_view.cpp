#include "ui/plots/step_view.h"

#include "core/base/units.h"
#include "core/memory/allocator.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/enum_names.h"
#include "core/model/mics.h"
#include "core/search/overview.h"
#include "ui/chart/axis_label_fit.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/chart/replot_queue.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/i18n/translations.h"
#include "ui/qcustomplot_include.h"

#include <QFontMetrics>
#include <QFontMetricsF>

#include <cmath>

#include <algorithm>
#include <array>
#include <optional>

namespace zp::ui {

namespace {

// The five allocated components of a moment, in the memory view's stacking order.
constexpr std::array<Slice, 5> kStacked{Slice::Params, Slice::Gradients, Slice::OptimizerStates, Slice::Activations, Slice::Buffers};

std::array<double, 5> componentBytes(const StepMoment& m) {
    return {m.params_bytes, m.gradients_bytes, m.optimizer_states_bytes, m.activations_bytes, m.buffers_bytes};
}

QString gib(double bytes) { return localeNumber(bytes_to_gib(bytes), 1); }

}  // namespace

StepView::StepView(PlannerDocument* doc, QWidget* parent)
    : LazyView(parent),
      doc_(doc),
      plot_(newPlot(this)),
      legend_(new LegendStrip(this)),
      capacity_(nullptr),
      usable_(nullptr),
      allocated_label_(nullptr),
      reserved_label_(nullptr),
      note_(nullptr),
      phase_ticker_(new QCPAxisTickerText),
      capacity_ticker_(new QCPAxisTickerText) {
    setObjectName(QStringLiteral("stepView"));
    embedPlot(this, plot_, QCP::aePlottables | QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeFills | QCP::aeItems, legend_);
    QList<LegendStrip::Entry> entries;
    for (Slice slice : kStacked) {
        entries.append({sliceName(slice), sliceColor(slice)});
        QCPGraph* g = plot_->addGraph();
        g->setName(sliceName(slice));
        // Each moment is a plateau one index wide: the timeline is a sequence of moments, not a curve.
        g->setLineStyle(QCPGraph::lsStepCenter);
        if (!stack_.isEmpty()) g->setChannelFillGraph(stack_.back());
        stack_.append(g);
    }
    reserved_ = plot_->addGraph();
    reserved_->setName(tr("Reserved + CUDA context (nvidia-smi)"));
    reserved_->setLineStyle(QCPGraph::lsStepCenter);
    entries.append({reserved_->name(), palette().color(QPalette::WindowText), LegendStrip::Swatch::Line});
    // The dashed line under the capacity, as the memory view names it (its tick label is left out
    // where it would run into the capacity's).
    entries.append({tr("Usable: GPU less headroom"), capacityColor(palette()), LegendStrip::Swatch::Dashed});
    legend_->setEntries(entries);
    peaks_ = plot_->addGraph();
    peaks_->setLineStyle(QCPGraph::lsNone);

    capacity_ = new QCPItemStraightLine(plot_);
    usable_ = new QCPItemStraightLine(plot_);
    allocated_label_ = new PlotLabel(plot_);
    reserved_label_ = new PlotLabel(plot_);
    for (PlotLabel* label : {allocated_label_, reserved_label_}) {
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->setPadding(QMargins(4, 1, 4, 1));
    }
    reserved_label_->setPadding(QMargins(4, 1, 4, 4));  // clear of the capacity line it may sit on
    note_ = new PlotLabel(plot_);
    note_->position->setType(QCPItemPosition::ptAxisRectRatio);
    note_->position->setCoords(0.5, 0.4);
    failing_band_ = new QCPItemRect(plot_);
    failing_band_->setLayer(QStringLiteral("background"));
    failing_band_->setVisible(false);
    failing_label_ = new PlotLabel(plot_);
    failing_label_->setPadding(QMargins(4, 2, 4, 2));
    failing_label_->setVisible(false);
    for (QCPItemPosition* p : {failing_band_->topLeft, failing_band_->bottomRight, failing_label_->position}) {
        p->setTypeX(QCPItemPosition::ptPlotCoords);
        p->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    // Wrapped to the plot's width after each layout (fitFailingLabel).
    connect(plot_, &QCustomPlot::afterLayout, this, [this] { fitFailingLabel(); });

    plot_->xAxis->setTicker(phase_ticker_);
    plot_->xAxis->setSubTicks(false);
    plot_->xAxis->setTickLength(0, 0);
    plot_->xAxis->grid()->setVisible(false);  // the phase bands mark the phases
    plot_->yAxis->setLabel(tr("GiB per GPU: allocated (stacked), reserved (line)"));
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setTicker(capacity_ticker_);
    plot_->yAxis2->setSubTicks(false);
    plot_->yAxis2->setTickLength(0, 4);
    plot_->yAxis2->grid()->setVisible(false);
    // The phase names are staggered into rows for the axis width of this replot.
    connect(plot_, &QCustomPlot::beforeReplot, this, &StepView::placePhaseLabels);
    connect(doc_, &PlannerDocument::resultsChanged, this, &StepView::documentChanged);
    connect(doc_, &PlannerDocument::selectionChanged, this, &StepView::documentChanged);
    restyle();
}

void StepView::restyle() {
    const QPalette pal = palette();
    applyPalette(plot_, pal);
    plot_->xAxis->grid()->setVisible(false);
    for (int i = 0; i < stack_.size(); ++i) {
        const QColor c = sliceColor(kStacked[static_cast<std::size_t>(i)]);
        stack_[i]->setBrush(c);
        stack_[i]->setPen(QPen(c.darker(115), 1));
    }
    const QColor text = pal.color(QPalette::WindowText);
    reserved_->setPen(QPen(text, 2));
    peaks_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(text, 1.5), pal.color(QPalette::Base), 7));
    QList<LegendStrip::Entry> entries = legend_->entries();
    entries[entries.size() - 2].color = text;  // the reserved line, then the usable line
    entries.back().color = capacityColor(pal);
    legend_->setEntries(entries);
    capacity_->setPen(QPen(capacityColor(pal), 2));
    usable_->setPen(QPen(capacityColor(pal), 1.5, Qt::DashLine));
    plot_->yAxis2->setBasePen(Qt::NoPen);
    plot_->yAxis2->setTickPen(QPen(capacityColor(pal), 2));
    plot_->yAxis2->setTickLabelColor(capacityColor(pal));
    QColor label_bg = pal.color(QPalette::Base);
    label_bg.setAlpha(215);
    for (PlotLabel* label : {allocated_label_, reserved_label_}) {
        label->setBrush(label_bg);
        label->setColor(text);
    }
    note_->setColor(warningColor(pal));
    QColor failing = warningColor(pal);
    failing_band_->setPen(QPen(failing, 1.5, Qt::DashLine));
    failing.setAlpha(45);
    failing_band_->setBrush(failing);
    failing_label_->setColor(warningColor(pal));
    failing_label_->setBrush(label_bg);
    failing_label_->setPen(QPen(warningColor(pal), 1));
    styleBands();
}

void StepView::styleBands() {
    QColor band = palette().color(QPalette::WindowText);
    band.setAlpha(10);
    for (int i = 0; i < bands_.size(); ++i) bands_[i]->setBrush(i % 2 == 1 ? QBrush(band) : QBrush(Qt::NoBrush));
}

void StepView::rebuild() {
    for (QCPGraph* g : stack_) g->data()->clear();
    reserved_->data()->clear();
    peaks_->data()->clear();
    note_->setVisible(false);
    note_->setText(QString());
    const QPalette pal = palette();
    // The document's shown setup and its timeline (ui/document/planner_document.h): the view runs no core.
    const ShownStep& step = doc_->shownStep();
    const ShownSetup& shown = step.setup;
    const std::vector<StepMoment>& timeline = step.moments;
    if (!step.error.empty()) note_->setText(QString::fromStdString(step.error));
    const Scenario& s = shown.scenario;
    capacity_gib_ = doc_->scenario().cluster.gpu.memory_gib;
    usable_gib_ = bytes_to_gib(usable_gpu_bytes(doc_->scenario()));
    if (timeline.empty()) {
        note_->setVisible(true);
        if (note_->text().isEmpty()) note_->setText(tr("No timeline for this scenario"));
        for (QCPItemRect* band : bands_) band->setVisible(false);
        for (PlotLabel* label : {allocated_label_, reserved_label_}) label->setVisible(false);
        placeFailingMarker(timeline);
        phase_middles_.clear();
        phase_names_.clear();
        plot_->xAxis->setLabel(QString());
        plot_->xAxis->setRange(0, 1);
        plot_->yAxis->setRange(0, std::max(1.0, capacity_gib_ * 1.15));
        plot_->yAxis2->setRange(plot_->yAxis->range());
        queueReplot(plot_);
        return;
    }

    // The reserve curve (core/memory/allocator.h reserved_along), as the JSON timeline has it.
    const std::vector<double> reserve = reserved_along(s, timeline);
    const int n = static_cast<int>(timeline.size());
    QVector<double> keys(n), reserved(n);
    std::array<QVector<double>, 5> stacked;
    for (auto& v : stacked) v.resize(n);
    int allocated_peak = 0, reserved_peak = 0;
    for (int i = 0; i < n; ++i) {
        const StepMoment& mo = timeline[static_cast<std::size_t>(i)];
        keys[i] = i;
        double below = 0;
        const std::array<double, 5> parts = componentBytes(mo);
        for (std::size_t k = 0; k < parts.size(); ++k) {
            below += parts[k];
            stacked[k][i] = bytes_to_gib(below);
        }
        reserved[i] = bytes_to_gib(reserve[static_cast<std::size_t>(i)]);
        if (mo.allocated_bytes() > timeline[static_cast<std::size_t>(allocated_peak)].allocated_bytes()) allocated_peak = i;
        if (reserved[i] > reserved[reserved_peak]) reserved_peak = i;
    }
    for (std::size_t k = 0; k < stacked.size(); ++k) stack_[static_cast<qsizetype>(k)]->setData(keys, stacked[k], true);
    reserved_->setData(keys, reserved, true);
    const double allocated_y = stacked.back()[allocated_peak];
    peaks_->setData({static_cast<double>(allocated_peak), static_cast<double>(reserved_peak)}, {allocated_y, reserved[reserved_peak]});

    // The labels carry the core's figures (MemoryBreakdown), placed at the moments they belong
    // to; each reads away from the nearer edge, the reserved one above its point and the
    // allocated one below, so they never cover each other.
    const MemoryBreakdown& m = shown.memory;
    allocated_label_->setText(tr("peak allocated %1 GiB, %2").arg(gib(m.peak_allocated_bytes), translatedCore(to_string(m.peak.phase))));
    reserved_label_->setText(tr("peak reserved %1 GiB (nvidia-smi)").arg(gib(m.peak_reserved_bytes)));
    const auto side = [n](int index) { return index * 2 >= n - 1 ? Qt::AlignRight : Qt::AlignLeft; };
    const double y_max = std::max({reserved[reserved_peak], allocated_y, capacity_gib_}) * 1.22;
    allocated_label_->position->setCoords(allocated_peak, allocated_y);
    allocated_label_->setPositionAlignment(allocatedLabelSide(reserved, allocated_peak, allocated_y, y_max, side(allocated_peak)) |
                                           Qt::AlignTop);
    // Just below the capacity line, the label goes above the line instead of across it.
    double reserved_label_y = reserved[reserved_peak];
    if (capacity_gib_ >= reserved_label_y && capacity_gib_ - reserved_label_y < 0.08 * y_max) reserved_label_y = capacity_gib_;
    reserved_label_->position->setCoords(reserved_peak, reserved_label_y);
    reserved_label_->setPositionAlignment(side(reserved_peak) | Qt::AlignBottom);
    for (PlotLabel* label : {allocated_label_, reserved_label_}) label->setVisible(true);

    // Phases: a band each, every other one shaded, named at its middle.
    phase_middles_.clear();
    phase_names_.clear();
    int bands = 0;
    for (int first = 0; first < n;) {
        int last = first;
        while (last + 1 < n && timeline[static_cast<std::size_t>(last + 1)].phase == timeline[static_cast<std::size_t>(first)].phase)
            ++last;
        if (bands == bands_.size()) {
            auto* band = new QCPItemRect(plot_);
            band->setLayer(QStringLiteral("background"));
            band->setPen(Qt::NoPen);
            band->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
            band->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
            band->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
            band->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
            bands_.append(band);
        }
        QCPItemRect* band = bands_[bands];
        band->setVisible(true);
        band->topLeft->setCoords(first - 0.5, 0);
        band->bottomRight->setCoords(last + 0.5, 1);
        phase_middles_.append((first + last) / 2.0);
        phase_names_.append(translatedCore(to_string(timeline[static_cast<std::size_t>(first)].phase)));
        ++bands;
        first = last + 1;
    }
    for (int i = bands; i < bands_.size(); ++i) bands_[i]->setVisible(false);
    styleBands();
    placeFailingMarker(timeline);

    // Axes: every moment, the capacity line and the labels above the highest point in view.
    plot_->xAxis->setRange(-0.5, n - 0.5);
    const QString setup = translated(setup_phrase(setup_key(s.zero), s.fsdp.engine, fsdp_hybrid_sharding(s)));
    QString caption = tr("%1, micro batch %2, recompute %3: moments of one step")
                          .arg(setup)
                          .arg(s.training.micro_batch)
                          .arg(translatedCore(to_string(s.training.checkpointing)));
    if (s.parallel.pipeline > 1)
        caption +=
            tr(" on pipeline stage %1 of %2, the one that decides the fit").arg(s.parallel.pipeline_rank + 1).arg(s.parallel.pipeline);
    if (!shown.fits)
        caption += tr(" (does not fit: %1 GiB must fit, %2 GiB usable)").arg(gib(m.peak_required_bytes), localeNumber(usable_gib_, 1));
    plot_->xAxis->setLabel(caption);
    plot_->xAxis->setLabelColor(shown.fits ? pal.color(QPalette::WindowText) : capacityColor(pal));
    plot_->yAxis->setRange(0, y_max);
    plot_->yAxis2->setRange(plot_->yAxis->range());
    capacity_->point1->setCoords(0, capacity_gib_);
    capacity_->point2->setCoords(1, capacity_gib_);
    usable_->point1->setCoords(0, usable_gib_);
    usable_->point2->setCoords(1, usable_gib_);
    capacity_ticker_->clear();
    capacity_ticker_->addTick(capacity_gib_, tr("GPU %1").arg(capacityText(capacity_gib_)));
    // The usable line is named only where its name does not run into the capacity's.
    if (capacity_gib_ - usable_gib_ > 0.06 * plot_->yAxis->range().size())
        capacity_ticker_->addTick(usable_gib_, tr("usable %1").arg(localeNumber(usable_gib_, 1)));
    queueReplot(plot_);
}

// The allocated peak's label hangs below its point, reading away from the nearer edge unless the
// reserved line runs through it there (the reserve rising to its peak, left of it): then the
// other way, where the line does not (the reserve flat after its peak).
Qt::Alignment StepView::allocatedLabelSide(const QVector<double>& reserved, int peak, double peak_gib, double y_max,
                                           Qt::Alignment preferred) const {
    const QCPAxisRect* rect = plot_->axisRect();
    if (rect->width() <= 0 || rect->height() <= 0 || reserved.isEmpty()) return preferred;
    const QFontMetricsF metrics(allocated_label_->font());
    const double width_keys =
        (metrics.horizontalAdvance(allocated_label_->text()) + 8) / rect->width() * static_cast<double>(reserved.size());
    const double bottom = peak_gib - (metrics.height() + 6) / rect->height() * y_max;
    const auto crossed = [&](Qt::Alignment h) {
        const double from = h == Qt::AlignLeft ? peak : peak - width_keys, to = h == Qt::AlignLeft ? peak + width_keys : peak;
        for (int i = std::max(0, static_cast<int>(std::floor(from)));
             i <= std::min(static_cast<int>(reserved.size()) - 1, static_cast<int>(std::ceil(to))); ++i)
            if (reserved[i] >= bottom && reserved[i] <= peak_gib) return true;
        return false;
    };
    const Qt::Alignment other = preferred == Qt::AlignLeft ? Qt::AlignRight : Qt::AlignLeft;
    return crossed(preferred) && !crossed(other) ? other : preferred;
}

void StepView::setFailingPhase(std::optional<StepPhase> phase, const QString& label) {
    failing_phase_ = phase;
    failing_text_ = label;
    documentChanged();
}

// The failing phase's moments (the first run of them) under a dashed, tinted band, named at its
// foot, reading away from the nearer edge.
void StepView::placeFailingMarker(const std::vector<StepMoment>& timeline) {
    failing_moments_ = {-1, -1};
    const int n = static_cast<int>(timeline.size());
    for (int i = 0; failing_phase_ && i < n; ++i) {
        if (timeline[static_cast<std::size_t>(i)].phase != *failing_phase_) {
            if (failing_moments_.first >= 0) break;
            continue;
        }
        if (failing_moments_.first < 0) failing_moments_.first = i;
        failing_moments_.second = i;
    }
    const bool shown = failing_moments_.first >= 0;
    failing_band_->setVisible(shown);
    failing_label_->setVisible(shown && !failing_text_.isEmpty());
    if (!shown) return;
    failing_band_->topLeft->setCoords(failing_moments_.first - 0.5, 0);
    failing_band_->bottomRight->setCoords(failing_moments_.second + 0.5, 1);
    failing_label_->setText(failing_text_);
    const bool left = failing_moments_.first + failing_moments_.second < n - 1;
    // At the band's foot: the top is the peak labels' (allocated, reserved), which a wrapped name covered.
    failing_label_->position->setCoords(left ? failing_moments_.first - 0.5 : failing_moments_.second + 0.5, 0.99);
    failing_label_->setPositionAlignment((left ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignBottom);
    fitFailingLabel();
}

// The failing moment's name on as many lines as the plot's width from its band to the far edge
// needs: on one line, "Out of memory here: the fp32 master partition ..." ran past the right edge
// of the One step tab at 1480x920 (the docs' diagnose picture). Decided in pixels, from the last
// layout; the full text stays the label's until then.
void StepView::fitFailingLabel() {
    if (!failing_label_->visible() || failing_text_.isEmpty()) return;
    const QCPAxisRect* rect = plot_->axisRect();
    const double anchor = failing_label_->position->pixelPosition().x();
    const bool left = failing_label_->positionAlignment() & Qt::AlignLeft;
    const QMargins pad = failing_label_->padding();
    const double room = (left ? rect->right() - anchor : anchor - rect->left()) - pad.left() - pad.right() - 2;
    const QString text = room > 0 ? wrapToWidth(failing_text_, QFontMetricsF(failing_label_->font()), room) : failing_text_;
    if (text != failing_label_->text()) failing_label_->setText(text);
}

QString StepView::failingLabel() const { return failing_label_->visible() ? failing_text_ : QString(); }

bool StepView::failingLabelInsidePlot() const {
    const QRectF box = failing_label_->drawnBox();
    return !failing_label_->visible() || (box.isValid() && QRectF(plot_->axisRect()->rect()).adjusted(-1, -1, 1, 1).contains(box));
}

// Phase names below the axis at their phases' middles; a name that would run into the one
// before it goes one row lower (the last phases are one moment each).
void StepView::placePhaseLabels() {
    phase_ticker_->clear();
    const QCPRange range = plot_->xAxis->range();
    QCPAxisRect* rect = plot_->axisRect();
    const double width = plot_->viewport().width() - (rect->outerRect().width() - rect->width());
    if (phase_names_.isEmpty() || width <= 0 || range.size() <= 0) return;
    const double scale = width / range.size();
    const QFontMetrics metrics(plot_->xAxis->tickLabelFont());
    QList<double> row_ends;
    for (int i = 0; i < phase_names_.size(); ++i) {
        const double centre = (phase_middles_[i] - range.lower) * scale;
        const double half = metrics.horizontalAdvance(phase_names_[i]) / 2.0 + 4;
        int row = 0;
        while (row < row_ends.size() && centre - half < row_ends[row]) ++row;
        if (row == row_ends.size()) row_ends.append(0);
        row_ends[row] = centre + half;
        phase_ticker_->addTick(phase_middles_[i], QString(row, QLatin1Char('\n')) + phase_names_[i]);
    }
}

int StepView::pointCount() const { return stack_.isEmpty() ? 0 : stack_.front()->dataCount(); }

double StepView::stackTopGib(int index) const {
    const auto* points = stack_.back()->data().data();
    return index < points->size() ? points->at(index)->value : 0.0;
}

double StepView::reservedGib(int index) const {
    const auto* points = reserved_->data().data();
    return index < points->size() ? points->at(index)->value : 0.0;
}

QString StepView::allocatedPeakLabel() const { return allocated_label_->visible() ? allocated_label_->text() : QString(); }
QString StepView::reservedPeakLabel() const { return reserved_label_->visible() ? reserved_label_->text() : QString(); }
double StepView::capacityGib() const { return capacity_->point1->coords().y(); }
double StepView::usableGib() const { return usable_->point1->coords().y(); }
QStringList StepView::phaseLabels() const { return phase_names_; }

}  // namespace zp::ui
