#include "ui/plots/memory_view.h"

#include "core/base/format.h"
#include "core/base/units.h"
#include "core/memory/memory_model.h"
#include "core/model/enum_names.h"
#include "ui/chart/axis_label_fit.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/chart/replot_queue.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/i18n/translations.h"
#include "ui/qcustomplot_include.h"

#include <QFontMetricsF>
#include <QVBoxLayout>

namespace zp::ui {

namespace {
// The least share of the axis above the highest bar, for its label (fitRange: more on short plots).
constexpr double kLeastLabelHeadroom = 1.18;
double sliceBytes(const MemoryBreakdown& m, int slice) { return memory_slices()[static_cast<std::size_t>(slice)].bytes(m); }
// The top of a bar: what must fit or the step's peak reserve, whichever is higher.
double barTopGib(const MemoryBreakdown& m) { return bytes_to_gib(std::max(m.total_bytes(), m.peak_reserved_bytes)); }
// A setup the engine does not run is drawn as no bar (SetupBarChart::notRun).
double barTopGib(const Candidate& c) { return SetupBarChart::notRun(c) ? 0.0 : barTopGib(c.memory); }
}  // namespace

MemoryView::MemoryView(PlannerDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), plot_(newPlot(this)), legend_(new LegendStrip(this)), chart_(plot_, QMargins(2, 0, 2, 3)) {
    embedPlot(this, plot_, QCP::aePlottables | QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeFills | QCP::aeItems, legend_);
    setLegend(false, false);
    // Made before the slices, so drawn beneath them: the hatch shows only above the stack.
    peak_fill_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    peak_fill_->setName(tr("Peak reserved (nvidia-smi)"));
    peak_fill_->setWidth(0.62);
    frozen_ = chart_.addPart(tr("Frozen weights"));
    frozen_->setStackingGap(0);
    for (int i = 0; i < kSliceCount; ++i) {
        QCPBars* bars = chart_.addPart(sliceName(static_cast<Slice>(i)));
        bars->setStackingGap(0);
        slices_.append(bars);
    }
    peak_outline_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    peak_outline_->setName(tr("Peak reserved (nvidia-smi)"));
    peak_outline_->setWidth(0.62);
    peak_outline_->setBrush(Qt::NoBrush);
    capacity_ = new QCPItemStraightLine(plot_);
    usable_ = new QCPItemStraightLine(plot_);
    frame_ = new QCPItemRect(plot_);
    frame_->setLayer(QStringLiteral("background"));
    frame_->topLeft->setType(QCPItemPosition::ptPlotCoords);
    frame_->bottomRight->setType(QCPItemPosition::ptPlotCoords);
    // The headroom of the recommended setup, shown first: a bar from what must fit up to the usable
    // line in the starred bar's column, and what it leaves beside it. The axis-cut note is a legend
    // entry (setLegend): inside the plot it lay over the cut bars' labels, at any corner.
    spare_ = new QCPItemLine(plot_);
    spare_->start->setType(QCPItemPosition::ptPlotCoords);
    spare_->end->setType(QCPItemPosition::ptPlotCoords);
    spare_->setHead(QCPLineEnding::esBar);
    spare_->setTail(QCPLineEnding::esBar);
    spare_label_ = new PlotLabel(plot_);
    spare_label_->position->setType(QCPItemPosition::ptPlotCoords);
    spare_label_->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);  // hanging from the usable line
    spare_label_->setPadding(QMargins(2, 0, 2, 0));
    // Its text is fitted to the pixels it has before each replot, and again after the replot's
    // layout when that moved them (an item: drawn after the layout, in the same replot).
    connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
        range_relaid_ = false;
        fitSpare();
    });
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        // A new height moves the labels' room (fitRange); new tick labels may move the margins, so
        // the plot is laid out again, once a replot: the range, the tick labels and the height
        // could otherwise chase each other (the monkey test found that loop).
        if (fitRange() && !range_relaid_) {
            range_relaid_ = true;
            relayoutInReplot(plot_);
        }
        if (spare_wanted_ && spareRoom() != spare_room_) fitSpare();
    });
    // The capacity is named on a right-hand axis, outside the bars, so no bar label can cover it.
    capacity_ticker_ = chart_.addCapacityAxis();
    plot_->yAxis->setLabel(tr("GiB per GPU: must fit (bars), peak reserved (outlined)"));
    chart_.onBars(
        this, [this](int bar) { return barTooltip(bar); }, [this](int bar) { emit setupClicked(bar); });
    connect(doc_, &PlannerDocument::resultsChanged, this, &MemoryView::rebuild);
    connect(doc_, &PlannerDocument::selectionChanged, this, &MemoryView::showSelection);
    connect(doc_, &PlannerDocument::pinsChanged, this, [this] {
        setLegend(frozen_in_legend_, cut_in_legend_);
        rebuild();
    });
    restyle();
    rebuild();
}

void MemoryView::setLegend(bool withFrozen, bool axisCut) {
    frozen_in_legend_ = withFrozen;
    cut_in_legend_ = axisCut;
    QList<LegendStrip::Entry> entries;
    if (withFrozen) entries.append({tr("Frozen weights"), frozenWeightsColor()});
    for (int i = 0; i < kSliceCount; ++i)
        entries.append({withFrozen && i == static_cast<int>(Slice::Params) ? tr("Trained weights") : sliceName(static_cast<Slice>(i)),
                        sliceColor(static_cast<Slice>(i))});
    entries.append({tr("Peak reserved (nvidia-smi)"), palette().color(QPalette::WindowText), LegendStrip::Swatch::Outline});
    // The dashed line, named here: beside the capacity's axis label it widened the axis and squeezed the bars.
    entries.append({tr("Usable: GPU less headroom"), capacityColor(palette()), LegendStrip::Swatch::Dashed});
    SetupBarChart::appendGhostLegend(entries, doc_->pins(), palette());
    // Its room kept once the axis has been cut (LegendStrip::setEntries): a drag across the cut moves the plot once.
    legend_->setEntries(
        entries,
        {tr("Axis cut at 4x GPU memory; bar labels give the peaks"), palette().color(QPalette::WindowText), LegendStrip::Swatch::Break},
        axisCut);
}

double MemoryView::sliceGib(int slice, int bar) const {
    const auto* points = slices_[slice]->data().data();  // not "data": QWidget::data
    const double own = bar < points->size() ? points->at(bar)->value : 0.0;
    return slice == static_cast<int>(Slice::Params) ? own + frozenGib(bar) : own;
}

double MemoryView::frozenGib(int bar) const {
    const auto* points = frozen_->data().data();
    const auto at = points->findBegin(SetupBarChart::key(static_cast<std::size_t>(bar)), false);
    return at != points->constEnd() && at->key == SetupBarChart::key(static_cast<std::size_t>(bar)) ? at->value : 0.0;
}

double MemoryView::ghostGib(int pin, int bar) const { return chart_.ghostValue(pin, bar); }

double MemoryView::peakReservedGib(int bar) const {
    const auto* points = peak_outline_->data().data();
    return bar < points->size() ? points->at(bar)->value : 0.0;
}

QString MemoryView::barTooltip(int index) const {
    const Overview& o = doc_->overview();
    if (index < 0 || index >= static_cast<int>(o.bars.size())) return {};
    const Candidate& c = o.bars[static_cast<std::size_t>(index)];
    QString html =
        QStringLiteral("<b>%1</b><table>").arg(translated(setup_phrase(setup_key(c.zero), c.engine, c.hybrid_shard)).toHtmlEscaped());
    for (int i = kSliceCount - 1; i >= 0; --i) {
        html += QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2 GiB</td></tr>")
                    .arg(sliceName(static_cast<Slice>(i)))
                    .arg(localeNumber(bytes_to_gib(sliceBytes(c.memory, i)), 2));
        if (i == static_cast<int>(Slice::Params) && c.memory.frozen_params_bytes > 0)
            html += QStringLiteral("<tr><td>&nbsp;&nbsp;%1</td><td align=right>&nbsp;%2 GiB</td></tr>")
                        .arg(tr("of which frozen"))
                        .arg(localeNumber(bytes_to_gib(c.memory.frozen_params_bytes), 2));
    }
    html += QStringLiteral("<tr><td><b>%1</b></td><td align=right><b>&nbsp;%2 GiB</b></td></tr>")
                .arg(tr("Must fit"))
                .arg(localeNumber(bytes_to_gib(c.memory.total_bytes()), 2));
    const auto row = [](const QString& name, double bytes) {
        return QStringLiteral("<tr><td>%1</td><td align=right>&nbsp;%2 GiB</td></tr>").arg(name, localeNumber(bytes_to_gib(bytes), 2));
    };
    html += row(tr("Peak allocated (max_memory_allocated)"), c.memory.peak_allocated_bytes);
    html += row(tr("Peak reserved (nvidia-smi)"), c.memory.peak_reserved_bytes);
    html += QStringLiteral("</table>");
    html += tr("Must fit at the %1: %2")
                .arg(translatedCore(to_string(c.memory.required_phase)), translatedCore(c.memory.required_cause).toHtmlEscaped()) +
            QStringLiteral("<br>");
    html +=
        tr("Peaks in the %1: %2").arg(translatedCore(to_string(c.memory.peak.phase)), translatedCore(c.memory.peak.cause).toHtmlEscaped()) +
        QStringLiteral("<br>");
    html +=
        tr("Host RAM %1 GiB, NVMe %2 GiB per node")
            .arg(localeNumber(bytes_to_gib(c.memory.cpu_bytes_per_node), 1), localeNumber(bytes_to_gib(c.memory.nvme_bytes_per_node), 1));
    if (!c.fit.all())
        html += QStringLiteral("<br><b>") +
                (!c.fit.gpu   ? tr("Does not fit the GPU")
                 : !c.fit.cpu ? tr("Does not fit host RAM")
                              : tr("Does not fit NVMe")) +
                QStringLiteral("</b>");
    return html;
}

void MemoryView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) {
        restyle();
        rebuild();
    }
}

void MemoryView::restyle() {
    const QPalette pal = palette();
    applyPalette(plot_, pal);
    for (int i = 0; i < kSliceCount; ++i) {
        const QColor c = sliceColor(static_cast<Slice>(i));
        slices_[i]->setBrush(c);
        slices_[i]->setPen(QPen(pal.color(QPalette::Base), 1));
    }
    frozen_->setBrush(frozenWeightsColor());
    frozen_->setPen(QPen(pal.color(QPalette::Base), 1));
    const QColor text = pal.color(QPalette::WindowText);
    // An opaque tint (text mixed into the background) and a solid outline: a pattern brush, a
    // translucent fill or a dashed wide pen is blended span by span, which Qt 6.4 spreads over its
    // thread pool for tall areas, and doubled the slider's p99 in bench_gui.
    const QColor base = pal.color(QPalette::Base);
    const auto mix = [](int a, int b) { return (a * 5 + b) / 6; };
    peak_fill_->setBrush(QColor(mix(base.red(), text.red()), mix(base.green(), text.green()), mix(base.blue(), text.blue())));
    peak_fill_->setPen(Qt::NoPen);
    peak_outline_->setPen(QPen(text, 1));
    setLegend(frozen_in_legend_, cut_in_legend_);
    capacity_->setPen(QPen(capacityColor(pal), 2));
    plot_->yAxis2->setBasePen(Qt::NoPen);
    plot_->yAxis2->setTickPen(QPen(capacityColor(pal), 2));
    plot_->yAxis2->setTickLabelColor(capacityColor(pal));
    usable_->setPen(QPen(capacityColor(pal), 1.5, Qt::DashLine));
    spare_->setPen(QPen(highlightColor(pal), 2));
    spare_label_->setColor(highlightColor(pal));
}

void MemoryView::rebuild() {
    const Overview& o = doc_->overview();
    const Scenario& s = doc_->scenario();
    chart_.setSetups(o.bars);
    chart_.hideLabelsFrom(o.bars.size());
    peak_fill_->data()->clear();
    peak_outline_->data()->clear();
    double top = 0;
    bool any_frozen = false;
    for (std::size_t b = 0; b < o.bars.size(); ++b) {
        const Candidate& c = o.bars[b];
        const double key = SetupBarChart::key(b);
        const bool drawn = !SetupBarChart::notRun(c);
        const double frozen = drawn ? c.memory.frozen_params_bytes : 0.0;
        any_frozen = any_frozen || frozen > 0;
        if (frozen > 0) frozen_->addData(key, bytes_to_gib(frozen));  // a zero-height bar would still draw its pen
        for (int i = 0; i < kSliceCount; ++i)
            slices_[i]->addData(
                key, drawn ? bytes_to_gib(sliceBytes(c.memory, i) - (i == static_cast<int>(Slice::Params) ? frozen : 0.0)) : 0.0);
        const double peak = drawn ? bytes_to_gib(c.memory.peak_reserved_bytes) : 0.0;
        peak_fill_->addData(key, peak);
        peak_outline_->addData(key, peak);
        const double bar_top = barTopGib(c);
        top = std::max(top, bar_top);
        chart_.label(b)->position->setCoords(key, bar_top);
    }
    // The pins' bars, ghosted behind the live ones, at their tops as the live bars are drawn.
    std::vector<std::vector<double>> ghosts;
    for (const PinnedPlan& p : doc_->pins()) {
        std::vector<double> tops;
        for (const Candidate& c : p.overview.bars) {
            tops.push_back(barTopGib(c));
            top = std::max(top, tops.back());
        }
        ghosts.push_back(std::move(tops));
    }
    chart_.setGhosts(ghosts);
    const double capacity = s.cluster.gpu.memory_gib;
    const double usable = bytes_to_gib(usable_gpu_bytes(s));
    capacity_->point1->setCoords(0, capacity);
    capacity_->point2->setCoords(1, capacity);
    usable_->point1->setCoords(0, usable);
    usable_->point2->setCoords(1, usable);
    // Keep the capacity line and the tallest bar in view, but do not let one huge bar (DDP of a
    // 2T model) squash the rest: cap the axis at 4x capacity and say the bar is cut. A bar the
    // cap's headroom would still show whole is not cut: the axis then reaches it and its label.
    const double cap = 4.0 * capacity;
    const bool cut = top > cap * kLeastLabelHeadroom;
    range_top_gib_ = cut ? cap : top;
    range_floor_gib_ = capacity * 1.15;
    fitRange();
    // Only when bars are cut do their labels stand at the cap, on the bars, under the axis's top.
    for (std::size_t b = 0; cut && b < o.bars.size(); ++b)
        chart_.label(b)->position->setCoords(SetupBarChart::key(b), std::min(barTopGib(o.bars[b]), cap));
    capacity_ticker_->clear();
    capacity_ticker_->addTick(capacity, tr("GPU %1").arg(capacityText(capacity)));
    if (any_frozen != frozen_in_legend_ || cut != cut_in_legend_) setLegend(any_frozen, cut);
    showSelection();
}

// The bars' labels stand on their bars: the axis reaches past the highest bar top by at least
// kLeastLabelHeadroom of it, and far enough that every label, as fitted (two lines, or more where
// narrow bars wrap them), is whole with 3 pixels above it. On a short plot (a 1280x720 window) 18% of the axis was less
// than two lines, and the top label ran off the plot; with eight bars there, three.
bool MemoryView::fitRange() {
    constexpr double kSlackPixels = 3;
    const double labels_top = chart_.leastTopForLabels(plot_->axisRect()->height(), kSlackPixels);
    const QCPRange range(0, std::max({range_floor_gib_, range_top_gib_ * kLeastLabelHeadroom, labels_top}));
    // A range that already gives the labels their room, and not a tenth more, stays: a few pixels
    // of height do not move the axis.
    const double shown = plot_->yAxis->range().upper;
    if (plot_->yAxis->range().lower == 0 && shown >= range.upper && shown <= range.upper * 1.1) return false;
    plot_->yAxis->setRange(range);
    plot_->yAxis2->setRange(range);
    return true;
}

// The recommended setup's headroom (core/memory/memory_model.h fit_margin): from what must fit up to
// the usable line, "17.0 GiB to spare" at its middle. Not at the edge, where the two lines meet.
void MemoryView::showSpare(double key, const Candidate& c) {
    const Scenario& s = doc_->scenario();
    const FitMargin margin = fit_margin(s, c.memory);
    if (margin.at_edge || margin.margin_bytes <= 0) return;
    const double from = bytes_to_gib(c.memory.peak_required_bytes), to = bytes_to_gib(usable_gpu_bytes(s));
    spare_->start->setCoords(key, from);
    spare_->end->setCoords(key, to);
    spare_->setVisible(true);
    spare_wanted_ = true;
    spare_from_gib_ = from;
    spare_label_->setBrush(QColor(palette().color(QPalette::Base)));
    spare_bytes_ = fromCore(format_bytes(margin.margin_bytes));
    spare_text_ = tr("%1 to spare").arg(spare_bytes_);
    spare_label_->position->setCoords(key, to);
    spare_bar_top_gib_ = barTopGib(c.memory);
    spare_label_->setVisible(true);
    spare_room_ = QSizeF();
}

// The pixels between the bars' centres, and between what must fit and the usable line.
QSizeF MemoryView::spareRoom() const {
    return {std::abs(plot_->xAxis->coordToPixel(2) - plot_->xAxis->coordToPixel(1)),
            std::abs(spare_->end->pixelPosition().y() - spare_->start->pixelPosition().y())};
}

// "17.0 GiB to spare" wrapped to a bar's pitch (axis_label_fit.h), shown only while it fits between
// the two lines: taller, it would lie over the bar's own label.
void MemoryView::fitSpare() {
    if (!spare_wanted_) return;
    // From what must fit again: a smaller window may have hidden it or moved its start.
    spare_->setVisible(true);
    spare_->start->setCoords(spare_->start->coords().x(), spare_from_gib_);
    spare_room_ = spareRoom();
    const QFontMetricsF metrics(spare_label_->font());
    // Between the lines, and above the bar's own label when that label stands below the usable line
    // (it sits on the bar's top: must fit or the peak reserve, whichever is higher).
    const PlotLabel* bar_label = chart_.label(static_cast<std::size_t>(highlighted_));
    const double label_top = plot_->yAxis->coordToPixel(spare_bar_top_gib_) - 3 - bar_label->boxHeight();
    const double usable_px = spare_->end->pixelPosition().y();
    // The bracket runs from the bar's label up to the usable line, not through it (it went through
    // "47.5 ★ best" from what must fit, under the reserve's outline).
    if (spare_bar_top_gib_ < spare_->end->coords().y()) {
        if (label_top - 2 <= usable_px) {
            // The label reaches the usable line: no room for a bracket that does not cross it (the
            // card says the spare).
            spare_->setVisible(false);
            spare_label_->setVisible(false);
            return;
        }
        spare_->start->setCoords(spare_->start->coords().x(), plot_->yAxis->pixelToCoord(label_top - 2));
    }
    const auto fits = [&](const QString& text) {
        const double height = metrics.height() * static_cast<double>(text.count(QLatin1Char('\n')) + 1);
        const bool label_below = spare_bar_top_gib_ < spare_->end->coords().y();
        double width = 0;  // within the bar's pitch, clear of the neighbours' labels
        for (const QString& line : text.split(QLatin1Char('\n'))) width = std::max(width, metrics.horizontalAdvance(line));
        return width <= spare_room_.width() - 8 && height <= spare_room_.height() - 2 &&
               (!label_below || usable_px + height <= label_top - 1);
    };
    QString text = wrapToWidth(spare_text_, metrics, spare_room_.width() - 8);
    if (!fits(text))
        text = wrapToWidth(tr("+%1").arg(spare_bytes_), metrics,
                           spare_room_.width() - 8);  // the amount alone, signed: the bracket and the card say what it is
    spare_label_->setText(text);
    spare_label_->setVisible(fits(text));
}

// What depends on the selection: the bar labels' captions, colours and weight, and the frame.
void MemoryView::showSelection() {
    const Overview& o = doc_->overview();
    const QPalette pal = palette();
    const QColor label_bg = labelBackground(pal);
    frame_->setVisible(false);
    spare_->setVisible(false);
    spare_label_->setVisible(false);
    spare_wanted_ = false;
    highlighted_ = -1;
    // Each bar is its setup's fastest candidate (the closest where none fits), each at its own micro
    // batch and recompute: where the fitting ones differ the captions say it, so a ZeRO-3 bar at
    // micro batch 2 is not read as ZeRO-3 needing more than ZeRO-2 at 1.
    const auto differ = [&](auto field) {
        const Candidate* first = nullptr;
        for (const Candidate& c : o.bars) {
            if (!c.fit.all()) continue;
            if (first && field(c) != field(*first)) return true;
            if (!first) first = &c;
        }
        return false;
    };
    const bool mixed_micro = differ([](const Candidate& c) { return c.micro_batch; });
    const bool mixed_recompute = differ([](const Candidate& c) { return c.checkpointing; });
    for (std::size_t b = 0; b < o.bars.size(); ++b) {
        const Candidate& c = o.bars[b];
        const double key = SetupBarChart::key(b);
        const double total = barTopGib(c);
        // The caption is what must fit, as the bar, the spare bracket and the card say (the
        // outlined box is the peak reserve; the tooltip has both and the moment). From 1,000 GiB
        // in TiB with the unit, as the card writes it.
        const double must_fit = bytes_to_gib(c.memory.peak_required_bytes);
        const bool recommended = o.plan_valid && o.plan.feasible && same_setup(c.zero, o.plan.best.zero) && doc_->selectionFollowsPlan();
        // Only a bar the user clicked is "selected"; following the plan, only the recommended one is marked.
        const bool selected = !doc_->selectionFollowsPlan() && same_setup(c.zero, doc_->selectedSetup());
        if (recommended) highlighted_ = static_cast<int>(b);
        PlotLabel* text = chart_.label(b);
        text->setBrush(label_bg);
        QString caption = must_fit < 1000 ? localeNumber(must_fit, 1) : fromCore(format_bytes(c.memory.peak_required_bytes));
        if (SetupBarChart::notRun(c)) caption.clear();
        if ((mixed_micro || mixed_recompute) && !SetupBarChart::notRun(c)) {
            QStringList how;
            // Kept on one line (a no-break space: the chart wraps captions at spaces).
            if (mixed_micro) how << tr("mb %1").arg(c.micro_batch).replace(QLatin1Char(' '), QChar(0x00A0));
            if (mixed_recompute)
                how << (c.checkpointing == Checkpointing::None ? tr("no recompute") : translatedCore(to_string(c.checkpointing)));
            caption += QLatin1Char('\n') + how.join(SetupBarChart::detailSeparator());
        }
        if (!c.fit.all()) {
            // A setup that cannot run there says why (Fit::refusal), else what it overflows.
            caption += (caption.isEmpty() ? QStringLiteral("\u2717 ") : QStringLiteral("\n\u2717 ")) + SetupBarChart::misfitMark(c);
            text->setColor(capacityColor(pal));
        } else if (recommended) {
            caption += QStringLiteral("\n\u2605 ") + tr("best");
            text->setColor(highlightColor(pal));
        } else {
            text->setColor(pal.color(QPalette::WindowText));
        }
        QFont f = font();
        f.setBold(recommended || selected);
        text->setFont(f);
        text->setText(caption);
        if (recommended) showSpare(key, c);
        if (selected || recommended) {
            frame_->setVisible(true);
            frame_->topLeft->setCoords(key - 0.45, total);
            frame_->bottomRight->setCoords(key + 0.45, 0);
            QColor fill = highlightColor(pal);
            fill.setAlpha(40);
            frame_->setBrush(fill);
            frame_->setPen(QPen(highlightColor(pal), 2));
        }
    }
    queueReplot(plot_);
}

}  // namespace zp::ui
