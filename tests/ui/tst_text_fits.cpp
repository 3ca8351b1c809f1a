// Issue 39, item 4: no text of the recommendation card, the plots' legends or the plots' labels is
// cut or drawn over another, at 1280x720, 1366x768 and 1920x1080, in English and in Chinese, at
// the scale the test runs under (CTest runs it at QT_SCALE_FACTOR 1 and 2: rows "<size> <lang>
// scale<N>"). What it checks, on the real window, for the default plan and for Llama-2 70B on
// 8 A100s (a cut axis, the longest step row):
//   - the card: every label and TextLine whose text is wider than its widget (a TextLine elides
//     it; a label without word wrap clips it), every wrapped label taller than its widget;
//   - every shown plot: no two of its text items (PlotLabel: bar labels, notes, line labels;
//     axis and tick labels are left out) share pixels, and none reaches outside the plot;
//   - every shown legend strip has the height its entries need at its width, each entry inside it.
// What it caught before the fixes it came with: the card's step row elided ("... + o...") and
// the "Axis cut at 4x GPU memory" note over the DDP and ZeRO-1 labels, at 1280x720, 70B.
#include "tests/test_util.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/document/planner_document.h"
#include "ui/export/screenshot.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"
#include "ui/qcustomplot_include.h"
#include "ui/widgets/text_line.h"

#include <QFontDatabase>
#include <QLabel>
#include "test_main.h"

using namespace zp;
using namespace zp::ui;

namespace {

// The card's text that does not fit its widget.
QStringList cutInCard(RecommendationCard* card) {
    QStringList problems;
    for (TextLine* line : card->findChildren<TextLine*>()) {
        if (!line->isVisibleTo(card) || line->text().isEmpty()) continue;
        const int wide = line->fontMetrics().horizontalAdvance(line->text());
        if (wide > line->width()) problems << QStringLiteral("card: '%1' is %2 px in %3 px").arg(line->text()).arg(wide).arg(line->width());
    }
    for (QLabel* label : card->findChildren<QLabel*>()) {
        if (!label->isVisibleTo(card) || label->text().isEmpty()) continue;
        const QRect room = label->contentsRect();
        if (label->wordWrap()) {
            if (label->heightForWidth(label->width()) > label->height())
                problems << QStringLiteral("card: '%1' needs %2 px of height, has %3")
                                .arg(label->text())
                                .arg(label->heightForWidth(label->width()))
                                .arg(label->height());
            continue;
        }
        const int wide = label->fontMetrics().horizontalAdvance(label->text());
        if (wide > room.width()) problems << QStringLiteral("card: '%1' is %2 px in %3 px").arg(label->text()).arg(wide).arg(room.width());
    }
    return problems;
}

QString where(const QCustomPlot* plot) {
    const QWidget* view = plot->parentWidget();
    return QString::fromLatin1(view ? view->metaObject()->className() : "plot");
}

// Text items of every shown plot that overlap one another or leave the plot.
QStringList overlapsInPlots(QWidget* window) {
    QStringList problems;
    for (QCustomPlot* plot : window->findChildren<QCustomPlot*>()) {
        if (!plot->isVisible()) continue;
        plot->replot();  // the labels' boxes as drawn now
        QList<PlotLabel*> labels;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* l = qobject_cast<PlotLabel*>(plot->item(i)); l && l->visible() && !l->text().isEmpty()) labels << l;
        const QRectF inside = plot->rect();
        for (int i = 0; i < labels.size(); ++i) {
            const QRectF a = labels[i]->drawnBox();
            if (!inside.contains(a))
                problems << QStringLiteral("%1: '%2' outside the plot").arg(where(plot), labels[i]->text().simplified());
            for (int j = i + 1; j < labels.size(); ++j)
                if (a.intersects(labels[j]->drawnBox()))
                    problems << QStringLiteral("%1: '%2' over '%3'")
                                    .arg(where(plot), labels[i]->text().simplified(), labels[j]->text().simplified());
        }
    }
    for (LegendStrip* legend : window->findChildren<LegendStrip*>()) {
        if (!legend->isVisible()) continue;
        if (legend->heightForWidth(legend->width()) > legend->height())
            problems << QStringLiteral("legend '%1...' needs %2 px of height, has %3")
                            .arg(legend->entries().value(0).name)
                            .arg(legend->heightForWidth(legend->width()))
                            .arg(legend->height());
        const QList<QRect> rects = legend->entryRects();
        for (int i = 0; i < rects.size(); ++i)
            if (!legend->rect().contains(rects[i]))
                problems << QStringLiteral("legend entry '%1' leaves its strip").arg(legend->entries().value(i).name);
    }
    return problems;
}

}  // namespace

class TestTextFits : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        pinAppearance(*qApp);
        QVERIFY2(QFontDatabase::families(QFontDatabase::SimplifiedChinese).size() > 0,
                 "no Simplified Chinese font: install fonts-wqy-microhei (scripts/quickstart does)");
    }
    void cleanupTestCase() { applyLanguage(QLocale(QLocale::English, QLocale::UnitedStates)); }

    void nothing_cut_or_drawn_over_data() {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("language");
        const int scale = qRound(qApp->devicePixelRatio());
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080)})
            for (const char* language : {"en", "zh_CN"})
                QTest::addRow("%dx%d %s scale%d", size.width(), size.height(), language, scale) << size << QString::fromLatin1(language);
    }
    void nothing_cut_or_drawn_over() {
        QFETCH(QSize, size);
        QFETCH(QString, language);
        QVERIFY(applyLanguage(language == QLatin1String("en") ? QLocale(QLocale::English, QLocale::UnitedStates) : QLocale(language)));
        MainWindow window(MainWindow::Ephemeral);
        window.resize(size);
        window.setAttribute(Qt::WA_DontShowOnScreen, true);
        window.show();
        const Scenario big = zp::test::preset_scenario("llama-2-70b", "a100-80gb", 8);
        // Ulysses on auto: the Batch row's longest text ("... x 2 data-parallel groups of 4 sequence-parallel GPUs").
        Scenario ulysses = zp::test::preset_scenario("llama-3-8b", "a100-80gb", 8);
        ulysses.training.seq_len = 32768;
        ulysses.training.global_batch = 64;
        ulysses.parallel.auto_ulysses = true;
        QStringList problems;
        for (const auto& [name, scenario] : {std::pair{"default plan", default_plan_scenario()}, std::pair{"Llama-2 70B on 8 A100", big},
                                             std::pair{"Llama-3 8B at 32k, Ulysses", ulysses}}) {
            window.document()->reset(scenario);
            QCoreApplication::processEvents();
            window.flushPending();
            QCoreApplication::processEvents();
            for (const QString& p : cutInCard(window.card()) + overlapsInPlots(&window))
                problems << QString::fromLatin1(name) + QStringLiteral(": ") + p;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }
};

ZP_TEST_MAIN(TestTextFits)
#include "tst_text_fits.moc"
