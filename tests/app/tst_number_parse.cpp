// Numbers as people type them on a command line (app/cli/number_parse.cpp): counts with K/M/B/G/T
// suffixes, bounded whole numbers, bounded reals and on/off, each with the option in its error.
// Every row is a literal: the text typed, and the value or the error expected.
#include "app/cli/number_parse.h"
#include "core/base/errors.h"

#include "test_main.h"

#include <cstdint>

using namespace zp::cli;

namespace {
// Runs `parse`, returning the error text ("" when it succeeded).
template <typename F>
QString error_of(F&& parse) {
    try {
        parse();
    } catch (const zp::InputError& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}
}  // namespace

class TestNumberParse : public QObject {
    Q_OBJECT
private slots:
    // "7e9", "7B", "70b", "1.5T", "125M", "2851e6" -> an exact positive count (number_parse.h).
    // clang-format off
    void count_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("value");
        QTest::newRow("plain digits") << "7000000000" << qint64(7'000'000'000);
        QTest::newRow("exponent 7e9") << "7e9" << qint64(7'000'000'000);
        QTest::newRow("7B") << "7B" << qint64(7'000'000'000);
        QTest::newRow("lower-case 7b") << "7b" << qint64(7'000'000'000);
        QTest::newRow("70b") << "70b" << qint64(70'000'000'000);
        QTest::newRow("G is B") << "7G" << qint64(7'000'000'000);
        QTest::newRow("1.5T") << "1.5T" << qint64(1'500'000'000'000);
        QTest::newRow("lower-case t") << "2t" << qint64(2'000'000'000'000);
        QTest::newRow("125M") << "125M" << qint64(125'000'000);
        QTest::newRow("lower-case m") << "350m" << qint64(350'000'000);
        QTest::newRow("K") << "32K" << qint64(32'000);
        QTest::newRow("half a K") << "0.5k" << qint64(500);
        QTest::newRow("DeepSpeed docs' t5-3b: 2851e6") << "2851e6" << qint64(2'851'000'000);
        QTest::newRow("Llama-2 7B exactly") << "6738415616" << qint64(6'738'415'616);
        QTest::newRow("a float that is whole: 1.1B") << "1.1B" << qint64(1'100'000'000);
        QTest::newRow("6.7384B") << "6.7384B" << qint64(6'738'400'000);
        QTest::newRow("the smallest, 1") << "1" << qint64(1);
        QTest::newRow("the largest, 1e15") << "1e15" << qint64(1'000'000'000'000'000);
        QTest::newRow("the largest with a suffix, 1000T") << "1000T" << qint64(1'000'000'000'000'000);
    }
    // clang-format on
    void count() {
        QFETCH(QString, text);
        QFETCH(qint64, value);
        QCOMPARE(qint64(parse_count(text.toStdString(), "--params")), value);
    }

    // The error names the option and what was typed; `message` is a part of the expected text.
    // clang-format off
    void count_errors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("knownBug");
        QTest::newRow("empty") << "" << "--params needs a value" << "";
        QTest::newRow("unknown suffix 7X") << "7X" << "--params '7X' is not a number" << "";
        QTest::newRow("a suffix alone") << "B" << "--params 'B' is not a number" << "";
        QTest::newRow("words") << "seven" << "--params 'seven' is not a number" << "";
        QTest::newRow("two suffixes") << "7BB" << "--params '7BB' is not a number" << "";
        QTest::newRow("leading space") << " 7B" << "is not a number" << "";
        QTest::newRow("trailing space") << "7B " << "is not a number" << "";
        QTest::newRow("nan") << "nan" << "is not a number" << "";
        QTest::newRow("inf") << "inf" << "is not a number" << "";
        QTest::newRow("overflows a double: 1e400") << "1e400" << "is not a number" << "";
        QTest::newRow("negative") << "-7B" << "--params '-7B' must be between 1 and 1e15" << "";
        QTest::newRow("zero") << "0" << "must be between 1 and 1e15" << "";
        QTest::newRow("below one: 1e-3") << "1e-3" << "--params '1e-3' must be between 1 and 1e15" << "";
        QTest::newRow("above 1e15") << "1e16" << "must be between 1 and 1e15" << "";
        QTest::newRow("2000T") << "2000T" << "must be between 1 and 1e15" << "";
        QTest::newRow("beyond int64: 2^63") << "9223372036854775808" << "must be between 1 and 1e15" << "";
        QTest::newRow("fraction") << "1.5" << "--params '1.5' is not a whole number" << "";
        QTest::newRow("fraction of a K") << "1.0005k" << "is not a whole number" << "";
        QTest::newRow("a fraction of a large count") << "1234567890.5" << "is not a whole number" << "";
        QTest::newRow("hexadecimal: strtod's 0x10 is not a size") << "0x10" << "--params '0x10' is not a number" << "";
        QTest::newRow("a hexadecimal float") << "0x1p40" << "is not a number" << "";
        QTest::newRow("every error lists what is accepted") << "7X" << "(accepted: a count such as 7e9, 7000000000, 7B, 70b, 1.5T, 125M)"
                                                            << "";
    }
    // clang-format on
    void count_errors() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        QFETCH(QString, knownBug);
        const QString error = error_of([&] { parse_count(text.toStdString(), "--params"); });
        if (!knownBug.isEmpty()) QEXPECT_FAIL("", qPrintable(knownBug), Continue);
        QVERIFY2(error.contains(message), qPrintable(QStringLiteral("error: \"%1\"").arg(error)));
    }

    // clang-format off
    void positive_int_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("max");
        QTest::addColumn<qint64>("value");  // 0: an error is expected
        QTest::newRow("8") << "8" << qint64(1024) << qint64(8);
        QTest::newRow("the minimum, 1") << "1" << qint64(1024) << qint64(1);
        QTest::newRow("the maximum is allowed") << "1024" << qint64(1024) << qint64(1024);
        QTest::newRow("exponent notation 1e3") << "1e3" << qint64(1024) << qint64(1000);
        QTest::newRow("8.0 is whole") << "8.0" << qint64(1024) << qint64(8);
        QTest::newRow("2^40 global batch") << "1099511627776" << (qint64(1) << 40) << (qint64(1) << 40);
        QTest::newRow("above the maximum") << "1025" << qint64(1024) << qint64(0);
        QTest::newRow("zero") << "0" << qint64(1024) << qint64(0);
        QTest::newRow("negative") << "-8" << qint64(1024) << qint64(0);
        QTest::newRow("fraction") << "2.5" << qint64(1024) << qint64(0);
        QTest::newRow("suffixes are for counts only") << "8K" << qint64(100000) << qint64(0);
        QTest::newRow("overflow") << "99999999999999999999" << qint64(1024) << qint64(0);
        QTest::newRow("empty") << "" << qint64(1024) << qint64(0);
        QTest::newRow("leading space") << " 8" << qint64(1024) << qint64(0);
        QTest::newRow("trailing garbage") << "8 GPUs" << qint64(1024) << qint64(0);
    }
    // clang-format on
    void positive_int() {
        QFETCH(QString, text);
        QFETCH(qint64, max);
        QFETCH(qint64, value);
        const std::string t = text.toStdString();
        if (value > 0) {
            QCOMPARE(qint64(parse_positive_int(t, "--gpus-per-node", max)), value);
        } else {
            const QString error = error_of([&] { parse_positive_int(t, "--gpus-per-node", max); });
            const QString refused = QStringLiteral("--gpus-per-node must be a whole number from 1 to %1, got '%2'").arg(max).arg(text);
            // A K or M suffix is refused with both ways to write the number out.
            const QString hint =
                text == QStringLiteral("8K") ? QStringLiteral("; write the number out: 8192 (8K as powers of 2) or 8000") : QString();
            QCOMPARE(error, refused + hint);
        }
    }

    // clang-format off
    void number_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("min");
        QTest::addColumn<double>("max");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("error");  // "": value expected
        QTest::newRow("a fraction") << "0.05" << 0.0 << 0.95 << 0.05 << "";
        QTest::newRow("exponent 1e-3") << "1e-3" << 0.0 << 1.0 << 0.001 << "";
        QTest::newRow("the minimum is allowed") << "0" << 0.0 << 0.95 << 0.0 << "";
        QTest::newRow("the maximum is allowed") << "0.95" << 0.0 << 0.95 << 0.95 << "";
        QTest::newRow("a leading plus") << "+1.5" << 0.0 << 10.0 << 1.5 << "";
        QTest::newRow("negative allowed when min is") << "-3" << -10.0 << 10.0 << -3.0 << "";
        QTest::newRow("above the maximum") << "2" << 0.0 << 0.95 << 0.0 << "--headroom must be a number from 0 to 0.95, got '2'";
        QTest::newRow("below the minimum") << "-0.1" << 0.0 << 0.95 << 0.0 << "--headroom must be a number from 0 to 0.95, got '-0.1'";
        QTest::newRow("large bounds print as %g") << "5e9" << 0.001 << 1e6 << 0.0 << "--headroom must be a number from 0.001 to 1e+06, got '5e9'";
        QTest::newRow("not a number") << "lots" << 0.0 << 1.0 << 0.0 << "--headroom must be a number from 0 to 1, got 'lots'";
        QTest::newRow("nan") << "nan" << 0.0 << 1.0 << 0.0 << "--headroom must be a number from 0 to 1, got 'nan'";
        QTest::newRow("infinity") << "inf" << 0.0 << 1e300 << 0.0 << "--headroom must be a number from 0 to 1e+300, got 'inf'";
        QTest::newRow("empty") << "" << 0.0 << 1.0 << 0.0 << "--headroom must be a number from 0 to 1, got ''";
    }
    // clang-format on
    void number() {
        QFETCH(QString, text);
        QFETCH(double, min);
        QFETCH(double, max);
        QFETCH(double, value);
        QFETCH(QString, error);
        const std::string t = text.toStdString();
        if (error.isEmpty()) QCOMPARE(parse_number(t, "--headroom", min, max), value);
        else QCOMPARE(error_of([&] { parse_number(t, "--headroom", min, max); }), error);
    }

    // clang-format off
    void on_off_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("value");  // 1 on, 0 off, -1 an error
        QTest::newRow("on") << "on" << 1;
        QTest::newRow("true") << "true" << 1;
        QTest::newRow("1") << "1" << 1;
        QTest::newRow("off") << "off" << 0;
        QTest::newRow("false") << "false" << 0;
        QTest::newRow("0") << "0" << 0;
        QTest::newRow("yes is not accepted") << "yes" << -1;
        QTest::newRow("case matters") << "ON" << -1;
        QTest::newRow("empty") << "" << -1;
    }
    // clang-format on
    void on_off() {
        QFETCH(QString, text);
        QFETCH(int, value);
        const std::string t = text.toStdString();
        if (value >= 0) QCOMPARE(parse_on_off(t, "--flash-attention"), value == 1);
        else
            QCOMPARE(error_of([&] { parse_on_off(t, "--flash-attention"); }),
                     QStringLiteral("--flash-attention must be on or off, got '%1'").arg(text));
    }
};

ZP_TEST_APPLESS_MAIN(TestNumberParse)
#include "tst_number_parse.moc"
