// The Sequence length view, offscreen (ui/plots/sequence_view.h): a tab beside the recommendation; a bar per overview setup at the core's longest sequence (core/search/max_sequence.h)
// with what stops it; tokens/s and step time against the length for the chosen setup, the
// longest as a wall and the plan's own length as a target that a drag or the arrow keys move
// (one undo step).
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/max_sequence.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/plot_label.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/plots/sequence_view.h"
#include "ui/qcustomplot_include.h"
#include "ui/widgets/lazy_page.h"

#include <QFontMetrics>
#include <QTabWidget>
#include <QUndoStack>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

// Llama-3.1 8B with ALST's parts on 8 H100s, Ulysses over the node.
Scenario alst_node(std::int64_t seq) {
    Scenario s = default_scenario();
    s.model = model_preset("llama-3.1-8b").spec;
    s = with_node(s, cluster_preset("dgx-h100").cluster, 8);
    s.parallel.ulysses = 8;
    s.zero.stage = 3;
    s.zero.offload_optimizer = OffloadDevice::Cpu;
    s.training.seq_len = seq;
    s.training.micro_batch = 1;
    s.training.global_batch = 1;
    s.training.checkpointing = Checkpointing::Full;
    s.training.loss_kernel = LossKernel::Chunked;
    s.training.tiled_mlp = s.training.cpu_checkpointing = s.training.expandable_segments = true;
    validate(s);
    return s;
}

// The window planning `s` with its own setup chosen, the Sequence length tab in front.
SequenceView* showPlan(MainWindow& w, const Scenario& s) {
    w.document()->reset(s);
    w.document()->recomputeNow();
    w.document()->selectSetup(s.zero);
    w.showSideTab(w.sequenceView());
    w.flushPending();
    return w.sequenceView();
}

// The bar of the overview setup named `short_label` ("ZeRO-3+CPU").
int barOf(const std::string& short_label) {
    const auto& setups = overview_setups();
    for (std::size_t i = 0; i < setups.size(); ++i)
        if (short_setup_label(setups[i]) == short_label) return static_cast<int>(i);
    return -1;
}

}  // namespace

class TestSequenceView : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void is_a_tab_beside_the_recommendation() {
        MainWindow w(MainWindow::Ephemeral);
        const int index = w.sideTabs()->indexOf(tabPageOf(w.sideTabs(), w.sequenceView()));
        QVERIFY(index >= 0);
        QCOMPARE(w.sideTabs()->tabText(index), QStringLiteral("Sequence length"));
    }

    // Each bar is the core's longest for that setup, captioned with what stops it.
    void bars_are_the_core_longest() {
        MainWindow w(MainWindow::Ephemeral);
        const Scenario s = alst_node(1 << 20);
        SequenceView* v = showPlan(w, s);
        const auto& setups = overview_setups();
        for (std::size_t i = 0; i < setups.size(); ++i) {
            const SequenceCeiling c = longest_sequence(with_setup(s, setups[i]));
            QCOMPARE(v->barTokens(static_cast<int>(i)), static_cast<double>(c.max_seq_len));
        }
        // ZeRO-3 + CPU optimizer stops at the int32 limit: 2^31 / 4096 x 8 tokens.
        const int zero3_cpu = barOf("ZeRO-3+CPU");
        QVERIFY(zero3_cpu >= 0);
        QVERIFY(v->barCaption(zero3_cpu).endsWith(QStringLiteral("int32")));
        QCOMPARE(v->wallTokens(), v->barTokens(zero3_cpu));
        QCOMPARE(v->targetTokens(), 1048576.0);
        QVERIFY(v->curvePoints() >= 20);
        QVERIFY(v->summary().contains(QStringLiteral("4,192,256")));
    }

    // Ulysses on auto: each bar is the setup's longest over every degree the layout takes, as
    // `recommend --sp auto --max-seq` has it (longest_sequences), and its caption names the degree;
    // the curves are drawn at the chosen setup's degree.
    void ulysses_on_auto_bars_are_the_longest_over_the_degrees() {
        MainWindow w(MainWindow::Ephemeral);
        Scenario s = alst_node(1 << 20);
        s.parallel.ulysses = 1;
        s.parallel.auto_ulysses = true;
        SequenceView* v = showPlan(w, s);
        const SequenceSearch search = longest_sequences(s);
        QVERIFY(search.ulysses_searched);
        const auto& setups = overview_setups();
        int checked = 0;
        for (std::size_t i = 0; i < setups.size(); ++i) {
            for (const SequenceCeiling& c : search.per_setup) {
                if (c.setup != setup_key(setups[i])) continue;
                QCOMPARE(v->barTokens(static_cast<int>(i)), static_cast<double>(c.max_seq_len));
                if (c.max_seq_len > 0) {
                    QVERIFY2(v->barCaption(static_cast<int>(i)).endsWith(QStringLiteral("Ulysses %1").arg(c.ulysses)),
                             qPrintable(v->barCaption(static_cast<int>(i))));
                }
                ++checked;
            }
        }
        QCOMPARE(checked, static_cast<int>(setups.size()));  // every overview setup runs here
        // ZeRO-3 + CPU reaches ALST's 8-GPU length at Ulysses 8 (the whole node), as with --sp 8.
        const int zero3_cpu = barOf("ZeRO-3+CPU");
        QVERIFY(zero3_cpu >= 0);
        QCOMPARE(v->barTokens(zero3_cpu), 4192256.0);
        QVERIFY(v->barCaption(zero3_cpu).endsWith(QStringLiteral("Ulysses 8")));
        QCOMPARE(v->wallTokens(), 4192256.0);
        QVERIFY(v->summary().contains(QStringLiteral("degree 8")));
    }

    // DDP keeps every state on each GPU: no length fits, and the bar says so.
    void a_setup_that_fits_nothing_says_so() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(alst_node(65536));
        w.showSideTab(w.sequenceView());
        w.flushPending();
        QCOMPARE(w.sequenceView()->barTokens(0), 0.0);
        QVERIFY(w.sequenceView()->barCaption(0).contains(QStringLiteral("none")));
    }

    // Dragging the target (or the arrow keys) sets the plan's length, rounded to 256 x Ulysses
    // tokens, as one undo step.
    void the_target_edits_the_sequence_length() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(alst_node(1 << 20));
        w.showSideTab(w.sequenceView());
        w.flushPending();
        SequenceView* v = w.sequenceView();
        v->setTarget(2000000.0);
        QCOMPARE(w.document()->scenario().training.seq_len, std::int64_t{977 * 2048});  // 2e6 / 2048 = 976.6
        QCOMPARE(w.document()->undoStack()->count(), 1);
        w.flushPending();
        QCOMPARE(v->targetTokens(), static_cast<double>(w.document()->scenario().training.seq_len));
        // The keyboard: Right adds one granule.
        const std::int64_t before = w.document()->scenario().training.seq_len;
        QTest::keyClick(v->curvePlot(), Qt::Key_Right);
        QCOMPARE(w.document()->scenario().training.seq_len, before + 2048);
        w.document()->undoStack()->undo();
        w.document()->undoStack()->undo();
        QCOMPARE(w.document()->scenario().training.seq_len, std::int64_t{1} << 20);
    }

    // The mouse: press on the target line, move, release.
    void a_drag_moves_the_target() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(alst_node(1 << 20));
        w.resize(1480, 920);
        w.showSideTab(w.sequenceView());
        w.show();
        w.flushPending();
        QCustomPlot* p = w.sequenceView()->curvePlot();
        p->replot();
        const int y = p->axisRect()->center().y();
        const int from = static_cast<int>(p->xAxis->coordToPixel(w.sequenceView()->targetTokens()));
        const int to = static_cast<int>(p->xAxis->coordToPixel(3e6));
        QTest::mousePress(p, Qt::LeftButton, {}, QPoint(from, y));
        QMouseEvent move(QEvent::MouseMove, QPointF(to, y), p->mapToGlobal(QPointF(to, y)), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(p, &move);
        QTest::mouseRelease(p, Qt::LeftButton, {}, QPoint(to, y));
        const double len = static_cast<double>(w.document()->scenario().training.seq_len);
        QVERIFY2(std::abs(len - 3e6) < 0.05 * 3e6, qPrintable(QString::number(len)));
    }

    // The bars' captions ("95.7k" over "GPU", and "Ulysses 2" under them with the degree on auto)
    // stand inside the plot, and the y title fits its axis, at the default size and at 1280x720
    // (the top was 6x the tallest bar on the log axis: the captions were cut, at 720 all but "GPU").
    void captions_and_title_fit_the_bars_plot_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("height");
        QTest::addColumn<bool>("ulysses");
        QTest::newRow("1480x920") << 1480 << 920 << false;
        QTest::newRow("1280x720") << 1280 << 720 << false;
        QTest::newRow("1280x720, Ulysses on auto") << 1280 << 720 << true;
    }
    void captions_and_title_fit_the_bars_plot() {
        QFETCH(int, width);
        QFETCH(int, height);
        QFETCH(bool, ulysses);
        MainWindow w(MainWindow::Ephemeral);
        w.resize(width, height);
        w.show();
        Scenario s = default_scenario();
        if (ulysses) {
            s = alst_node(1 << 20);
            s.parallel.ulysses = 1;
            s.parallel.auto_ulysses = true;
        }
        SequenceView* v = showPlan(w, s);
        QCustomPlot* plot = v->plot();
        plot->replot();
        const QRect rect = plot->axisRect()->rect();
        int captions = 0;
        for (int i = 0; i < plot->itemCount(); ++i) {
            auto* label = qobject_cast<PlotLabel*>(plot->item(i));
            if (!label || !label->visible() || label->text().isEmpty()) continue;
            ++captions;
            QVERIFY2(label->drawnBox().top() >= rect.top() - 0.5,
                     qPrintable(label->text() +
                                QStringLiteral(" top %1 rect %2 h %3").arg(label->drawnBox().top()).arg(rect.top()).arg(rect.height())));
        }
        QVERIFY(captions >= 6);
        const QFontMetrics metrics(plot->yAxis->labelFont());
        for (const QString& line : plot->yAxis->label().split(QLatin1Char('\n')))
            QVERIFY2(metrics.horizontalAdvance(line) <= rect.height(), qPrintable(line));
    }
};

ZP_TEST_MAIN(TestSequenceView)
#include "tst_sequence_view.moc"
