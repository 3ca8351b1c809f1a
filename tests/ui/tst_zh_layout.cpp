// Issue 17, item 3: the window in Simplified Chinese (CJK font from fonts-wqy-microhei) with no
// label cut and none overlapping another: every visible QLabel, QAbstractButton and QGroupBox
// gets the room its text asks for, and no two such siblings share pixels. Run for the default
// plan, a plan where nothing fits (the card's longest text) and at the smallest supported size.
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/presets/default_scenario.h"
#include "offscreen.h"
#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/export/screenshot.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QFontDatabase>
#include <QGroupBox>
#include <QLabel>
#include <QMenuBar>
#include <QRadioButton>
#include <QStyleOptionGroupBox>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

// Shown on screen: visible, inside a shown tab or scroll area, with a size.
bool shown(const QWidget* w, const QWidget* window) { return w->isVisibleTo(window) && w->width() > 0 && w->height() > 0; }

QString text_and_size(const QWidget* w) {
    QString text;
    if (const auto* l = qobject_cast<const QLabel*>(w)) text = l->text();
    else if (const auto* b = qobject_cast<const QAbstractButton*>(w)) text = b->text();
    else if (const auto* g = qobject_cast<const QGroupBox*>(w)) text = g->title();
    return QStringLiteral("%1 \"%2\" %3x%4")
        .arg(QString::fromLatin1(w->metaObject()->className()), text.left(60))
        .arg(w->width())
        .arg(w->height());
}

// What the widget's text needs, against what it has.
QString cut(const QWidget* w) {
    if (const auto* l = qobject_cast<const QLabel*>(w)) {
        if (l->text().isEmpty() || !l->pixmap().isNull()) return {};
        if (l->wordWrap()) {
            const int needed = l->heightForWidth(l->width());
            return needed > l->height() + 1 ? QStringLiteral("needs %1 px of height").arg(needed) : QString();
        }
        const QSize hint = l->sizeHint();
        if (hint.width() > l->width() + 1) return QStringLiteral("needs %1 px of width").arg(hint.width());
        if (l->fontMetrics().height() > l->height() + 1) return QStringLiteral("needs %1 px of height").arg(l->fontMetrics().height());
        return {};
    }
    if (const auto* b = qobject_cast<const QAbstractButton*>(w)) {
        if (b->text().isEmpty()) return {};
        const QSize hint = b->sizeHint();
        if (hint.width() > b->width() + 1) return QStringLiteral("needs %1 px of width").arg(hint.width());
        if (b->fontMetrics().height() > b->height()) return QStringLiteral("needs %1 px of height").arg(b->fontMetrics().height());
        return {};
    }
    if (const auto* g = qobject_cast<const QGroupBox*>(w)) {
        QStyleOptionGroupBox option;
        option.initFrom(g);
        option.text = g->title();
        option.subControls = QStyle::SC_GroupBoxLabel | (g->isCheckable() ? QStyle::SC_GroupBoxCheckBox : QStyle::SC_None);
        const QRect label = g->style()->subControlRect(QStyle::CC_GroupBox, &option, QStyle::SC_GroupBoxLabel, g);
        if (label.right() > g->width()) return QStringLiteral("title ends at %1 px").arg(label.right());
        return {};
    }
    return {};
}

bool checked(const QWidget* w) {
    return qobject_cast<const QLabel*>(w) || qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QGroupBox*>(w);
}

// Every checked widget under `root` that is cut (by its own size, or sideways by what clips it:
// the control panel's scroll area has no horizontal scroll bar) or overlaps a checked sibling.
QStringList problemsIn(QWidget* root, int* looked_at) {
    QStringList problems;
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!checked(w) || !shown(w, root)) continue;
        ++*looked_at;
        if (const QString why = cut(w); !why.isEmpty()) problems << QStringLiteral("cut: %1 %2").arg(text_and_size(w), why);
        const QRect visible = w->visibleRegion().boundingRect();
        if (!visible.isEmpty() && visible.width() < std::min(w->width(), w->sizeHint().width()) - 1)
            problems << QStringLiteral("cut: %1 shows %2 px of its width").arg(text_and_size(w)).arg(visible.width());
        const QWidget* parent = w->parentWidget();
        if (!parent) continue;
        for (QObject* o : parent->children()) {
            auto* other = qobject_cast<QWidget*>(o);
            if (!other || other <= w || !checked(other) || !shown(other, root)) continue;
            if (w->geometry().intersects(other->geometry()))
                problems << QStringLiteral("overlap: %1 and %2").arg(text_and_size(w), text_and_size(other));
        }
    }
    return problems;
}

}  // namespace

class TestZhLayout : public QObject {
    Q_OBJECT
public:
    static void initMain() {
        zp::test::use_offscreen_platform();
        qputenv("QT_SCALE_FACTOR", "1");
    }

private slots:
    void initTestCase() {
        pinAppearance(*qApp);
        QVERIFY2(applyLanguage(QLocale(QStringLiteral("zh_CN"))), "the zh_CN translation is not in the resources");
        // The CJK glyphs come from a font the README installs; without it every label would be boxes.
        QVERIFY2(QFontDatabase::families(QFontDatabase::SimplifiedChinese).size() > 0,
                 "no Simplified Chinese font: install fonts-wqy-microhei (scripts/quickstart does)");
    }
    void cleanupTestCase() { applyLanguage(QLocale(QLocale::English, QLocale::UnitedStates)); }

    // The check itself: a label narrower than its text, and two labels on top of each other.
    void the_check_finds_cut_and_overlapping_labels() {
        QWidget page;
        page.resize(400, 200);
        auto* narrow = new QLabel(QStringLiteral("每 GPU 峰值保留"), &page);
        narrow->setGeometry(10, 10, 30, 20);
        auto* first = new QLabel(QStringLiteral("显存"), &page);
        first->setGeometry(10, 100, 120, 30);
        auto* second = new QLabel(QStringLiteral("主机内存"), &page);
        second->setGeometry(60, 110, 120, 30);
        page.setAttribute(Qt::WA_DontShowOnScreen, true);
        page.show();
        QCoreApplication::processEvents();
        int looked_at = 0;
        const QStringList problems = problemsIn(&page, &looked_at);
        QCOMPARE(looked_at, 3);
        QCOMPARE(problems.filter(QStringLiteral("cut:")).size(), 1);
        QCOMPARE(problems.filter(QStringLiteral("overlap:")).size(), 1);
    }

    void nothing_cut_or_overlapping_data() {
        QTest::addColumn<QString>("session");
        QTest::addColumn<QSize>("size");
        QTest::newRow("default plan 1480x920") << QString() << QSize(1480, 920);
        QTest::newRow("default plan 1280x720") << QString() << QSize(1280, 720);
        QTest::newRow("nothing fits 1480x920") << QStringLiteral(ZP_SOURCE_DIR "/docs/sessions/70b-two-gpus-full.zplan")
                                               << QSize(1480, 920);
        QTest::newRow("pipeline layout 1480x920")
            << QStringLiteral(ZP_SOURCE_DIR "/docs/sessions/bloom-176b-layout.zplan") << QSize(1480, 920);
    }
    void nothing_cut_or_overlapping() {
        QFETCH(QString, session);
        QFETCH(QSize, size);
        MainWindow window(MainWindow::Ephemeral);
        window.document()->reset(session.isEmpty() ? default_scenario()
                                                   : parse_session(read_text_file(session.toStdString()), session.toStdString()));
        window.controls()->setAllAdvancedOpen(true);  // every control's text, not only the job's first ones
        window.resize(size);
        window.setAttribute(Qt::WA_DontShowOnScreen, true);
        window.show();
        QCoreApplication::processEvents();
        window.flushPending();
        QCoreApplication::processEvents();
        QVERIFY(window.menuBar()->actions().constFirst()->text().startsWith(QStringLiteral("文件")));
        QVERIFY(window.card()->plainText().contains(QStringLiteral("推荐")) || window.card()->plainText().contains(QStringLiteral("放")));

        int looked_at = 0;
        const QStringList problems = problemsIn(&window, &looked_at);
        QVERIFY2(looked_at > 40, qPrintable(QString::number(looked_at)));
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

ZP_TEST_MAIN(TestZhLayout)
#include "tst_zh_layout.moc"
