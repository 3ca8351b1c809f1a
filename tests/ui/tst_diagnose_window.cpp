// Issue 36, item 5: File > Diagnose a Training Log... in the window. The 12.94 GiB ZeRO-2 start-up
// failure (LLaMA-Factory#1158, tests/data/oom) over the window's Baichuan2-13B at stage 2 (what
// `zero-planner diagnose LOG --hf-config F --stage 2` gives on the command line) opens as one undo
// step, marks the start-up moment in "Memory over one step", names the fp32 master partition, shows
// the log's figures beside the planner's and where each value came from; Apply on the ZeRO-3 fix
// is one undo step and Undo returns to the diagnosed run. A file the core refuses changes nothing.
#include "core/base/file_io.h"
#include "core/model/scenario.h"
#include "offscreen.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/diagnosis_panel.h"
#include "ui/plots/step_view.h"

#include <QAction>
#include <QMimeData>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QUrl>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

const QString kOom = QStringLiteral(ZP_TEST_DATA_DIR "/oom/");
const QString kLog = kOom + QStringLiteral("llamafactory1158_baichuan2_13b_zero2.log");

// The window as the tutorial leaves it before diagnosing: Baichuan2-13B's config.json imported, ZeRO-2.
void prepareBaichuan(MainWindow& w) {
    QString error;
    QVERIFY2(w.importHfConfig(kOom + QStringLiteral("baichuan2-13b-chat.llama-form.config.json"), &error), qPrintable(error));
    Scenario s = w.document()->scenario();
    s.zero.stage = 2;
    w.document()->edit(s, QStringLiteral("ZeRO-2"));
    w.document()->recomputeNow();
}

int fixIndex(const DiagnosisPanel* p, const char* prefix) {
    for (int i = 0; i < p->fixCount(); ++i)
        if (p->diagnosis().diagnosis.fixes[static_cast<std::size_t>(i)].change.rfind(prefix, 0) == 0) return i;
    return -1;
}

}  // namespace

class TestDiagnoseWindow : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void the_menu_has_the_command() {
        MainWindow w(MainWindow::Ephemeral);
        auto* action = w.findChild<QAction*>(QStringLiteral("actionDiagnose"));
        QVERIFY(action);
        QVERIFY(action->text().remove(QLatin1Char('&')).contains(QStringLiteral("Diagnose a Training Log")));
        QVERIFY(!w.diagnosisPanel());
    }

    void the_1294_gib_log_marks_start_up_and_applies_zero3() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        prepareBaichuan(w);
        QUndoStack* undo = w.document()->undoStack();
        const int before = undo->count();
        QString error;
        QVERIFY2(w.diagnoseLog(kLog, &error), qPrintable(error));
        QCOMPARE(undo->count(), before + 1);  // one undoable edit
        const std::string diagnosed = w.document()->sessionText();
        QCOMPARE(w.document()->scenario().zero.stage, 2);
        QCOMPARE(w.document()->scenario().cluster.world_size(), 4);
        w.flushPending();

        // "Memory over one step" is shown with the start-up moment marked.
        QCOMPARE(w.plotTabs()->currentWidget(), static_cast<QWidget*>(w.stepView()));
        QCOMPARE(w.stepView()->failingPhase(), std::optional<StepPhase>(StepPhase::StartUp));
        QCOMPARE(w.stepView()->failingMoments().first, 0);
        QVERIFY(w.stepView()->failingMoments().second >= 0);
        QVERIFY2(w.stepView()->failingLabel().contains(QStringLiteral("fp32 master partition")), qPrintable(w.stepView()->failingLabel()));
        // Drawn inside the plot, on as many lines as it takes (on one it ran past the tab's edge).
        w.grab();
        QVERIFY(w.stepView()->failingLabelInsidePlot());

        DiagnosisPanel* p = w.diagnosisPanel();
        QVERIFY(p);
        QCOMPARE(w.sideTabs()->currentWidget(), static_cast<QWidget*>(p));
        QVERIFY2(p->causeText().contains(QStringLiteral("capacity")), qPrintable(p->causeText()));
        QVERIFY2(p->termText().contains(QStringLiteral("fp32 master partition")), qPrintable(p->termText()));
        QVERIFY2(p->termText().contains(QStringLiteral("4 ranks")), qPrintable(p->termText()));
        QVERIFY2(p->whereText().contains(QStringLiteral("deepspeed.initialize")), qPrintable(p->whereText()));
        // The log's figures beside the planner's.
        QCOMPARE(p->figure(QStringLiteral("requested"), 0), QStringLiteral("12.94 GiB"));
        QCOMPARE(p->figure(QStringLiteral("requested"), 1), QStringLiteral("12.94 GiB"));
        QCOMPARE(p->figure(QStringLiteral("needed"), 0), QStringLiteral("90.59 GiB"));
        QVERIFY(p->figure(QStringLiteral("needed"), 1).endsWith(QStringLiteral(" GiB")));
        QCOMPARE(p->figure(QStringLiteral("reserved"), 0), QStringLiteral("77.66 GiB"));
        // Each value's source: the log, the window's controls, or assumed.
        QCOMPARE(p->sourceOf(QStringLiteral("gpus")), QStringLiteral("the log"));
        QCOMPARE(p->sourceOf(QStringLiteral("gpu")), QStringLiteral("the log"));
        QCOMPARE(p->sourceOf(QStringLiteral("sequence")), QStringLiteral("the log"));
        QCOMPARE(p->sourceOf(QStringLiteral("model")), QStringLiteral("the window"));
        // ZeRO-2 is not in the log; set in the window, it is also the default scenario's stage.
        QVERIFY(p->sourceOf(QStringLiteral("zero")) != QStringLiteral("the log"));
        QCOMPARE(p->sourceOf(QStringLiteral("optimizer")), QStringLiteral("assumed"));
        // The command line's remedies, each on its line.
        const auto& remedies = p->diagnosis().diagnosis.remedies;
        QVERIFY(!remedies.empty());
        for (const std::string& r : remedies)
            QVERIFY2(p->remediesText().contains(QString::fromStdString(r)), qPrintable(p->remediesText()));
        // Nothing wider than the side panel (a fix's unwrapped verdict cut the figures off at 1480x920).
        QVERIFY2(p->widget()->width() <= p->viewport()->width(),
                 qPrintable(QStringLiteral("%1 > %2").arg(p->widget()->width()).arg(p->viewport()->width())));

        // Apply on the ZeRO-3 fix: one undo step; undo returns to the diagnosed run.
        const int zero3 = fixIndex(p, "ZeRO-3");
        QVERIFY(zero3 >= 0);
        QVERIFY(p->diagnosis().diagnosis.fixes[static_cast<std::size_t>(zero3)].fits);
        QPushButton* apply = p->applyButton(zero3);
        QVERIFY(apply);
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(undo->count(), before + 2);
        QCOMPARE(w.document()->scenario().zero.stage, 3);
        w.flushPending();
        QCOMPARE(w.stepView()->failingPhase(), std::optional<StepPhase>(StepPhase::StartUp));
        undo->undo();
        QCOMPARE(w.document()->sessionText(), diagnosed);
        QCOMPARE(w.document()->scenario().zero.stage, 2);

        // Close: the tab and the marker go.
        QTest::mouseClick(p->closeButton(), Qt::LeftButton);
        QCOMPARE(w.sideTabs()->indexOf(p), -1);
        QCOMPARE(w.stepView()->failingPhase(), std::optional<StepPhase>());
    }

    void a_refused_file_changes_nothing() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString no_oom = dir.filePath(QStringLiteral("train.log")), empty = dir.filePath(QStringLiteral("empty.log")),
                      binary = dir.filePath(QStringLiteral("binary.txt"));
        write_file_atomically(no_oom.toStdString(), "step 1 loss 2.31\nstep 2 loss 2.17\n");
        write_file_atomically(empty.toStdString(), "");
        write_file_atomically(binary.toStdString(), std::string("PK\x03\x04\0\0 CUDA out of memory", 25));
        MainWindow w(MainWindow::Ephemeral);
        w.document()->recomputeNow();
        const std::string before = w.document()->sessionText();
        const int steps = w.document()->undoStack()->count();
        for (const QString& path : {no_oom, empty, binary, dir.filePath(QStringLiteral("missing.log"))}) {
            QString error;
            QVERIFY(!w.diagnoseLog(path, &error));
            QVERIFY2(!error.isEmpty() && !error.contains(QLatin1Char('\n')), qPrintable(error));
            QCOMPARE(w.document()->sessionText(), before);
            QCOMPARE(w.document()->undoStack()->count(), steps);
            QVERIFY(!w.diagnosisPanel());
            QCOMPARE(w.stepView()->failingPhase(), std::optional<StepPhase>());
        }
    }

    // NCCL ran out of memory outside PyTorch's allocator (nccl#1235): the panel names that, shows no
    // request (the message has no sizes) and the capacity changes still come from the planner.
    void a_failure_outside_the_allocator_names_no_request() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->recomputeNow();
        QString error;
        QVERIFY2(w.diagnoseLog(kOom + QStringLiteral("outside/10_nccl_p2p_proxy_calloc_oom_multinode.log"), &error), qPrintable(error));
        QVERIFY(w.diagnosisPanel());
        QVERIFY2(w.diagnosisPanel()->causeText().contains(QStringLiteral("outside PyTorch's allocator")),
                 qPrintable(w.diagnosisPanel()->causeText()));
        QVERIFY(w.diagnosisPanel()->termText().contains(QStringLiteral("no request size")));
        QVERIFY(!w.diagnosisPanel()->termText().contains(QStringLiteral("0 bytes")));
    }

    // A rank killed for host memory (DeepSpeed#3160: SIGKILL at "Before initializing optimizer
    // states"): the panel says host memory, the host moment, the planner's host bytes for the
    // window's run beside the node's RAM, and lists none of the GPU's remedies.
    void a_host_kill_names_the_host_moment_and_its_bytes() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->recomputeNow();
        QString error;
        QVERIFY2(w.diagnoseLog(kOom + QStringLiteral("deepspeed3160_gptj_offload_host_kill.log"), &error), qPrintable(error));
        QVERIFY(w.diagnosisPanel());
        QVERIFY2(w.diagnosisPanel()->causeText().contains(QStringLiteral("host memory")), qPrintable(w.diagnosisPanel()->causeText()));
        QVERIFY2(w.diagnosisPanel()->whereText().contains(QStringLiteral("deepspeed.initialize")),
                 qPrintable(w.diagnosisPanel()->whereText()));
        QVERIFY2(w.diagnosisPanel()->termText().startsWith(QStringLiteral("On the host: the planner has")),
                 qPrintable(w.diagnosisPanel()->termText()));
        QCOMPARE(w.diagnosisPanel()->remediesText(), QString());
    }

    void dropping_a_log_diagnoses_it() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        prepareBaichuan(w);
        auto* mime = new QMimeData;
        mime->setUrls({QUrl::fromLocalFile(kLog)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        QTRY_VERIFY(w.diagnosisPanel() != nullptr);
        QVERIFY(w.diagnosisPanel()->termText().contains(QStringLiteral("fp32 master partition")));
        delete mime;
    }
};

ZP_TEST_MAIN(TestDiagnoseWindow)
#include "tst_diagnose_window.moc"
