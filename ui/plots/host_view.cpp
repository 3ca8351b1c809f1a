#include "ui/plots/host_view.h"

#include "core/base/units.h"
#include "core/memory/host_slices.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/chart/replot_queue.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/i18n/translations.h"
#include "ui/qcustomplot_include.h"

namespace zp::ui {

namespace {
constexpr int kHostSliceCount = static_cast<int>(host_slices().size());
const HostSlices& peakSlices(const Candidate& c) { return c.memory.host.peak().bytes; }
}  // namespace

HostView::HostView(PlannerDocument* doc, QWidget* parent)
    : LazyView(parent), doc_(doc), plot_(newPlot(this)), legend_(new LegendStrip(this)), chart_(plot_, QMargins(2, 0, 2, 3)) {
    embedPlot(this, plot_, QCP::aePlottables | QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeFills | QCP::aeItems, legend_);
    QList<LegendStrip::Entry> entries;
    for (int i = 0; i < kHostSliceCount; ++i) {
        slices_.append(chart_.addPart(hostSliceName(i)));
        slices_.back()->setStackingGap(0);
        entries.append({hostSliceName(i), hostSliceColor(i)});
    }
    legend_->setEntries(entries);
    capacity_ = new QCPItemStraightLine(plot_);
    capacity_ticker_ = chart_.addCapacityAxis();
    plot_->yAxis->setLabel(tr("GiB of host RAM per node, at the run's peak"));
    setAccessibleName(tr("Host RAM per node"));
    setAccessibleDescription(tr("For each setup, a node's host memory when it peaks over the run, by slice, against the node's RAM"));
    chart_.onBars(
        this, [this](int bar) { return barTooltip(bar); }, [this](int bar) { emit setupClicked(bar); });
    connect(doc_, &PlannerDocument::resultsChanged, this, &HostView::documentChanged);
    connect(doc_, &PlannerDocument::selectionChanged, this, &HostView::documentChanged);
    restyle();
}

void HostView::restyle() {
    const QPalette pal = palette();
    applyPalette(plot_, pal);
    for (int i = 0; i < kHostSliceCount; ++i) {
        slices_[i]->setBrush(hostSliceColor(i));
        slices_[i]->setPen(QPen(pal.color(QPalette::Base), 1));
    }
    capacity_->setPen(QPen(capacityColor(pal), 2));
    plot_->yAxis2->setBasePen(Qt::NoPen);
    plot_->yAxis2->setTickPen(QPen(capacityColor(pal), 2));
    plot_->yAxis2->setTickLabelColor(capacityColor(pal));
}

void HostView::rebuild() {
    const Overview& o = doc_->overview();
    const Scenario& s = doc_->scenario();
    const QPalette pal = palette();
    chart_.setSetups(o.bars);
    chart_.hideLabelsFrom(o.bars.size());
    const double capacity = bytes_to_gib(s.cluster.cpu_ram_bytes_per_node);
    // Keep the RAM line and the bars in view, but cap the axis at 4x the RAM so one huge bar
    // (DDP loading a 2T model in every process) does not squash the rest.
    const double cap = capacity > 0 ? 4.0 * capacity : 0.0;
    double top = 0;
    const QColor label_bg = labelBackground(pal);
    for (std::size_t b = 0; b < o.bars.size(); ++b) {
        const Candidate& c = o.bars[b];
        const double key = SetupBarChart::key(b);
        const double shown = SetupBarChart::notRun(c) ? 0.0 : 1.0;  // a setup the engine does not have: no bar
        for (int i = 0; i < kHostSliceCount; ++i)
            slices_[i]->addData(key, shown * bytes_to_gib(host_slices()[static_cast<std::size_t>(i)].bytes(peakSlices(c))));
        const double total = shown * bytes_to_gib(c.memory.cpu_bytes_per_node);
        top = std::max(top, total);
        PlotLabel* label = chart_.label(b);
        label->position->setCoords(key, cap > 0 ? std::min(total, cap) : total);
        label->setBrush(label_bg);
        label->setFont(font());
        label->setText(barCaption(static_cast<int>(b)));
        label->setColor(c.fit.cpu && !SetupBarChart::notRun(c) ? pal.color(QPalette::WindowText) : capacityColor(pal));
    }
    capacity_->point1->setCoords(0, capacity);
    capacity_->point2->setCoords(1, capacity);
    const double shown = cap > 0 ? std::min(top, cap) : top;
    // The axis reaches the RAM line unless the bars are far below it (a 2 TiB node's 250 GiB bars
    // drew in the bottom eighth): then it fits the bars, and the RAM is named at the top edge.
    ram_above_ = capacity > kRamAboveBars * shown && shown > 0;
    const double y_top = ram_above_ ? shown * 1.3 : std::max({capacity * 1.15, shown * 1.22, 1.0});
    plot_->yAxis->setRange(0, y_top);
    capacity_->setVisible(!ram_above_);
    capacity_ticker_->clear();
    if (ram_above_) capacity_ticker_->addTick(y_top, tr("RAM %1 \u2191").arg(capacityText(capacity)));
    else capacity_ticker_->addTick(capacity, tr("RAM %1").arg(capacityText(capacity)));
    plot_->yAxis2->setRange(plot_->yAxis->range());
    queueReplot(plot_);
}

double HostView::sliceGib(int slice, int bar) const {
    const auto* points = slices_[slice]->data().data();
    return bar < points->size() ? points->at(bar)->value : 0.0;
}

QString HostView::barCaption(int bar) const {
    const Overview& o = doc_->overview();
    if (bar < 0 || bar >= static_cast<int>(o.bars.size())) return {};
    const Candidate& c = o.bars[static_cast<std::size_t>(bar)];
    if (SetupBarChart::notRun(c)) return QStringLiteral("\u2717 ") + SetupBarChart::misfitMark(c);
    const double gib = bytes_to_gib(c.memory.cpu_bytes_per_node);
    QString caption = localeNumber(gib, gib < 100 ? 1 : 0) + QLatin1Char('\n') + hostPhaseShortName(c.memory.host.peak_phase);
    if (!c.fit.cpu) caption = QStringLiteral("\u2717 ") + caption;
    return caption;
}

QString HostView::barTooltip(int bar) const {
    const Overview& o = doc_->overview();
    if (bar < 0 || bar >= static_cast<int>(o.bars.size())) return {};
    const Candidate& c = o.bars[static_cast<std::size_t>(bar)];
    const HostMemory& h = c.memory.host;
    QString html =
        QStringLiteral("<b>%1</b><table>").arg(translated(setup_phrase(setup_key(c.zero), c.engine, c.hybrid_shard)).toHtmlEscaped());
    for (const HostMoment& mo : h.moments) {
        const bool peak = mo.phase == h.peak_phase;
        html += QStringLiteral("<tr><td>%1%2%3</td><td align=right>&nbsp;%4 GiB</td></tr>")
                    .arg(peak ? QStringLiteral("<b>") : QString(), hostPhaseName(mo.phase), peak ? QStringLiteral("</b>") : QString())
                    .arg(localeNumber(bytes_to_gib(mo.bytes.total()), 1));
    }
    html += QStringLiteral("</table>");
    html += tr("Peaks %1: %2").arg(translatedCore(host_phase_words(h.peak_phase)), translatedCore(h.peak().cause).toHtmlEscaped());
    if (h.peak().pinned_rounding_bytes > 0)
        html += QStringLiteral("<br>") + tr("%1 GiB of it is pinned memory rounded up to a power of two")
                                             .arg(localeNumber(bytes_to_gib(h.peak().pinned_rounding_bytes), 1));
    if (h.nvme_bytes > 0) html += QStringLiteral("<br>") + tr("NVMe %1 GiB per node").arg(localeNumber(bytes_to_gib(h.nvme_bytes), 1));
    if (!c.fit.cpu) html += QStringLiteral("<br><b>") + tr("Does not fit the node's RAM") + QStringLiteral("</b>");
    return html;
}

double HostView::capacityGib() const { return capacity_->point1->coords().y(); }

}  // namespace zp::ui
