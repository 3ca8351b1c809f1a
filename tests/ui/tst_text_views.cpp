// The small widgets the window uses instead of Qt's heavier defaults, checked on their own:
// paragraph-by-paragraph text replacement ends with exactly the new text, and the legend
// strip lays its entries out without overlap inside its width, wrapping when narrow, keeping the
// room of an entry that comes and goes, and wrapped
// text measures and draws as a word-wrapped QLabel while asking for a new layout only when its
// height changes.
#include "ui/chart/legend_strip.h"
#include "ui/widgets/plain_text_update.h"
#include "ui/widgets/wrapped_text.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include "test_main.h"

using namespace zp::ui;

namespace {
// Counts the layout requests a widget receives: one per time its layout is asked to run again.
struct LayoutRequests : QObject {
    int count = 0;
    bool eventFilter(QObject*, QEvent* e) override {
        if (e->type() == QEvent::LayoutRequest) ++count;
        return false;
    }
};
}  // namespace

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

    // clang-format off
    void legend_keeps_the_room_of_a_held_entry_data() {
        QTest::addColumn<QString>("width");  // of the strip
        QTest::newRow("one row, room to spare") << "wide";
        QTest::newRow("the held entry needs a row of its own") << "exactly the drawn entries";
        QTest::newRow("several rows") << "narrow";
    }
    // clang-format on
    // The axis-cut entry comes and goes as a slider moves: held, it keeps its room, so the strip's
    // height and every drawn entry's place are the same whether it is drawn or not, nothing is
    // laid out again when it appears, and an exported picture leaves its room out.
    void legend_keeps_the_room_of_a_held_entry() {
        QFETCH(QString, width);
        const QList<LegendStrip::Entry> drawn{{QStringLiteral("Parameters"), Qt::blue},
                                              {QStringLiteral("Gradients"), Qt::red},
                                              {QStringLiteral("Optimizer states"), Qt::green},
                                              {QStringLiteral("Peak reserved"), Qt::black, LegendStrip::Swatch::Outline}};
        const QList<LegendStrip::Entry> cut{{QStringLiteral("Axis cut at 4x GPU memory"), Qt::black, LegendStrip::Swatch::Break}};
        LegendStrip alone;
        alone.setEntries(drawn);
        QWidget parent;
        auto* layout = new QVBoxLayout(&parent);
        auto* held = new LegendStrip;
        held->setEntries(drawn, cut);
        layout->addWidget(held);
        layout->addStretch();
        LegendStrip shown;
        shown.setEntries(drawn + cut);
        const int w = width == QLatin1String("wide")     ? shown.sizeHint().width() + 100
                      : width == QLatin1String("narrow") ? shown.minimumSizeHint().width()
                                                         : alone.sizeHint().width();
        if (width == QLatin1String("exactly the drawn entries"))
            QVERIFY(shown.heightForWidth(w) > alone.heightForWidth(w));  // the case that made the plot jump

        QCOMPARE(held->heightForWidth(w), shown.heightForWidth(w));
        QCOMPARE(held->heightForWidth(w, LegendStrip::Room::DrawnOnly), alone.heightForWidth(w));
        QCOMPARE(held->entries().size(), drawn.size());
        const QMargins margins = layout->contentsMargins();
        parent.resize(w + margins.left() + margins.right(), held->heightForWidth(w) + 200);
        parent.show();
        QVERIFY(QTest::qWaitForWindowExposed(&parent));
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QCOMPARE(held->width(), w);
        shown.resize(w, shown.heightForWidth(w));
        QCOMPARE(held->entryRects(), shown.entryRects().mid(0, drawn.size()));

        // Held: its room is background. Drawn: something is there.
        const auto inked = [](LegendStrip& strip, const QRect& r) {
            const QImage image = strip.grab().toImage();
            const QColor background = image.pixelColor(0, 0);
            for (int y = r.top(); y <= r.bottom(); ++y)
                for (int x = r.left(); x <= r.right(); ++x)
                    if (image.pixelColor(x, y) != background) return true;
            return false;
        };
        const QRect room = shown.entryRects().back();
        QVERIFY(!inked(*held, room));
        QVERIFY(inked(shown, room));

        LayoutRequests requests;
        parent.installEventFilter(&requests);
        const int height = held->height();
        held->setEntries(drawn + cut);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QCOMPARE(requests.count, 0);
        QCOMPARE(held->height(), height);
        QCOMPARE(held->entries().size(), drawn.size() + 1);
        QVERIFY(inked(*held, room));
        held->setEntries(drawn, cut);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QCOMPARE(requests.count, 0);
        QVERIFY(!inked(*held, room));
        // Another entry drawn is another layout.
        held->setEntries(drawn + drawn, cut);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QVERIFY(requests.count > 0);
    }

    // clang-format off
    void wrapped_text_measures_and_draws_as_a_label_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("one line") << QStringLiteral("None: data parallel over 8 GPUs");
        QTest::newRow("the layout line") << QStringLiteral("Chosen: tensor 1 x pipeline 24 x data 16 (16 data-parallel groups of 24 GPUs)");
        QTest::newRow("the model line") << QStringLiteral("6,738,415,616 parameters, 32 layers, hidden 4096 (architecture synthesized from the size)");
        QTest::newRow("one long word") << QStringLiteral("pipeline_model_parallel_size_does_not_divide_the_layers");
        QTest::newRow("Chinese") << QStringLiteral("\u5df2\u9009\uff1a\u5f20\u91cf 1 x \u6d41\u6c34\u7ebf 24 x \u6570\u636e 16");
        QTest::newRow("empty") << QString();
    }
    // clang-format on
    // WrappedText stands in for a word-wrapped QLabel in the control panel (ui/widgets/wrapped_text.h):
    // the same sizes for the layouts, the same pixels on screen.
    void wrapped_text_measures_and_draws_as_a_label() {
        QFETCH(QString, text);
        QLabel label(text);
        label.setWordWrap(true);
        WrappedText wrapped;
        wrapped.setText(text);
        QCOMPARE(wrapped.sizeHint(), label.sizeHint());
        QCOMPARE(wrapped.minimumSizeHint(), label.minimumSizeHint());
        // An empty QLabel has no height for a width and is laid out at its hint's: one line.
        const bool empty = text.isEmpty();
        QCOMPARE(wrapped.sizePolicy().horizontalPolicy(), label.sizePolicy().horizontalPolicy());
        QCOMPARE(wrapped.sizePolicy().verticalPolicy(), label.sizePolicy().verticalPolicy());
        QCOMPARE(wrapped.sizePolicy().controlType(), label.sizePolicy().controlType());
        QVERIFY(wrapped.hasHeightForWidth());
        QCOMPARE(label.hasHeightForWidth(), !empty);
        for (const int width : {60, 120, 336, 1000}) {
            QCOMPARE(wrapped.heightForWidth(width), empty ? label.sizeHint().height() : label.heightForWidth(width));
            label.resize(width, wrapped.heightForWidth(width) + 6);  // some room: the text is centred vertically
            wrapped.resize(label.size());
            QCOMPARE(wrapped.grab().toImage(), label.grab().toImage());
        }
    }

    // A QLabel's setText lays its parents out again every time; WrappedText only when the text
    // takes a new height at its width, and once on the next resize after a change it let pass (its
    // layout's cached heights for other widths are stale then).
    void wrapped_text_lays_out_again_only_for_a_new_height() {
        QWidget parent;
        auto* layout = new QVBoxLayout(&parent);
        auto* wrapped = new WrappedText;
        wrapped->setText(QStringLiteral("Chosen: none, data parallel over 8 GPUs"));
        layout->addWidget(wrapped);
        layout->addStretch();
        parent.resize(300, 200);
        parent.show();
        QVERIFY(QTest::qWaitForWindowExposed(&parent));
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        LayoutRequests requests;
        parent.installEventFilter(&requests);
        const int one_line = wrapped->height();

        // A text of the same height at this width, but of another at some narrower one: no layout now.
        const QString same_height = QStringLiteral("Chosen: none, data parallel over 64 GPUs");
        const auto height_of = [](const QString& text, int width) {
            WrappedText probe;
            probe.setText(text);
            return probe.heightForWidth(width);
        };
        QCOMPARE(height_of(same_height, wrapped->width()), one_line);
        int narrow = wrapped->width();
        while (narrow > 20 && height_of(same_height, narrow) == height_of(wrapped->text(), narrow)) --narrow;
        QVERIFY(narrow > 20);
        // The layout has asked the old text's height at both widths (and cached both).
        const QMargins margins = layout->contentsMargins();
        const int wide = parent.width();
        parent.resize(narrow + margins.left() + margins.right(), 200);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        parent.resize(wide, 200);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        requests.count = 0;
        wrapped->setText(same_height);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QCOMPARE(requests.count, 0);
        QCOMPARE(wrapped->text(), same_height);
        QCOMPARE(wrapped->accessibleName(), same_height);

        // Narrower: the first resize after that change brings the layout the text's height there.
        parent.resize(narrow + margins.left() + margins.right(), 200);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QCOMPARE(wrapped->width(), narrow);
        QCOMPARE(wrapped->height(), height_of(same_height, narrow));

        // A text of another height lays the parent out again, and the widget takes that height.
        parent.resize(300, 200);
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        requests.count = 0;
        wrapped->setText(QStringLiteral("A text long enough to take more than one line at three hundred pixels, and so a new height"));
        for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
        QVERIFY(requests.count > 0);
        QCOMPARE(wrapped->height(), wrapped->heightForWidth(wrapped->width()));
        QVERIFY(wrapped->height() > one_line);
    }
};

ZP_TEST_MAIN(TestTextViews)
#include "tst_text_views.moc"
