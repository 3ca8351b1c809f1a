#include "ui/plots/time_view.h"

#include "core/base/format.h"
#include "ui/chart/duration_ticker.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/chart/replot_queue.h"
#include "ui/document/planner_document.h"
#include "ui/qcustomplot_include.h"

#include <QFontMetrics>

#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace zp::ui {

TimeView::TimeView(PlannerDocument* doc, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      plot_(newPlot(this)),
      legend_(new LegendStrip(this)),
      chart_(plot_, QMargins(0, 0, 0, 3)),
      note_(new PlotLabel(plot_)),
      ticker_(new DurationTicker) {
    embedPlot(this, plot_, QCP::aePlottables | QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeFills | QCP::aeItems, legend_);
    QList<LegendStrip::Entry> entries;
    // Bottom to top: compute, exposed communication, offload.
    const auto addPart = [&](TimePart p) {
        entries.append({timePartName(p), timePartColor(p)});
        QCPBars* bars = chart_.addPart(timePartName(p));
        bars->setBrush(timePartColor(p));
        return bars;
    };
    compute_ = addPart(TimePart::Compute);
    comm_ = addPart(TimePart::Communication);
    offload_ = addPart(TimePart::Offload);
    base_legend_ = entries;  // waiting for data joins the legend only when a bar has it (updateLegend)
    data_wait_ = addPart(TimePart::DataWait);
    plot_->yAxis->setTicker(ticker_);
    setAxisUnit(1.0);
    legend_->setEntries(entries);
    note_->position->setType(QCPItemPosition::ptAxisRectRatio);
    note_->position->setCoords(0.5, 0.4);
    connect(doc_, &PlannerDocument::resultsChanged, this, &TimeView::rebuild);
    // The tokens/s line needs the pitch the layout gives: when that changes the room, the captions
    // are set again after the layout and drawn in the same replot (they are items, drawn after it).
    connect(plot_, &QCustomPlot::afterLayout, this, [this] {
        if (!doc_->overview().step_valid || captionsRoomy() == roomy_) return;
        setCaptions();
        chart_.fitLabels();
    });
    connect(doc_, &PlannerDocument::pinsChanged, this, &TimeView::rebuild);
    rebuild();
}

DurationUnit TimeView::axisUnit() const { return ticker_->unit(); }

// The axis reads in the unit of the tallest bar it shows whole; the captions in the same unit where
// that reads at least 1 ("1.9 min" beside "2.5 min", not "112.65 s"), in their own below ("35.96 s").
void TimeView::setAxisUnit(double top_seconds) {
    ticker_->setUnitFor(top_seconds);
    QString title;
    switch (ticker_->unit()) {
    case DurationUnit::Milliseconds: title = tr("Milliseconds per optimizer step"); break;
    case DurationUnit::Seconds: title = tr("Seconds per optimizer step"); break;
    case DurationUnit::Minutes: title = tr("Minutes per optimizer step"); break;
    case DurationUnit::Hours: title = tr("Hours per optimizer step"); break;
    case DurationUnit::Days: title = tr("Days per optimizer step"); break;
    }
    // Steps of different sizes (each layout's own global batch) are not the same work: the
    // heights do not rank the setups, their tokens/s do, and the title says so.
    if (mixed_steps_) title += QLatin1Char('\n') + tr("steps differ: compare tok/s");
    if (plot_->yAxis->label() != title) plot_->yAxis->setLabel(title);
}

bool TimeView::captionsRoomy() const {
    const double pitch = plot_->xAxis->coordToPixel(SetupBarChart::key(1)) - plot_->xAxis->coordToPixel(SetupBarChart::key(0));
    // Where the tokens/s line is a little wider than a label's room, it is not parted from "tok/s"
    // (wrapToWidth): SetupBarChart::fitLabels draws the label a little smaller.
    return pitch >= widest_tokens_ + 2;
}

void TimeView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) rebuild();
}

void TimeView::updateLegend(bool waits_for_data) {
    QList<LegendStrip::Entry> entries = base_legend_;
    if (waits_for_data) entries.append({timePartName(TimePart::DataWait), timePartColor(TimePart::DataWait)});
    SetupBarChart::appendGhostLegend(entries, doc_->pins(), palette());
    // A bar that runs off the top would otherwise read as the axis's maximum (the memory view says it
    // alike); its room kept once the axis has been cut, as there.
    legend_->setEntries(
        entries, {tr("Axis cut; bar labels give the times"), palette().color(QPalette::WindowText), LegendStrip::Swatch::Break}, axis_cut_);
}

// Offload-heavy setups can be 100x slower: the axis is capped at 4x the fastest fitting setup, but
// never below the recommended setup's bar, which the card talks about and must be seen whole.
double TimeView::axisCapSeconds(const Overview& o, double top) {
    double fastest = 0, best = 0;
    for (const Candidate& c : o.bars) {
        if (c.fit.all() && (fastest == 0 || c.step.seconds < fastest)) fastest = c.step.seconds;
        if (o.plan_valid && o.plan.feasible && same_setup(c.zero, o.plan.best.zero)) best = std::max(best, c.step.seconds);
    }
    return fastest > 0 ? std::max(4 * fastest, best) : top;
}

void TimeView::rebuild() {
    const Overview& o = doc_->overview();
    const QPalette pal = palette();
    applyPalette(plot_, pal);
    note_->setVisible(false);
    chart_.setSetups(o.bars);
    for (QCPBars* b : {compute_, comm_, offload_, data_wait_}) b->setPen(QPen(pal.color(QPalette::Base), 1));
    double top = 0;
    bool waits_for_data = false;
    for (std::size_t i = 0; o.step_valid && i < o.bars.size(); ++i) {
        const Candidate& c = o.bars[i];
        const double key = SetupBarChart::key(i);
        const double shown = SetupBarChart::notRun(c) ? 0.0 : 1.0;  // a setup the engine does not have: no bar
        compute_->addData(key, shown * c.step.compute_seconds);
        comm_->addData(key, shown * c.step.comm_seconds);
        offload_->addData(key, shown * c.step.offload_seconds);
        data_wait_->addData(key, shown * c.step.data_wait_seconds);
        waits_for_data = waits_for_data || shown * c.step.data_wait_seconds > 0;
        top = std::max(top, shown * c.step.seconds);
    }
    // The pins' step times, ghosted behind the live bars.
    std::vector<std::vector<double>> ghosts;
    for (const PinnedPlan& p : doc_->pins()) {
        std::vector<double> seconds;
        for (std::size_t i = 0; p.overview.step_valid && i < p.overview.bars.size(); ++i)
            seconds.push_back(p.overview.bars[i].step.seconds);
        ghosts.push_back(std::move(seconds));
    }
    chart_.setGhosts(ghosts);
    axis_cut_ = false;
    if (!o.step_valid) {
        updateLegend(waits_for_data);
        chart_.hideLabelsFrom(0);
        note_->setVisible(true);
        note_->setColor(warningColor(pal));
        note_->setText(QString::fromStdString(o.step_error));
        plot_->yAxis->setRange(0, 1);
        queueReplot(plot_);
        return;
    }
    const double cap = axisCapSeconds(o, top);
    const double y_max = std::min(top, cap) * 1.25;
    mixed_steps_ = false;
    for (const Candidate& c : o.bars)
        mixed_steps_ = mixed_steps_ || std::abs(c.step.tokens_per_step - o.bars.front().step.tokens_per_step) >
                                           0.005 * std::max(c.step.tokens_per_step, o.bars.front().step.tokens_per_step);
    setAxisUnit(std::min(top, cap));
    plot_->yAxis->setRange(0, y_max > 0 ? y_max : 1);
    label_cap_seconds_ = cap;
    axis_cut_ = y_max > 0 && top > y_max;
    updateLegend(waits_for_data);
    chart_.hideLabelsFrom(o.bars.size());
    // The step's tokens line follows the tokens/s line, wrapped to the bar like it (fitLabels).
    widest_tokens_ = 0;
    for (const Candidate& c : o.bars)
        widest_tokens_ = std::max(widest_tokens_, QFontMetrics(plot_->font()).horizontalAdvance(tokensCaption(c)));
    setCaptions();
    queueReplot(plot_);
}

QString TimeView::tokensCaption(const Candidate& c) {
    return tr("%1 tok/s").arg(QString::fromStdString(format_compact(c.step.tokens_per_second)));
}

QString TimeView::stepTokensCaption(const Candidate& c) {
    return tr("step of %1 tok").arg(QString::fromStdString(format_compact(c.step.tokens_per_step)));
}

void TimeView::setCaptions() {
    const Overview& o = doc_->overview();
    const QPalette pal = palette();
    roomy_ = captionsRoomy();
    // Every caption on the plot's background (a cut bar's stands on the bar itself), to be read on
    // any part's colour, as the memory view's labels.
    const QColor label_bg = labelBackground(pal);
    for (std::size_t i = 0; i < o.bars.size(); ++i) {
        const Candidate& c = o.bars[i];
        PlotLabel* text = chart_.label(i);
        text->setBrush(label_bg);
        const bool not_run = SetupBarChart::notRun(c);
        text->position->setCoords(SetupBarChart::key(i), not_run ? 0.0 : std::min(c.step.seconds, label_cap_seconds_));
        // The recommended setup marked as the memory view marks it: which bar the card talks about.
        const bool recommended = c.fit.all() && o.plan_valid && o.plan.feasible && same_setup(c.zero, o.plan.best.zero);
        text->setColor(!c.fit.all() ? capacityColor(pal) : recommended ? highlightColor(pal) : pal.color(QPalette::WindowText));
        const DurationUnit axis = ticker_->unit();
        // On an axis of minutes, hours or days; two decimals below 10 of the unit, so that steps a
        // few percent apart still read apart. Seconds are written as everywhere (format_seconds).
        const double in_axis = c.step.seconds / seconds_per(axis);
        const bool long_axis = axis != DurationUnit::Seconds && axis != DurationUnit::Milliseconds;
        QString caption = QString::fromStdString(long_axis && in_axis >= 1.0 ? format_seconds_in(c.step.seconds, axis, in_axis < 10 ? 2 : 1)
                                                                             : format_seconds(c.step.seconds));
        // Steps of different sizes are ranked by tokens/s (the axis title says so): with room for one
        // line only, that line is the tokens/s, not the seconds (a window review: ZeRO-1's shorter
        // bar read as the faster setup at 1280 x 720).
        if (mixed_steps_ && !roomy_) caption = tokensCaption(c);
        if (roomy_) caption += QStringLiteral("\n") + tokensCaption(c);
        if (roomy_ && mixed_steps_) caption += QStringLiteral("\n") + stepTokensCaption(c);
        if (not_run) caption = QStringLiteral("\u2717 ") + SetupBarChart::misfitMark(c);
        else if (!c.fit.all()) caption += QStringLiteral("\n\u2717 ") + SetupBarChart::misfitMark(c);  // as the memory view marks it
        if (recommended) caption += QStringLiteral("\n\u2605 ") + tr("best");
        text->setText(caption);
    }
}

}  // namespace zp::ui
