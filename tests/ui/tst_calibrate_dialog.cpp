// Calibrate from a Run (issue 14, items 4 and 5), offscreen: the dialog shows core calibrate()'s
// before / measured / after for published log excerpts, shows the core's reason and keeps Apply
// disabled for logs it refuses (the document unchanged), Apply is one undoable edit of the
// document, and the recommendation card names what decides the recommended step.
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/calibration/calibrate.h"
#include "core/calibration/run_log.h"
#include "core/io/scenario_json.h"
#include "core/time/step_explain.h"
#include "tests/ui/offscreen.h"
#include "ui/dialogs/calibrate_dialog.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QTimer>

#include <QPlainTextEdit>
#include <QPushButton>
#include <QUndoStack>
#include <functional>
#include "test_main.h"
#include "test_text.h"

using namespace zp;
using namespace zp::ui;
using zp::test::q;

namespace {

const std::string kSession = ZP_SOURCE_DIR "/docs/sessions/calibrate-zero-tutorial.zplan";
const QString kTutorialLog = QStringLiteral(ZP_SOURCE_DIR "/tests/data/calibration/zero_tutorial_1.5b.log");

// DeepSpeed's ZeRO tutorial run (docs/_tutorials/zero.md): GPT-2-style 1.5B, ZeRO-1, 8 x V100.
Scenario tutorialScenario() { return parse_session(read_text_file(kSession), kSession); }

}  // namespace

class TestCalibrateDialog : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void shows_core_calibrate_data() {
        QTest::addColumn<QString>("log");
        QTest::addColumn<double>("allocatedGib");
        // The DeepSpeed ZeRO tutorial's throughput line (tests/data/calibration/README.md).
        QTest::newRow("ZeRO tutorial SamplesPerSec") << q(read_text_file(kTutorialLog.toStdString())) << 0.0;
        // The same line as DeepSpeed >= 0.6 prints it, with its memory reading.
        QTest::newRow("RunningAvgSamplesPerSec with memory")
            << QStringLiteral(
                   "[timer.py:260:stop] epoch=0/micro_step=9/global_step=9, RunningAvgSamplesPerSec=11.66, "
                   "CurrSamplesPerSec=11.7, MemAllocated=9.1GB, MaxMemAllocated=21.5GB\n")
            << 21.5;
    }
    void shows_core_calibrate() {
        QFETCH(QString, log);
        QFETCH(double, allocatedGib);
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        CalibrateDialog dialog(&doc);
        dialog.setLogText(log, QStringLiteral("run.log"));
        QVERIFY2(dialog.result().has_value(), qPrintable(dialog.problem()));
        QVERIFY(dialog.applyButton()->isEnabled());
        QVERIFY(dialog.problem().isEmpty());

        const calibration::RunLog m = calibration::read_run_log(log.toStdString(), "run.log");
        const calibration::CalibrationResult r = calibration::calibrate(tutorialScenario(), m, "run.log", "2026-01-01");
        QCOMPARE(dialog.cell(QStringLiteral("step"), 0), q(format_seconds(r.step_before_seconds)));
        QCOMPARE(dialog.cell(QStringLiteral("step"), 1), q(format_seconds(r.step_measured_seconds)));
        QCOMPARE(dialog.cell(QStringLiteral("step"), 2), q(format_seconds(r.step_after_seconds)));
        QCOMPARE(dialog.result()->mfu_after, r.mfu_after);
        QVERIFY(dialog.movedText().contains(q("x" + format_fixed(r.scale_before, 2) + " -> x" + format_fixed(r.scale_after, 2))));
        for (const std::string& line : m.read) QVERIFY(dialog.readText().contains(q(line)));
        if (allocatedGib > 0) {
            QCOMPARE(dialog.cell(QStringLiteral("allocated"), 1), q(format_bytes(*r.max_allocated_measured_bytes)));
            QCOMPARE(dialog.cell(QStringLiteral("allocated"), 0), q(format_bytes(*r.max_allocated_predicted_bytes)));
        }
    }

    void typed_numbers_calibrate_too() {
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        CalibrateDialog dialog(&doc);
        QVERIFY(!dialog.applyButton()->isEnabled());  // nothing given yet
        QVERIFY(dialog.problem().isEmpty());          // nothing refused: the dialog says what to give
        QVERIFY(!dialog.readText().isEmpty());
        auto* step = dialog.findChild<QDoubleSpinBox*>(QStringLiteral("measuredStep"));
        QVERIFY(step);
        step->setValue(0.686);
        QVERIFY2(dialog.result().has_value(), qPrintable(dialog.problem()));
        calibration::RunLog m;
        m.step_seconds = 0.686;
        const calibration::CalibrationResult r = calibration::calibrate(tutorialScenario(), m, "typed", "2026-01-01");
        QCOMPARE(dialog.cell(QStringLiteral("step"), 2), q(format_seconds(r.step_after_seconds)));
        QCOMPARE(dialog.result()->mfu_after, r.mfu_after);
    }

    void refuses_with_the_core_reason_data() {
        QTest::addColumn<QString>("log");
        QTest::newRow("nothing usable") << q(read_text_file(ZP_SOURCE_DIR "/tests/data/calibration/nothing_readable.log"));
        // Two global batch sizes in one log.
        QTest::newRow("contradicting lines") << QStringLiteral(
            "iteration 10/ 100 | elapsed time per iteration (ms): 700.0 | global batch size:     8 |\n"
            "iteration 20/ 100 | elapsed time per iteration (ms): 700.0 | global batch size:    16 |\n");
        // DeepSpeed's flops profiler summary of a 16-GPU run with this run's throughput line: not these 8 GPUs.
        QTest::newRow("another world size") << QStringLiteral(
            "world size:                                                   16\n"
            "[timer.py:154:stop] 0/1251, SamplesPerSec=11.66402004446845 (step=1251)\n");
        // Megatron's iteration line for a global batch of 768: not this 8-sequence run.
        QTest::newRow("another run's batch") << QStringLiteral(
            "iteration      199/  317892 | elapsed time per iteration (ms): 14287.5 | global batch size:   768 |\n");
    }
    void refuses_with_the_core_reason() {
        QFETCH(QString, log);
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        const std::string before = session_text(doc.scenario());
        CalibrateDialog dialog(&doc);
        dialog.setLogText(log, QStringLiteral("run.log"));
        QString core_reason;
        try {
            const calibration::RunLog m = calibration::read_run_log(log.toStdString(), "run.log");
            calibration::calibrate(tutorialScenario(), m, "run.log", "2026-01-01");
        } catch (const InputError& e) {
            core_reason = q(e.what());
        }
        QVERIFY(!core_reason.isEmpty());
        QCOMPARE(dialog.problem(), core_reason);
        QVERIFY(!dialog.problem().contains(QLatin1Char('\n')));
        QVERIFY(!dialog.result().has_value());
        QVERIFY(!dialog.applyButton()->isEnabled());
        dialog.accept();  // Enter with Apply disabled: nothing happens
        QCOMPARE(session_text(doc.scenario()), before);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void apply_is_one_undoable_edit() {
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        const std::string before = session_text(doc.scenario());
        CalibrateDialog dialog(&doc);
        QString error;
        QVERIFY2(dialog.openLogFile(kTutorialLog, &error), qPrintable(error));
        QVERIFY(dialog.result().has_value());
        const std::string calibrated = session_text(dialog.result()->calibrated);
        dialog.applyButton()->click();
        QCOMPARE(session_text(doc.scenario()), calibrated);
        QVERIFY(q(doc.scenario().assumptions.calibration).contains(QStringLiteral("zero_tutorial_1.5b.log")));
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(doc.isModified());
        doc.undoStack()->undo();
        QCOMPARE(session_text(doc.scenario()), before);
        doc.undoStack()->redo();
        QCOMPARE(session_text(doc.scenario()), calibrated);
    }

    // Before a run is read the "Predicted before" column shows the plan's own figures (calibrate's
    // "before": the scenario's step, max allocated and max reserved), the others a dash.
    void predicted_before_shows_before_a_run() {
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        CalibrateDialog dialog(&doc);
        QVERIFY(!dialog.result().has_value());
        const calibration::PlanPrediction p = calibration::predicted(doc.scenario());
        QCOMPARE(dialog.cell(QStringLiteral("step"), 0), q(format_seconds(p.step_seconds)));
        QCOMPARE(dialog.cell(QStringLiteral("allocated"), 0), q(format_bytes(p.max_allocated_bytes)));
        QCOMPARE(dialog.cell(QStringLiteral("reserved"), 0), q(format_bytes(p.max_reserved_bytes)));
        for (const QString& row : {QStringLiteral("step"), QStringLiteral("allocated"), QStringLiteral("reserved")})
            for (int column : {1, 2}) QCOMPARE(dialog.cell(row, column), QStringLiteral("\u2014"));
    }

    // A log pasted and then Esc (or Cancel) is there when the dialog opens again, and a file opened
    // is still cited by its name.
    void the_window_keeps_the_log() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(tutorialScenario());
        QAction* action = w.findChild<QAction*>(QStringLiteral("actionCalibrate"));
        QVERIFY(action);
        const QString log = q(read_text_file(kTutorialLog.toStdString()));
        QString seen, seenName;
        const auto onDialog = [&](const std::function<void(CalibrateDialog*)>& act) {
            QTimer::singleShot(0, &w, [&, act] {
                auto* d = qobject_cast<CalibrateDialog*>(QApplication::activeModalWidget());
                QVERIFY(d);
                act(d);
                d->reject();
            });
            action->trigger();
        };
        onDialog([&](CalibrateDialog* d) { d->setLogText(log); });
        onDialog([&](CalibrateDialog* d) {
            seen = d->logText();
            QVERIFY(d->result().has_value());
        });
        QCOMPARE(seen, log);
        QString error;
        onDialog([&](CalibrateDialog* d) { QVERIFY(d->openLogFile(kTutorialLog, &error)); });
        onDialog([&](CalibrateDialog* d) { seenName = d->logName(); });
        QCOMPARE(seenName, QStringLiteral("zero_tutorial_1.5b.log"));
        QCOMPARE(w.document()->undoStack()->count(), 0);
    }

    void cancel_changes_nothing() {
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        const std::string before = session_text(doc.scenario());
        CalibrateDialog dialog(&doc);
        dialog.setLogText(q(read_text_file(kTutorialLog.toStdString())));
        QVERIFY(dialog.result().has_value());
        dialog.reject();
        QCOMPARE(session_text(doc.scenario()), before);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void keyboard_moves_through_the_inputs_in_order() {
        PlannerDocument doc;
        doc.reset(tutorialScenario());
        CalibrateDialog dialog(&doc);
        QList<QWidget*> order;
        for (QWidget* w = dialog.findChild<QPlainTextEdit*>(); w && !order.contains(w); w = w->nextInFocusChain())
            if (w->focusPolicy() & Qt::TabFocus) order << w;
        const QStringList want{QStringLiteral("Run log"),
                               QStringLiteral("Open log file"),
                               QStringLiteral("Measured step time in seconds"),
                               QStringLiteral("Measured throughput in samples per second"),
                               QStringLiteral("Measured max allocated GiB per GPU"),
                               QStringLiteral("Measured max reserved GiB per GPU"),
                               QStringLiteral("Apply the calibrated scenario")};
        QStringList got;
        for (QWidget* w : order)
            if (!w->accessibleName().isEmpty()) got << w->accessibleName();
        QCOMPARE(got.mid(0, want.size()), want);
    }

    void window_has_the_action() {
        MainWindow window(MainWindow::Ephemeral);
        auto* action = window.findChild<QAction*>(QStringLiteral("actionCalibrate"));
        QVERIFY(action);
        QVERIFY(!action->shortcut().isEmpty());
        // No other action of the window has the same shortcut.
        for (QAction* other : window.findChildren<QAction*>())
            if (other != action) QVERIFY(other->shortcut() != action->shortcut());
    }

    void card_says_what_decides_the_step() {
        MainWindow window(MainWindow::Ephemeral);
        window.document()->reset(tutorialScenario());
        window.flushPending();
        const Overview& o = window.document()->overview();
        QVERIFY(o.plan_valid && o.plan.feasible);
        const QString line = QStringLiteral("What decides its step: ") + q(explain_step_line(o.plan.best.step)) + QLatin1Char('.');
        QVERIFY2(window.card()->plainText().contains(line), qPrintable(window.card()->plainText()));
    }
};

ZP_TEST_MAIN(TestCalibrateDialog)
#include "tst_calibrate_dialog.moc"
