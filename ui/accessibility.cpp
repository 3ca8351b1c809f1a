#include "ui/accessibility.h"

#include "ui/chart/legend_strip.h"
#include "ui/controls/control_panel.h"
#include "ui/panels/config_preview.h"
#include "ui/panels/recommendation_card.h"
#include "ui/qcustomplot_include.h"

#include <QAbstractScrollArea>
#include <QAccessible>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMainWindow>
#include <QMap>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTextEdit>

#include <algorithm>

namespace zp::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("Accessibility", text); }

QString number(double v) { return QLocale().toString(v, 'f', 1); }

// A category axis's name for `key` (the setup under a bar, a phase of the step), else the number.
QString keyName(const QCPAxis* axis, double key) {
    if (const auto text = axis->ticker().dynamicCast<QCPAxisTickerText>()) {
        const QMap<double, QString> ticks = text->ticks();
        if (const auto it = ticks.constFind(key); it != ticks.constEnd())
            return it.value().simplified().replace(QStringLiteral(" +"), QStringLiteral("+"));
    }
    return QLocale().toString(key, 'g', 6);
}

// Bars: one sentence per stack (bars stacked with moveAbove), the stack's total per category in
// key order; a stack of several parts is named by its value axis, a lone bar by its name.
QStringList describeBars(QCustomPlot* plot) {
    QStringList stacked, lone, named;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        auto* bottom = qobject_cast<QCPBars*>(plot->plottable(i));
        if (!bottom || bottom->barBelow()) continue;
        QMap<double, double> totals;
        int parts = 0;
        for (QCPBars* b = bottom; b; b = b->barAbove()) {
            if (!b->visible()) continue;
            ++parts;
            for (auto it = b->data()->constBegin(); it != b->data()->constEnd(); ++it)
                if (!std::isnan(it->value)) totals[it->key] += it->value;
        }
        if (totals.isEmpty() || (parts == 1 && (bottom->name().isEmpty() || named.contains(bottom->name())))) continue;
        QStringList values;
        for (auto it = totals.constBegin(); it != totals.constEnd(); ++it)
            values << keyName(bottom->keyAxis(), it.key()) + QLatin1Char(' ') + number(it.value());
        const QString axis = bottom->valueAxis()->label().simplified();
        if (parts > 1) {
            stacked << (axis.isEmpty() ? QString() : axis + QStringLiteral(": ")) + values.join(QStringLiteral(", ")) + QLatin1Char('.');
        } else {
            named << bottom->name();
            lone << bottom->name() + QStringLiteral(": ") + values.join(QStringLiteral(", ")) + QLatin1Char('.');
        }
    }
    return stacked + lone;
}

// A named curve: every point when there are few, else its range and highest point.
constexpr int kPointsListed = 16;

QString describeGraph(const QCPGraph* g) {
    const auto data = g->data();
    if (data->isEmpty()) return {};
    QStringList points;
    const QCPGraphData* highest = nullptr;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
        if (std::isnan(it->value)) continue;
        if (!highest || it->value > highest->value) highest = &*it;
        points << keyName(g->keyAxis(), it->key) + QLatin1Char(' ') + number(it->value);
    }
    if (!highest) return {};
    QString text = g->name() + QStringLiteral(" (") + g->valueAxis()->label().simplified() + QStringLiteral("): ");
    if (points.size() <= kPointsListed) return text + points.join(QStringLiteral(", ")) + QLatin1Char('.');
    return text + tr("%1 points from %2 to %3, highest %4 at %5.")
                      .arg(points.size())
                      .arg(points.first(), points.last(), number(highest->value), keyName(g->keyAxis(), highest->key));
}

// Every mnemonic candidate of `title`: word starts first (as KAcceleratorManager weighs them).
QList<int> mnemonicCandidates(const QString& title) {
    QList<int> starts, rest;
    for (int i = 0; i < title.size(); ++i) {
        const QChar c = title[i];
        if (c.unicode() >= 128 || !c.isLetterOrNumber()) continue;
        (i == 0 || !title[i - 1].isLetterOrNumber() ? starts : rest) << i;
    }
    return starts + rest;
}

void assignMnemonics(const QList<QGroupBox*>& groups, QString taken) {
    taken = taken.toLower();
    for (QGroupBox* g : groups) {
        const QString title = g->title();
        if (title.isEmpty() || title.contains(QLatin1Char('&'))) continue;
        for (int i : mnemonicCandidates(title)) {
            const QChar c = title[i].toLower();
            if (taken.contains(c)) continue;
            taken += c;
            g->setTitle(title.left(i) + QLatin1Char('&') + title.mid(i));
            break;
        }
    }
}

// Drops each '&' that is not followed by another (so "&&" reads "&"), as the regular expression
// "&(?!&)" would, without building one for each of the window's fifty labels (a compiled
// QRegularExpression a call was 3% of the instructions to the first frame).
QString withoutMnemonic(const QString& text) {
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char('&') && (i + 1 == text.size() || text[i + 1] != QLatin1Char('&'))) continue;
        out += text[i];
    }
    return out.simplified();
}

void nameIfUnnamed(QWidget* w, const QString& name) {
    if (w && w->accessibleName().isEmpty() && !name.isEmpty()) w->setAccessibleName(name);
}

// The field of each labelled form row, and the focusable parts of a composite field (a slider
// and its spin box), take the label's text.
void nameFormFields(QWidget* root) {
    for (QFormLayout* form : root->findChildren<QFormLayout*>()) {
        for (int r = 0; r < form->rowCount(); ++r) {
            QLayoutItem* label = form->itemAt(r, QFormLayout::LabelRole);
            QLayoutItem* field = form->itemAt(r, QFormLayout::FieldRole);
            const auto* l = label ? qobject_cast<QLabel*>(label->widget()) : nullptr;
            if (!l || !field || !field->widget()) continue;
            const QString name = withoutMnemonic(l->text());
            nameIfUnnamed(field->widget(), name);
            QWidget* whole = field->widget();
            for (QWidget* part : whole->findChildren<QWidget*>()) {
                if (!(part->focusPolicy() & Qt::TabFocus)) continue;
                nameIfUnnamed(part, name);
                // A composite (a slider and its spin box) is described as its parts' tool tip says.
                if (whole->toolTip().isEmpty() && whole->accessibleDescription().isEmpty() && !part->toolTip().isEmpty())
                    whole->setAccessibleDescription(part->toolTip());
            }
        }
    }
}

bool takesTab(const QWidget* w) { return (w->focusPolicy() & Qt::TabFocus) && !qobject_cast<const QScrollArea*>(w); }

void collect(QWidget* w, QList<QWidget*>& out);

void collectLayout(QLayout* layout, QList<QWidget*>& out);

void collectItem(QLayoutItem* item, QList<QWidget*>& out) {
    if (!item) return;
    if (item->widget()) collect(item->widget(), out);
    else if (item->layout()) collectLayout(item->layout(), out);
}

void collectLayout(QLayout* layout, QList<QWidget*>& out) {
    if (auto* form = qobject_cast<QFormLayout*>(layout)) {
        for (int r = 0; r < form->rowCount(); ++r) {
            QList<QLayoutItem*> row;  // a spanning item answers for the field role too
            for (QFormLayout::ItemRole role : {QFormLayout::LabelRole, QFormLayout::FieldRole, QFormLayout::SpanningRole})
                if (QLayoutItem* item = form->itemAt(r, role); item && !row.contains(item)) row << item;
            for (QLayoutItem* item : row) collectItem(item, out);
        }
        return;
    }
    QList<std::tuple<int, int, QLayoutItem*>> items;
    for (int i = 0; i < layout->count(); ++i) {
        int row = 0, column = i, rowSpan = 0, columnSpan = 0;
        if (auto* grid = qobject_cast<QGridLayout*>(layout)) grid->getItemPosition(i, &row, &column, &rowSpan, &columnSpan);
        items.append({row, column, layout->itemAt(i)});
    }
    std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    for (const auto& item : items) collectItem(std::get<2>(item), out);
}

void collect(QWidget* w, QList<QWidget*>& out) {
    if (!w) return;  // a tab widget's page mid-removal: the tab bar still counts it
    if (auto* split = qobject_cast<QSplitter*>(w)) {
        for (int i = 0; i < split->count(); ++i) collect(split->widget(i), out);
        return;
    }
    if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
        // The tab widget too: it hands its focus to its tab bar, and left where it was made in
        // the focus chain it would send Tab back there (a loop that never reached the controls).
        out << tabs << tabs->tabBar();
        for (int i = 0; i < tabs->count(); ++i) collect(tabs->widget(i), out);
        return;
    }
    if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
        if (scroll->widget()) collect(scroll->widget(), out);
        return;
    }
    if (takesTab(w)) out << w;
    if (w->layout()) collectLayout(w->layout(), out);
}

}  // namespace

QString describePlot(QCustomPlot* plot, const QString& title) {
    QStringList parts{title + QLatin1Char('.')};
    parts << describeBars(plot);
    for (int i = 0; i < plot->graphCount(); ++i) {
        const QCPGraph* g = plot->graph(i);
        if (g->visible() && !g->name().isEmpty())
            if (const QString text = describeGraph(g); !text.isEmpty()) parts << text;
    }
    return parts.join(QLatin1Char(' '));
}

namespace {
// Whether assistive technology is connected, as the platform last announced it: its bridge calls
// QPlatformAccessibility::setActive, which tells the activation observers (QAccessible::setActive;
// QAccessible::isActive asks the platform, which the offscreen one lacks). Never deleted: Qt's
// list of observers may be gone before a static's destructor could leave it.
class ScreenReaderState : public QAccessible::ActivationObserver {
public:
    bool active = QAccessible::isActive();
    void accessibilityActiveChanged(bool now) override { active = now; }
};
bool screenReaderActive() {
    static ScreenReaderState* const state = [] {
        auto* s = new ScreenReaderState;
        QAccessible::installActivationObserver(s);
        return s;
    }();
    return state->active || QAccessible::isActive();
}

// Describing a plot reads every bar and point back from it and formats them: 3-4% of a slider
// change (callgrind, bench_gui), for a text that only assistive technology reads. While none is
// connected a replot marks the text stale; when one connects, the activation observer brings
// every stale text up to date before it can be read.
class PlotDescriber : public QObject, public QAccessible::ActivationObserver {
public:
    PlotDescriber(QCustomPlot* plot, QString title)
        : QObject(plot),
          plot_(plot),
          title_(std::move(title)),
          view_(plot->parentWidget()),
          legend_(view_ ? view_->findChild<LegendStrip*>() : nullptr) {
        screenReaderActive();  // its observer listens from the first plot on
        QAccessible::installActivationObserver(this);
        connect(plot, &QCustomPlot::afterReplot, this, [this] {
            if (screenReaderActive()) describe();
            else stale_ = true;
        });
        describe();
    }
    ~PlotDescriber() override { QAccessible::removeActivationObserver(this); }
    PlotDescriber(const PlotDescriber&) = delete;
    PlotDescriber& operator=(const PlotDescriber&) = delete;
    void accessibilityActiveChanged(bool active) override {
        if (active && stale_) describe();
    }

private:
    void describe() {
        stale_ = false;
        const QString text = describePlot(plot_, title_);
        if (text != plot_->accessibleDescription()) plot_->setAccessibleDescription(text);
        if (view_ && text != view_->accessibleDescription()) view_->setAccessibleDescription(text);
        if (!legend_) return;
        QStringList names;
        for (const LegendStrip::Entry& e : legend_->entries()) names << e.name;
        const QString entries = names.join(QStringLiteral(", "));
        if (entries != legend_->accessibleDescription()) legend_->setAccessibleDescription(entries);
    }

    QCustomPlot* plot_;
    QString title_;
    QWidget* view_;
    LegendStrip* legend_;
    bool stale_ = false;
};
}  // namespace

void describeForScreenReaders(QCustomPlot* plot, const QString& title) {
    plot->setAccessibleName(title);
    plot->setFocusPolicy(Qt::StrongFocus);  // the context-menu key opens its Export menu
    QWidget* view = plot->parentWidget();
    nameIfUnnamed(view, title);
    nameIfUnnamed(view ? view->findChild<LegendStrip*>() : nullptr, tr("%1 legend").arg(title));
    new PlotDescriber(plot, title);
}

namespace {
class BarKeys : public QObject {
public:
    BarKeys(QCustomPlot* plot, std::function<int()> count, std::function<int()> current, std::function<void(int)> choose)
        : QObject(plot), count_(std::move(count)), current_(std::move(current)), choose_(std::move(choose)) {}

protected:
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (e->type() != QEvent::KeyPress) return QObject::eventFilter(watched, e);
        const int key = static_cast<QKeyEvent*>(e)->key();
        const int now = current_();
        const int count = count_();
        if (count <= 0) return true;
        int next = -1;
        if (key == Qt::Key_Left) next = now < 0 ? 0 : std::max(0, now - 1);
        else if (key == Qt::Key_Right) next = now < 0 ? 0 : std::min(count - 1, now + 1);
        else if (key == Qt::Key_Home) next = 0;
        else if (key == Qt::Key_End) next = count - 1;
        else return QObject::eventFilter(watched, e);
        if (next != now) choose_(next);
        return true;
    }

private:
    std::function<int()> count_;
    std::function<int()> current_;
    std::function<void(int)> choose_;
};
}  // namespace

void chooseBarsWithKeys(QCustomPlot* plot, std::function<int()> barCount, std::function<int()> current, std::function<void(int)> choose) {
    plot->installEventFilter(new BarKeys(plot, std::move(barCount), std::move(current), std::move(choose)));
}

QList<QWidget*> layoutOrder(QWidget* root) {
    QList<QWidget*> out;
    collect(root, out);
    return out;
}

namespace {

// What one part of the window needs on its own: read-only text boxes pass Tab on instead of
// keeping it (a trap for keyboard users), the panels say what they are, form fields and tab pages
// get names.
void makePartFriendly(QWidget* part) {
    for (QPlainTextEdit* e : part->findChildren<QPlainTextEdit*>()) e->setTabChangesFocus(true);
    for (QTextEdit* e : part->findChildren<QTextEdit*>()) e->setTabChangesFocus(true);
    for (ControlPanel* panel : part->findChildren<ControlPanel*>()) {
        nameIfUnnamed(panel, tr("Controls"));
        panel->setAccessibleDescription(tr("The scenario: model, GPUs, network, parallelism, host, fine-tuning and training"));
    }
    for (RecommendationCard* card : part->findChildren<RecommendationCard*>())
        card->setAccessibleDescription(tr("The recommended setup, its figures, and why it won and the others lost"));
    for (ConfigPreview* config : part->findChildren<ConfigPreview*>())
        config->setAccessibleDescription(tr("The DeepSpeed config of the selected setup in the chosen format, with Copy and Export"));
    nameFormFields(part);
    for (QTabWidget* tabs : part->findChildren<QTabWidget*>())
        for (int i = 0; i < tabs->count(); ++i) nameIfUnnamed(tabs->widget(i), withoutMnemonic(tabs->tabText(i)));
}

// Tab moves through the central widget's focusable widgets in layout order.
void orderTabChain(QWidget* central) {
    const QList<QWidget*> order = layoutOrder(central);
    for (int i = 1; i < order.size(); ++i) QWidget::setTabOrder(order[i - 1], order[i]);
}

}  // namespace

void makeKeyboardAndScreenReaderFriendly(QMainWindow* window) {
    QWidget* central = window->centralWidget();
    QString reserved;
    for (const QAction* menu : window->menuBar()->actions())
        if (const qsizetype at = menu->text().indexOf(QLatin1Char('&')); at >= 0 && at + 1 < menu->text().size())
            reserved += menu->text()[at + 1];
    makePartFriendly(central);
    const QList<QWidget*> order = layoutOrder(central);
    QList<QGroupBox*> groups;
    for (QWidget* w : central->findChildren<QGroupBox*>()) groups << static_cast<QGroupBox*>(w);
    // In layout order, so the upper groups get the first pick of letters.
    std::stable_sort(groups.begin(), groups.end(), [&order](QGroupBox* a, QGroupBox* b) {
        const auto firstIn = [&order](QGroupBox* g) {
            for (int i = 0; i < order.size(); ++i)
                if (g->isAncestorOf(order[i])) return i;
            return int(order.size());
        };
        return firstIn(a) < firstIn(b);
    });
    assignMnemonics(groups, reserved);
    orderTabChain(central);
}

void makeKeyboardAndScreenReaderFriendly(QMainWindow* window, QWidget* joined) {
    makePartFriendly(joined);
    orderTabChain(window->centralWidget());
}

}  // namespace zp::ui
