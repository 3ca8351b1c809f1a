// The window meets a monkey: a seeded sequence of random user actions on every control, menu and
// view, offscreen. After every action: nothing crashed, no visible text shows nan, inf or a
// negative memory figure, and the window agrees with its document (the controls show what a
// panel freshly built on the same scenario shows; the config preview is what the core exports
// for the shown setup). At the end, undoing everything restores the scenario the history began
// with, exactly.
//
//   ZP_MONKEY_ACTIONS=N   how many actions (default 20000; CTest runs four of 5,000, the sanitizer
//                         tree two of 500, through ZP_MONKEY_DEFAULT_ACTIONS, which this overrides)
//   ZP_MONKEY_SEED=S      the seed (default: CTest's fixed one per run, else the clock's; printed); a failure prints the seed
//                         and the action's number, and the same seed replays the same run
//   ZP_MONKEY_TRACE=1     print every action as it is done
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/deepspeed/export_formats.h"
#include "core/presets/cluster_presets.h"
#include "ui/controls/control_group.h"
#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/config_preview.h"
#include "ui/panels/recommendation_card.h"
#include "ui/plots/memory_view.h"
#include "ui/qcustomplot_include.h"
#include "ui/widgets/scaled_slider.h"

#include "tests/ui/offscreen.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextEdit>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>
#include "test_main.h"

#include <chrono>
#include <functional>
#include <random>

using namespace zp;
using namespace zp::ui;

namespace {

// Every dialog the monkey opens (file dialogs, message boxes, Preferences, Calibrate) is
// dismissed as soon as it shows, as a user pressing Escape would: the action behind it then
// takes its "cancelled" path. Context menus are closed the same way.
class DialogDismisser : public QObject {
public:
    int dismissed = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() == QEvent::Show) {
            if (auto* dialog = qobject_cast<QDialog*>(watched)) {
                ++dismissed;
                QTimer::singleShot(0, dialog, &QDialog::reject);
            } else if (auto* menu = qobject_cast<QMenu*>(watched)) {
                QTimer::singleShot(0, menu, &QMenu::close);
            }
        }
        return false;
    }
};

// nan or inf as a word, in any case ("nan", "-inf", "NaN", "inf GiB"); "Infinity" is a word of
// its own (ZeRO-Infinity) and does not match.
const QRegularExpression& nonFinite() {
    static const QRegularExpression re(QStringLiteral("(?<![\\w])[-+]?(nan|inf)(?![\\w])"), QRegularExpression::CaseInsensitiveOption);
    return re;
}

// A memory figure below zero: "-3.2 GiB", "−512 MiB". A difference between two plans is signed
// on purpose and written with its sign before a "Δ" or in a "vs" column: those are not figures
// of memory used, and the Compare table is read apart (see visibleTexts).
const QRegularExpression& negativeMemory() {
    static const QRegularExpression re(QStringLiteral("(?<![\\w.+])[-\u2212]\\s?\\d[\\d.,]*\\s?(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)(?![\\w])"));
    return re;
}

struct VisibleText {
    QString where, text;
};

QString describe(const QObject* o) {
    QString name = QString::fromLatin1(o->metaObject()->className());
    if (!o->objectName().isEmpty()) name += QLatin1Char('#') + o->objectName();
    return name;
}

// Every text the user can see: labels, buttons, line and text edits, combo boxes, tab titles,
// table cells, the status bar and the window title, and the plots' axis, tick and item texts.
std::vector<VisibleText> visibleTexts(MainWindow& w, const ComparePanel* compare) {
    std::vector<VisibleText> out;
    out.push_back({QStringLiteral("window title"), w.windowTitle()});
    out.push_back({QStringLiteral("status bar"), w.statusBar()->currentMessage()});
    for (QWidget* widget : w.findChildren<QWidget*>()) {
        if (!widget->isVisible()) continue;
        const QString where = describe(widget);
        if (auto* l = qobject_cast<QLabel*>(widget)) out.push_back({where, l->text()});
        else if (auto* b = qobject_cast<QAbstractButton*>(widget)) out.push_back({where, b->text()});
        else if (auto* c = qobject_cast<QComboBox*>(widget)) out.push_back({where, c->currentText()});
        else if (auto* p = qobject_cast<QPlainTextEdit*>(widget)) out.push_back({where, p->toPlainText()});
        else if (auto* t = qobject_cast<QTextEdit*>(widget)) out.push_back({where, t->toPlainText()});
        else if (auto* s = qobject_cast<QAbstractSpinBox*>(widget)) out.push_back({where, s->text()});
        else if (auto* e = qobject_cast<QLineEdit*>(widget)) {
            // A spin box's own editor is read through the spin box (its committed text).
            if (!qobject_cast<QAbstractSpinBox*>(e->parentWidget())) out.push_back({where, e->text()});
        } else if (auto* bar = qobject_cast<QTabBar*>(widget)) {
            for (int i = 0; i < bar->count(); ++i) out.push_back({where, bar->tabText(i)});
        } else if (auto* table = qobject_cast<QTableWidget*>(widget)) {
            // The Compare tables hold signed differences ("-3.2 GiB" less than the pin): their
            // figures are read for nan and inf only (the caller knows which are which).
            const bool signedDifferences = compare && compare->isAncestorOf(table);
            for (int row = 0; row < table->rowCount(); ++row)
                for (int column = 0; column < table->columnCount(); ++column)
                    if (const QTableWidgetItem* item = table->item(row, column))
                        out.push_back({signedDifferences ? QStringLiteral("compare:") + where : where, item->text()});
        } else if (auto* plot = qobject_cast<QCustomPlot*>(widget)) {
            for (QCPAxis* axis : plot->axisRect()->axes()) {
                out.push_back({where + QStringLiteral(" axis"), axis->label()});
                for (const QString& tick : axis->tickVectorLabels()) out.push_back({where + QStringLiteral(" tick"), tick});
            }
            for (int i = 0; i < plot->itemCount(); ++i)
                if (auto* item = qobject_cast<QCPItemText*>(plot->item(i)))
                    if (item->visible()) out.push_back({where + QStringLiteral(" item"), item->text()});
        }
    }
    return out;
}

// What a control shows, in the panel's order: enough to tell two panels apart.
QStringList controlValues(const ControlPanel* panel) {
    QStringList out;
    for (const QWidget* widget : panel->findChildren<QWidget*>()) {
        QString v;
        // A scaled slider by its value: a drag may rest between two positions of one value
        // (powers of two), which is the same setting.
        if (auto* scaled = qobject_cast<const ScaledSlider*>(widget)) v = QString::number(scaled->value(), 'g', 12);
        else if (qobject_cast<const QSlider*>(widget) && qobject_cast<const ScaledSlider*>(widget->parentWidget())) continue;
        else if (auto* slider = qobject_cast<const QSlider*>(widget)) v = QString::number(slider->value());
        else if (auto* spin = qobject_cast<const QAbstractSpinBox*>(widget)) v = spin->text();
        // A combo box by its entry's data (the same in every language), or its index.
        else if (auto* c = qobject_cast<const QComboBox*>(widget))
            v = QString::number(c->currentIndex()) + QLatin1Char(' ') + c->currentData().toString();
        // A box's Advanced disclosure is how the panel is shown, not the document: skipped.
        else if (widget->objectName().endsWith(QLatin1String("_advanced"))) continue;
        else if (auto* b = qobject_cast<const QAbstractButton*>(widget); b && b->isCheckable())
            v = b->isChecked() ? QStringLiteral("on") : QStringLiteral("off");
        else continue;
        // A scaled slider's own value box is named after the slider.
        const QString name =
            qobject_cast<const ScaledSlider*>(widget->parentWidget())
                ? describe(widget->parentWidget()) + QLatin1Char('/') + QString::fromLatin1(widget->metaObject()->className())
                : describe(widget);
        out << name + QLatin1Char('=') + v + (widget->isEnabled() ? QString() : QStringLiteral(" (disabled)"));
    }
    return out;
}

// Texts typed into a spin box: garbage, extremes, and the plain numbers in between.
const QStringList& typedTexts() {
    static const QStringList texts = {QString(),
                                      QStringLiteral("abc"),
                                      QStringLiteral("-1"),
                                      QStringLiteral("0"),
                                      QStringLiteral("1"),
                                      QStringLiteral("1e309"),
                                      QStringLiteral("nan"),
                                      QStringLiteral("inf"),
                                      QStringLiteral("99999999999999"),
                                      QStringLiteral("0.0001"),
                                      QStringLiteral("-0"),
                                      QStringLiteral("12.5.3"),
                                      QStringLiteral("  7  "),
                                      QStringLiteral("\u4e03"),
                                      QStringLiteral("2048"),
                                      QStringLiteral("3,5"),
                                      QStringLiteral("8"),
                                      QStringLiteral("--"),
                                      QStringLiteral("+64"),
                                      QStringLiteral("1/0")};
    return texts;
}

class Monkey {
public:
    Monkey(MainWindow& w, quint64 seed, const QString& folder) : w_(w), rng_(seed), folder_(folder) {
        w_.setSaveChangesPrompt([this] { return pick(2) == 0 ? MainWindow::SaveChoice::Discard : MainWindow::SaveChoice::Cancel; });
        reference_doc_.reset(w_.document()->scenario());
        reference_ = new ControlPanel(&reference_doc_);
        reference_holder_.reset(reference_);
        remember_start();
    }

    // One random action, described for the failure message.
    QString act() {
        const int n = pick(100);
        if (n < 22) return slider();
        if (n < 38) return spinBox();
        if (n < 52) return combo();
        if (n < 62) return button();
        if (n < 70) return undoRedoBurst();
        if (n < 75) return pins();
        if (n < 79) return tabs();
        if (n < 85) return clickBar();
        if (n < 86) return exportSomething();
        if (n < 90) return session();
        if (n < 91) return diagnose();
        if (n < 93) return language();
        if (n < 95) return resize();
        return menuAction();
    }

    // What must hold after every action; returns the first thing that does not, or "".
    QString check() {
        // As the event loop would: the queued recompute, then the views' queued replots.
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        if (w_.document()->undoStack()->count() == 0) remember_start();
        for (const VisibleText& t : visibleTexts(w_, w_.comparePanel())) {
            if (nonFinite().match(t.text).hasMatch()) return QStringLiteral("%1 shows \"%2\"").arg(t.where, t.text.left(300));
            if (!t.where.startsWith(QLatin1String("compare:")) && negativeMemory().match(t.text).hasMatch())
                return QStringLiteral("%1 shows a negative memory figure: \"%2\"").arg(t.where, t.text.left(300));
        }
        // The controls show the document: a panel built fresh on the same scenario shows the same.
        // (Reset only on a change: each reset recomputes the reference's plan.)
        if (!(reference_doc_.scenario() == w_.document()->scenario())) reference_doc_.reset(w_.document()->scenario());
        // A box builds its rows when one is first shown (control_group.h): the reference builds
        // the boxes the window has built, and must then show what the window shows.
        for (QGroupBox* box : w_.controls()->findChildren<QGroupBox*>()) {
            const auto* shownBox = dynamic_cast<const ControlGroup*>(box);
            auto* fresh = dynamic_cast<ControlGroup*>(reference_->findChild<QGroupBox*>(box->objectName()));
            if (shownBox && fresh && shownBox->rowsBuilt()) fresh->buildRows();
        }
        const QStringList shown = controlValues(w_.controls()), expected = controlValues(reference_);
        if (shown.size() != expected.size()) return QStringLiteral("the panels differ in their number of controls");
        for (qsizetype i = 0; i < shown.size(); ++i)
            if (shown[i] != expected[i] && !nodeSizeMayDiffer(shown[i], expected[i]) && !nodeMayDiffer(shown[i], expected[i]))
                return QStringLiteral("the controls show %1, the document %2").arg(shown[i], expected[i]);
        // The config preview is the core's export of the shown setup in the chosen format.
        const ConfigPreview* preview = w_.configPreview();
        const ExportFormat* format = find_export_format(preview->formatName().toStdString());
        if (!format) return QStringLiteral("the config preview's format %1 is not an export format").arg(preview->formatName());
        QString expectedConfig;
        try {
            expectedConfig = QString::fromStdString(format->render(w_.document()->exportScenario()));
        } catch (const InputError&) {
        }
        if (preview->configText() != expectedConfig)
            return QStringLiteral("the config preview is not the core's %1 export").arg(preview->formatName());
        return {};
    }

    // "GPUs per node" is the node's size, which the scenario holds only across nodes: on part of
    // one node the document has the GPUs in use (gpu_group.cpp, sync), so the box may show more;
    // and a size the core refused stays in the box beside its error line until changed.
    bool nodeSizeMayDiffer(const QString& shown, const QString& expected) const {
        static const QString nodeSize = QStringLiteral("zp::ui::EditSpinBox#gpus_per_node=");
        static const QString gpuCount = QStringLiteral("zp::ui::ScaledSlider#gpu_count=");
        const bool isNodeSize = shown.startsWith(nodeSize) && expected.startsWith(nodeSize);
        const bool isGpuCount = shown.startsWith(gpuCount.chopped(1)) && expected.startsWith(gpuCount.chopped(1));
        if (!isNodeSize && !isGpuCount) return false;
        if (refusedGpuCountShown()) return true;
        const Cluster& c = w_.document()->scenario().cluster;
        return isNodeSize && c.nodes == 1 && shown.mid(nodeSize.size()).toInt() >= c.gpus_per_node;
    }
    // On part of one node more than one preset can hold the GPUs in use (is_run_of): the box keeps
    // the one chosen, a panel built fresh shows the first. Both must hold the document's cluster.
    bool nodeMayDiffer(const QString& shown, const QString& expected) const {
        static const QString node = QStringLiteral("QComboBox#node=");
        if (!shown.startsWith(node) || !expected.startsWith(node)) return false;
        const auto* box = w_.controls()->findChild<QComboBox*>(QStringLiteral("node"));
        const std::string name = box ? box->currentData().toString().toStdString() : std::string();
        const Cluster& c = w_.document()->scenario().cluster;
        const ClusterPreset* first = cluster_preset_of(c);
        for (const ClusterPreset& p : cluster_presets())
            if (p.name == name) return first && is_run_of(c, p);
        return false;
    }
    bool refusedGpuCountShown() const {
        const auto* refusal = w_.controls()->findChild<QLabel*>(QStringLiteral("gpu_count_error"));
        return refusal && refusal->isVisible();
    }

    // Undo every step of the history: the scenario and pins it began with, exactly.
    QString undoAll() {
        w_.document()->undoStack()->setIndex(0);
        w_.flushPending();
        if (!(w_.document()->scenario() == start_scenario_))
            return QStringLiteral("undoing everything did not restore the starting scenario");
        if (pinsOf(*w_.document()) != start_pins_) return QStringLiteral("undoing everything did not restore the starting pins");
        return check();
    }

    int dismissedDialogs() const { return dismisser_ ? dismisser_->dismissed : 0; }
    void setDismisser(const DialogDismisser* d) { dismisser_ = d; }

private:
    static std::vector<PlanPin> pinsOf(const PlannerDocument& doc) {
        std::vector<PlanPin> out;
        for (const PinnedPlan& p : doc.pins()) out.push_back(p.pin);
        return out;
    }
    void remember_start() {
        start_scenario_ = w_.document()->scenario();
        start_pins_ = pinsOf(*w_.document());
    }

    int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    template <typename T>
    T* any(const QList<T*>& list) {
        QList<T*> usable;
        for (T* x : list)
            if (x->isEnabled() && x->isVisibleTo(&w_)) usable << x;
        return usable.isEmpty() ? nullptr : usable[pick(static_cast<int>(usable.size()))];
    }

    QString slider() {
        QSlider* s = any(w_.controls()->findChildren<QSlider*>());
        if (!s) return QStringLiteral("no slider");
        const int steps = 1 + pick(4);
        QString to;
        s->setSliderDown(true);
        for (int i = 0; i < steps; ++i) {
            const int v = pick(5) == 0 ? (pick(2) ? s->minimum() : s->maximum()) : s->minimum() + pick(s->maximum() - s->minimum() + 1);
            s->setValue(v);  // a drag: valueChanged from the user while the slider is down
            to += QLatin1Char(' ') + QString::number(v);
        }
        s->setSliderDown(false);
        return QStringLiteral("drag %1 to%2").arg(describe(s->parent()), to);
    }

    QString spinBox() {
        QAbstractSpinBox* s = any(w_.findChildren<QAbstractSpinBox*>());
        if (!s) return QStringLiteral("no spin box");
        switch (pick(3)) {
        case 0: {  // typed text, committed with Return
            const QString text = typedTexts()[pick(static_cast<int>(typedTexts().size()))];
            s->setFocus();
            s->selectAll();
            QTest::keyClick(s, Qt::Key_Backspace);
            for (const QChar ch : text) {  // QTest::keyClicks takes Latin-1 only; a key event carries any text
                QKeyEvent press(QEvent::KeyPress, Qt::Key_unknown, Qt::NoModifier, QString(ch));
                QApplication::sendEvent(s, &press);
            }
            QTest::keyClick(s, Qt::Key_Return);
            return QStringLiteral("type \"%1\" into %2").arg(text, describe(s));
        }
        case 1: {  // the arrows, the wheel: steps
            const int steps = pick(2) ? 1 + pick(3) : -(1 + pick(3));
            s->stepBy(steps);
            return QStringLiteral("step %1 by %2").arg(describe(s)).arg(steps);
        }
        default: {  // Home / End: the extremes
            const bool end = pick(2);
            s->setFocus();
            QTest::keyClick(s, end ? Qt::Key_PageUp : Qt::Key_PageDown);
            s->stepBy(end ? 1000000 : -1000000);
            return QStringLiteral("%1 to its %2").arg(describe(s), end ? QStringLiteral("maximum") : QStringLiteral("minimum"));
        }
        }
    }

    QString combo() {
        QComboBox* c = any(w_.findChildren<QComboBox*>());
        if (!c || c->count() == 0) return QStringLiteral("no combo box");
        // Only what a user can choose: a list's family headers are disabled entries.
        QList<int> choosable;
        for (int k = 0; k < c->count(); ++k)
            if (c->model()->flags(c->model()->index(k, c->modelColumn())) & Qt::ItemIsEnabled) choosable << k;
        if (choosable.isEmpty()) return QStringLiteral("no entry to choose in %1").arg(describe(c));
        const int i = choosable[pick(static_cast<int>(choosable.size()))];
        c->setCurrentIndex(i);
        emit c->activated(i);  // what choosing an entry does: the panel edits on activation only
        emit c->textActivated(c->itemText(i));
        return QStringLiteral("choose \"%1\" in %2").arg(c->itemText(i), describe(c));
    }

    QString button() {
        QList<QAbstractButton*> buttons;
        for (QAbstractButton* b : w_.findChildren<QAbstractButton*>())
            if (!qobject_cast<QTabBar*>(b->parentWidget())) buttons << b;  // tab scroll arrows
        QAbstractButton* b = any(buttons);
        if (!b) return QStringLiteral("no button");
        const QString what = describe(b) + QStringLiteral(" \"") + b->text() + QLatin1Char('"');
        b->click();
        return QStringLiteral("click ") + what;
    }

    QString undoRedoBurst() {
        QUndoStack* stack = w_.document()->undoStack();
        const int n = 1 + pick(20);
        const bool undo = pick(3) != 0;
        for (int i = 0; i < n; ++i) undo ? stack->undo() : stack->redo();
        return QStringLiteral("%1 x %2").arg(undo ? QStringLiteral("undo") : QStringLiteral("redo")).arg(n);
    }

    QString pins() {
        PlannerDocument* doc = w_.document();
        const int n = static_cast<int>(doc->pins().size());
        switch (n == 0 ? 0 : pick(3)) {
        case 0: w_.pinPlan(); return QStringLiteral("pin the plan (%1 pinned)").arg(n);
        case 1: {
            static const QStringList names = {QString(),
                                              QStringLiteral("a"),
                                              QStringLiteral("  "),
                                              QStringLiteral("\u96f6\u4e09"),
                                              QString(300, QLatin1Char('x')),
                                              QStringLiteral("<b>bold</b>"),
                                              QStringLiteral("100%")};
            const QString name = names[pick(static_cast<int>(names.size()))];
            const int i = pick(n);
            doc->renamePin(i, name);
            return QStringLiteral("rename pin %1 to \"%2\"").arg(i).arg(name.left(20));
        }
        default: {
            const int i = pick(n);
            doc->removePin(i);
            return QStringLiteral("remove pin %1").arg(i);
        }
        }
    }

    QString tabs() {
        QTabWidget* t = pick(2) ? w_.sideTabs() : w_.plotTabs();
        const int i = pick(t->count());
        t->setCurrentIndex(i);
        return QStringLiteral("show tab \"%1\"").arg(t->tabText(i));
    }

    QString clickBar() {
        QCustomPlot* plot = w_.memoryView()->plot();
        const QPoint at(pick(std::max(1, plot->width())), pick(std::max(1, plot->height())));
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        return QStringLiteral("click the memory view at %1,%2").arg(at.x()).arg(at.y());
    }

    QString exportSomething() {
        QString error;
        switch (pick(3)) {
        case 0: {
            const QString path = folder_ + QStringLiteral("/ds_config.json");
            w_.exportConfig(path, &error);
            return QStringLiteral("export the config");
        }
        case 1: {
            const QStringList ids = w_.plotViewIds();
            const QString id = ids[pick(static_cast<int>(ids.size()))];
            static const PictureFormat formats[] = {PictureFormat::Png, PictureFormat::Svg, PictureFormat::Pdf};
            w_.exportView(id, folder_ + QStringLiteral("/view"), formats[pick(3)], &error);
            return QStringLiteral("export view %1").arg(id);
        }
        default: w_.exportReport(folder_ + QStringLiteral("/report.md"), true, &error); return QStringLiteral("export the report");
        }
    }

    // Save, open what was saved, or open it truncated or corrupted: a file that cannot be read
    // leaves the session as it was (scenario, pins and history).
    QString session() {
        PlannerDocument* doc = w_.document();
        const QString saved = folder_ + QStringLiteral("/monkey.zplan");
        switch (pick(4)) {
        case 0: {
            QString error;
            doc->save(saved, &error);
            return QStringLiteral("save the session");
        }
        case 1:
            if (!QFileInfo::exists(saved)) return QStringLiteral("nothing saved to open");
            w_.openFile(saved);
            return QStringLiteral("open the saved session");
        default: {
            const std::string text = doc->sessionText();
            std::string bad = text;
            QString how;
            if (pick(2) == 0) {
                bad.resize(static_cast<std::size_t>(pick(static_cast<int>(text.size()))));
                how = QStringLiteral("truncated to %1 bytes").arg(bad.size());
            } else {
                for (int i = 0, n = 1 + pick(8); i < n && !bad.empty(); ++i)
                    bad[static_cast<std::size_t>(pick(static_cast<int>(bad.size())))] = static_cast<char>(pick(256));
                how = QStringLiteral("with bytes changed");
            }
            const QString path = folder_ + QStringLiteral("/corrupt.zplan");
            write_file_atomically(path.toStdString(), bad);
            const Scenario before = doc->scenario();
            const int history = doc->undoStack()->count();
            if (!w_.openFile(path)) {
                if (!(doc->scenario() == before) || doc->undoStack()->count() != history)
                    return QStringLiteral("FAILED: a session that could not be opened (%1) changed the document").arg(how);
            }
            return QStringLiteral("open the session %1").arg(how);
        }
        }
    }

    // File > Diagnose a Training Log... on a public report (tests/data/oom/) or on a file that is
    // not one: the Diagnosis tab's Apply and Close buttons are then among those the monkey clicks.
    QString diagnose() {
        static const QStringList logs = {QStringLiteral("llamafactory1158_baichuan2_13b_zero2.log"),
                                         QStringLiteral("trl3172_grpo_seven_processes_gpu0.log"),
                                         QStringLiteral("mgfn35_fragmentation.log"), QStringLiteral("megatron92_fp32_logits.log"),
                                         QStringLiteral("baichuan2-13b-chat.llama-form.config.json")};  // no OOM in it: refused
        const QString name = logs[pick(static_cast<int>(logs.size()))];
        QString error;
        const Scenario before = w_.document()->scenario();
        const bool read = w_.diagnoseLog(QStringLiteral(ZP_TEST_DATA_DIR "/oom/") + name, &error);
        if (!read && !(w_.document()->scenario() == before))
            return QStringLiteral("FAILED: a log that could not be diagnosed (%1) changed the document").arg(name);
        return QStringLiteral("diagnose %1%2").arg(name, read ? QString() : QStringLiteral(" (refused)"));
    }

    QString language() {
        const bool chinese = pick(2) == 0;
        applyLanguage(chinese ? QLocale(QLocale::Chinese, QLocale::China) : QLocale(QLocale::English, QLocale::UnitedStates));
        return chinese ? QStringLiteral("switch to Chinese") : QStringLiteral("switch to English");
    }

    QString resize() {
        if (w_.width() > 700) {
            w_.resize(640, 480);
            return QStringLiteral("resize to 640x480");
        }
        w_.resize(1480, 920);
        return QStringLiteral("resize to 1480x920");
    }

    // A menu command, as the menu bar triggers it (its dialogs are dismissed; Quit is not one of them).
    QString menuAction() {
        QList<QAction*> actions;
        for (QAction* menu : w_.menuBar()->actions())
            if (menu->menu())
                for (QAction* a : menu->menu()->actions())
                    if (!a->isSeparator() && !a->menu() && a->isEnabled() && a->objectName() != QLatin1String("actionQuit")) actions << a;
        if (actions.isEmpty()) return QStringLiteral("no menu action");
        QAction* a = actions[pick(static_cast<int>(actions.size()))];
        a->trigger();
        return QStringLiteral("menu \"%1\"").arg(a->text());
    }

    MainWindow& w_;
    std::mt19937_64 rng_;
    QString folder_;
    PlannerDocument reference_doc_;
    ControlPanel* reference_ = nullptr;
    std::unique_ptr<ControlPanel> reference_holder_;
    Scenario start_scenario_;
    std::vector<PlanPin> start_pins_;
    const DialogDismisser* dismisser_ = nullptr;
};

// The offscreen platform warns "This plugin does not support propagateSizeHints()" on every
// window geometry change; thousands of them would hit Qt Test's warning limit, which silences
// the rest of the log (the summary line included). Everything else goes to Qt Test's handler.
QtMessageHandler qtTestHandler = nullptr;
void dropSizeHintWarnings(QtMsgType type, const QMessageLogContext& context, const QString& message) {
    if (type == QtWarningMsg && message.contains(QLatin1String("propagateSizeHints"))) return;
    qtTestHandler(type, context, message);
}

int envInt(const char* name, int fallback) {
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok ? v : fallback;
}

}  // namespace

class TestMonkey : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void random_actions_break_nothing() {
        qtTestHandler = qInstallMessageHandler(dropSizeHintWarnings);
        const auto restoreHandler = qScopeGuard([] { qInstallMessageHandler(qtTestHandler); });
        const int actions = envInt("ZP_MONKEY_ACTIONS", envInt("ZP_MONKEY_DEFAULT_ACTIONS", 20000));
        bool seeded = false;
        // CTest gives each run a fixed seed (ZP_MONKEY_DEFAULT_SEED), so CI is the same on every
        // machine; ZP_MONKEY_SEED overrides it, and without either the clock chooses.
        const QString given = qEnvironmentVariable("ZP_MONKEY_SEED", qEnvironmentVariable("ZP_MONKEY_DEFAULT_SEED"));
        const quint64 seed = given.toULongLong(&seeded);
        // Without a seed, the clock's, offset by the run's number (CTest starts several runs at once).
        const quint64 run = static_cast<quint64>(envInt("ZP_MONKEY_RUN", 0));
        const quint64 clock = static_cast<quint64>(std::chrono::system_clock::now().time_since_epoch().count());
        const quint64 used = seeded ? seed : (clock + run * 7919ULL) % 1000000007ULL;
        qInfo().noquote()
            << QStringLiteral("monkey: %1 actions, seed %2 (replay: ZP_MONKEY_SEED=%2 ZP_MONKEY_ACTIONS=%1)").arg(actions).arg(used);

        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        DialogDismisser dismisser;
        qApp->installEventFilter(&dismisser);
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        Monkey monkey(w, used, folder.path());
        monkey.setDismisser(&dismisser);
        QString failure = monkey.check();
        QVERIFY2(failure.isEmpty(), qPrintable(QStringLiteral("seed %1, before any action: %2").arg(used).arg(failure)));

        const bool trace = qEnvironmentVariableIsSet("ZP_MONKEY_TRACE");
        QStringList recent;  // the last actions, for the failure message
        for (int i = 1; i <= actions; ++i) {
            const QString action = monkey.act();
            if (trace) qInfo().noquote() << i << action;
            recent << action;
            if (recent.size() > 8) recent.removeFirst();
            failure = action.startsWith(QLatin1String("FAILED: ")) ? action.mid(8) : monkey.check();
            if (!failure.isEmpty())
                QFAIL(qPrintable(
                    QStringLiteral(
                        "seed %1, action %2 of %3 (%4): %5\n  the last actions: %6\n  replay: ZP_MONKEY_SEED=%1 ZP_MONKEY_ACTIONS=%2")
                        .arg(used)
                        .arg(i)
                        .arg(actions)
                        .arg(action, failure, recent.join(QStringLiteral("; ")))));
        }
        applyLanguage(QLocale(QLocale::English, QLocale::UnitedStates));
        failure = monkey.undoAll();
        QVERIFY2(failure.isEmpty(), qPrintable(QStringLiteral("seed %1, after undoing everything: %2").arg(used).arg(failure)));
        qApp->removeEventFilter(&dismisser);
        qInfo().noquote() << QStringLiteral("monkey: %1 actions passed, seed %2, %3 dialogs dismissed")
                                 .arg(actions)
                                 .arg(used)
                                 .arg(monkey.dismissedDialogs());
    }
};

ZP_TEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
