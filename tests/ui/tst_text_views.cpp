// The small widgets the window uses instead of Qt's heavier defaults, checked on their own:
// paragraph-by-paragraph text replacement ends with exactly the new text, and the legend
// strip lays its entries out without overlap inside its width, wrapping when narrow.
#include "ui/chart/legend_strip.h"
#include "ui/widgets/plain_text_update.h"

#include <QPlainTextEdit>
#include "test_main.h"

using namespace zp::ui;

class TestTextViews : public QObject {
    Q_OBJECT
private slots:
    // clang-format off
    void replace_plain_text_data() {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::newRow("empty to text") << "" << "one\ntwo";
        QTest::newRow("text to empty") << "one\ntwo" << "";
        QTest::newRow("same text") << "a\nb\nc" << "a\nb\nc";
        QTest::newRow("one paragraph changes") << "a\nb\nc" << "a\nB!\nc";
        QTest::newRow("every paragraph changes") << "24,372 tokens/s\n20,943" << "3,104 tokens/s\n2,877";
        QTest::newRow("more paragraphs") << "a\nb" << "a\nb\nc\nd";
        QTest::newRow("fewer paragraphs") << "a\nb\nc\nd" << "a\nx";
        QTest::newRow("down to one") << "a\nb\nc" << "z";
        QTest::newRow("empty paragraphs") << "a\n\nb" << "\n\n\nc\n";
        QTest::newRow("trailing newline") << "a\nb\n" << "a\nb";
        QTest::newRow("non-ASCII") << "\u2022 ZeRO-3\n\u2717 GPU" << "\u2022 ZeRO-2\n\u2605 best\n\u2717 NVMe";
    }
    // clang-format on
    void replace_plain_text() {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QPlainTextEdit edit;
        edit.setReadOnly(true);
        replacePlainText(&edit, before);
        QCOMPARE(edit.toPlainText(), before);
        replacePlainText(&edit, after);
        QCOMPARE(edit.toPlainText(), after);
        // Nothing for Undo to bring back: the program wrote this text, not the user.
        QVERIFY(!edit.document()->isUndoAvailable());
    }

    // clang-format off
    void legend_entries_fit_and_do_not_overlap_data() {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("wraps");
        QTest::newRow("wide: one row") << 900 << false;
        QTest::newRow("narrow: several rows") << 260 << true;
        QTest::newRow("narrower than one entry") << 40 << true;
    }
    // clang-format on
    void legend_entries_fit_and_do_not_overlap() {
        QFETCH(int, width);
        QFETCH(bool, wraps);
        LegendStrip strip;
        strip.setEntries({{QStringLiteral("Parameters"), Qt::blue},
                          {QStringLiteral("Gradients"), Qt::red},
                          {QStringLiteral("Optimizer states"), Qt::green},
                          {QStringLiteral("Activations"), Qt::cyan},
                          {QStringLiteral("Buffers"), Qt::darkGreen},
                          {QStringLiteral("Overhead"), Qt::darkYellow, LegendStrip::Swatch::Line}});
        const int one_row = strip.heightForWidth(100000);
        strip.resize(width, strip.heightForWidth(width));
        QCOMPARE(strip.heightForWidth(width) > one_row, wraps);
        QVERIFY(strip.minimumSizeHint().width() <= strip.sizeHint().width());
        // Painting at this size must not crash and must draw something besides the background.
        const QImage image = strip.grab().toImage();
        QVERIFY(!image.isNull());
        const QColor background = image.pixelColor(0, 0);
        bool drawn = false;
        for (int y = 0; y < image.height() && !drawn; ++y)
            for (int x = 0; x < image.width() && !drawn; ++x) drawn = image.pixelColor(x, y) != background;
        QVERIFY(drawn);
    }
};

ZP_TEST_MAIN(TestTextViews)
#include "tst_text_views.moc"
