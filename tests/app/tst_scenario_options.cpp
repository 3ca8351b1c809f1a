// Scenario options beside --ds-config (app/cli/scenario_options.cpp): the ds_config.json sets the
// stage, batch and precision, and every option typed beside it wins over the file, whatever the
// order on the command line. The file is tests/data/lint/clean_stage3.json: ZeRO-3, bf16, micro
// batch 2, 4 accumulation steps, train_batch_size 64 (on 8 GPUs).
#include "app/cli/args.h"
#include "app/cli/scenario_options.h"
#include "core/model/enum_names.h"

#include <QtTest>

using namespace zp;

namespace {
Scenario scenario_of(const QStringList& options) {
    std::vector<std::string> argv = {"--gpus", "8", "--ds-config", ZP_TEST_DATA_DIR "/lint/clean_stage3.json"};
    for (const QString& o : options) argv.push_back(o.toStdString());
    return cli::scenario_from_args(cli::parse_args(argv, cli::scenario_option_names(), {}));
}
}  // namespace

class TestScenarioOptions : public QObject {
    Q_OBJECT
private slots:
    void options_beside_ds_config_win_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("stage");
        QTest::addColumn<qint64>("microBatch");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<QString>("precision");
        QTest::newRow("the file alone") << QStringList{} << 3 << qint64{2} << qint64{64} << QStringLiteral("bf16");
        QTest::newRow("--stage 2") << QStringList{QStringLiteral("--stage"), QStringLiteral("2")} << 2 << qint64{2} << qint64{64}
                                   << QStringLiteral("bf16");
        QTest::newRow("--micro-batch 4") << QStringList{QStringLiteral("--micro-batch"), QStringLiteral("4")} << 3 << qint64{4}
                                         << qint64{64} << QStringLiteral("bf16");
        QTest::newRow("--global-batch 128") << QStringList{QStringLiteral("--global-batch"), QStringLiteral("128")} << 3 << qint64{2}
                                            << qint64{128} << QStringLiteral("bf16");
        QTest::newRow("--precision fp16") << QStringList{QStringLiteral("--precision"), QStringLiteral("fp16")} << 3 << qint64{2}
                                          << qint64{64} << QStringLiteral("fp16");
    }
    void options_beside_ds_config_win() {
        QFETCH(QStringList, options);
        QFETCH(int, stage);
        QFETCH(qint64, microBatch);
        QFETCH(qint64, globalBatch);
        QFETCH(QString, precision);
        const Scenario s = scenario_of(options);
        QCOMPARE(s.zero.stage, stage);
        QCOMPARE(s.training.micro_batch, microBatch);
        QCOMPARE(s.training.global_batch, globalBatch);
        QCOMPARE(QString::fromStdString(to_string(s.training.precision)), precision);
    }
};

QTEST_APPLESS_MAIN(TestScenarioOptions)
#include "tst_scenario_options.moc"
