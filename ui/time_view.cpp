#include "ui/time_view.h"

#include "core/io/format.h"
#include "ui/legend_strip.h"
#include "ui/planner_document.h"
#include "ui/plot_label.h"
#include "ui/plot_style.h"
#include "ui/qcustomplot_include.h"

#include <QVBoxLayout>

namespace zp::ui {

TimeView::TimeView(PlannerDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), plot_(new QCustomPlot(this)), legend_(new LegendStrip(this)), note_(new PlotLabel(plot_)) {
    embedPlot(this, plot_, QCP::aePlottables | QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeFills | QCP::aeItems, legend_);
    QList<LegendStrip::Entry> entries;
    QCPBars* below = nullptr;
    // Bottom to top: compute, exposed communication, offload.
    const auto addPart = [&](TimePart p) {
        entries.append({timePartName(p), timePartColor(p)});
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        bars->setName(timePartName(p));
        bars->setWidth(0.62);
        bars->setBrush(timePartColor(p));
        if (below) bars->moveAbove(below);
        below = bars;
        return bars;
    };
    compute_ = addPart(TimePart::Compute);
    comm_ = addPart(TimePart::Communication);
    offload_ = addPart(TimePart::Offload);
    ticker_.reset(new QCPAxisTickerText);
    plot_->xAxis->setTicker(ticker_);
    plot_->yAxis->setLabel(tr("Seconds per optimizer step"));
    legend_->setEntries(entries);
    note_->position->setType(QCPItemPosition::ptAxisRectRatio);
    note_->position->setCoords(0.5, 0.4);
    connect(doc_, &PlannerDocument::resultsChanged, this, &TimeView::rebuild);
    rebuild();
}

void TimeView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) rebuild();
}

void TimeView::rebuild() {
    const Overview& o = doc_->overview();
    const QPalette pal = palette();
    applyPalette(plot_, pal);
    for (PlotLabel* label : labels_) label->setVisible(false);
    note_->setVisible(false);
    for (QCPBars* b : {compute_, comm_, offload_}) {
        b->data()->clear();
        b->setPen(QPen(pal.color(QPalette::Base), 1));
    }
    ticker_->clear();
    double top = 0;
    for (std::size_t i = 0; i < o.bars.size(); ++i) {
        const Candidate& c = o.bars[i];
        const double key = static_cast<double>(i + 1);
        ticker_->addTick(key, QString::fromStdString(short_setup_label(c.zero)).replace(QLatin1Char('+'), QStringLiteral("\n+")));
        if (!o.step_valid) continue;
        compute_->addData(key, c.step.compute_seconds);
        comm_->addData(key, c.step.comm_seconds);
        offload_->addData(key, c.step.offload_seconds);
        top = std::max(top, c.step.seconds);
    }
    plot_->xAxis->setRange(0.4, static_cast<double>(o.bars.size()) + 0.6);
    if (!o.step_valid) {
        note_->setVisible(true);
        note_->setColor(warningColor(pal));
        note_->setText(QString::fromStdString(o.step_error));
        plot_->yAxis->setRange(0, 1);
        plot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // Offload-heavy setups can be 100x slower: cap the axis at 4x the fastest fitting setup.
    double fastest = 0;
    for (const Candidate& c : o.bars)
        if (c.fit.all() && (fastest == 0 || c.step.seconds < fastest)) fastest = c.step.seconds;
    const double cap = fastest > 0 ? 4 * fastest : top;
    const double y_max = std::min(top, cap) * 1.25;
    plot_->yAxis->setRange(0, y_max > 0 ? y_max : 1);
    for (std::size_t i = 0; i < o.bars.size(); ++i) {
        const Candidate& c = o.bars[i];
        while (labels_.size() <= static_cast<qsizetype>(i)) {
            auto* label = new PlotLabel(plot_);
            label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
            label->setPadding(QMargins(0, 0, 0, 3));
            labels_.append(label);
        }
        PlotLabel* text = labels_[static_cast<qsizetype>(i)];
        text->setVisible(true);
        text->position->setCoords(static_cast<double>(i + 1), std::min(c.step.seconds, cap));
        text->setColor(c.fit.all() ? pal.color(QPalette::WindowText) : capacityColor(pal));
        QString caption = QString::fromStdString(format_seconds(c.step.seconds)) + QStringLiteral("\n") +
                          tr("%1 tok/s").arg(QString::fromStdString(format_compact(c.step.tokens_per_second)));
        if (!c.fit.all()) caption += QStringLiteral("\n\u2717 ") + tr("no fit");
        text->setText(caption);
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace zp::ui
