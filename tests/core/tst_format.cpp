// Numbers as the window and the CLI print them (core/base/format.cpp): one row per case, the exact
// text expected. Rows whose `knownBug` column is set are expected failures (QEXPECT_FAIL): the
// text is what the header promises, the reason says what is printed today. When the bug is fixed
// the row turns into an unexpected pass and the marker must go.
#include "core/base/format.h"
#include "core/base/units.h"

#include "test_main.h"

#include <cmath>
#include <limits>

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

class TestFormat : public QObject {
    Q_OBJECT
private slots:
    // clang-format off
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
        QTest::newRow("not a number") << kNaN << "n/a";
        QTest::newRow("infinite") << kInf << "n/a";
    }
    // clang-format on
    void compact() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(zp::format_compact(value)), text);
    }

    // clang-format off
    void count_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("knownBug");
        QTest::newRow("zero") << 0.0 << "0" << "";
        QTest::newRow("small") << 12.0 << "12" << "";
        QTest::newRow("three digits, no separator") << 999.0 << "999" << "";
        QTest::newRow("rounds into a separator") << 999.5 << "1,000" << "";
        QTest::newRow("thousands") << 24372.0 << "24,372" << "";
        QTest::newRow("Llama-2 7B parameters") << 6738415616.0 << "6,738,415,616" << "";
        QTest::newRow("negative") << -1234.0 << "-1,234" << "";
        QTest::newRow("a negative rounding to zero") << -0.4 << "0" << "";
        QTest::newRow("not a number") << kNaN << "n/a" << "";
    }
    // clang-format on
    void count() {
        QFETCH(double, value);
        QFETCH(QString, text);
        QFETCH(QString, knownBug);
        if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable(knownBug), Continue);
        QCOMPARE(QString::fromStdString(zp::format_count(value)), text);
    }

    // clang-format off
    void bytes_data() {
        QTest::addColumn<double>("bytes");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("knownBug");
        QTest::newRow("zero") << 0.0 << "0.0 GiB" << "";
        QTest::newRow("one byte rounds to 0.0") << 1.0 << "0.0 GiB" << "";
        QTest::newRow("exactly 1 GiB") << zp::kBytesPerGiB << "1.0 GiB" << "";
        QTest::newRow("Llama-2 7B's 2P, 13,476,831,232 bytes = 12.55 GiB") << 13476831232.0 << "12.6 GiB" << "";
        QTest::newRow("ZeRO-1's 96.2 GiB") << 96.2 * zp::kBytesPerGiB << "96.2 GiB" << "";
        QTest::newRow("80 GiB less 5% headroom") << 76.0 * zp::kBytesPerGiB << "76.0 GiB" << "";
        QTest::newRow("1023.9 GiB stays GiB") << 1023.9 * zp::kBytesPerGiB << "1023.9 GiB" << "";
        QTest::newRow("1023.96 GiB rounds to 1.0 TiB")
            << 1023.96 * zp::kBytesPerGiB << "1.0 TiB"
            << "prints \"1024.0 GiB\": the unit is chosen before rounding, so 1023.95-1024 GiB print as 1024.0 GiB";
        QTest::newRow("exactly 1 TiB") << zp::kBytesPerTiB << "1.0 TiB" << "";
        QTest::newRow("Llama-2 70B full offload, P x 18 x 1.5 = 1,862,369,501,184 bytes") << 1862369501184.0 << "1.7 TiB" << "";
        QTest::newRow("1024 TiB stays TiB") << 1024.0 * zp::kBytesPerTiB << "1024.0 TiB" << "";
        QTest::newRow("negative: a shortfall of 2 GiB") << -2.0 * zp::kBytesPerGiB << "-2.0 GiB" << "";
        QTest::newRow("negative TiB") << -1.5 * zp::kBytesPerTiB << "-1.5 TiB" << "";
        QTest::newRow("negative zero") << -0.0 << "0.0 GiB" << "";
        QTest::newRow("a tiny negative rounds to zero") << -1.0 << "0.0 GiB" << "";
        QTest::newRow("not a number") << kNaN << "n/a" << "";
        QTest::newRow("infinite") << kInf << "n/a" << "";
    }
    // clang-format on
    void bytes() {
        QFETCH(double, bytes);
        QFETCH(QString, text);
        QFETCH(QString, knownBug);
        if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable(knownBug), Continue);
        QCOMPARE(QString::fromStdString(zp::format_bytes(bytes)), text);
    }

    // printf's "%.*f": rounding to nearest on the binary value, ties to even.
    // clang-format off
    void fixed_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("knownBug");
        QTest::newRow("no decimals") << 42.0 << 0 << "42" << "";
        QTest::newRow("two decimals") << 10.7631 << 2 << "10.76" << "";
        QTest::newRow("pads with zeros") << 1.5 << 3 << "1.500" << "";
        QTest::newRow("rounds up") << 0.96 << 1 << "1.0" << "";
        QTest::newRow("2.5 is a tie: to even") << 2.5 << 0 << "2" << "";
        QTest::newRow("2.675 is 2.67499999... in binary") << 2.675 << 2 << "2.67" << "";
        QTest::newRow("large") << 1e20 << 0 << "100000000000000000000" << "";
        QTest::newRow("negative") << -3.14159 << 2 << "-3.14" << "";
        QTest::newRow("negative zero") << -0.0 << 1 << "0.0" << "";
        QTest::newRow("a small negative rounding to zero") << -0.04 << 1 << "0.0" << "";
        QTest::newRow("not a number") << kNaN << 1 << "n/a" << "";
        QTest::newRow("infinite") << kInf << 2 << "n/a" << "";
        QTest::newRow("minus infinity") << -kInf << 0 << "n/a" << "";
    }
    // clang-format on
    void fixed() {
        QFETCH(double, value);
        QFETCH(int, decimals);
        QFETCH(QString, text);
        QFETCH(QString, knownBug);
        if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable(knownBug), Continue);
        QCOMPARE(QString::fromStdString(zp::format_fixed(value, decimals)), text);
    }

    // clang-format off
    void seconds_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("knownBug");
        QTest::newRow("milliseconds") << 0.045 << "45 ms" << "";
        QTest::newRow("seconds") << 10.7631 << "10.76 s" << "";
        QTest::newRow("minutes") << 600.0 << "10.0 min" << "";
        QTest::newRow("hours") << 7200.0 << "2.0 h" << "";
        QTest::newRow("days") << 3.0 * 86400 << "3.0 days" << "";
        QTest::newRow("999.6 ms rounds to a second")
            << 0.9996 << "1.00 s" << "prints \"1000 ms\": the unit is chosen before rounding (as in format_bytes)";
        QTest::newRow("not a number") << kNaN << "n/a" << "";
    }
    // clang-format on
    void seconds() {
        QFETCH(double, seconds);
        QFETCH(QString, text);
        QFETCH(QString, knownBug);
        if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable(knownBug), Continue);
        QCOMPARE(QString::fromStdString(zp::format_seconds(seconds)), text);
    }

    // A duration in a given unit, as the step-time chart's captions beside an axis of that unit.
    // clang-format off
    void seconds_in_unit_data() {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<int>("unit");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("text");
        QTest::newRow("112.65 s in minutes, the unit's own decimals") << 112.65 << int(zp::DurationUnit::Minutes) << -1 << "1.9 min";
        QTest::newRow("112.65 s in minutes, two decimals") << 112.65 << int(zp::DurationUnit::Minutes) << 2 << "1.88 min";
        QTest::newRow("100.1 min in hours, two decimals") << 6006.0 << int(zp::DurationUnit::Hours) << 2 << "1.67 h";
        QTest::newRow("seconds as format_seconds writes them") << 10.7631 << int(zp::DurationUnit::Seconds) << -1 << "10.76 s";
        QTest::newRow("not a number") << kNaN << int(zp::DurationUnit::Minutes) << 2 << "n/a";
    }
    // clang-format on
    void seconds_in_unit() {
        QFETCH(double, seconds);
        QFETCH(int, unit);
        QFETCH(int, decimals);
        QFETCH(QString, text);
        QCOMPARE(QString::fromStdString(zp::format_seconds_in(seconds, static_cast<zp::DurationUnit>(unit), decimals)), text);
    }
};

ZP_TEST_APPLESS_MAIN(TestFormat)
#include "tst_format.moc"
