// The tutorials' pictures: every image the docs reference exists and is listed in
// docs/screenshots.txt, and each regenerates from its session to within a small pixel
// tolerance of the committed file (same offscreen platform, pinned font and DPI).
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/report/plan_pins.h"
#include "tests/ui/offscreen.h"
#include "ui/export/screenshot.h"
#include "ui/i18n/translations.h"

#include <QApplication>
#include <QDirIterator>
#include <QRegularExpression>
#include "test_main.h"

using namespace zp;

namespace {
const QString kDocs = QStringLiteral(ZP_SOURCE_DIR "/docs");

struct Shot {
    QString image, session, view;
    QSize size;
    QString log;  // the run log the calibrate view shows (an optional fifth field)
};

QList<Shot> manifest() {
    QList<Shot> shots;
    const QString text = QString::fromStdString(read_text_file((kDocs + QStringLiteral("/screenshots.txt")).toStdString()));
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line.trimmed().isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const QStringList f = line.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
        const QStringList wh = f.value(3).split(QLatin1Char('x'));
        shots.append({f.value(0), f.value(1), f.value(2), QSize(wh.value(0).toInt(), wh.value(1).toInt()), f.value(4)});
    }
    return shots;
}
}  // namespace

class TestDocs : public QObject {
    Q_OBJECT
public:
    static void initMain() {
        zp::test::use_offscreen_platform();
        qputenv("QT_SCALE_FACTOR", "1");
        qputenv("QT_ENABLE_HIGHDPI_SCALING", "0");
    }

private slots:
    void initTestCase() { ui::pinAppearance(*qApp); }

    void every_referenced_image_exists_and_has_a_session() {
        QStringList listed;
        for (const Shot& s : manifest()) listed << QDir::cleanPath(kDocs + QLatin1Char('/') + s.image);
        const QRegularExpression image_ref(QStringLiteral("!\\[[^\\]]*\\]\\(([^)]+\\.png)\\)"));
        QStringList files{QStringLiteral(ZP_SOURCE_DIR "/README.md")};
        QDirIterator it(kDocs, {QStringLiteral("*.md")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) files << it.next();
        int references = 0;
        for (const QString& md : files) {
            const QString text = QString::fromStdString(read_text_file(md.toStdString()));
            for (auto m = image_ref.globalMatch(text); m.hasNext();) {
                const QString path = QDir::cleanPath(QFileInfo(md).absolutePath() + QLatin1Char('/') + m.next().captured(1));
                QVERIFY2(QFileInfo::exists(path), qPrintable(md + QStringLiteral(" references a missing image: ") + path));
                QVERIFY2(listed.contains(path),
                         qPrintable(path + QStringLiteral(" is not rendered from a session in docs/screenshots.txt")));
                ++references;
            }
        }
        QVERIFY(references >= 9);
    }

    void regenerates_from_its_session_data() {
        QTest::addColumn<int>("index");
        const QList<Shot> shots = manifest();
        for (int i = 0; i < shots.size(); ++i) QTest::newRow(qPrintable(shots[i].image)) << i;
    }
    void regenerates_from_its_session() {
        QFETCH(int, index);
        const Shot shot = manifest()[index];
        const SessionFile session =
            parse_session_file(read_text_file((kDocs + QLatin1Char('/') + shot.session).toStdString()), shot.session.toStdString());
        const Scenario& s = session.scenario;
        QString error;
        QString log_text;
        if (!shot.log.isEmpty()) log_text = QString::fromStdString(read_text_file((kDocs + QLatin1Char('/') + shot.log).toStdString()));
        // NAME-zh_CN.png is rendered in Simplified Chinese (docs/render_screenshots.cmake).
        const bool chinese = shot.image.endsWith(QLatin1String("-zh_CN.png"));
        if (chinese) QVERIFY(ui::applyLanguage(QLocale(QStringLiteral("zh_CN"))));
        const QImage fresh = ui::renderView(s, shot.view, shot.size, &error, log_text, QFileInfo(shot.log).fileName(), session.pins)
                                 .convertToFormat(QImage::Format_RGB32);
        if (chinese) ui::applyLanguage(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY2(!fresh.isNull(), qPrintable(error));
        const QImage committed = QImage(kDocs + QLatin1Char('/') + shot.image).convertToFormat(QImage::Format_RGB32);
        QVERIFY2(!committed.isNull(), qPrintable(shot.image));
        QCOMPARE(fresh.size(), committed.size());
        // Tolerance: a pixel differs when a channel moves by more than 24; at most 0.5% may differ.
        qint64 differing = 0;
        for (int y = 0; y < fresh.height(); ++y) {
            const QRgb* a = reinterpret_cast<const QRgb*>(fresh.constScanLine(y));
            const QRgb* b = reinterpret_cast<const QRgb*>(committed.constScanLine(y));
            for (int x = 0; x < fresh.width(); ++x)
                if (std::abs(qRed(a[x]) - qRed(b[x])) > 24 || std::abs(qGreen(a[x]) - qGreen(b[x])) > 24 ||
                    std::abs(qBlue(a[x]) - qBlue(b[x])) > 24)
                    ++differing;
        }
        const double fraction = static_cast<double>(differing) / (fresh.width() * fresh.height());
        QVERIFY2(fraction <= 0.005,
                 qPrintable(QStringLiteral("%1: %2% of pixels differ; run the docs-screenshots target if the change is intended")
                                .arg(shot.image)
                                .arg(fraction * 100, 0, 'f', 2)));
    }
};

ZP_TEST_MAIN(TestDocs)
#include "tst_docs.moc"
