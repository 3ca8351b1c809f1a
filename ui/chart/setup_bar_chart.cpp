#include "ui/chart/setup_bar_chart.h"

#include "core/search/overview.h"
#include "ui/chart/axis_label_fit.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/chart/replot_queue.h"
#include "ui/chart/text_widths.h"
#include "ui/document/planner_document.h"
#include "ui/qcustomplot_include.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace zp::ui {

QString SetupBarChart::misfitMark(const Candidate& c) {
    const auto translated = [](const char* text) { return QCoreApplication::translate("SetupBarChart", text); };
    switch (c.fit.refusal) {
    case SetupRefusal::MasterWeights: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "bf16 master"));
    case SetupRefusal::Engine: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "FSDP"));
    case SetupRefusal::Pipeline: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "pipeline"));
    case SetupRefusal::Tensor: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "tensor"));
    case SetupRefusal::Experts: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "experts"));
    case SetupRefusal::Optimizer: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "optimizer"));
    case SetupRefusal::KernelIndex: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "int32 index"));
    case SetupRefusal::Release: return translated(QT_TRANSLATE_NOOP("SetupBarChart", "release"));
    case SetupRefusal::None: break;
    }
    return !c.fit.gpu   ? translated(QT_TRANSLATE_NOOP("SetupBarChart", "GPU"))
           : !c.fit.cpu ? translated(QT_TRANSLATE_NOOP("SetupBarChart", "host"))
                        : translated(QT_TRANSLATE_NOOP("SetupBarChart", "NVMe"));
}

bool SetupBarChart::notRun(const Candidate& c) { return c.fit.refusal == SetupRefusal::Engine; }

SetupBarChart::SetupBarChart(QCustomPlot* plot, const QMargins& labelPadding)
    : plot_(plot), label_padding_(labelPadding), ticker_(new QCPAxisTickerText) {
    plot_->xAxis->setTicker(ticker_);
    // Fitted before the replot lays the plot out (a new text, a turned tick label, which moves the
    // margins). A resize changes the pitch in that layout (QCustomPlot::replot: beforeReplot,
    // updateLayout, which emits afterLayout, then the layers draw): the labels are fitted again
    // there, in the same replot, since they are items drawn after the layout; turning the tick
    // labels there moves the margins, so the plot is laid out again (relayoutInReplot). Should a
    // replot still end with labels fitted to another pitch, one more is queued.
    before_replot_ = QObject::connect(plot_, &QCustomPlot::beforeReplot, plot_, [this] { fitLabels(); });
    after_layout_ = QObject::connect(plot_, &QCustomPlot::afterLayout, plot_, [this] {
        if (bars_ <= 1 || pitchPixels() == fitted_pitch_) return;
        const double rotation = plot_->xAxis->tickLabelRotation();
        fitLabels();
        if (plot_->xAxis->tickLabelRotation() != rotation) relayoutInReplot(plot_);
    });
    after_replot_ = QObject::connect(plot_, &QCustomPlot::afterReplot, plot_, [this] {
        if (bars_ > 1 && pitchPixels() != fitted_pitch_) queueReplot(plot_);
    });
}

SetupBarChart::~SetupBarChart() {
    QObject::disconnect(before_replot_);
    QObject::disconnect(after_layout_);
    QObject::disconnect(after_replot_);
}

double SetupBarChart::pitchPixels() const { return std::abs(plot_->xAxis->coordToPixel(key(1)) - plot_->xAxis->coordToPixel(key(0))); }

void SetupBarChart::fitLabels() {
    fitted_pitch_ = pitchPixels();
    // Room for a label: the pitch less its padding and a gap of a few pixels to the next one.
    const double room = fitted_pitch_ - label_padding_.left() - label_padding_.right() - kLabelGapPixels;
    // Before the plot's first layout the axis has no length and the bars no pitch: the layout's
    // pass fits the labels (a fit to no room would load a font engine of the smallest size, the
    // largest cost of the first frame's label fitting, for labels never drawn).
    if (bars_ > 1 && fitted_pitch_ <= 0) return;
    while (fits_.size() < labels_.size()) fits_.append(LabelFit());
    // The setups' names under the bars: turned when the widest would run into its neighbour.
    const QFontMetricsF tick_metrics(plot_->xAxis->tickLabelFont());
    double widest_tick = 0;
    for (const QString& name : ticker_->ticks())
        for (const QString& line : name.split(QLatin1Char('\n'))) widest_tick = std::max(widest_tick, tick_metrics.horizontalAdvance(line));
    const double rotation = bars_ > 1 && widest_tick + kLabelGapPixels > fitted_pitch_ ? -45.0 : 0.0;
    if (plot_->xAxis->tickLabelRotation() != rotation) plot_->xAxis->setTickLabelRotation(rotation);
    for (qsizetype i = 0; i < labels_.size(); ++i)
        if (labels_[i]->visible()) fitLabel(i, room);
}

namespace {
// `text` without its last " · " detail (to the end of that line); empty when it has none.
QString withoutLastDetail(const QString& text) {
    const qsizetype at = text.lastIndexOf(SetupBarChart::detailSeparator());
    if (at < 0) return {};
    const qsizetype line_end = text.indexOf(QLatin1Char('\n'), at);
    return text.left(at) + (line_end < 0 ? QString() : text.mid(line_end));
}

double widestLine(const QString& text, TextWidths& widths) {
    double widest = 0;
    for (const QString& line : text.split(QLatin1Char('\n'))) widest = std::max(widest, widths.of(line));
    return widest;
}
}  // namespace

void SetupBarChart::fitLabel(qsizetype i, double room) {
    PlotLabel* label = labels_[i];
    LabelFit& fit = fits_[i];
    // A text or font other than the one fitted last is the view's own. The view's text and font
    // in the room fitted last give the label fitted last (each replot fits before its layout, and
    // again after it when the pitch moved; the views set their texts on every change).
    const double fit_room = bars_ > 1 ? room : -1;
    const bool new_text = label->text() != fit.text && label->text() != fit.full_text;
    const bool new_font = label->font() != fit.font && label->font() != fit.full_font;
    if (new_text) fit.full_text = label->text();
    if (new_font) fit.full_font = label->font();
    if (new_text || new_font || fit.room != fit_room) {
        fit.room = fit_room;
        fit.font = fit.full_font;
        TextWidths at_full_font(fit.font);  // each line measured once in this fit
        fit.text = bars_ > 1 ? wrapToWidth(fit.full_text, at_full_font, room) : fit.full_text;
        // A number with its unit wider than the room ("70.36 s" between narrow bars) is not parted
        // (wrapToWidth): the label's font is made smaller instead, down to three quarters of the
        // view's, in half points: each size is a font engine Qt loads once (QFontCache), so a pitch
        // that moves by a pixel reuses the size before rather than loading another.
        // A mark with its word ("✗ FSDP", "✗ pipeline") that wrapToWidth cut to the mark alone counts
        // at its whole width: a smaller font keeps the word before the mark stands alone (a window
        // review: "not in FSDP" read as the bare "does not fit" mark at 1280 x 720).
        // Only where the smallest size keeps it: a word too long even there ("✗ pipeline" between
        // seven bars) leaves the mark alone at the view's size.
        constexpr double kSmallestScale = 0.75;
        const double wrapped_widest = widestLine(fit.text, at_full_font);
        double widest = wrapped_widest;
        for (const QString& line : fit.full_text.split(QLatin1Char('\n')))
            if (const double whole = at_full_font.of(line);
                line.size() > 2 && line[1] == QLatin1Char(' ') && line[0].isSymbol() && whole * kSmallestScale <= room)
                widest = std::max(widest, whole);
        const QString at_full_size = fit.text;
        if (bars_ > 1 && widest > room && fit.font.pointSizeF() > 0) {
            constexpr double kStepsPerPoint = 2;
            const double size = fit.font.pointSizeF();
            fit.font.setPointSizeF(std::max(size * kSmallestScale, std::floor(size * room / widest * kStepsPerPoint) / kStepsPerPoint));
            TextWidths at_smaller_font(fit.font);
            fit.text = wrapToWidth(fit.full_text, at_smaller_font, room);
            // Still wider at the smallest size (a word such as "recompute" between eight bars at
            // 1280x720): the caption's " · " details go, the last first, rather than run into the
            // next bar's label; the bar's tooltip and the card keep them.
            for (QString shorter = withoutLastDetail(fit.full_text); !shorter.isEmpty() && widestLine(fit.text, at_smaller_font) > room;
                 shorter = withoutLastDetail(shorter))
                fit.text = wrapToWidth(shorter, at_smaller_font, room);
            // Shrunk for a mark's word alone, which the smaller size still cut: the view's size back.
            if (wrapped_widest <= room && fit.text.count(QLatin1Char('\n')) == at_full_size.count(QLatin1Char('\n')) &&
                fit.text.size() == at_full_size.size()) {
                fit.font = fit.full_font;
                fit.text = at_full_size;
            }
        }
    }
    if (fit.font != label->font()) label->setFont(fit.font);
    if (fit.text != label->text()) label->setText(fit.text);
}

QCPBars* SetupBarChart::addPart(const QString& name) {
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setName(name);
    bars->setWidth(0.62);
    if (!parts_.isEmpty()) bars->moveAbove(parts_.back());
    parts_.append(bars);
    return bars;
}

void SetupBarChart::setSetups(const std::vector<Candidate>& bars) {
    bars_ = bars.size();
    for (QCPBars* part : parts_) part->data()->clear();
    ticker_->clear();
    for (std::size_t b = 0; b < bars.size(); ++b)
        ticker_->addTick(key(b), QString::fromStdString(short_setup_label(setup_key(bars[b].zero), bars[b].engine, bars[b].hybrid_shard))
                                     .replace(QLatin1Char('+'), QStringLiteral("\n+")));
    plot_->xAxis->setRange(0.4, static_cast<double>(bars.size()) + 0.6);
}

PlotLabel* SetupBarChart::label(std::size_t bar) {
    while (labels_.size() <= static_cast<qsizetype>(bar)) {
        auto* label = new PlotLabel(plot_);
        label->position->setType(QCPItemPosition::ptPlotCoords);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(label_padding_);
        labels_.append(label);
    }
    PlotLabel* label = labels_[static_cast<qsizetype>(bar)];
    label->setVisible(true);
    return label;
}

double SetupBarChart::leastTopForLabels(double axis_px, double slack_px) const {
    // A label of h pixels standing at y has its top at y * axis_px / top + h pixels above the
    // axis's foot, so it is whole when top >= y * axis_px / (axis_px - h).
    double least = 0;
    for (const PlotLabel* label : labels_) {
        if (!label->visible() || label->text().isEmpty()) continue;
        const double h = label->boxHeight() + slack_px;
        const double y = label->position->coords().y();
        least = std::max(least, axis_px > 2 * h ? y * axis_px / (axis_px - h) : 2 * y);
    }
    return least;
}

void SetupBarChart::hideLabelsFrom(std::size_t first) {
    for (qsizetype i = static_cast<qsizetype>(first); i < labels_.size(); ++i) labels_[i]->setVisible(false);
}

int SetupBarChart::barAt(const QPoint& pos) const {
    const double x = plot_->xAxis->pixelToCoord(pos.x());
    const int index = static_cast<int>(std::lround(x)) - 1;
    if (index < 0 || index >= static_cast<int>(bars_) || std::fabs(x - (index + 1)) > 0.35) return -1;
    return index;
}

void SetupBarChart::onBars(QObject* context, std::function<QString(int)> tooltip, std::function<void(int)> clicked) {
    plot_->setMouseTracking(true);
    QObject::connect(plot_, &QCustomPlot::mouseMove, context, [this, tooltip = std::move(tooltip)](QMouseEvent* e) {
        const int bar = barAt(e->pos());
        if (bar < 0) QToolTip::hideText();
        else QToolTip::showText(e->globalPosition().toPoint(), tooltip(bar), plot_);
    });
    QObject::connect(plot_, &QCustomPlot::mousePress, context, [this, clicked = std::move(clicked)](QMouseEvent* e) {
        if (e->button() != Qt::LeftButton) return;  // the right button opens the plot's menu (ui/main_window.cpp)
        const int bar = barAt(e->pos());
        if (bar >= 0) clicked(bar);
    });
}

QSharedPointer<QCPAxisTickerText> SetupBarChart::addCapacityAxis() {
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setTicker(ticker);
    plot_->yAxis2->setSubTicks(false);
    plot_->yAxis2->setTickLength(0, 4);
    plot_->yAxis2->grid()->setVisible(false);
    return ticker;
}

void SetupBarChart::setGhosts(const std::vector<std::vector<double>>& tops) {
    while (ghosts_.size() < static_cast<qsizetype>(tops.size())) {
        const int pin = static_cast<int>(ghosts_.size());
        auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
        // On the grid layer: beneath every part and label of the live bars.
        bars->setLayer(QStringLiteral("grid"));
        bars->setWidth(0.94 - 0.08 * pin);
        bars->setAntialiased(false);
        ghosts_.append(bars);
    }
    for (qsizetype pin = 0; pin < ghosts_.size(); ++pin) {
        QCPBars* bars = ghosts_[pin];
        const QColor color = pinColor(static_cast<int>(pin), plot_->palette());  // the palette may have changed
        QColor fill = color;
        fill.setAlpha(45);
        bars->setBrush(fill);
        bars->setPen(QPen(color, 1.5));
        bars->data()->clear();
        bars->setVisible(pin < static_cast<qsizetype>(tops.size()));
        if (pin >= static_cast<qsizetype>(tops.size())) continue;
        const std::vector<double>& values = tops[static_cast<std::size_t>(pin)];
        for (std::size_t b = 0; b < values.size(); ++b) bars->addData(key(b), values[b]);
    }
}

double SetupBarChart::ghostValue(int pin, int bar) const {
    if (pin < 0 || pin >= ghosts_.size() || !ghosts_[pin]->visible()) return 0;
    const auto* points = ghosts_[pin]->data().data();
    return bar >= 0 && bar < points->size() ? points->at(bar)->value : 0.0;
}

void SetupBarChart::appendGhostLegend(QList<LegendStrip::Entry>& entries, const std::vector<PinnedPlan>& pins, const QPalette& palette) {
    for (std::size_t p = 0; p < pins.size(); ++p)
        entries.append({QCoreApplication::translate("zp::ui::SetupBarChart", "Pinned: %1").arg(QString::fromStdString(pins[p].pin.name)),
                        pinColor(static_cast<int>(p), palette), LegendStrip::Swatch::Outline});
}

}  // namespace zp::ui
