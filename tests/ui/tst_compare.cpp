// Comparing plans in the window (issue 17): pinning from the menu and the Compare tab, the tab's
// figures against the core's for every pin and the live plan, the ghosted bars and dashed lines,
// the fifth pin refused, undo and redo, sessions with pins, the screenshot's compare view.
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/deepspeed/config_export.h"
#include "core/presets/default_scenario.h"
#include "core/report/plan_compare.h"
#include "core/report/plan_pins.h"
#include "core/search/overview.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/export/screenshot.h"
#include "ui/main_window.h"
#include "ui/panels/compare_panel.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/time_view.h"
#include "ui/widgets/lazy_page.h"

#include <QAction>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUndoStack>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

QAction* pinAction(MainWindow& w) { return w.findChild<QAction*>(QStringLiteral("actionPinPlan")); }

// An edit as a control makes it, then the recompute.
void editGpus(PlannerDocument* doc, std::int64_t gpus) {
    doc->edit(with_gpu_count(doc->scenario(), gpus, 8), QStringLiteral("GPUs"), EditGpus);
    doc->recomputeNow();
}
void editSeq(PlannerDocument* doc, std::int64_t seq) {
    Scenario s = doc->scenario();
    s.training.seq_len = seq;
    doc->edit(s, QStringLiteral("Sequence"), EditSeq);
    doc->recomputeNow();
}

QString cell(QTableWidget* t, int row, int column) { return t->item(row, column) ? t->item(row, column)->text() : QString(); }

// The ghost's height the memory view draws for a setup: the top of its bar (must fit or peak reserved).
double barTopGib(const Candidate& c) { return bytes_to_gib(std::max(c.memory.total_bytes(), c.memory.peak_reserved_bytes)); }

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // Pin 8 GPUs, then 16, then move on to 32 GPUs at a longer sequence: every figure in the
    // tab is the core's for its plan, computed here straight from the pinned scenarios.
    void panel_numbers_are_the_cores() {
        MainWindow w(MainWindow::Ephemeral);
        PlannerDocument* doc = w.document();
        editGpus(doc, 8);
        const Scenario first = doc->exportScenario();
        QVERIFY(first == with_candidate(doc->scenario(), recommend(doc->scenario()).best));
        pinAction(w)->trigger();
        editGpus(doc, 16);
        const Scenario second = doc->exportScenario();
        w.comparePanel()->pinButton()->click();
        editGpus(doc, 32);
        editSeq(doc, 2048);
        QCOMPARE(doc->pins().size(), std::size_t{2});
        QVERIFY(doc->pins()[0].pin.scenario == first);
        QVERIFY(doc->pins()[1].pin.scenario == second);
        QCOMPARE(QString::fromStdString(doc->pins()[0].pin.name), QString::fromStdString(default_pin_name(first)));
        QCOMPARE(w.sideTabs()->currentWidget(), tabPageOf(w.sideTabs(), w.comparePanel()));

        w.flushPending();
        const PlanFigures live = plan_figures(doc->exportScenario());
        const PlanFigures a = plan_figures(first), b = plan_figures(second);
        // Against evaluate() itself, not only plan_figures.
        const Candidate ca = evaluate(first);
        QCOMPARE(a.peak_reserved_bytes, ca.memory.peak_reserved_bytes);
        QCOMPARE(a.gpu_hours, ca.step.budget_gpu_hours);
        QTableWidget* t = w.comparePanel()->figuresTable();
        const auto metrics = compare_metrics();
        QCOMPARE(t->rowCount(), static_cast<int>(metrics.size()));
        QCOMPARE(t->columnCount(), 4);
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QString::fromStdString(doc->pins()[0].pin.name));
        // Wiring, not values: each cell is the core's metric_text of its column's figures
        // (core.tst_plan_compare holds what metric_text prints).
        int differing = 0;
        for (int r = 0; r < t->rowCount(); ++r) {
            const CompareMetric m = metrics[static_cast<std::size_t>(r)];
            QCOMPARE(cell(t, r, 1), QString::fromStdString(metric_text(live, m)));
            for (const auto& [column, pin] : {std::pair{2, &a}, std::pair{3, &b}}) {
                const std::string delta = metric_delta(*pin, live, m);
                const QString expected = QString::fromStdString(metric_text(*pin, m)) +
                                         (delta.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(delta)));
                QCOMPARE(cell(t, r, column), expected);
                differing += delta.empty() ? 0 : 1;
            }
        }
        QVERIFY(differing > 0);  // 8 and 16 GPUs against 32 at another sequence length: the step differs
        const int needed = static_cast<int>(std::find(metrics.begin(), metrics.end(), CompareMetric::PeakRequired) - metrics.begin());
        QCOMPARE(cell(t, needed, 1).section(QLatin1Char(' '), 0, 0),
                 QString::fromStdString(format_fixed(bytes_to_gib(evaluate(doc->exportScenario()).memory.total_bytes()), 2)));
        const int hours = static_cast<int>(std::find(metrics.begin(), metrics.end(), CompareMetric::GpuHours) - metrics.begin());
        QVERIFY(cell(t, hours, 0).contains(QString::fromStdString(format_compact(doc->scenario().assumptions.token_budget))));

        // The config keys: exactly those config_key_rows gives, with "not set" for absent ones.
        QTableWidget* keys = w.comparePanel()->configTable();
        const std::vector<ConfigKeyRow> rows = config_key_rows(live, {a, b});
        QCOMPARE(keys->rowCount(), static_cast<int>(rows.size()));
        QVERIFY(!rows.empty());  // train_batch_size at least: the GPU counts differ
        for (int r = 0; r < keys->rowCount(); ++r) {
            QCOMPARE(cell(keys, r, 0), QString::fromStdString(rows[static_cast<std::size_t>(r)].key));
            for (int c = 0; c < 3; ++c) {
                const std::string& v = rows[static_cast<std::size_t>(r)].values[static_cast<std::size_t>(c)];
                QCOMPARE(cell(keys, r, c + 1), v.empty() ? QStringLiteral("not set") : QString::fromStdString(v));
            }
        }
        const QString md = w.comparePanel()->markdown();
        QVERIFY(md.contains(QString::fromStdString(doc->pins()[1].pin.name)));
        QVERIFY(md.contains(QString::fromStdString(rows.front().key)));
    }

    // Each pin's bars are ghosted in the memory and time views at the core's figures for its own
    // overview, and its stage is a dashed line in the scaling view; removing the pin removes them.
    void ghosts_follow_the_pins() {
        MainWindow w(MainWindow::Ephemeral);
        PlannerDocument* doc = w.document();
        editGpus(doc, 8);
        const Scenario pinned = doc->exportScenario();
        pinAction(w)->trigger();
        editGpus(doc, 64);
        w.flushPending();
        const Overview o = compute_overview(pinned);
        QCOMPARE(o.bars.size(), std::size_t{7});
        for (std::size_t b = 0; b < o.bars.size(); ++b) {
            const int bar = static_cast<int>(b);
            QVERIFY(w.memoryView()->ghostGib(0, bar) > 0);
            QCOMPARE(w.memoryView()->ghostGib(0, bar), barTopGib(o.bars[b]));
            QCOMPARE(w.timeView()->ghostSeconds(0, bar), o.bars[b].step.seconds);
        }
        QVERIFY(w.memoryView()->ghostGib(0, 0) != w.memoryView()->sliceGib(0, 0) + 1);  // a value of its own, not the live bar's
        QCOMPARE(w.scalingView()->pinLinePoints(0), static_cast<int>(o.scaling.front().points.size()));
        QCOMPARE(w.memoryView()->ghostGib(1, 0), 0.0);
        QVERIFY(w.memoryView()->legend()->entries().back().name.contains(QString::fromStdString(doc->pins()[0].pin.name)));
        doc->removePin(0);
        w.flushPending();
        QCOMPARE(w.memoryView()->ghostGib(0, 0), 0.0);
        QCOMPARE(w.timeView()->ghostSeconds(0, 0), 0.0);
        QCOMPARE(w.scalingView()->pinLinePoints(0), 0);
    }

    // Four pins at most: the fifth is refused with a status message and changes nothing.
    void fifth_pin_refused() {
        MainWindow w(MainWindow::Ephemeral);
        PlannerDocument* doc = w.document();
        for (std::int64_t gpus : {8, 16, 32, 64}) {
            editGpus(doc, gpus);
            pinAction(w)->trigger();
        }
        QCOMPARE(doc->pins().size(), kMaxPins);
        const int steps = doc->undoStack()->count();
        editGpus(doc, 128);
        const int after_edit = doc->undoStack()->count();
        QVERIFY(after_edit > steps);
        pinAction(w)->trigger();
        QCOMPARE(doc->pins().size(), kMaxPins);
        QCOMPARE(doc->undoStack()->count(), after_edit);
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("4 plans pinned")), qPrintable(w.statusBar()->currentMessage()));
        QString refusal;
        QVERIFY(!doc->pinPlan(&refusal));
        QVERIFY(refusal.contains(QStringLiteral("remove one")));
        // Removing one makes room again.
        doc->removePin(1);
        QVERIFY(doc->pinPlan(&refusal));
        QCOMPARE(doc->pins().size(), kMaxPins);
    }

    // Pin, rename and remove are undo steps; undo and redo restore the pins and the modified state.
    void undo_redo() {
        MainWindow w(MainWindow::Ephemeral);
        PlannerDocument* doc = w.document();
        QVERIFY(!doc->isModified());
        QUndoStack* undo = doc->undoStack();
        pinAction(w)->trigger();
        QCOMPARE(doc->pins().size(), std::size_t{1});
        QVERIFY(doc->isModified());
        const PlanPin pinned = doc->pins()[0].pin;
        undo->undo();
        QVERIFY(doc->pins().empty());
        QVERIFY(!doc->isModified());
        undo->redo();
        QCOMPARE(doc->pins().size(), std::size_t{1});
        QVERIFY(doc->pins()[0].pin == pinned);

        // Renamed in the tab as a user does it: type, then Enter.
        w.flushPending();
        auto* name = w.comparePanel()->findChild<QLineEdit*>(QStringLiteral("pinName0"));
        QVERIFY(name);
        name->setText(QStringLiteral("baseline"));
        emit name->editingFinished();
        QCOMPARE(QString::fromStdString(doc->pins()[0].pin.name), QStringLiteral("baseline"));
        QCoreApplication::processEvents();  // the old row goes later
        w.flushPending();
        QCOMPARE(w.comparePanel()->figuresTable()->horizontalHeaderItem(2)->text(), QStringLiteral("baseline"));
        doc->renamePin(0, QStringLiteral("   "));  // a blank name is no name: nothing happens
        QCOMPARE(QString::fromStdString(doc->pins()[0].pin.name), QStringLiteral("baseline"));
        undo->undo();
        QCOMPARE(doc->pins()[0].pin.name, pinned.name);
        undo->redo();

        auto* remove = w.comparePanel()->findChild<QToolButton*>(QStringLiteral("removePin0"));
        QVERIFY(remove);
        remove->click();
        QVERIFY(doc->pins().empty());
        QCoreApplication::processEvents();
        undo->undo();
        QCOMPARE(doc->pins().size(), std::size_t{1});
        QCOMPARE(QString::fromStdString(doc->pins()[0].pin.name), QStringLiteral("baseline"));
        // A scenario edit between pin edits undoes on its own.
        editGpus(doc, 16);
        undo->undo();
        QCOMPARE(doc->pins().size(), std::size_t{1});
    }

    // Save and open: the pins come back with their names and scenarios, the figures recomputed.
    void session_round_trip() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pins.zplan"));
        std::vector<PlanPin> saved;
        {
            MainWindow w(MainWindow::Ephemeral);
            PlannerDocument* doc = w.document();
            editGpus(doc, 8);
            pinAction(w)->trigger();
            editGpus(doc, 32);
            pinAction(w)->trigger();
            doc->renamePin(1, QStringLiteral("thirty-two"));
            editSeq(doc, 1024);
            QString error;
            QVERIFY2(doc->save(path, &error), qPrintable(error));
            QVERIFY(!doc->isModified());
            for (const PinnedPlan& p : doc->pins()) saved.push_back(p.pin);
            QCOMPARE(QString::fromStdString(read_text_file(path.toStdString())), QString::fromStdString(doc->sessionText()));
        }
        const SessionFile file = parse_session_file(read_text_file(path.toStdString()), "pins.zplan");
        QVERIFY(file.pins == saved);
        PlannerDocument other;
        QString error;
        QVERIFY2(other.open(path, &error), qPrintable(error));
        QCOMPARE(other.pins().size(), std::size_t{2});
        for (std::size_t i = 0; i < saved.size(); ++i) {
            QVERIFY(other.pins()[i].pin == saved[i]);
            QCOMPARE(other.pins()[i].figures.step_seconds, plan_figures(saved[i].scenario).step_seconds);
        }
        QCOMPARE(other.scenario().training.seq_len, std::int64_t{1024});
        QVERIFY(!other.isModified());
        other.newDocument();
        QVERIFY(other.pins().empty());
    }

    // The window's remembered last session keeps the pins: closed with two, it comes back with them.
    void last_session_keeps_the_pins() {
        QTemporaryDir dir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
        std::vector<PlanPin> pinned;
        {
            MainWindow w(MainWindow::Persistent);
            w.setSaveChangesPrompt([] { return MainWindow::SaveChoice::Discard; });
            editGpus(w.document(), 8);
            pinAction(w)->trigger();
            editGpus(w.document(), 16);
            pinAction(w)->trigger();
            for (const PinnedPlan& p : w.document()->pins()) pinned.push_back(p.pin);
            QVERIFY(w.close());
        }
        MainWindow again(MainWindow::Persistent);
        QCOMPARE(again.document()->pins().size(), std::size_t{2});
        for (std::size_t i = 0; i < pinned.size(); ++i) QVERIFY(again.document()->pins()[i].pin == pinned[i]);
        QVERIFY(!again.document()->isModified());
        QSettings().clear();
    }

    // Every pin's colour reads on a light and on a dark base (outlines, names in the headers).
    void pin_colours_keep_contrast() {
        QPalette light;
        light.setColor(QPalette::Base, Qt::white);
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        for (int pin = 0; pin < static_cast<int>(kMaxPins); ++pin) {
            QVERIFY2(contrastRatio(pinColor(pin, light), Qt::white) >= 3.0, qPrintable(QString::number(pin)));
            QVERIFY2(contrastRatio(pinColor(pin, dark), QColor(0x1e, 0x1e, 0x1e)) >= 3.0, qPrintable(QString::number(pin)));
            for (int other = 0; other < pin; ++other) QVERIFY(pinColor(pin, light) != pinColor(other, light));
        }
    }

    // Tab goes through the panel as it reads: Pin, Copy, each pin's name and Remove, the tables.
    void tab_order() {
        MainWindow w(MainWindow::Ephemeral);
        pinAction(w)->trigger();
        editGpus(w.document(), 16);
        pinAction(w)->trigger();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);  // the rows of one pin, replaced
        ComparePanel* panel = w.comparePanel();
        QList<QWidget*> expected{panel->pinButton(), panel->findChild<QPushButton*>(QStringLiteral("copyCompareMarkdown"))};
        for (int i = 0; i < 2; ++i)
            expected << panel->findChild<QLineEdit*>(QStringLiteral("pinName%1").arg(i))
                     << panel->findChild<QToolButton*>(QStringLiteral("removePin%1").arg(i));
        expected << panel->figuresTable() << panel->configTable();
        // Along the focus chain (a table's viewport follows the table), the next of these widgets.
        for (qsizetype i = 0; i + 1 < expected.size(); ++i) {
            QVERIFY(expected[i]);
            QWidget* next = expected[i]->nextInFocusChain();
            while (next != expected[i] && !expected.contains(next)) next = next->nextInFocusChain();
            QCOMPARE(next, expected[i + 1]);
        }
    }

    // Ctrl+D pins, as the Edit menu says.
    void shortcut_pins() {
        MainWindow w(MainWindow::Ephemeral);
        QCOMPARE(pinAction(w)->shortcut(), QKeySequence(QStringLiteral("Ctrl+D")));
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_D, Qt::ControlModifier);
        QCOMPARE(w.document()->pins().size(), std::size_t{1});
        QVERIFY(w.statusBar()->currentMessage().contains(QString::fromStdString(w.document()->pins()[0].pin.name)));
    }

    // `screenshot --view compare`: the window with the Compare tab in front.
    void screenshot_compare_view() {
        QVERIFY(screenshotViews().contains(QStringLiteral("compare")));
        QString error;
        Scenario s = default_scenario();
        const std::vector<PlanPin> pins{{"one", with_candidate(s, recommend(s).best)}};
        const QImage image = renderView(s, QStringLiteral("compare"), QSize(1480, 920), &error, {}, {}, pins);
        QVERIFY2(!image.isNull(), qPrintable(error));
        QCOMPARE(image.size(), QSize(1480, 920));
    }
};

ZP_TEST_MAIN(TestCompare)
#include "tst_compare.moc"
