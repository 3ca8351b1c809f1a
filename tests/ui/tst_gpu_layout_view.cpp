// The GPU layout tab, offscreen: it states the scenario's tensor x pipeline x data-parallel
// layout, draws a cell per GPU (few GPUs) or a box per node (many), follows the document's
// layout while shown and only then (ui/widgets/lazy_view.h), says in its legend and accessible
// description which groups cross the network (core/model/parallel_layout.h layout_links), and
// paints on the palette's base.
#include "core/model/parallel_layout.h"
#include "core/presets/cluster_presets.h"
#include "core/search/scenario_edits.h"
#include "tests/test_util.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/gpu_layout_view.h"
#include "ui/plots/host_view.h"

#include <QUndoStack>

#include <QTabBar>
#include <QTabWidget>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

Scenario layout(std::int64_t gpus, std::int64_t t, std::int64_t p) {
    Scenario s = zp::test::preset_scenario("bloom-176b", "a100-80gb", gpus);
    s.zero.stage = 1;
    s.parallel.tensor = t;
    s.parallel.pipeline = p;
    validate(s);
    return s;
}

// The window on `s` with the GPU layout tab shown.
void showLayout(MainWindow& w, const Scenario& s) {
    w.resize(1480, 920);
    w.document()->reset(s);
    w.plotTabs()->setCurrentWidget(w.layoutView());
    w.show();
    w.flushPending();
}

const QString kNetwork = QStringLiteral("crosses the network");

}  // namespace

class TestGpuLayoutView : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void is_a_tab_beside_the_other_plots() {
        MainWindow w(MainWindow::Ephemeral);
        const int index = w.plotTabs()->indexOf(w.layoutView());
        QVERIFY(index >= 0);
        QCOMPARE(w.plotTabs()->tabText(index), QStringLiteral("GPU layout"));
        QCOMPARE(w.plotTabs()->indexOf(w.hostView()) + 1, index);
        // Every tab is in sight at the window's default size (names elided, no scroll buttons).
        w.resize(1480, 920);
        w.show();
        QCoreApplication::processEvents();
        const QTabBar* bar = w.plotTabs()->tabBar();
        for (int i = 0; i < bar->count(); ++i) QVERIFY2(bar->rect().contains(bar->tabRect(i)), qPrintable(bar->tabText(i)));
    }

    // A node of more than 16 GPUs (an NVLink rack) wraps its cells into lines of a divisor of its
    // GPUs, so an NVL72's 64 or 72 GPUs are cells of a readable size; nodes of 8 stay one line.
    void a_rack_wraps_into_lines_data() {
        QTest::addColumn<QString>("cluster");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<bool>("wraps");
        QTest::newRow("GB200 NVL72, 64 GPUs, tensor 8") << "gb200-nvl72" << qint64(64) << qint64(8) << true;
        QTest::newRow("GB200 NVL72, 72 GPUs, tensor 8") << "gb200-nvl72" << qint64(72) << qint64(8) << true;
        QTest::newRow("8 DGX H100, tensor 8: one line a node") << "dgx-h100" << qint64(64) << qint64(8) << false;
    }
    void a_rack_wraps_into_lines() {
        QFETCH(QString, cluster);
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(bool, wraps);
        Scenario s = zp::test::preset_scenario("llama-3.1-70b", "h100-80gb", 8);
        s = with_node(s, cluster_preset(cluster.toStdString()).cluster, gpus);
        s.zero.stage = 1;
        s.parallel.tensor = t;
        validate(s);
        MainWindow w(MainWindow::Ephemeral);
        showLayout(w, s);
        GpuLayoutView* view = w.layoutView();
        QCOMPARE(view->cellCount(), static_cast<int>(gpus));
        const int per_line = view->gpusPerLine();
        QVERIFY2(
            wraps ? per_line < s.cluster.gpus_per_node && s.cluster.gpus_per_node % per_line == 0 : per_line == s.cluster.gpus_per_node,
            qPrintable(QString::number(per_line)));
    }

    void draws_the_layout_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("p");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("cells");
        QTest::addColumn<bool>("networkInLegend");
        QTest::newRow("8 GPUs TP2 PP2: one node, nothing crosses")
            << qint64(8) << qint64(2) << qint64(2) << "TP 2 x PP 2 x DP 2" << 8 << false;
        QTest::newRow("16 GPUs TP8: the replicas' gradients cross")
            << qint64(16) << qint64(8) << qint64(1) << "TP 8 x PP 1 x DP 2" << 16 << true;
        QTest::newRow("BLOOM-176B: 384 GPUs TP4 PP12") << qint64(384) << qint64(4) << qint64(12) << "TP 4 x PP 12 x DP 8" << 384 << true;
        QTest::newRow("4096 GPUs TP4 PP16: node boxes only")
            << qint64(4096) << qint64(4) << qint64(16) << "TP 4 x PP 16 x DP 64" << 0 << true;
        // More nodes than GpuLayoutView::kMaxNodeBoxes: 512 evenly spaced ones drawn, and said.
        QTest::newRow("524,288 GPUs TP8 PP16: 512 of 65,536 nodes drawn")
            << qint64(524288) << qint64(8) << qint64(16) << "TP 8 x PP 16 x DP 4096" << 0 << true;
    }
    void draws_the_layout() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(qint64, p);
        QFETCH(QString, text);
        QFETCH(int, cells);
        QFETCH(bool, networkInLegend);
        MainWindow w(MainWindow::Ephemeral);
        const Scenario s = layout(gpus, t, p);
        showLayout(w, s);
        GpuLayoutView* view = w.layoutView();
        QVERIFY2(view->layoutText().startsWith(text), qPrintable(view->layoutText()));
        QVERIFY(view->layoutText().contains(
            (s.cluster.nodes == 1 ? QStringLiteral("on 1 node x %2 GPUs") : QStringLiteral("on %1 nodes x %2 GPUs").arg(s.cluster.nodes))
                .arg(s.cluster.gpus_per_node)));
        QCOMPARE(view->cellCount(), cells);
        QCOMPARE(view->nodeBoxCount(), static_cast<int>(std::min<qint64>(s.cluster.nodes, GpuLayoutView::kMaxNodeBoxes)));
        QCOMPARE(view->layoutText().contains(QStringLiteral("(512 of them drawn, evenly spaced)")),
                 s.cluster.nodes > GpuLayoutView::kMaxNodeBoxes);
        QCOMPARE(view->legendText().contains(kNetwork), networkInLegend);
        // The core's verdict per group is what the legend and the description say.
        const GroupLinks links = layout_links(s);
        const QString description = view->accessibleDescription();
        QCOMPARE(view->drawing()->accessibleDescription(), description);
        QVERIFY(!view->accessibleName().isEmpty() && !view->drawing()->accessibleName().isEmpty());
        QVERIFY2(description.contains(QStringLiteral("Tensor-parallel groups are %1 consecutive GPUs").arg(t)), qPrintable(description));
        QVERIFY2(description.contains(QStringLiteral("pipeline stages are %1 ranks apart").arg(gpus / p)), qPrintable(description));
        QVERIFY2(description.contains(QStringLiteral("data-parallel groups have %1 ranks").arg(data_parallel_size(s))),
                 qPrintable(description));
        QCOMPARE(description.contains(QStringLiteral("Pipeline traffic: ") + kNetwork), links.pipeline == GroupLink::InterNode);
        QCOMPARE(description.contains(QStringLiteral("Tensor-parallel traffic: ") + kNetwork), links.tensor == GroupLink::InterNode);
        QVERIFY(description.contains(QString::fromUtf8(data_parallel_traffic(s))));
    }

    // DeepSpeed-Ulysses and expert-parallel groups (core's ulysses_group_ranks, expert_group_ranks)
    // get a bar row under the GPUs and a legend line saying where their all-to-alls go.
    void all_to_all_groups_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("u");
        QTest::addColumn<qint64>("ep");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("described");
        QTest::newRow("Llama-3-8B, 16 GPUs, SP 8: a node per group")
            << "llama-3-8b" << qint64(16) << qint64(1) << qint64(8) << qint64(1) << "SP 8 x DP 2"
            << "Sequence parallel 8 (bar under its GPUs"
            << "Sequence-parallel groups are 8 consecutive GPUs; their all-to-alls: inside a node";
        QTest::newRow("Llama-3-8B, 16 GPUs, SP 16: over both nodes")
            << "llama-3-8b" << qint64(16) << qint64(1) << qint64(16) << qint64(1) << "SP 16 x DP 1"
            << "Sequence parallel 16 (bar under its GPUs"
            << "Sequence-parallel groups are 16 consecutive GPUs; their all-to-alls: crosses";
        QTest::newRow("Mixtral-8x7B, 16 GPUs, EP 8: a node per group")
            << "mixtral-8x7b" << qint64(16) << qint64(1) << qint64(1) << qint64(8) << "TP 1 x PP 1 x DP 16, EP 8"
            << "Expert parallel 8 (bar under its GPUs"
            << "Expert-parallel groups are 8 data-parallel ranks, 1 apart; their all-to-alls: inside a node";
        QTest::newRow("Mixtral-8x7B, 32 GPUs, TP 4 x EP 4: over two nodes")
            << "mixtral-8x7b" << qint64(32) << qint64(4) << qint64(1) << qint64(4) << "TP 4 x PP 1 x DP 8, EP 4"
            << "Expert parallel 4 (bar under its GPUs"
            << "Expert-parallel groups are 4 data-parallel ranks, 4 apart; their all-to-alls: crosses";
    }
    void all_to_all_groups() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(qint64, u);
        QFETCH(qint64, ep);
        QFETCH(QString, text);
        QFETCH(QString, line);
        QFETCH(QString, described);
        Scenario s = zp::test::preset_scenario(model.toUtf8().constData(), "h100-80gb", gpus);
        s.zero.stage = 1;
        s.parallel.tensor = t;
        s.parallel.ulysses = u;
        s.parallel.expert = ep;
        validate(s);
        MainWindow w(MainWindow::Ephemeral);
        showLayout(w, s);
        GpuLayoutView* view = w.layoutView();
        QVERIFY2(view->layoutText().startsWith(text), qPrintable(view->layoutText()));
        QCOMPARE(view->groupRowCount(), 1);
        const QString legend = view->legendText();
        const qsizetype at = legend.indexOf(line);
        QVERIFY2(at >= 0, qPrintable(legend));
        // The group's line ends in its link, the network in the warning colour.
        const QString rest = legend.mid(at, legend.indexOf(QStringLiteral("<br>"), at) - at);
        const bool network = described.endsWith(QStringLiteral("crosses"));
        QVERIFY2(rest.contains(network ? kNetwork : QStringLiteral("inside a node")), qPrintable(rest));
        QVERIFY2(view->accessibleDescription().contains(described), qPrintable(view->accessibleDescription()));
        // Without Ulysses or experts there is no bar row.
        s.parallel.ulysses = s.parallel.expert = 1;
        w.document()->edit(s, QStringLiteral("no all-to-alls"));
        QCOMPARE(view->groupRowCount(), 0);
    }

    // An edit of the layout redraws the shown tab; while another tab is shown the view waits
    // and catches up when shown again (ui/widgets/lazy_view.h).
    void follows_the_document_while_shown() {
        MainWindow w(MainWindow::Ephemeral);
        showLayout(w, layout(16, 2, 2));
        GpuLayoutView* view = w.layoutView();
        QVERIFY(view->layoutText().startsWith(QStringLiteral("TP 2 x PP 2 x DP 4")));
        const QString before = view->accessibleDescription();
        w.document()->edit(layout(16, 8, 2), QStringLiteral("tensor 8"));
        QVERIFY2(view->layoutText().startsWith(QStringLiteral("TP 8 x PP 2 x DP 1")), qPrintable(view->layoutText()));
        QVERIFY(view->accessibleDescription() != before);

        w.plotTabs()->setCurrentWidget(w.hostView());
        w.document()->edit(layout(16, 4, 1), QStringLiteral("tensor 4"));
        QVERIFY2(view->layoutText().startsWith(QStringLiteral("TP 8 x PP 2")), "rebuilt while hidden");
        w.plotTabs()->setCurrentWidget(view);
        QVERIFY2(view->layoutText().startsWith(QStringLiteral("TP 4 x PP 1 x DP 4")), qPrintable(view->layoutText()));
        w.document()->undoStack()->undo();
        QVERIFY2(view->layoutText().startsWith(QStringLiteral("TP 8 x PP 2")), qPrintable(view->layoutText()));
    }

    // A dark palette: the drawing paints on its base, and the legend's network warning takes the
    // dark palette's warning colour.
    void dark_palette() {
        MainWindow w(MainWindow::Ephemeral);
        showLayout(w, layout(384, 4, 12));
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Base, QColor(0x12, 0x12, 0x12));
        dark.setColor(QPalette::AlternateBase, QColor(0x22, 0x22, 0x22));
        dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
        dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
        w.setPalette(dark);
        w.flushPending();
        GpuLayoutView* view = w.layoutView();
        const QImage image = view->drawing()->grab().toImage();
        QCOMPARE(image.pixelColor(0, image.height() - 1), dark.color(QPalette::Base));
        QVERIFY2(view->legendText().contains(warningColor(dark).name()), qPrintable(view->legendText()));
        QVERIFY(contrastRatio(warningColor(dark), dark.color(QPalette::Base)) >= 4.5);
    }

    void an_impossible_layout_is_said_not_drawn() {
        MainWindow w(MainWindow::Ephemeral);
        Scenario s = layout(16, 2, 2);
        showLayout(w, s);
        s.parallel.pipeline = 3;  // 16 GPUs do not split into 2 x 3 x d
        w.document()->edit(s, QStringLiteral("pipeline 3"));
        QVERIFY2(w.layoutView()->layoutText().startsWith(QStringLiteral("No layout:")), qPrintable(w.layoutView()->layoutText()));
        QCOMPARE(w.layoutView()->nodeBoxCount(), 0);
    }
};

ZP_TEST_MAIN(TestGpuLayoutView)
#include "tst_gpu_layout_view.moc"
