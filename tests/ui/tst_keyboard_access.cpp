// Keyboard and screen readers (issue 17, item 5): Tab visits every control top to bottom and
// then the views, never trapped; group mnemonics focus their group; every plot and custom
// widget is named, and the plots describe their own numbers as text.
#include "core/presets/default_scenario.h"
#include "core/search/overview.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"
#include "ui/accessibility.h"
#include "ui/chart/plot_style.h"
#include "ui/controls/control_group.h"
#include "ui/controls/control_panel.h"
#include "ui/dialogs/new_plan_dialog.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/config_preview.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/step_view.h"
#include "ui/qcustomplot_include.h"
#include "ui/widgets/lazy_page.h"
#include "ui/widgets/scaled_slider.h"

#include "tests/ui/offscreen.h"

#include <QAccessible>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

// What Tab can land on: shown, enabled, taking Tab focus, and not a part that hands its focus to
// another widget (a spin box's line edit).
bool tabbable(const QWidget* w) {
    return w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus) && !w->focusProxy() &&
           !qobject_cast<const QScrollArea*>(w);
}

// The widgets Tab visits from `first` until it comes back; *back says whether it did (not
// within 1000 presses: a trap).
QList<QWidget*> tabCycle(QWidget* first, bool* back) {
    first->setFocus(Qt::TabFocusReason);
    QList<QWidget*> visited;
    *back = false;
    for (int i = 0; i < 1000 && !*back; ++i) {
        QWidget* now = QApplication::focusWidget();
        if (!now) break;
        visited << now;
        QTest::keyClick(now, Qt::Key_Tab);
        *back = QApplication::focusWidget() == first;
    }
    return visited;
}

QString focus_name(const QWidget* w) {
    return QStringLiteral("%1 '%2' (%3)").arg(QString::fromLatin1(w->metaObject()->className()), w->objectName(), w->accessibleName());
}

}  // namespace

class TestKeyboardAccess : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void tab_visits_every_control_top_to_bottom_then_the_views() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QWidget* first = w.controls()->jobCombo();  // the panel's first control
        bool back = false;
        const QList<QWidget*> visited = tabCycle(first, &back);
        QVERIFY(!visited.isEmpty());
        QCOMPARE(visited.first(), first);
        QVERIFY2(back, qPrintable(focus_name(visited.last())));  // came back to the first control: Tab is trapped nowhere
        QCOMPARE(QSet<QWidget*>(visited.begin(), visited.end()).size(), visited.size());  // each once

        // Every control and view that can take focus is on the way.
        QStringList missed;
        for (QWidget* c : w.centralWidget()->findChildren<QWidget*>())
            if (tabbable(c) && !visited.contains(c)) missed << focus_name(c);
        QVERIFY2(missed.isEmpty(), qPrintable(missed.join(QStringLiteral("\n"))));

        // The controls first, top to bottom (left to right within a row), then the views,
        // starting with the memory bars.
        int controls = 0;
        while (controls < visited.size() && w.controls()->isAncestorOf(visited[controls])) ++controls;
        for (int i = controls; i < visited.size(); ++i)
            QVERIFY2(!w.controls()->isAncestorOf(visited[i]), qPrintable(focus_name(visited[i])));
        for (int i = 1; i < controls; ++i) {
            const QRect a(visited[i - 1]->mapTo(w.controls(), QPoint()), visited[i - 1]->size());
            const QRect b(visited[i]->mapTo(w.controls(), QPoint()), visited[i]->size());
            const bool sameRow = b.top() < a.bottom() && a.top() < b.bottom();
            QVERIFY2(sameRow ? b.left() > a.left() : b.top() >= a.bottom(),
                     qPrintable(focus_name(visited[i - 1]) + QStringLiteral(" before ") + focus_name(visited[i])));
        }
        QCOMPARE(visited.value(controls), static_cast<QWidget*>(w.memoryView()->plot()));
    }

    // The order is the one the layouts give, whatever the order the widgets were made in.
    void layout_order_reads_rows_top_to_bottom() {
        QWidget root;
        auto* form = new QFormLayout(&root);
        auto* second = new QLineEdit;
        auto* first = new QLineEdit;
        auto* box = new QGroupBox(QStringLiteral("Group"));
        auto* inner = new QVBoxLayout(box);
        auto* third = new QCheckBox(QStringLiteral("third"));
        inner->addWidget(third);
        form->addRow(QStringLiteral("First"), first);
        form->addRow(QStringLiteral("Second"), second);
        form->addRow(box);
        QCOMPARE(layoutOrder(&root), (QList<QWidget*>{first, second, third}));
    }

    // Alt+letter focuses a group's first control; the letters differ from each other and from
    // the menu bar's.
    void group_mnemonics_focus_their_group() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QString taken = QStringLiteral("feh");  // File, Edit, Help
        const QList<QGroupBox*> groups = w.controls()->findChildren<QGroupBox*>();
        QVERIFY(groups.size() >= 8);
        for (QGroupBox* g : groups) {
            const QString title = g->title();
            const qsizetype at = title.indexOf(QLatin1Char('&'));
            QVERIFY2(at >= 0 && title.count(QLatin1Char('&')) == 1, qPrintable(title));
            const QChar letter = title[at + 1].toLower();
            QVERIFY2(!taken.contains(letter), qPrintable(title));
            taken += letter;
            w.controls()->modelCombo()->setFocus();
            if (g->isAncestorOf(w.controls()->modelCombo())) w.controls()->gpuCombo()->setFocus();
            QTest::keyClick(&w, letter.toLatin1(), Qt::AltModifier);
            QVERIFY2(g->isAncestorOf(QApplication::focusWidget()), qPrintable(title));
        }
    }

    // The bar a click would choose, from the keyboard: Right, Left, End, Home on the memory plot.
    void arrow_keys_choose_a_setup_on_the_memory_plot() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        QApplication::setActiveWindow(&w);
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.flushPending();
        const auto& setups = overview_setups();
        const auto shown = [&] { return QString::fromStdString(short_setup_label(w.document()->selectedSetup())); };
        const auto name = [&](std::size_t i) { return QString::fromStdString(short_setup_label(setups[i])); };
        std::size_t at = 0;
        while (at < setups.size() && name(at) != shown()) ++at;
        QVERIFY(at + 1 < setups.size());
        QCustomPlot* plot = w.memoryView()->plot();
        plot->setFocus(Qt::TabFocusReason);
        QTest::keyClick(plot, Qt::Key_Right);
        QCOMPARE(shown(), name(at + 1));
        QCOMPARE(w.sideTabs()->currentWidget(), static_cast<QWidget*>(w.configPreview()));
        QTest::keyClick(plot, Qt::Key_Left);
        QCOMPARE(shown(), name(at));
        QTest::keyClick(plot, Qt::Key_End);
        QCOMPARE(shown(), name(setups.size() - 1));
        QTest::keyClick(plot, Qt::Key_Right);  // stays on the last
        QCOMPARE(shown(), name(setups.size() - 1));
        QTest::keyClick(plot, Qt::Key_Home);
        QCOMPARE(shown(), name(0));
    }

    // The GPU-count and sequence sliders snap to powers of two: an arrow key steps one of them (it
    // took some 40 presses to move at all), PageUp/PageDown three, a typed value to its neighbour.
    void arrow_keys_step_the_snapped_sliders() {
        MainWindow w(MainWindow::Ephemeral);
        w.flushPending();
        const auto gpus = [&] { return w.document()->scenario().cluster.world_size(); };
        QSlider* slider = w.controls()->gpuCountSlider()->slider();
        slider->setFocus();
        QCOMPARE(gpus(), std::int64_t(8));
        QTest::keyClick(slider, Qt::Key_Right);
        w.flushPending();
        QCOMPARE(gpus(), std::int64_t(16));
        QTest::keyClick(slider, Qt::Key_Left);
        QTest::keyClick(slider, Qt::Key_Down);
        w.flushPending();
        QCOMPARE(gpus(), std::int64_t(4));
        QTest::keyClick(slider, Qt::Key_PageUp);
        w.flushPending();
        QCOMPARE(gpus(), std::int64_t(32));
        QTest::keyClick(slider, Qt::Key_PageDown);
        QTest::keyClick(slider, Qt::Key_Left);
        QTest::keyClick(slider, Qt::Key_Left);  // stays at one GPU
        w.flushPending();
        QCOMPARE(gpus(), std::int64_t(1));
        auto* seq = w.controls()->findChild<ScaledSlider*>(QStringLiteral("seq_len"));
        QVERIFY(seq);
        const std::int64_t before = w.document()->scenario().training.seq_len;
        seq->slider()->setFocus();
        QTest::keyClick(seq->slider(), Qt::Key_Up);
        w.flushPending();
        QCOMPARE(w.document()->scenario().training.seq_len, 2 * before);
    }

    // The New Plan dialog's one line under each job is secondary text, not disabled text: enabled
    // (not announced as unavailable) and readable, at 4.5:1 or more on a light and a dark palette.
    void new_plan_job_hints_are_enabled_and_readable() {
        NewPlanDialog dialog(default_scenario());
        const QList<QLabel*> hints = dialog.findChildren<QLabel*>(QRegularExpression(QStringLiteral("^hint_")));
        QVERIFY(hints.size() >= 5);
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
        for (const QPalette& palette : {dialog.palette(), dark}) {
            dialog.setPalette(palette);
            for (QLabel* hint : hints) {
                QVERIFY(hint->isEnabled());
                const double contrast = contrastRatio(hint->palette().color(QPalette::WindowText), palette.color(QPalette::Window));
                QVERIFY2(contrast >= 4.5, qPrintable(hint->objectName() + QStringLiteral(": ") + QString::number(contrast)));
            }
        }
    }

    // "1 GPU", not "1 GPUs": the GPU-count spin boxes' suffix follows the count, typed or set.
    void gpu_count_suffix_is_singular_for_one() {
        MainWindow w(MainWindow::Ephemeral);
        w.flushPending();
        auto* spin = w.controls()->gpuCountSlider()->findChild<QDoubleSpinBox*>();
        QVERIFY(spin);
        QCOMPARE(spin->text(), QStringLiteral("8 GPUs"));
        Scenario s = w.document()->scenario();
        w.document()->reset(with_gpu_count(s, 1, 1));
        w.flushPending();
        QCOMPARE(spin->text(), QStringLiteral("1 GPU"));
        w.document()->reset(s);
        w.flushPending();
        QCOMPARE(spin->text(), QStringLiteral("8 GPUs"));
        NewPlanDialog dialog(default_scenario());
        auto* count = dialog.findChild<QSpinBox*>(QStringLiteral("new_plan_gpus"));
        QVERIFY(count);
        QCOMPARE(count->text(), QStringLiteral("8 GPUs"));
        count->selectAll();
        QTest::keyClicks(count, QStringLiteral("1"));
        QCOMPARE(count->value(), 1);
        QCOMPARE(count->text(), QStringLiteral("1 GPU"));
        QTest::keyClicks(count, QStringLiteral("6"));
        QCOMPARE(count->value(), 16);
        QCOMPARE(count->text(), QStringLiteral("16 GPUs"));
    }

    // In each menu, every entry's Alt letter is its own.
    void menu_mnemonics_are_unique() {
        MainWindow w(MainWindow::Ephemeral);
        QString bar;
        for (QAction* menu : w.menuBar()->actions()) {
            const auto letters = [](const QList<QAction*>& actions, QStringList* clashes) {
                QString taken;
                for (QAction* a : actions) {
                    const qsizetype at = a->text().indexOf(QLatin1Char('&'));
                    if (at < 0 || at + 1 >= a->text().size()) continue;
                    const QChar c = a->text()[at + 1].toLower();
                    if (taken.contains(c)) *clashes << a->text();
                    taken += c;
                }
            };
            QStringList clashes;
            letters(menu->menu()->actions(), &clashes);
            QVERIFY2(clashes.isEmpty(), qPrintable(menu->text() + QStringLiteral(": ") + clashes.join(QStringLiteral(", "))));
            for (QMenu* sub : menu->menu()->findChildren<QMenu*>()) {
                letters(sub->actions(), &clashes);
                QVERIFY2(clashes.isEmpty(), qPrintable(sub->title() + QStringLiteral(": ") + clashes.join(QStringLiteral(", "))));
            }
        }
    }

    // The Compare and sequence tabs are built when first shown (ui/widgets/lazy_page.h): not for
    // the first frame, and once built their controls join the window's Tab order and are named as
    // if they had been there from the start.
    void lazily_built_tabs_join_the_tab_order() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        w.flushPending();
        QTabWidget* tabs = w.sideTabs();
        QList<LazyPage*> pages;
        for (int i = 0; i < tabs->count(); ++i)
            if (auto* page = qobject_cast<LazyPage*>(tabs->widget(i))) pages << page;
        QCOMPARE(pages.size(), 2);
        for (LazyPage* page : pages) QVERIFY2(!page->isBuilt(), qPrintable(page->accessibleName()));
        tabs->setCurrentWidget(pages.front());
        QVERIFY(pages.front()->isBuilt());
        QVERIFY(!pages.back()->isBuilt());
        QCoreApplication::processEvents();  // the window's keyboard pass runs after the tab change
        QPushButton* pin = w.comparePanel()->pinButton();
        QVERIFY(pin->isVisible());
        // Tab from the side tabs' bar reaches the Compare panel's first button before leaving it.
        QWidget* at = tabs->tabBar();
        int steps = 0;
        while (at != pin && steps++ < 200) at = at->nextInFocusChain();
        QVERIFY2(at == pin, "the Compare panel's Pin button is not in the Tab order after the tab bar");
        QVERIFY(steps < 10);
        QVERIFY(!pages.front()->accessibleDescription().isEmpty());
    }

    // So are the rows of a control box built when first opened (control_group.h,
    // buildRowsWhenShown): shown, named from their labels, and in Tab order where they are laid
    // out, above the box's Advanced button.
    void lazily_built_rows_join_the_tab_order() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        w.flushPending();
        auto* host = dynamic_cast<ControlGroup*>(w.controls()->findChild<QGroupBox*>(QStringLiteral("group_host")));
        QVERIFY(host);
        QVERIFY(!host->rowsBuilt());
        host->advancedButton()->click();
        QCoreApplication::processEvents();
        auto* ram = w.controls()->findChild<QWidget*>(QStringLiteral("cpu_ram"));
        auto* workers = w.controls()->findChild<QWidget*>(QStringLiteral("dataloader_workers"));
        QVERIFY(ram && workers);
        QVERIFY(ram->isVisible());
        QCOMPARE(ram->accessibleName(), QStringLiteral("CPU RAM"));
        const QList<QWidget*> order = layoutOrder(w.centralWidget());
        QVERIFY(order.indexOf(ram) >= 0);
        QVERIFY(order.indexOf(ram) < order.indexOf(workers));
        QVERIFY(order.indexOf(workers) < order.indexOf(host->advancedButton()));
        for (qsizetype i = 1; i < order.size(); ++i) {
            QWidget* next = order[i - 1]->nextInFocusChain();
            while (next != order[i - 1] && !order.contains(next)) next = next->nextInFocusChain();
            QVERIFY2(next == order[i], qPrintable(focus_name(order[i - 1]) + QStringLiteral(" -> ") + focus_name(next)));
        }
    }

    // Named and described (or with a tool tip, which Qt reads out in its place).
    void plots_and_custom_widgets_are_named() {
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        w.flushPending();
        QStringList unnamed;
        for (QWidget* c : w.centralWidget()->findChildren<QWidget*>()) {
            const bool custom = QByteArray(c->metaObject()->className()).startsWith("zp::ui::") || qobject_cast<QCustomPlot*>(c);
            // Qt gives screen readers the tool tip when there is no description.
            if (custom && (c->accessibleName().isEmpty() || (c->accessibleDescription().isEmpty() && c->toolTip().isEmpty())))
                unnamed << focus_name(c);
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(QStringLiteral("\n"))));
        for (QCustomPlot* p : w.centralWidget()->findChildren<QCustomPlot*>())
            if (p->isVisible()) QVERIFY2(!p->accessibleDescription().isEmpty(), qPrintable(focus_name(p)));
    }

    // The memory plot's text names each setup with the GiB its bar stacks up to, and follows edits
    // (while a screen reader is connected: QAccessible::isActive, set here as its bridge sets it).
    void plot_description_carries_its_numbers() {
        MainWindow w(MainWindow::Ephemeral);
        QAccessible::setActive(true);
        const auto inactive = qScopeGuard([] { QAccessible::setActive(false); });
        w.show();
        const auto check = [&w](QString* described) {
            w.flushPending();
            const QString text = w.memoryView()->plot()->accessibleDescription();
            *described = text;
            QVERIFY2(text.startsWith(QStringLiteral("Memory per GPU.")), qPrintable(text));
            const auto setups = overview_setups();
            for (int bar = 0; bar < int(setups.size()); ++bar) {
                double total = 0;
                for (int slice = 0; slice < kSliceCount; ++slice) total += w.memoryView()->sliceGib(slice, bar);
                const QString expected = QString::fromStdString(short_setup_label(setups[std::size_t(bar)])) + QLatin1Char(' ') +
                                         QLocale().toString(total, 'f', 1);
                QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" not in: ") + text));
                const QString peak = QLocale().toString(w.memoryView()->peakReservedGib(bar), 'f', 1);
                QVERIFY2(text.section(QStringLiteral("Peak reserved"), 1).contains(peak),
                         qPrintable(peak + QStringLiteral(" not in: ") + text));
            }
        };
        QString before, after;
        check(&before);
        Scenario s = w.document()->scenario();
        s.training.seq_len *= 2;
        w.document()->edit(s, QStringLiteral("seq"));
        check(&after);
        QVERIFY(after != before);

        // A curve: each stage's line, point by point.
        const QString scaling = w.scalingView()->plot()->accessibleDescription();
        for (int i = 0; i < w.scalingView()->plot()->graphCount(); ++i) {
            const QCPGraph* g = w.scalingView()->plot()->graph(i);
            if (g->visible() && !g->name().isEmpty()) QVERIFY2(scaling.contains(g->name() + QStringLiteral(" (")), qPrintable(scaling));
        }
    }

    // Without a screen reader a replot leaves the text as it was (describing is a few percent of a
    // slider change); one connecting brings it up to date before it can read it.
    void plot_description_waits_for_a_screen_reader() {
        QVERIFY(!QAccessible::isActive());
        MainWindow w(MainWindow::Ephemeral);
        w.show();
        w.flushPending();
        QAccessible::setActive(true);
        const auto inactive = qScopeGuard([] { QAccessible::setActive(false); });
        const QString before = w.memoryView()->plot()->accessibleDescription();
        QVERIFY2(before.contains(QLatin1Char(',')), qPrintable(before));  // the bars' numbers, not just the title
        QAccessible::setActive(false);
        Scenario s = w.document()->scenario();
        s.training.seq_len *= 2;
        w.document()->edit(s, QStringLiteral("seq"));
        w.flushPending();
        QCOMPARE(w.memoryView()->plot()->accessibleDescription(), before);
        QAccessible::setActive(true);
        const QString after = w.memoryView()->plot()->accessibleDescription();
        QVERIFY(after != before);
        QVERIFY(after.startsWith(QStringLiteral("Memory per GPU.")));
        QCOMPARE(w.memoryView()->accessibleDescription(), after);
    }
};

ZP_TEST_MAIN(TestKeyboardAccess)
#include "tst_keyboard_access.moc"
