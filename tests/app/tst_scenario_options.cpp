// Scenario options beside --ds-config (app/cli/scenario_options.cpp): the ds_config.json sets the
// stage, batch and precision, and every option typed beside it wins over the file, whatever the
// order on the command line. The file is tests/data/lint/clean_stage3.json: ZeRO-3, bf16, micro
// batch 2, 4 accumulation steps, train_batch_size 64 (on 8 GPUs).
#include "app/cli/args.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"
#include "core/model/enum_names.h"

#include "test_main.h"

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

    // MiCS beside the file: the config's stage 3 on 8 GPUs, a shard of 4 (core/model/mics.h).
    void mics_options() {
        const Scenario s = scenario_of({QStringLiteral("--mics-shard-size"), QStringLiteral("4")});
        QCOMPARE(s.zero.mics_shard_size, std::int64_t{4});
        QVERIFY(!s.zero.mics_hierarchical_params_gather);
        QVERIFY_THROWS_EXCEPTION(InputError, scenario_of({QStringLiteral("--mics-hierarchical-gather"), QStringLiteral("maybe")}));
    }

    // lint's node and model (lint_context_from_args): each option fills its field, none the others.
    void lint_context_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<qint64>("gpusPerNode");  // 0: not given
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("kvHeads");
        QTest::addColumn<qint64>("seq");
        QTest::newRow("nothing") << QStringList{} << qint64{0} << qint64{0} << qint64{0} << qint64{0};
        QTest::newRow("--gpus-per-node 8") << QStringList{QStringLiteral("--gpus-per-node"), QStringLiteral("8")} << qint64{8} << qint64{0}
                                           << qint64{0} << qint64{0};
        QTest::newRow("--model llama-3-8b: 32 heads, 8 kv heads")
            << QStringList{QStringLiteral("--model"), QStringLiteral("llama-3-8b")} << qint64{0} << qint64{32} << qint64{8} << qint64{0};
        QTest::newRow("--heads 12: kv heads the same")
            << QStringList{QStringLiteral("--heads"), QStringLiteral("12")} << qint64{0} << qint64{12} << qint64{12} << qint64{0};
        QTest::newRow("--heads 32 --kv-heads 8 --seq 4096")
            << QStringList{QStringLiteral("--heads"), QStringLiteral("32"),    QStringLiteral("--kv-heads"),
                           QStringLiteral("8"),       QStringLiteral("--seq"), QStringLiteral("4096")}
            << qint64{0} << qint64{32} << qint64{8} << qint64{4096};
    }
    void lint_context() {
        QFETCH(QStringList, options);
        QFETCH(qint64, gpusPerNode);
        QFETCH(qint64, heads);
        QFETCH(qint64, kvHeads);
        QFETCH(qint64, seq);
        std::vector<std::string> argv;
        for (const QString& o : options) argv.push_back(o.toStdString());
        const LintContext c = cli::lint_context_from_args(cli::parse_args(argv, cli::scenario_option_names(), {}));
        const auto given = [](qint64 v) { return v > 0 ? std::optional<std::int64_t>(v) : std::nullopt; };
        QCOMPARE(c.gpus_per_node, given(gpusPerNode));
        QCOMPARE(c.heads, given(heads));
        QCOMPARE(c.kv_heads, given(kvHeads));
        QCOMPARE(c.seq_len, given(seq));
    }

    // --gpu without --cluster takes the GPU's usual node (core/presets/cluster_presets.h
    // usual_node) and says which; --cluster, or a session, keeps its own host (issue 39).
    void gpu_takes_its_usual_node_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<qint64>("ramGib");
        QTest::addColumn<qint64>("gpusPerNode");
        QTest::addColumn<double>("interGbits");
        QTest::addColumn<QString>("note");
        const auto args = [](const char* text) { return QString::fromLatin1(text).split(QLatin1Char(' ')); };
        QTest::newRow("RTX 4090 x4: the four-GPU workstation (issue 39's must-show)")
            << args("--gpu rtx-4090 --gpus 4") << qint64{256} << qint64{4} << 10.0 << "the Workstation (4x RTX 4090)'s (256.0 GiB RAM";
        QTest::newRow("RTX 4090 x2: the two-GPU workstation")
            << args("--gpu rtx-4090 --gpus 2") << qint64{128} << qint64{2} << 10.0 << "the Workstation (2x RTX 4090)'s (128.0 GiB RAM";
        QTest::newRow("RTX 4090 x8: the 8x RTX 4090 server")
            << args("--gpu rtx-4090 --gpus 8") << qint64{512} << qint64{8} << 100.0 << "the 8x RTX 4090 PCIe server's (512.0 GiB RAM";
        QTest::newRow("RTX 4090 x1: the workstation")
            << args("--gpu rtx-4090 --gpus 1") << qint64{128} << qint64{1} << 10.0 << "the Workstation (1x RTX 4090)'s (128.0 GiB RAM";
        QTest::newRow("RTX 4090 x16: two 8-GPU servers")
            << args("--gpu rtx-4090 --gpus 16") << qint64{512} << qint64{8} << 100.0 << "--cluster rtx4090-box or another";
        QTest::newRow("H100 x16: two DGX H100")
            << args("--gpu h100-80gb --gpus 16") << qint64{2048} << qint64{8} << 3200.0 << "the usual node of the H100 80GB (SXM)";
        QTest::newRow("A100 40GB: no node preset, the DGX A100's host kept")
            << args("--gpu a100-40gb --gpus 8") << qint64{2048} << qint64{8} << 1600.0
            << "the DGX A100 (8x A100 80GB)'s (2.0 TiB RAM, 30.0 TiB NVMe, 1600 Gbit/s per node): no node preset has the A100 40GB (SXM)";
        QTest::newRow("--cluster dgx-a100 keeps the DGX")
            << args("--cluster dgx-a100 --gpu rtx-4090 --gpus 4") << qint64{2048} << qint64{4} << 1600.0 << QString();
        QTest::newRow("no --gpu: nothing assumed") << args("--gpus 8") << qint64{2048} << qint64{8} << 1600.0 << QString();
    }
    void gpu_takes_its_usual_node() {
        QFETCH(QStringList, options);
        QFETCH(qint64, ramGib);
        QFETCH(qint64, gpusPerNode);
        QFETCH(double, interGbits);
        QFETCH(QString, note);
        std::vector<std::string> argv;
        for (const QString& o : options) argv.push_back(o.toStdString());
        cli::ScenarioNotes notes;
        const Scenario s = cli::scenario_from_args(cli::parse_args(argv, cli::scenario_option_names(), {}), &notes);
        QCOMPARE(s.cluster.cpu_ram_bytes_per_node, static_cast<double>(ramGib) * 1024 * 1024 * 1024);
        QCOMPARE(s.cluster.gpus_per_node, std::int64_t{gpusPerNode});
        QCOMPARE(s.cluster.inter_node_gbits_per_s, interGbits);
        if (note.isEmpty()) QVERIFY2(notes.host.empty(), notes.host.c_str());
        else QVERIFY2(QString::fromStdString(notes.host).contains(note), notes.host.c_str());
        // The GPU asked for is the one planned, whatever the host.
        if (options.contains(QStringLiteral("--gpu")))
            QCOMPARE(QString::fromStdString(s.cluster.gpu.name), options[options.indexOf(QStringLiteral("--gpu")) + 1]);
    }
};

ZP_TEST_APPLESS_MAIN(TestScenarioOptions)
#include "tst_scenario_options.moc"
