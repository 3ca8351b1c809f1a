// Session files (.zplan): every field round-trips; malformed files name what is wrong.
#include "core/model/default_scenario.h"
#include "core/model/errors.h"
#include "core/presets/model_presets.h"
#include "core/io/scenario_json.h"

#include <QtTest>

using namespace zp;

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void round_trip() {
        Scenario s = default_scenario();
        s.model = model_preset("mixtral-8x7b").spec;
        s.cluster.nodes = 4;
        s.cluster.cpu_ram_bytes_per_node = 123456789;
        s.training.precision = Precision::Fp16;
        s.training.optimizer = Optimizer::Lion;
        s.training.seq_len = 8192;
        s.training.checkpointing = Checkpointing::Selective;
        s.zero.stage = 3;
        s.zero.offload_optimizer = OffloadDevice::Nvme;
        s.zero.offload_param = OffloadDevice::Cpu;
        s.assumptions.convention = Convention::Paper;
        s.assumptions.headroom = 0.1;
        const std::string text = session_text(s);
        const Scenario back = parse_session(text, "t.zplan");
        QCOMPARE(QString::fromStdString(session_text(back)), QString::fromStdString(text));
    }

    void malformed_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("mustMention");
        QTest::newRow("truncated") << R"({"version": 1, "model": {)" << "invalid JSON at line 1";
        QTest::newRow("no version") << R"({"model": {}})" << "'version' is missing";
        QTest::newRow("future version") << R"({"version": 99})"
                                        << "s.zplan: session format version 99 is newer than this zero-planner reads (up to 2); upgrade zero-planner";
        QTest::newRow("version zero") << R"({"version": 0})" << "session version 0 is not supported (this zero-planner reads versions 1 to 2)";
        QTest::newRow("version as text") << R"({"version": "1"})" << "session version \"1\" is not supported";
        QTest::newRow("fractional version") << R"({"version": 1.5})" << "session version 1.5 is not supported";
        QTest::newRow("string for a count") << R"({"version": 1, "training": {"seq_len": "long"}})" << "training.seq_len must be an integer";
        QTest::newRow("negative GPUs") << R"({"version": 1, "cluster": {"nodes": -1}})" << "cluster.nodes must be an integer >= 1";
        QTest::newRow("bad enum") << R"({"version": 1, "zero": {"offload_param": "disk"}})" << "zero.offload_param offload device must be one of";
        QTest::newRow("contradiction") << R"({"version": 1, "zero": {"stage": 2, "offload_param": "cpu"}})" << "offload_param is valid only with ZeRO stage 3";
    }
    void malformed() {
        QFETCH(QString, text);
        QFETCH(QString, mustMention);
        try {
            parse_session(text.toStdString(), "s.zplan");
            QFAIL("accepted a malformed session");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(mustMention), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestSession)
#include "tst_session.moc"
