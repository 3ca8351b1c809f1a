#include "ui/plots/sequence_view.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "ui/chart/axis_label_fit.h"
#include "ui/chart/duration_ticker.h"
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
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QScopedValueRollback>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace zp::ui {

namespace {
constexpr int kSweepPoints = 24;
// The target line is grabbed within this many pixels.
constexpr double kGrabPixels = 8;

QColor tokensColor() { return timePartColor(TimePart::Compute); }
QColor stepColor() { return timePartColor(TimePart::Offload); }

// The curve plot's two labels, from the top of its axis rect (a share of its height).
constexpr double kWallLabelHeight = 0.02, kTargetLabelHeight = 0.14;

// "524K", "4.19M": a length on an axis or a label.
QString compactTokens(double tokens) { return QString::fromStdString(format_compact(tokens)); }

// Tick labels in tokens as "500K", "4M" (the plots' lengths span from thousands to millions).
class TokenTicker : public QCPAxisTicker {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return compactTokens(tick); }
};
class TokenLogTicker : public QCPAxisTickerLog {
protected:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override { return compactTokens(tick); }
};

QWidget* plotHolder(QCustomPlot* plot, LegendStrip* legend, QWidget* parent) {
    auto* holder = new QWidget(parent);
    embedPlot(holder, plot, QCP::aePlottables | QCP::aeGrid | QCP::aeAxes | QCP::aeSubGrid | QCP::aeItems, legend);
    plot->setMinimumSize(300, 110);
    return holder;
}
}  // namespace

QString SequenceView::description() {
    return tr("The longest sequence each setup fits, and tokens per second and step time against the length");
}

SequenceView::SequenceView(PlannerDocument* doc, QWidget* parent)
    : LazyView(parent),
      doc_(doc),
      summary_(new QLabel(this)),
      bars_plot_(newPlot(this)),
      curve_plot_(newPlot(this)),
      legend_(new LegendStrip(this)),
      chart_(bars_plot_, QMargins(2, 0, 2, 3)),
      step_ticker_(new DurationTicker) {
    summary_->setWordWrap(true);
    summary_->setContentsMargins(6, 2, 6, 2);
    summary_->setObjectName(QStringLiteral("sequenceSummary"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(summary_);
    layout->addWidget(plotHolder(bars_plot_, nullptr, this), 2);
    layout->addWidget(plotHolder(curve_plot_, legend_, this), 3);

    bars_ = chart_.addPart(tr("Longest sequence"));
    bars_plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    bars_plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new TokenLogTicker));
    bars_plot_->yAxis->setLabel(tr("Longest sequence, tokens"));
    // The title on two lines when the plot is short, as the window's other plots.
    fitAxisLabels(bars_plot_);
    // After the layout: the title and the caption's headroom depend on the plot's height in
    // pixels, and the chart has wrapped the labels by then.
    // Both may lay the plot out again, which announces afterLayout again: that nested call is left
    // to the chart (the labels' pitch). A title, a range or turned ticks that change the layout could
    // otherwise undo each other without end (the monkey test found one: a stack overflow).
    connect(bars_plot_, &QCustomPlot::afterLayout, this, [this] {
        if (fitting_bars_) return;
        const QScopedValueRollback fitting(fitting_bars_, true);
        fitBarsTitle();
        fitBarsHeadroom();
    });
    bars_plot_->setAccessibleName(tr("Longest sequence per setup"));
    bars_plot_->setAccessibleDescription(tr("One bar per setup at the longest sequence it fits, labelled with what stops the next length"));
    curve_plot_->setAccessibleName(tr("Tokens per second and step time against the sequence length"));
    curve_plot_->setAccessibleDescription(tr(
        "For the chosen setup: tokens per second and step time against the sequence length, the longest that fits and the target length"));
    legend_->setAccessibleName(tr("Legend of the sequence length curves"));
    legend_->setAccessibleDescription(tr("tokens/s where the length fits, where it does not, and the step time"));
    chart_.onBars(
        this, [this](int bar) { return barCaption(bar); }, [this](int bar) { emit setupClicked(bar); });

    tokens_ = curve_plot_->addGraph(curve_plot_->xAxis, curve_plot_->yAxis);
    tokens_beyond_ = curve_plot_->addGraph(curve_plot_->xAxis, curve_plot_->yAxis);
    step_ = curve_plot_->addGraph(curve_plot_->xAxis, curve_plot_->yAxis2);
    curve_plot_->yAxis2->setVisible(true);
    curve_plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new TokenTicker));
    curve_plot_->xAxis->setLabel(tr("Sequence length, tokens"));
    curve_plot_->yAxis->setLabel(tr("tokens/s"));
    curve_plot_->yAxis2->setTicker(step_ticker_);
    wall_ = new QCPItemStraightLine(curve_plot_);
    target_ = new QCPItemStraightLine(curve_plot_);
    wall_label_ = new PlotLabel(curve_plot_);
    target_label_ = new PlotLabel(curve_plot_);
    for (PlotLabel* l : {wall_label_, target_label_}) {
        l->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        l->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        l->setPadding(QMargins(3, 1, 3, 1));
    }
    legend_->setEntries({{tr("tokens/s (fits)"), tokensColor(), LegendStrip::Swatch::Line},
                         {tr("tokens/s (does not fit)"), tokensColor().lighter(160), LegendStrip::Swatch::Line},
                         {tr("step time"), stepColor(), LegendStrip::Swatch::Line}});
    // After the layout, in pixels: the target's label below the longest length's where the two meet.
    connect(curve_plot_, &QCustomPlot::afterLayout, this, [this] { separateCurveLabels(); });
    curve_plot_->installEventFilter(this);
    curve_plot_->setFocusPolicy(Qt::StrongFocus);
    curve_plot_->setToolTip(tr("Drag the target line, or press Left/Right, to change the sequence length"));

    setAccessibleName(tr("Sequence length"));
    setAccessibleDescription(description());
    connect(doc_, &PlannerDocument::resultsChanged, this, &SequenceView::documentChanged);
    connect(doc_, &PlannerDocument::selectionChanged, this, &SequenceView::documentChanged);
    restyle();
}

void SequenceView::restyle() {
    const QPalette pal = palette();
    applyPalette(bars_plot_, pal);
    applyPalette(curve_plot_, pal);
    bars_->setBrush(sliceColor(Slice::Activations));
    bars_->setPen(QPen(pal.color(QPalette::Base), 1));
    tokens_->setPen(QPen(tokensColor(), 2));
    QPen beyond(tokensColor().lighter(160), 2, Qt::DashLine);
    tokens_beyond_->setPen(beyond);
    step_->setPen(QPen(stepColor(), 2));
    wall_->setPen(QPen(capacityColor(pal), 2));
    target_->setPen(QPen(highlightColor(pal), 2, Qt::DashLine));
    QColor bg = pal.color(QPalette::Base);
    bg.setAlpha(210);
    for (PlotLabel* l : {wall_label_, target_label_}) {
        l->setBrush(bg);
        l->setFont(font());
    }
    wall_label_->setColor(capacityColor(pal));
    target_label_->setColor(pal.color(QPalette::WindowText));
}

QString SequenceView::limitShortName(SequenceLimit l) const {
    switch (l) {
    case SequenceLimit::GpuMemory: return tr("GPU");
    case SequenceLimit::HostMemory: return tr("host");
    case SequenceLimit::Nvme: return tr("NVMe");
    case SequenceLimit::KernelIndex: return tr("int32");
    case SequenceLimit::Ceiling: return tr("max");
    }
    return {};
}

void SequenceView::rebuild() {
    const Scenario& s = doc_->scenario();
    try {
        overview_ = sequence_overview(s, bar_setups(doc_->overview()), setup_key(doc_->selectedSetup()), kSweepPoints);
    } catch (const InputError& e) {
        // A plan the search cannot lengthen (a length the layout refuses): say why, draw nothing.
        overview_ = {};
        drawBars();
        drawCurves();
        summary_->setText(QString::fromStdString(e.what()));
        return;
    }
    drawBars();
    drawCurves();
    summary_->setText(summary());
}

void SequenceView::drawBars() {
    std::vector<Candidate> bars;
    for (std::size_t i = 0; i < overview_.per_setup.size(); ++i) {
        Candidate c = overview_.per_setup[i].at_max;
        apply_setup(c.zero, overview_.per_setup[i].setup);
        c.engine = doc_->scenario().fsdp.engine;
        bars.push_back(c);
    }
    chart_.setSetups(bars);
    chart_.hideLabelsFrom(bars.size());
    captions_.clear();
    const double floor = barsFloor();
    double top = std::max(static_cast<double>(overview_.granularity), floor);
    const QPalette pal = palette();
    const QColor label_bg = labelBackground(pal);
    for (std::size_t b = 0; b < bars.size(); ++b) {
        const double tokens = static_cast<double>(overview_.per_setup[b].max_seq_len);
        const double key = SetupBarChart::key(b);
        // A log axis has no zero: a setup that fits nothing is drawn at the floor, labelled so.
        bars_->addData(key, std::max(tokens, floor));
        top = std::max(top, tokens);
        PlotLabel* label = chart_.label(b);
        label->position->setCoords(key, tokens > floor ? tokens : 2 * floor);
        label->setBrush(label_bg);
        label->setFont(font());
        QString caption = barCaption(static_cast<int>(b));
        if (overview_.ulysses_searched) {
            // "Ulysses 8" kept on one line (no-break spaces; the chart wraps at spaces): broken, the
            // caption was four lines, more than the bars' plot has room for at 1280x720.
            const QString degree = tr("Ulysses %1").arg(overview_.per_setup[b].ulysses);
            caption.replace(degree, QString(degree).replace(QLatin1Char(' '), QChar(0x00A0)));
        }
        label->setText(caption);
        captions_.append(caption);
        label->setColor(tokens > 0 ? pal.color(QPalette::WindowText) : capacityColor(pal));
    }
    bars_top_ = top;
    bars_plot_->yAxis->setRange(floor, top * 6.0);  // until the layout (fitBarsHeadroom)
    queueReplot(bars_plot_);
}

// The log axis's floor: the power of ten at or below half the shortest bar that fits something,
// never under half the search's granularity. From half the granularity (128 tokens) bars of 2M
// to 4M stood alike at the same height and the axis ran to 1e16 to leave their captions room.
double SequenceView::barsFloor() const {
    const double least = static_cast<double>(overview_.granularity) / 2.0;
    double shortest = 0;
    for (const auto& setup : overview_.per_setup)
        if (setup.max_seq_len > 0)
            shortest = shortest > 0 ? std::min(shortest, static_cast<double>(setup.max_seq_len)) : static_cast<double>(setup.max_seq_len);
    if (shortest <= 0) return std::max(least, 1.0);
    return std::max(least, std::pow(10.0, std::floor(std::log10(shortest / 2.0))));
}

// At 1280x720 the bars' plot is some 80 pixels high: even on two lines "Longest sequence," was cut
// at both ends ("ongest sequenc"). There the title is the unit alone; the summary above and the
// tab's name say what the bars are.
void SequenceView::fitBarsTitle() {
    // Chosen once per size of the plot: the long title's two lines take margin from the bars, which
    // can turn their names under them and take the height that let it fit; judged on every replot
    // it flipped back and forth.
    if (bars_plot_->size() == title_chosen_for_) return;
    title_chosen_for_ = bars_plot_->size();
    QCPAxis* axis = bars_plot_->yAxis;
    const QString full = tr("Longest sequence, tokens");
    const QFontMetrics metrics(axis->labelFont());
    double widest = 0;
    for (const QString& line : twoLineTitle(full).split(QLatin1Char('\n')))
        widest = std::max(widest, static_cast<double>(metrics.horizontalAdvance(line)));
    const QString wanted = widest <= axis->axisRect()->height() ? full : tr("tokens");
    // Compared with the title as set (fitAxisLabels keeps it; the label may be its two-line form).
    if (axis->property("zpFullLabel").toString() == wanted) return;
    axis->setLabel(wanted);
    axis->setProperty("zpFullLabel", wanted);
    relayoutInReplot(bars_plot_);
}

// A fixed factor above the tallest bar (6x on the log axis) left too little room at the default
// size for a two-line caption ("95.7k" over "GPU", three lines with Ulysses) and none at 1280x720.
// The axis top is set so the caption's lines, in pixels, fit between the bar and the top: on a log
// axis from lo to hi, a bar at v stands (log hi - log v) / (log hi - log lo) of the height below it.
void SequenceView::fitBarsHeadroom() {
    const double height = bars_plot_->axisRect()->height();
    const double lo = bars_plot_->yAxis->range().lower;
    if (height <= 0 || bars_top_ <= lo) return;
    const double line = QFontMetricsF(font()).lineSpacing(), padding = 3 + 4;  // the labels' padding and a gap
    // At most this share of the height above the tallest bar: past it the log axis ran to 1e20.
    constexpr double kMostShare = 0.7;
    // The captions as wrapped to the pitch; taller than that share, they lose their last lines (the
    // limit, the Ulysses degree: the tooltip keeps them), down to the length alone.
    qsizetype lines = 1;
    for (qsizetype keep = 3; keep >= 1; --keep) {
        for (qsizetype b = 0; b < captions_.size(); ++b)
            chart_.label(static_cast<std::size_t>(b))->setText(captions_[b].section(QLatin1Char('\n'), 0, keep - 1));
        chart_.fitLabels();
        lines = 1;
        for (qsizetype b = 0; b < captions_.size(); ++b)
            lines = std::max(lines, chart_.label(static_cast<std::size_t>(b))->text().count(QLatin1Char('\n')) + 1);
        if (static_cast<double>(lines) * line + padding <= kMostShare * height) break;
    }
    const double share = std::min(kMostShare, (static_cast<double>(lines) * line + padding) / height);
    // As many decades labelled as there is room for (at 1280x720 "100M" and "1G" ran together).
    if (auto ticker = qSharedPointerDynamicCast<QCPAxisTickerLog>(bars_plot_->yAxis->ticker()))
        ticker->setTickCount(
            std::clamp(static_cast<int>(height / (2.5 * QFontMetricsF(bars_plot_->yAxis->tickLabelFont()).height())), 2, 5));
    const double hi = std::exp((std::log(bars_top_) - share * std::log(lo)) / (1 - share));
    if (std::abs(hi / bars_plot_->yAxis->range().upper - 1) < 1e-3) return;
    bars_plot_->yAxis->setRange(lo, hi);
    relayoutInReplot(bars_plot_);  // new ticks may move the margins
}

void SequenceView::drawCurves() {
    QVector<double> x, tps, x_beyond, tps_beyond, step;
    double top_tps = 1, top_step = 1;
    for (const SequencePoint& p : overview_.sweep) {
        const double len = static_cast<double>(p.seq_len);
        // The dashed part starts at the last point that fits, so the two join.
        if (p.fits) {
            x.append(len);
            tps.append(p.tokens_per_second);
        } else {
            if (x_beyond.isEmpty() && !x.isEmpty()) {
                x_beyond.append(x.back());
                tps_beyond.append(tps.back());
            }
            x_beyond.append(len);
            tps_beyond.append(p.tokens_per_second);
        }
        step.append(p.step_seconds);
        top_tps = std::max(top_tps, p.tokens_per_second);
        top_step = std::max(top_step, p.step_seconds);
    }
    QVector<double> step_x;
    for (const SequencePoint& p : overview_.sweep) step_x.append(static_cast<double>(p.seq_len));
    tokens_->setData(x, tps, true);
    tokens_beyond_->setData(x_beyond, tps_beyond, true);
    step_->setData(step_x, step, true);
    const double right = step_x.isEmpty() ? 1.0 : step_x.back();
    curve_plot_->xAxis->setRange(0, right * 1.02);
    curve_plot_->yAxis->setRange(0, top_tps * 1.15);
    curve_plot_->yAxis2->setRange(0, top_step * 1.15);
    // The step-time axis reads in the unit of its top, as the step-time view's (DurationTicker).
    step_ticker_->setUnitFor(top_step);
    QString step_title;
    switch (step_ticker_->unit()) {
    case DurationUnit::Milliseconds: step_title = tr("step time, ms"); break;
    case DurationUnit::Seconds: step_title = tr("step time, s"); break;
    case DurationUnit::Minutes: step_title = tr("step time, min"); break;
    case DurationUnit::Hours: step_title = tr("step time, h"); break;
    case DurationUnit::Days: step_title = tr("step time, days"); break;
    }
    if (curve_plot_->yAxis2->label() != step_title) curve_plot_->yAxis2->setLabel(step_title);
    const double wall = static_cast<double>(overview_.chosen.max_seq_len);
    wall_->setVisible(wall > 0);
    wall_label_->setVisible(wall > 0);
    wall_->point1->setCoords(wall, 0);
    wall_->point2->setCoords(wall, 1);
    wall_label_->position->setCoords(wall, kWallLabelHeight);
    // Right of its line, unless the line stands in the last quarter of the lengths: there the label
    // ran off the plot's edge at 1280 x 720 ("longest 4.19M (" in zh_CN, a window review).
    wall_label_->setPositionAlignment((wall > 0.75 * right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    wall_label_->setText(tr("longest %1 (%2)").arg(compactTokens(wall), limitShortName(overview_.chosen.limit)));
    const double target = static_cast<double>(overview_.target_seq_len);
    target_->point1->setCoords(target, 0);
    target_->point2->setCoords(target, 1);
    target_label_->position->setCoords(target, kTargetLabelHeight);
    target_label_->setText(tr("target %1").arg(compactTokens(target)));
    queueReplot(curve_plot_);
}

// The two labels stand at fixed heights; where their boxes meet (a target near the longest length,
// or both long at 1280x720, where the target's box covered "lo" of "longest 4.19M"), the target's
// goes just below the longest length's. Decided in pixels, after each layout.
void SequenceView::separateCurveLabels() {
    const double x = target_->point1->coords().x();
    target_label_->position->setCoords(x, kTargetLabelHeight);
    const double height = curve_plot_->axisRect()->height();
    if (!wall_label_->visible() || !target_label_->visible() || height <= 0) return;
    const QRectF wall = wall_label_->boxToDraw();
    if (!wall.intersects(target_label_->boxToDraw())) return;
    target_label_->position->setCoords(x, kWallLabelHeight + (wall.height() + 2) / height);
}

QString SequenceView::summary() const {
    const SequenceCeiling& c = overview_.chosen;
    const QString setup = translated(setup_phrase(c.setup, doc_->scenario().fsdp.engine, fsdp_hybrid_sharding(doc_->scenario())));
    const auto count = [](double v) { return QString::fromStdString(format_count(v)); };
    if (c.max_seq_len <= 0) return tr("%1 fits no sequence of %2 tokens.").arg(setup, count(static_cast<double>(overview_.granularity)));
    // The tab re-plans micro batch and recompute for each length (core: max_sequence.h), so the
    // card's "at this micro batch and recompute" figure can be shorter: say what this one takes.
    const QString recompute = c.at_max.checkpointing == Checkpointing::None
                                  ? tr("without recompute")
                                  : tr("with %1 recompute").arg(translatedCore(to_string(c.at_max.checkpointing)));
    QString text = tr("%1: at most %2 tokens a sequence (then %3) at micro batch %4 %5, %6 tokens/s there.")
                       .arg(setup, count(static_cast<double>(c.max_seq_len)), translatedCore(to_string(c.limit)))
                       .arg(c.at_max.micro_batch)
                       .arg(recompute, count(c.at_max.step.tokens_per_second));
    if (overview_.layouts_searched)
        text += QLatin1Char(' ') + tr("Layout on auto: at %1, the one of the searched layouts that reaches furthest.")
                                       .arg(translated(layout_phrase(at_ceiling_degree(doc_->scenario(), c))));
    else if (overview_.ulysses_searched)
        text +=
            QLatin1Char(' ') + tr("Ulysses on auto: at degree %1, the one of those the layout takes that reaches furthest.").arg(c.ulysses);
    if (overview_.target_seq_len > c.max_seq_len) text += QLatin1Char(' ') + tr("The target does not fit this setup.");
    return text;
}

ZeroSetup SequenceView::barSetup(int bar) const {
    if (bar < 0 || bar >= static_cast<int>(overview_.per_setup.size())) return doc_->selectedSetup();
    return zero_setup(overview_.per_setup[static_cast<std::size_t>(bar)].setup);
}

double SequenceView::barTokens(int bar) const {
    if (bar < 0 || bar >= static_cast<int>(overview_.per_setup.size())) return 0;
    return static_cast<double>(overview_.per_setup[static_cast<std::size_t>(bar)].max_seq_len);
}

QString SequenceView::barCaption(int bar) const {
    if (bar < 0 || bar >= static_cast<int>(overview_.per_setup.size())) return {};
    const auto i = static_cast<std::size_t>(bar);
    if (!overview_.runs[i]) return QStringLiteral("\u2717");
    const SequenceCeiling& c = overview_.per_setup[i];
    if (c.max_seq_len <= 0) return QStringLiteral("\u2717 ") + tr("none");
    QString caption = compactTokens(static_cast<double>(c.max_seq_len)) + QLatin1Char('\n') + limitShortName(c.limit);
    // With the Ulysses degree on auto each bar is at its own degree (core: sequence_overview).
    if (overview_.ulysses_searched) caption += QLatin1Char('\n') + tr("Ulysses %1").arg(c.ulysses);
    // With tensor or pipeline sizes on auto each bar is at its own layout: its sizes, short.
    if (overview_.layouts_searched && c.parallel.model_parallel() > 1)
        caption += QLatin1Char('\n') + tr("TP%1 PP%2").arg(c.parallel.tensor).arg(c.parallel.pipeline);
    return caption;
}

double SequenceView::targetTokens() const { return target_->point1->coords().x(); }
double SequenceView::wallTokens() const { return wall_->visible() ? wall_->point1->coords().x() : 0.0; }
int SequenceView::curvePoints() const { return tokens_->dataCount() + tokens_beyond_->dataCount(); }

void SequenceView::setTarget(double tokens) {
    Scenario next = doc_->scenario();
    next.training.seq_len = nearest_sequence_length(next, tokens);
    if (next.training.seq_len == doc_->scenario().training.seq_len) return;
    doc_->edit(next, tr("Sequence length"));
}

bool SequenceView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != curve_plot_) return LazyView::eventFilter(watched, event);
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        const auto* e = static_cast<QMouseEvent*>(event);
        const double x = curve_plot_->xAxis->coordToPixel(targetTokens());
        dragging_ = e->button() == Qt::LeftButton && std::abs(e->position().x() - x) <= kGrabPixels;
        return dragging_;
    }
    case QEvent::MouseMove: {
        if (!dragging_) return false;
        const auto* e = static_cast<QMouseEvent*>(event);
        const double tokens = std::max(curve_plot_->xAxis->pixelToCoord(e->position().x()), 1.0);
        target_->point1->setCoords(tokens, 0);
        target_->point2->setCoords(tokens, 1);
        target_label_->position->setCoords(tokens, 0.14);
        target_label_->setText(tr("target %1").arg(compactTokens(tokens)));
        queueReplot(curve_plot_);
        return true;
    }
    case QEvent::MouseButtonRelease: {
        if (!dragging_) return false;
        dragging_ = false;
        setTarget(targetTokens());
        return true;
    }
    case QEvent::KeyPress: {
        // The keyboard's way to move the target: one granule, or a tenth of the range with Shift.
        const auto* e = static_cast<QKeyEvent*>(event);
        if (e->key() != Qt::Key_Left && e->key() != Qt::Key_Right) return false;
        const double g = static_cast<double>(overview_.granularity);
        const double step = (e->modifiers() & Qt::ShiftModifier) ? std::max(g, curve_plot_->xAxis->range().size() / 10.0) : g;
        setTarget(static_cast<double>(overview_.target_seq_len) + (e->key() == Qt::Key_Right ? step : -step));
        return true;
    }
    default: return false;
    }
}

}  // namespace zp::ui
