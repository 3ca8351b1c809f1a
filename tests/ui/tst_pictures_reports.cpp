// Pictures and reports (issue 17, part 2), offscreen: every plot view exports to every picture
// format (PNG at 1x and 2x, SVG, PDF) from the window and its context menu; File > Export
// Report... writes Markdown whose memory table, recommendation and ds_config are the core's, with
// its plots as PNGs beside it, and a one-page PDF whose text (pdftotext) holds the same; the
// tables the window shows copy as GitHub Markdown; a path that cannot be written leaves nothing.
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/deepspeed/config_export.h"
#include "core/memory/memory_slices.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "tests/ui/offscreen.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"
#include "ui/plots/host_view.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/time_view.h"
#include "ui/qcustomplot_include.h"

#include <QClipboard>
#include <QMenu>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include "test_main.h"
#include "test_text.h"

#include <nlohmann/json.hpp>

using namespace zp;
using namespace zp::ui;
using zp::test::q;

namespace {

// The must-show scenario: Llama-2 70B on 16 H100 80GB.
Scenario scenario() {
    Scenario s = default_scenario();
    s.model = model_preset("llama-2-70b").spec;
    s.cluster.use_gpu(gpu_preset("h100-80gb"));
    s = with_gpu_count(s, 16, 8);
    validate(s);
    return s;
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::string gib(double bytes) { return format_fixed(bytes_to_gib(bytes), 2); }

// One compare row's figures, formatted with the core's functions, in the report's column order:
// the tests that use it check wiring (the report shows these figures in this order), not values
// (core.tst_plan_compare and the format tests hold those).
std::vector<std::string> expectedFigures(const Candidate& c) {
    const MemoryBreakdown& m = c.memory;
    std::vector<std::string> figures;
    for (const MemorySlice& slice : memory_slices()) figures.push_back(gib(slice.bytes(m)));
    for (double b : {m.total_bytes(), m.peak_reserved_bytes, m.cpu_bytes_per_node, m.nvme_bytes_per_node}) figures.push_back(gib(b));
    figures.push_back(format_fixed(c.step.seconds, 2));
    figures.push_back(format_count(c.step.tokens_per_second));
    return figures;
}

std::vector<Candidate> compareRows(const Scenario& s) {
    std::vector<Candidate> rows;
    for (const ZeroSetup& z : zero_setups()) rows.push_back(evaluate(with_setup(s, z)));
    return rows;
}

}  // namespace

class TestPicturesReports : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private:
    std::unique_ptr<MainWindow> window_;
    QTemporaryDir dir_;

    // A fresh window for the scenario, laid out offscreen at the screenshot's size.
    void open(const Scenario& s) {
        window_ = std::make_unique<MainWindow>(MainWindow::Ephemeral);
        window_->document()->reset(s);
        window_->resize(1480, 920);
        window_->setAttribute(Qt::WA_DontShowOnScreen, true);
        window_->show();
        QCoreApplication::processEvents();
        window_->flushPending();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        open(scenario());
    }

    void every_view_every_format_data() {
        QTest::addColumn<QString>("view");
        QTest::addColumn<int>("format");
        for (const QString& view :
             {QStringLiteral("memory"), QStringLiteral("scaling"), QStringLiteral("step"), QStringLiteral("host"), QStringLiteral("time")})
            for (PictureFormat f : pictureFormats())
                QTest::addRow("%s %s", qPrintable(view), qPrintable(pictureFormatName(f))) << view << static_cast<int>(f);
    }
    void every_view_every_format() {
        QFETCH(QString, view);
        QFETCH(int, format);
        const auto f = static_cast<PictureFormat>(format);
        QVERIFY(window_->plotViewIds().contains(view));
        const QString path = dir_.filePath(view + pictureFormatSuffix(f));
        QCOMPARE(pictureFormatForPath(path), f);
        QString error;
        QVERIFY2(window_->exportView(view, path, f, &error), qPrintable(error));
        const QByteArray bytes = readAll(path);
        QVERIFY(bytes.size() > 1000);
        switch (f) {
        case PictureFormat::Png:
        case PictureFormat::Png2x: QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n")); break;
        case PictureFormat::Svg:
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("<path") || bytes.contains("<rect") || bytes.contains("<polyline"));
            break;
        case PictureFormat::Pdf: QVERIFY(bytes.startsWith("%PDF")); break;
        }
    }

    // PNG at 2x: the same picture with twice the pixels each way.
    void png_2x_has_twice_the_pixels() {
        for (const QString& view : window_->plotViewIds()) {
            QString error;
            const QString one = dir_.filePath(view + QStringLiteral("-1x.png")), two = dir_.filePath(view + QStringLiteral("-2x.png"));
            QVERIFY2(window_->exportView(view, one, PictureFormat::Png, &error), qPrintable(error));
            QVERIFY2(window_->exportView(view, two, PictureFormat::Png2x, &error), qPrintable(error));
            const QImage a(one), b(two);
            QVERIFY(!a.isNull() && !b.isNull());
            QVERIFY2(a.width() >= 200 && a.height() >= 150, qPrintable(view));
            QCOMPARE(b.size(), a.size() * 2);
        }
    }

    // The picture has the legend: the memory view's 1x PNG is taller than its plot.
    void picture_includes_the_legend() {
        QString error;
        const QString path = dir_.filePath(QStringLiteral("legend.png"));
        QVERIFY2(window_->exportView(QStringLiteral("memory"), path, PictureFormat::Png, &error), qPrintable(error));
        QCustomPlot* plot = window_->memoryView()->plot();
        QCOMPARE(QImage(path).width(), plot->width());
        QVERIFY(QImage(path).height() > plot->height());
    }

    // Bad paths: a one-line reason and no file.
    void unwritable_path_writes_nothing() {
        QString error;
        const QString missing = dir_.filePath(QStringLiteral("no/such/folder/memory.svg"));
        QVERIFY(!window_->exportView(QStringLiteral("memory"), missing, PictureFormat::Svg, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!error.contains(QLatin1Char('\n')));
        QVERIFY(!QFile::exists(missing));
        QVERIFY(!window_->exportView(QStringLiteral("pie"), dir_.filePath(QStringLiteral("pie.png")), PictureFormat::Png, &error));
        QVERIFY(error.contains(QStringLiteral("unknown view 'pie'")));
        const QString report = dir_.filePath(QStringLiteral("no/such/folder/report.md"));
        QVERIFY(!window_->exportReport(report, true, &error));
        QVERIFY(!QFileInfo::exists(QFileInfo(report).absolutePath()));
        // A Markdown report whose last picture cannot be written (a folder holds its name) leaves
        // none of its pictures and no page behind.
        QTemporaryDir partial;
        QVERIFY(QDir(partial.path()).mkdir(QStringLiteral("r-step.png")));
        QVERIFY(!window_->exportReport(partial.filePath(QStringLiteral("r.md")), true, &error));
        QVERIFY2(error.contains(QStringLiteral("r-step.png")), qPrintable(error));
        QCOMPARE(QDir(partial.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden),
                 QStringList{QStringLiteral("r-step.png")});
    }

    // File > Export View...: the plot view last clicked; the one shown in its place when its tab
    // is left; the memory view before any click.
    void export_view_follows_the_last_clicked_plot() {
        open(scenario());
        QCOMPARE(window_->currentPlotView(), QStringLiteral("memory"));
        QTest::mouseClick(window_->scalingView()->plot(), Qt::LeftButton);
        QCOMPARE(window_->currentPlotView(), QStringLiteral("scaling"));
        window_->plotTabs()->setCurrentWidget(window_->hostView());
        QCOMPARE(window_->currentPlotView(), QStringLiteral("host"));
        QTest::mouseClick(window_->timeView()->plot(), Qt::RightButton);
        QCOMPARE(window_->currentPlotView(), QStringLiteral("time"));
        window_->plotTabs()->setCurrentWidget(window_->scalingView());
        QCOMPARE(window_->currentPlotView(), QStringLiteral("time"));  // not in a tab: still shown
    }

    // The right-click menu: every picture format, and on the views with a bar per setup, the
    // setups' table as Markdown (the core's compare figures).
    void context_menu_exports_and_copies_markdown() {
        for (const QString& view : window_->plotViewIds()) {
            std::unique_ptr<QMenu> menu(window_->plotContextMenu(view, window_.get()));
            QStringList texts;
            for (QAction* a : menu->actions())
                if (!a->isSeparator()) texts << a->text();
            for (PictureFormat f : pictureFormats()) QVERIFY(texts.contains(QStringLiteral("Export as %1...").arg(pictureFormatName(f))));
            QAction* copy = menu->findChild<QAction*>(QStringLiteral("actionCopyMarkdown"));
            const bool per_setup = view == QLatin1String("memory") || view == QLatin1String("time") || view == QLatin1String("host");
            QCOMPARE(copy != nullptr, per_setup);
            if (!copy) continue;
            QApplication::clipboard()->clear();
            copy->trigger();
            const QString md = QApplication::clipboard()->text();
            QCOMPARE(md, window_->setupsMarkdown());
            QVERIFY(md.startsWith(QStringLiteral("| setup | parameters |")));
            for (const Candidate& c : compareRows(window_->document()->scenario()))
                QVERIFY2(md.contains(QStringLiteral("| %1 | %2 |").arg(q(setup_label(c.zero)), q(expectedFigures(c).front()))),
                         qPrintable(q(setup_label(c.zero))));
        }
    }

    // The recommendation card's figures as a pipe table, the same text it shows.
    void card_copies_as_markdown() {
        const QString md = window_->card()->markdown();
        const Plan p = recommend(window_->document()->scenario());
        QVERIFY(md.startsWith(QStringLiteral("|  | Recommended: %1 |\n|---|---|\n").arg(q(setup_label(p.best.zero)))));
        QVERIFY(md.contains(QStringLiteral("| Must fit per GPU | %1 of ").arg(q(format_bytes(p.best.memory.peak_required_bytes)))));
        QVERIFY(md.contains(QStringLiteral("| setup | why not |")));
        for (const Rejection& r : p.rejected) QVERIFY(md.contains(QStringLiteral("| %1 | ").arg(q(r.setup))));
    }

    // The Markdown report: the recommended setup, every compare row's figures as the core formats
    // them, the plots beside it, and a ds_config that parses to the core's export.
    void markdown_report() {
        const Scenario s = window_->document()->scenario();
        const QString path = dir_.filePath(QStringLiteral("plan.md"));
        QString error;
        QVERIFY2(window_->exportReport(path, true, &error), qPrintable(error));
        const QString md = QString::fromUtf8(readAll(path));
        const Plan p = recommend(s);
        QVERIFY(p.feasible);
        QVERIFY(md.contains(QStringLiteral("## Recommended: %1\n").arg(q(setup_label(p.best.zero)))));
        for (const std::string& why : p.why) QVERIFY(md.contains(QStringLiteral("- %1\n").arg(q(why))));
        for (const Candidate& c : compareRows(s)) {
            QString row = QStringLiteral("| ") + q(setup_label(c.zero)) + QStringLiteral(" |");
            for (const std::string& figure : expectedFigures(c)) row += QStringLiteral(" ") + q(figure) + QStringLiteral(" |");
            QVERIFY2(md.contains(row + QLatin1Char(' ')), qPrintable(row));
        }
        for (const QString& view : window_->plotViewIds()) {
            const QString picture = QStringLiteral("plan-%1.png").arg(view);
            QVERIFY(md.contains(QStringLiteral("](%1)").arg(picture)));
            QVERIFY(readAll(dir_.filePath(picture)).startsWith("\x89PNG"));
        }
        const QRegularExpressionMatch fenced =
            QRegularExpression(QStringLiteral("```json\n(.*)```\n"), QRegularExpression::DotMatchesEverythingOption).match(md);
        QVERIFY(fenced.hasMatch());
        QCOMPARE(nlohmann::json::parse(fenced.captured(1).toStdString()),
                 nlohmann::json::parse(deepspeed_config_text(with_candidate(s, p.best))));
    }

    // The PDF report: one page whose text holds the recommended setup and the memory table's
    // figures as the core computes them.
    void pdf_report() {
        const Scenario s = window_->document()->scenario();
        const QString path = dir_.filePath(QStringLiteral("plan.pdf"));
        QString error;
        QVERIFY2(window_->exportReport(path, false, &error), qPrintable(error));
        QVERIFY(readAll(path).startsWith("%PDF"));
        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty()) QSKIP("pdftotext (poppler-utils) is not installed: the PDF's text is not checked");
        QProcess run;
        run.start(pdftotext, {QStringLiteral("-layout"), path, QStringLiteral("-")});
        QVERIFY(run.waitForFinished(60000));
        QCOMPARE(run.exitCode(), 0);
        const QString text = QString::fromUtf8(run.readAllStandardOutput());
        QCOMPARE(text.count(QLatin1Char('\f')), 1);  // one page
        const Plan p = recommend(s);
        QVERIFY(text.contains(QStringLiteral("Recommended: %1").arg(q(setup_label(p.best.zero)))));
        for (const Candidate& c : compareRows(s)) {
            // The memory table's row: the label, then the figures (the reasons' rows go on with words).
            const QRegularExpression line(QStringLiteral("^%1\\s+(\\d.*)$").arg(QRegularExpression::escape(q(setup_label(c.zero)))),
                                          QRegularExpression::MultilineOption);
            const QRegularExpressionMatch m = line.match(text);
            QVERIFY2(m.hasMatch(), qPrintable(q(setup_label(c.zero))));
            const QStringList figures = m.captured(1).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
            const std::vector<std::string> expected = expectedFigures(c);
            QVERIFY(figures.size() >= static_cast<qsizetype>(expected.size()));
            for (std::size_t i = 0; i < expected.size(); ++i) QCOMPARE(figures[static_cast<qsizetype>(i)], q(expected[i]));
        }
    }
};

ZP_TEST_MAIN(TestPicturesReports)
#include "tst_pictures_reports.moc"
