// The first five minutes (issue 39): three first-use tasks from a fresh window, each driven
// through the controls a user sees (a control under a closed Advanced does not count as seen),
// each in at most six user actions, counted: choosing an entry of a list, typing a number and
// Enter, a menu action, accepting a file dialog.
#include "core/base/file_io.h"
#include "core/deepspeed/lint.h"
#include "core/search/overview.h"
#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"
#include "ui/widgets/scaled_slider.h"

#include "tests/ui/offscreen.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QTemporaryDir>
#include "test_main.h"

#include <nlohmann/json.hpp>

using namespace zp;
using namespace zp::ui;

namespace {

// A user at the window: each method is one action, and fails the test when the control it needs
// is not on screen.
class User {
public:
    explicit User(MainWindow& w) : w_(w) {}

    int actions() const { return actions_; }

    // Chooses the entry whose item data is `data` in the list named `control`.
    void choose(const char* control, const QString& data) {
        auto* box = shown<QComboBox>(control);
        const int i = box->findData(data);
        QVERIFY2(i >= 0, qPrintable(QStringLiteral("%1 has no entry %2").arg(QLatin1String(control), data)));
        box->setCurrentIndex(i);
        emit box->activated(i);  // what choosing an entry does
        done();
    }

    // Types `value` into the spin box of the slider named `control`, then Enter.
    void type(const char* control, const QString& value) {
        auto* spin = shown<ScaledSlider>(control)->findChild<QAbstractSpinBox*>();
        QVERIFY(spin);
        spin->setFocus();
        spin->selectAll();
        QTest::keyClicks(spin, value);
        QTest::keyClick(spin, Qt::Key_Return);
        done();
    }

    // File > Export... and Save in the file dialog it opens: two actions. The dialog is the
    // platform's and would block the test, so the test does what its Save does: exportConfig
    // with the name the window suggests (ConfigPreview::suggestedFileName), in `folder`.
    QString exportConfig(const QString& folder) {
        auto* a = w_.findChild<QAction*>(QStringLiteral("actionExport"));
        [&] { QVERIFY2(a && a->isEnabled(), "File > Export... is not in the menu"); }();
        done();
        const QString path = folder + QLatin1Char('/') + QStringLiteral("ds_config.json");
        QString error;
        [&] { QVERIFY2(w_.exportConfig(path, &error), qPrintable(error)); }();
        done();
        return path;
    }

private:
    template <class W>
    W* shown(const char* control) {
        auto* widget = w_.controls()->findChild<W*>(QLatin1String(control));
        [&] {
            QVERIFY2(widget && widget->isVisible() && widget->isEnabled(),
                     qPrintable(QStringLiteral("%1 is not on screen").arg(QLatin1String(control))));
        }();
        return widget;
    }
    void done() {
        ++actions_;
        w_.flushPending();
    }

    MainWindow& w_;
    int actions_ = 0;
};

}  // namespace

class TestFirstUse : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    // LoRA on Llama-3.1-8B with two RTX 4090s: the window says what fits.
    void lora_8b_on_two_4090s() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1280, 720);
        w.show();
        User u(w);
        u.choose("job", QStringLiteral("lora"));
        u.choose("node", QStringLiteral("workstation-2x4090"));
        u.type("gpu_count", QStringLiteral("2"));
        u.choose("model", QStringLiteral("llama-3.1-8b"));
        QVERIFY(u.actions() <= 6);
        const Scenario& s = w.document()->scenario();
        QCOMPARE(s.cluster.world_size(), std::int64_t{2});
        QCOMPARE(s.cluster.gpu.name, std::string("rtx-4090"));
        QCOMPARE(int(s.finetune.method), int(FineTuneMethod::Lora));
        QVERIFY(w.document()->overview().plan.feasible);
        QVERIFY2(w.card()->plainText().startsWith(QLatin1String("Recommended: ")), qPrintable(w.card()->plainText()));
        qInfo().noquote() << QStringLiteral("LoRA 8B on two 4090s: %1 actions").arg(u.actions());
    }

    // The fastest plan for Llama-3.1-70B on 16 H100s, its ds_config.json exported.
    void fastest_70b_on_16_h100s_exported() {
        QTemporaryDir dir;
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1280, 720);
        w.show();
        User u(w);
        u.choose("node", QStringLiteral("dgx-h100"));
        u.type("gpu_count", QStringLiteral("16"));
        u.choose("model", QStringLiteral("llama-3.1-70b"));
        const QString path = u.exportConfig(dir.path());
        QVERIFY(u.actions() <= 6);
        QVERIFY(w.document()->overview().plan.feasible);
        const LintResult lint = lint_ds_config(read_text_file(path.toStdString()), std::int64_t{16});
        QVERIFY(!lint.has_errors());
        const auto config = nlohmann::json::parse(read_text_file(path.toStdString()));
        QCOMPARE(config.at("zero_optimization").at("stage").get<int>(), w.document()->overview().plan.best.zero.stage);
        qInfo().noquote() << QStringLiteral("70B on 16 H100s, exported: %1 actions").arg(u.actions());
    }

    // QLoRA on Llama-3.1-70B with one 48 GB GPU.
    void qlora_70b_on_one_48gb_gpu() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1280, 720);
        w.show();
        User u(w);
        u.choose("job", QStringLiteral("qlora"));
        u.choose("gpu", QStringLiteral("l40s"));
        u.type("gpu_count", QStringLiteral("1"));
        u.choose("model", QStringLiteral("llama-3.1-70b"));
        QVERIFY(u.actions() <= 6);
        const Scenario& s = w.document()->scenario();
        QCOMPARE(s.cluster.world_size(), std::int64_t{1});
        QCOMPARE(s.cluster.gpu.memory_gib > 40 && s.cluster.gpu.memory_gib < 48.1, true);
        QCOMPARE(int(s.finetune.method), int(FineTuneMethod::Qlora));
        QVERIFY(w.document()->overview().plan.feasible);
        qInfo().noquote() << QStringLiteral("QLoRA 70B on one 48 GB GPU: %1 actions").arg(u.actions());
    }
};

ZP_TEST_MAIN(TestFirstUse)
#include "tst_first_use.moc"
