// Numbers as the window and the CLI print them: one row per case, the exact text expected.
#include "core/io/format.h"

#include <QTest>

#include <cmath>
#include <limits>

class TestFormat : public QObject {
    Q_OBJECT
private slots:
    void compact_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("fraction") << 0.4213 << "0.421";
        QTest::newRow("below a thousand") << 999.0 << "999";
        QTest::newRow("rounds up into k") << 999.95 << "1k";
        QTest::newRow("tokens/s of Llama-2 7B on 8 x A100") << 24372.0 << "24.4k";
        QTest::newRow("three digits of k") << 243720.0 << "244k";
        QTest::newRow("millions") << 1.5e6 << "1.5M";
        QTest::newRow("rounds up into M") << 999'999.0 << "1M";
        QTest::newRow("billions") << 2.5e9 << "2.5G";
        QTest::newRow("beyond T stays T") << 4.2e15 << "4200T";
        QTest::newRow("negative") << -24372.0 << "-24.4k";
        QTest::newRow("not a number") << std::nan("") << "n/a";
        QTest::newRow("infinite") << std::numeric_limits<double>::infinity() << "n/a";
    }
    void compact() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(zp::format_compact(value)), text);
    }

    void count_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("small") << 12.0 << "12";
        QTest::newRow("thousands") << 24372.0 << "24,372";
        QTest::newRow("Llama-2 7B parameters") << 6738415616.0 << "6,738,415,616";
        QTest::newRow("negative") << -1234.0 << "-1,234";
    }
    void count() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(zp::format_count(value)), text);
    }

    void seconds_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("milliseconds") << 0.045 << "45 ms";
        QTest::newRow("seconds") << 10.7631 << "10.76 s";
        QTest::newRow("minutes") << 600.0 << "10.0 min";
        QTest::newRow("hours") << 7200.0 << "2.0 h";
        QTest::newRow("days") << 3.0 * 86400 << "3.0 days";
    }
    void seconds() {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(zp::format_seconds(seconds)), text);
    }
};

QTEST_APPLESS_MAIN(TestFormat)
#include "tst_format.moc"
