// The labels above the memory and time views' bars (ui/chart/setup_bar_chart.h) stay apart: a label
// wider than the bar pitch is wrapped at its spaces (wrapToWidth, ui/chart/axis_label_fit.h; a "✗ ..."
// or "★ ..." line that does not fit becomes its mark), the setups' names under the
// bars are turned when they would meet, and the view's full text comes back when there is room.
// BLOOM-176B on 384 A100s at the window's default size is where "13.8k tok/s" ran into its
// neighbours.
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "tests/test_util.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/axis_label_fit.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/time_view.h"
#include "ui/qcustomplot_include.h"

#include <algorithm>
#include <cmath>

#include <QFontMetricsF>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

QList<PlotLabel*> visibleLabels(QCustomPlot* plot) {
    QList<PlotLabel*> out;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* label = qobject_cast<PlotLabel*>(plot->item(i)); label && label->visible() && !label->text().isEmpty()) out << label;
    return out;
}

}  // namespace

class TestBarLabelFit : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // The room is the width of a given text in the default font.
    void wraps_at_spaces_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("widthOf");  // the room is this text's width
        QTest::addColumn<QString>("wrapped");
        QTest::newRow("fits: unchanged") << "5.1 min\n13.8k tok/s"
                                         << "13.8k tok/s"
                                         << "5.1 min\n13.8k tok/s";
        QTest::newRow("a number keeps its unit: throughput") << "5\n13.8k tok/s\n\u2717 no fit"
                                                             << "13.8k"
                                                             << "5\n13.8k tok/s\n\u2717";
        QTest::newRow("a number keeps its unit: seconds") << "15.77 s"
                                                          << "15.77"
                                                          << "15.77 s";
        QTest::newRow("a number keeps its unit, the words before it break") << "step of 2.1M tok"
                                                                            << "2.1M tok"
                                                                            << "step of\n2.1M tok";
        QTest::newRow("a number and a long word after it break") << "40 accumulation"
                                                                 << "40"
                                                                 << "40\naccumulation";
        QTest::newRow("a mark line that fits stays whole") << "9.4\n\u2717 pipeline"
                                                           << "\u2717 pipeline"
                                                           << "9.4\n\u2717 pipeline";
        QTest::newRow("a mark line that does not fit: the mark") << "80.0\n\u2605 best"
                                                                 << "80.0"
                                                                 << "80.0\n\u2605";
        QTest::newRow("a separator first is no mark: kept with its word") << "\u00B7 no recompute"
                                                                          << "no"
                                                                          << "\u00B7 no\nrecompute";
        QTest::newRow("at the space nearest the middle") << "one two three four"
                                                         << "one two"
                                                         << "one two\nthree\nfour";
        QTest::newRow("no space: as it is") << "14.5k"
                                            << "1"
                                            << "14.5k";
    }
    void wraps_at_spaces() {
        QFETCH(QString, text);
        QFETCH(QString, widthOf);
        QFETCH(QString, wrapped);
        const QFontMetricsF metrics{QFont()};
        QCOMPARE(wrapToWidth(text, metrics, metrics.horizontalAdvance(widthOf)), wrapped);
    }

    // The recommended bar's spare bracket runs from its label up to the usable line: not through
    // the label ("47.5 ★ best"), at the default window size and at 1280x720.
    void spare_bracket_clears_the_best_label_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("default size") << QSize(1480, 920);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    void spare_bracket_clears_the_best_label() {
        QFETCH(QSize, size);
        MainWindow w(MainWindow::Ephemeral);
        w.resize(size);
        w.show();
        w.flushPending();
        QCustomPlot* plot = w.memoryView()->plot();
        plot->replot();
        QCPItemLine* bracket = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* line = qobject_cast<QCPItemLine*>(plot->item(i)); line && line->visible()) bracket = line;
        // At the default size the default plan's spare has its bracket; in a smaller window the best
        // bar's label may reach the usable line, and then no bracket is drawn rather than one through it.
        if (!bracket) {
            QVERIFY2(size != QSize(1480, 920), "the default plan fits with room to spare: the bracket is drawn");
            return;
        }
        const QPointF from = bracket->start->pixelPosition(), to = bracket->end->pixelPosition();
        PlotLabel* best = nullptr;
        for (PlotLabel* label : visibleLabels(plot))
            if (label->text().contains(QStringLiteral("\u2605"))) best = label;
        QVERIFY(best);
        const QRectF box = best->drawnBox();
        for (int k = 0; k <= 20; ++k) {
            const QPointF at = from + (to - from) * (k / 20.0);
            QVERIFY2(!box.contains(at), qPrintable(QStringLiteral("bracket at y %1 inside the label %2").arg(at.y()).arg(best->text())));
        }
    }

    // The default plan's bars are each setup's fastest: ZeRO-1 and ZeRO-2 at micro batch 1, the
    // ZeRO-3 ones at 2. Each caption says its micro batch ("mb 2"), so the ZeRO-3 bar's larger
    // figure is not read as ZeRO-3 needing more than ZeRO-2 (the review of 0.2.0); recompute is the
    // same on every fitting bar and not said.
    void bar_captions_say_a_differing_micro_batch() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        w.flushPending();
        const Overview& o = w.document()->overview();
        QCustomPlot* plot = w.memoryView()->plot();
        plot->replot();
        const QList<PlotLabel*> labels = visibleLabels(plot);
        int with_micro = 0;
        for (const Candidate& c : o.bars)
            for (PlotLabel* label : labels)
                if (label->text().contains(QStringLiteral("mb\u00A0%1").arg(c.micro_batch))) ++with_micro;
        QVERIFY(std::any_of(o.bars.begin(), o.bars.end(), [&](const Candidate& c) { return c.micro_batch != o.bars[1].micro_batch; }));
        QVERIFY(with_micro >= static_cast<int>(o.bars.size()));
        for (PlotLabel* label : labels) QVERIFY2(!label->text().contains(QStringLiteral("recompute")), qPrintable(label->text()));
    }

    // A capacity line says its figure as the card does: an H100's 79.6 GiB is not "80", a node's
    // 2 TiB of RAM not "2048 GiB"; a whole number of GiB keeps its short form.
    void capacity_text_data() {
        QTest::addColumn<double>("gib");
        QTest::addColumn<QString>("text");
        QTest::newRow("A100 80GB") << 80.0 << "80 GiB";
        QTest::newRow("H100 80GB as torch reports it") << 79.6 << "79.6 GiB";
        QTest::newRow("V100 32GB as torch reports it") << 31.72 << "31.7 GiB";
        QTest::newRow("a 2 TiB node's RAM") << 2048.0 << "2.0 TiB";
    }
    void capacity_text() {
        QFETCH(double, gib);
        QFETCH(QString, text);
        QCOMPARE(capacityText(gib), text);
    }

    // An axis title too long for its axis breaks once, at the punctuation nearest the middle:
    // ASCII ", " ": " " (" and, for zh_CN, the full-width comma, colon and parenthesis.
    void two_line_titles_data() {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("lines");
        QTest::newRow("after a comma") << "GPU memory per GPU, GiB"
                                       << "GPU memory per GPU,\nGiB";
        QTest::newRow("before a parenthesis") << "Longest sequence (tokens)"
                                              << "Longest sequence\n(tokens)";
        QTest::newRow("zh_CN: after a full-width comma")
            << QString::fromUtf8("每 GPU 显存，GiB（推荐方案）") << QString::fromUtf8("每 GPU 显存，\nGiB（推荐方案）");
        QTest::newRow("zh_CN: before a full-width parenthesis") << QString::fromUtf8("每秒 token 数与步时间随序列长度的变化（所选配置）")
                                                                << QString::fromUtf8("每秒 token 数与步时间随序列长度的变化\n（所选配置）");
        QTest::newRow("no break: as it is") << "GiB"
                                            << "GiB";
    }
    void two_line_titles() {
        QFETCH(QString, title);
        QFETCH(QString, lines);
        QCOMPARE(twoLineTitle(title), lines);
    }

    // BLOOM's plan at the default window size and narrower: no two labels of a bar chart meet,
    // and wider again, the throughput is back on one line.
    void bloom_labels_stay_apart() {
        Scenario s = zp::test::preset_scenario("bloom-176b", "a100-80gb", 384);
        s.training.seq_len = 2048;
        s.training.global_batch = 2048;
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        w.document()->reset(s);
        w.flushPending();
        const auto check = [&](const char* where) {
            for (QCustomPlot* plot : {w.memoryView()->plot(), w.timeView()->plot()}) {
                plot->replot();  // the queued fit, drawn now
                const QList<PlotLabel*> labels = visibleLabels(plot);
                QVERIFY2(labels.size() >= 7, where);
                if (qEnvironmentVariableIsSet("ZP_DEBUG_LABELS"))
                    for (PlotLabel* a : labels) qDebug() << where << a->text() << a->drawnBox() << a->font();
                // A label made smaller is so in half points, down to three quarters of the view's
                // font: a size Qt has loaded once serves the next pitch (SetupBarChart::fitLabel).
                const double base = plot->font().pointSizeF();
                for (PlotLabel* a : labels) {
                    const double size = a->font().pointSizeF();
                    QVERIFY2(size >= 0.75 * base - 1e-9 && size <= base, qPrintable(a->text()));
                    QVERIFY2(size == base || size == 0.75 * base || size * 2 == std::floor(size * 2), qPrintable(a->text()));
                }
                for (PlotLabel* a : labels)
                    for (PlotLabel* b : labels)
                        QVERIFY2(
                            a == b || !a->drawnBox().intersects(b->drawnBox()),
                            qPrintable(QString::fromLatin1(where) + QStringLiteral(": ") + a->text() + QStringLiteral(" | ") + b->text()));
            }
        };
        check("1480 x 920");
        // A number keeps its unit: the throughput is whole or left out, never "13.8k" over "tok/s".
        const auto unitsKept = [&] {
            for (PlotLabel* label : visibleLabels(w.timeView()->plot()))
                QVERIFY2(!label->text().contains(QStringLiteral("\ntok/s")) && !label->text().contains(QStringLiteral("\ns\n")) &&
                             !label->text().endsWith(QStringLiteral("\ns")) && !label->text().contains(QStringLiteral("\nmin")),
                         qPrintable(label->text()));
        };
        unitsKept();
        w.resize(1200, 800);
        QCoreApplication::processEvents();
        w.flushPending();
        check("1200 x 800");
        unitsKept();
        // There the setups' names under the bars would meet: they are turned.
        QVERIFY(w.memoryView()->plot()->xAxis->tickLabelRotation() != 0);
        w.resize(2400, 1000);
        QCoreApplication::processEvents();
        w.flushPending();
        check("2400 x 1000");
        for (PlotLabel* label : visibleLabels(w.timeView()->plot()))
            QVERIFY2(!label->text().contains(QStringLiteral("\ntok/s")), qPrintable(label->text()));
        QCOMPARE(w.memoryView()->plot()->xAxis->tickLabelRotation(), 0.0);
    }

    // Llama-3.1 70B on 64 H100s at 1280x720 with a re-entrant recompute (a user review, before the
    // non-reentrant default): eight bars, and captions that say a
    // differing micro batch and recompute ("mb 1 · no recompute"). At the smallest font "recompute"
    // alone is wider than the pitch: the " · " detail goes (the tooltip and the card keep it), and
    // no caption runs into its neighbour's.
    void captions_shed_details_before_they_meet() {
        // As `--model llama-3.1-70b --gpus 64 --cluster dgx-h100` sets it: layout and ZeRO++ on auto.
        Scenario s = with_node(zp::test::preset_scenario("llama-3.1-70b", "h100-80gb", 8), cluster_preset("dgx-h100").cluster, 64);
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        s.zero.auto_zeropp = true;
        // The chart this test was written on, eight bars: with a re-entrant recompute the search picks
        // ZeRO-3 with the optimizer on the CPU, a bar of its own beside the seven setups (the
        // non-reentrant default picks plain ZeRO-3, one of them).
        s.training.reentrant_recompute = true;
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1280, 720);
        w.show();
        w.document()->reset(s);
        w.flushPending();
        QCustomPlot* plot = w.memoryView()->plot();
        plot->replot();
        const QList<PlotLabel*> labels = visibleLabels(plot);
        if (qEnvironmentVariableIsSet("ZP_DEBUG_LABELS"))
            for (PlotLabel* a : labels) qDebug() << a->text() << a->drawnBox();
        QVERIFY(labels.size() >= 8);
        bool shed = false;
        for (PlotLabel* a : labels) {
            shed = shed || !a->text().contains(QStringLiteral("recompute"));
            for (PlotLabel* b : labels)
                QVERIFY2(a == b || !a->drawnBox().intersects(b->drawnBox()), qPrintable(a->text() + QStringLiteral(" | ") + b->text()));
        }
        QVERIFY(shed);
    }

    // Under an auto layout each setup runs at its layout's own global batch: BLOOM's DDP step is 64
    // sequences, ZeRO-3's 96. The heights are then not the same work, and each time's caption says
    // how many tokens its step holds; where every step holds the same (the default plan), none does.
    void steps_of_different_sizes_say_so() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        w.flushPending();
        for (PlotLabel* label : visibleLabels(w.timeView()->plot()))
            QVERIFY2(!label->text().contains(QStringLiteral("step of")), qPrintable(label->text()));
        QVERIFY(!w.timeView()->plot()->yAxis->label().contains(QStringLiteral("compare tok/s")));
        // The recommended setup's time is marked as its memory bar is: one star, on the plan's best.
        int stars = 0;
        for (PlotLabel* label : visibleLabels(w.timeView()->plot()))
            if (label->text().contains(QStringLiteral("\u2605"))) {
                ++stars;
                QVERIFY2(label->text().startsWith(QString::fromStdString(format_seconds(w.document()->overview().plan.best.step.seconds))),
                         qPrintable(label->text()));
            }
        QCOMPARE(stars, 1);
        Scenario s = zp::test::preset_scenario("bloom-176b", "a100-80gb", 384);
        s.training.seq_len = 2048;
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        w.document()->reset(s);
        w.flushPending();
        const Overview& o = w.document()->overview();
        QVERIFY(std::any_of(o.bars.begin(), o.bars.end(),
                            [&](const Candidate& c) { return c.step.tokens_per_step != o.bars.front().step.tokens_per_step; }));
        int said = 0;
        for (PlotLabel* label : visibleLabels(w.timeView()->plot())) said += label->text().contains(QStringLiteral("step of")) ? 1 : 0;
        QCOMPARE(said, static_cast<int>(o.bars.size()));
        // The heights are not the same work: the axis title says what ranks the setups.
        QVERIFY(w.timeView()->plot()->yAxis->label().contains(QStringLiteral("steps differ: compare tok/s")));
    }

    // Llama-3.1 405B on 1024 H100s under an auto layout: DDP's short steps are 3.8 s and the
    // recommended setup's far past the 4x cap. The axis still shows the recommended bar whole.
    void time_axis_keeps_the_recommended_bar() {
        Scenario s = default_scenario();
        s.model = model_preset("llama-3.1-405b").spec;
        s = with_node(s, cluster_preset("dgx-h100").cluster, 1024);
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        s.zero.auto_zeropp = true;  // as the command line has it on more than one node
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        w.document()->reset(s);
        w.flushPending();
        const Overview& o = w.document()->overview();
        QVERIFY(o.plan_valid && o.plan.feasible);
        double fastest = 0, best = 0, slowest = 0;
        for (const Candidate& c : o.bars) {
            if (c.fit.all() && (fastest == 0 || c.step.seconds < fastest)) fastest = c.step.seconds;
            if (same_setup(c.zero, o.plan.best.zero)) best = c.step.seconds;
            slowest = std::max(slowest, c.step.seconds);
        }
        QVERIFY2(best > 4 * fastest, "the case this guards: the recommended bar is past 4x the fastest");
        const TimeView* view = w.timeView();
        QVERIFY(view->plot()->yAxis->range().upper >= best);
        // A bar is cut exactly when it stands above the axis; then the legend says so (since hpZ is
        // no longer planned across tensor ranks, the recommended setup here is the slow one, 47 s,
        // and nothing stands above it), and every caption stands on a background.
        QCOMPARE(view->axisCut(), slowest > view->plot()->yAxis->range().upper);
        QCOMPARE(std::any_of(view->legend()->entries().begin(), view->legend()->entries().end(),
                             [](const LegendStrip::Entry& e) { return e.swatch == LegendStrip::Swatch::Break; }),
                 view->axisCut());
        for (PlotLabel* label : visibleLabels(view->plot())) QVERIFY(label->brush().style() != Qt::NoBrush);
        // The default plan's bars are all below the cap: no cut, no legend entry.
        w.document()->reset(zp::test::preset_scenario("llama-2-7b", "a100-80gb", 8));
        w.flushPending();
        QVERIFY(!view->axisCut());
        QVERIFY(std::none_of(view->legend()->entries().begin(), view->legend()->entries().end(),
                             [](const LegendStrip::Entry& e) { return e.swatch == LegendStrip::Swatch::Break; }));
    }

    // The step-time axis reads in the unit of the tallest bar it shows whole, as that bar's caption
    // does (format_seconds): its title names the unit and its top tick is a number in it.
    void time_axis_reads_in_its_unit_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<QString>("title");
        QTest::newRow("default plan: seconds") << "llama-2-7b" << 8LL << 4096LL << 0LL << "Seconds per optimizer step";
        QTest::newRow("Llama-3 8B at 128k tokens: minutes") << "llama-3-8b" << 8LL << 131072LL << 0LL << "Minutes per optimizer step";
        QTest::newRow("GPT-2 small, 8 sequences of 1024: milliseconds")
            << "gpt2" << 8LL << 1024LL << 8LL << "Milliseconds per optimizer step";
    }
    void time_axis_reads_in_its_unit() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, seq);
        QFETCH(qint64, globalBatch);
        QFETCH(QString, title);
        Scenario s = zp::test::preset_scenario(model.toLatin1().constData(), "a100-80gb", gpus);
        s.training.seq_len = seq;
        s.training.global_batch = globalBatch;
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        w.document()->reset(s);
        w.flushPending();
        const TimeView* view = w.timeView();
        QCOMPARE(view->plot()->yAxis->label(), title);
        double tallest_whole = 0;
        for (const Candidate& c : w.document()->overview().bars)
            if (c.step.seconds <= view->plot()->yAxis->range().upper) tallest_whole = std::max(tallest_whole, c.step.seconds);
        QCOMPARE(view->axisUnit(), duration_unit(tallest_whole));
        const double per = seconds_per(view->axisUnit());
        const QVector<QString> labels = view->plot()->yAxis->tickVectorLabels();
        const QVector<double> ticks = view->plot()->yAxis->tickVector();
        QVERIFY(ticks.size() >= 2 && ticks.size() == labels.size());
        QCOMPARE(QLocale().toDouble(labels.back()), ticks.back() / per);
    }

    // Llama-3 8B at 128k tokens on 8 A100s: DDP's bar tops 4x the GPU's memory, but by less than the
    // headroom above the cap. Nothing is cut, so the legend has no "Axis cut" and each label stands on
    // its bar's top; a 2T model on one GPU is cut, and says so.
    void memory_axis_cut_only_when_a_bar_is() {
        Scenario s = zp::test::preset_scenario("llama-3-8b", "a100-80gb", 8);
        s.training.seq_len = 131072;
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        w.document()->reset(s);
        w.flushPending();
        const MemoryView* view = w.memoryView();
        const auto tallest = [&] {
            double top = 0;
            for (const Candidate& c : w.document()->overview().bars)
                top = std::max(top, bytes_to_gib(std::max(c.memory.total_bytes(), c.memory.peak_reserved_bytes)));
            return top;
        };
        const auto cutInLegend = [&] {
            return std::any_of(view->legend()->entries().begin(), view->legend()->entries().end(),
                               [](const LegendStrip::Entry& e) { return e.swatch == LegendStrip::Swatch::Break; });
        };
        QVERIFY2(tallest() > 4 * s.cluster.gpu.memory_gib, "the case this guards: a bar above the 4x cap");
        QVERIFY(tallest() <= view->plot()->yAxis->range().upper);
        QVERIFY(!view->axisCut());
        QVERIFY(!cutInLegend());
        s.model = synthesize_model(2'000'000'000'000);
        s = with_gpu_count(s, 1, 8);
        w.document()->reset(s);
        w.flushPending();
        QVERIFY(tallest() > view->plot()->yAxis->range().upper);
        QVERIFY(view->axisCut());
        QVERIFY(cutInLegend());
        QVERIFY(view->legend()->held().isEmpty());
    }

    // Back and forth across the memory axis's cut, as a slider drag does, at 1280x720, where the
    // "Axis cut" entry takes a legend row of its own: after the first cut that row is held while
    // the axis is whole, so the plot stays where it is (ui/chart/legend_strip.h). Before, the plot
    // moved down a row at every cut and back up at every whole axis.
    void memory_plot_stays_put_across_the_cut() {
        const Scenario whole = zp::test::preset_scenario("llama-2-7b", "a100-80gb", 8);
        Scenario cut = whole;
        cut.model = synthesize_model(2'000'000'000'000);
        cut = with_gpu_count(cut, 1, 8);
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1280, 720);
        w.show();
        const MemoryView* view = w.memoryView();
        const auto settle = [&w](const Scenario& s) {
            w.document()->reset(s);
            w.flushPending();
            for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();  // the layout runs on its posted request
        };
        settle(whole);
        QVERIFY(!view->axisCut());
        QVERIFY(view->legend()->held().isEmpty());
        const QRect never_cut = view->plot()->geometry();
        settle(cut);
        QVERIFY(view->axisCut());
        QVERIFY(view->legend()->held().isEmpty());
        const QRect cut_geometry = view->plot()->geometry();
        QVERIFY2(cut_geometry.top() > never_cut.top(), "the case this guards: the cut entry takes a row of its own");
        for (int i = 0; i < 2; ++i) {
            settle(whole);
            QVERIFY(!view->axisCut());
            QCOMPARE(view->legend()->held().size(), 1);
            QCOMPARE(view->legend()->held().front().swatch, LegendStrip::Swatch::Break);
            QCOMPARE(view->plot()->geometry(), cut_geometry);
            settle(cut);
            QVERIFY(view->legend()->held().isEmpty());
            QCOMPARE(view->plot()->geometry(), cut_geometry);
        }
    }
};

ZP_TEST_MAIN(TestBarLabelFit)
#include "tst_bar_label_fit.moc"
