// The window at 1280x720, at whatever QT_SCALE_FACTOR the test runs under (CTest runs it at 1 and
// at 2: a 2560x1440 screen at 2x scaling is 1280x720 of layout): it takes that size, no label,
// button or tab is cut short of the size it asks for, and the widgets a layout places side by
// side do not overlap. The window is saved as window-1280x720@<scale>x.png beside the test, to
// look at.
#include "core/presets/default_scenario.h"
#include "ui/export/screenshot.h"
#include "ui/main_window.h"
#include "ui/plots/time_view.h"

#include "tests/ui/offscreen.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QProcess>
#include <QStyle>
#include <QTabBar>
#include <QTemporaryDir>
#include "test_main.h"

using namespace zp::ui;

namespace {

QString size_against_hint(const QWidget* w) {
    const auto* label = qobject_cast<const QLabel*>(w);
    const auto* button = qobject_cast<const QAbstractButton*>(w);
    return QStringLiteral("%1 '%2' %3x%4 (wants %5x%6)")
        .arg(QString::fromLatin1(w->metaObject()->className()), label    ? label->text()
                                                                : button ? button->text()
                                                                         : w->objectName())
        .arg(w->width())
        .arg(w->height())
        .arg(w->sizeHint().width())
        .arg(w->sizeHint().height());
}

}  // namespace

class TestWindowFits : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void fits_1280x720() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.flushPending();
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();  // the queued replots after a title is refitted
        QCOMPARE(w.size(), QSize(1280, 720));

        QStringList cut;
        for (QWidget* c : w.findChildren<QWidget*>()) {
            if (!c->isVisible()) continue;
            const auto* label = qobject_cast<const QLabel*>(c);
            const bool text = (label && !label->wordWrap() && !label->text().isEmpty()) || qobject_cast<const QAbstractButton*>(c) ||
                              qobject_cast<const QComboBox*>(c);
            if (text && (c->width() < c->sizeHint().width() || c->height() < c->sizeHint().height())) cut << size_against_hint(c);
        }
        for (QTabBar* bar : w.findChildren<QTabBar*>()) {
            if (!bar->isVisible()) continue;
            for (int i = 0; i < bar->count(); ++i) {
                // What QTabBar::tabSizeHint asks for a text tab: the text and the style's margins.
                const int wanted = bar->fontMetrics().horizontalAdvance(bar->tabText(i)) +
                                   bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
                if (bar->tabRect(i).width() < wanted)
                    cut << QStringLiteral("tab '%1' %2 wide (wants %3)").arg(bar->tabText(i)).arg(bar->tabRect(i).width()).arg(wanted);
                if (!bar->rect().contains(bar->tabRect(i))) cut << QStringLiteral("tab '%1' outside its bar").arg(bar->tabText(i));
            }
        }
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));

        QStringList overlapping;
        for (QWidget* parent : w.findChildren<QWidget*>()) {
            if (!parent->isVisible() || !parent->layout()) continue;
            QList<QWidget*> placed;
            for (QWidget* c : parent->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
                if (c->isVisible() && !c->isWindow() && parent->layout()->indexOf(c) >= 0) placed << c;
            for (int i = 0; i < placed.size(); ++i)
                for (int j = i + 1; j < placed.size(); ++j)
                    if (placed[i]->geometry().intersects(placed[j]->geometry()))
                        overlapping << size_against_hint(placed[i]) + QStringLiteral(" overlaps ") + size_against_hint(placed[j]);
        }
        QVERIFY2(overlapping.isEmpty(), qPrintable(overlapping.join(QLatin1Char('\n'))));

        const QImage picture = w.grab().toImage();
        const qreal scale = w.devicePixelRatioF();
        QCOMPARE(picture.size(), QSize(qRound(1280 * scale), qRound(720 * scale)));
        QVERIFY(picture.save(QStringLiteral("window-1280x720@%1x.png").arg(scale)));
    }

    // `zero-planner screenshot`'s renderer at 1280x720 draws at the scale it runs under: 2x gives
    // the 2560x1440 pixels of a 2x screen, not a 1280x720 picture blown up.
    // Switching the side tabs does not move the split beside them: the step-time plot keeps its
    // width whichever page is shown (the Compare page, built when first shown, took 45 px more).
    void side_tabs_keep_the_time_plot_width_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("1280x720") << QSize(1280, 720);
        QTest::newRow("default size") << QSize(1480, 920);
    }
    void side_tabs_keep_the_time_plot_width() {
        QFETCH(QSize, size);
        MainWindow w(MainWindow::Ephemeral);
        w.resize(size);
        w.show();
        w.flushPending();
        QCoreApplication::processEvents();
        QWidget* time = w.timeView();
        const int width = time->width();
        for (int i = 0; i < w.sideTabs()->count(); ++i) {
            w.sideTabs()->setCurrentIndex(i);
            QCoreApplication::processEvents();
            w.flushPending();
            QCoreApplication::processEvents();
            QVERIFY2(
                time->width() == width,
                qPrintable(QStringLiteral("%1: %2 px, %3 with the first").arg(w.sideTabs()->tabText(i)).arg(time->width()).arg(width)));
        }
    }

    void screenshot_at_1280x720() {
        const qreal scale = qApp->devicePixelRatio();
        QString error;
        const QString path = QStringLiteral("screenshot-1280x720@%1x.png").arg(scale);
        QVERIFY2(saveScreenshot(zp::default_scenario(), QStringLiteral("window"), QSize(1280, 720), path, &error), qPrintable(error));
        const QImage picture(path);
        QCOMPARE(picture.size(), QSize(qRound(1280 * scale), qRound(720 * scale)));
        QSet<QRgb> colours;  // a window drawn, not an empty canvas
        for (int x = 0; x < picture.width(); x += 3) colours.insert(picture.pixel(x, picture.height() / 3));
        QVERIFY2(colours.size() > 10, qPrintable(QString::number(colours.size())));
    }

    // The Compare tab with two pinned plans at 1280x720 (docs/sessions/compare-plans.zplan): the
    // figures table gives way and scrolls rather than make the window taller than the screen (a
    // window review: 1280x867 with its fixed height).
    void compare_with_pins_at_1280x720() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("compare.png"));
        QProcess p;
        p.start(QStringLiteral(ZP_APP), {QStringLiteral("screenshot"), QStringLiteral("--out"), path, QStringLiteral("--size"),
                                         QStringLiteral("1280x720"), QStringLiteral("--view"), QStringLiteral("compare"),
                                         QStringLiteral("--session"), QStringLiteral(ZP_SOURCE_DIR "/docs/sessions/compare-plans.zplan")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(path).size(), QSize(1280, 720));
    }

    // The same from the command line: `zero-planner screenshot --size 1280x720 --scale 2`.
    void screenshot_command_at_2x() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("w.png"));
        QProcess p;
        p.start(QStringLiteral(ZP_APP), {QStringLiteral("screenshot"), QStringLiteral("--out"), path, QStringLiteral("--size"),
                                         QStringLiteral("1280x720"), QStringLiteral("--scale"), QStringLiteral("2")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        QCOMPARE(QImage(path).size(), QSize(2560, 1440));
    }
};

ZP_TEST_MAIN(TestWindowFits)
#include "tst_window_fits.moc"
