// DeepSpeed's estimators, reproduced byte for byte and character for character
// (tests/data/anchors/deepspeed_estimator.json). Covers core/deepspeed/estimator.cpp, and
// core/memory/model_states.cpp against it.
#include "core/deepspeed/estimator.h"
#include "core/memory/memory_model.h"
#include "core/memory/model_states.h"
#include "core/presets/model_presets.h"
#include "test_data.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;
using namespace zp::deepspeed;

class TestDsEstimator : public QObject {
    Q_OBJECT

    static EstimatorInput input(const nlohmann::json& c) {
        EstimatorInput in;
        in.total_params = c.at("total_params").get<double>();
        in.largest_layer_params = c.at("largest_layer_params").get<double>();
        in.num_gpus_per_node = c.at("num_gpus_per_node").get<std::int64_t>();
        in.num_nodes = c.at("num_nodes").get<std::int64_t>();
        return in;
    }

private slots:
    void zero2_bytes_data() {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<bool>("offload");
        QTest::addColumn<bool>("legacy");
        QTest::addColumn<qint64>("cpuBytes");
        QTest::addColumn<qint64>("gpuBytes");
        const auto cases = load_test_json("anchors/deepspeed_estimator.json").at("cases");
        for (int i = 0; i < static_cast<int>(cases.size()); ++i) {
            const auto& c = cases[i];
            for (const char* key : {"zero2_current", "zero2_legacy_pre_v0.14.3"})
                for (const auto& row : c.at(key)) {
                    const bool offload = row.at("offload_optimizer") == "cpu";
                    const std::string name = c.at("name").get<std::string>() + " / " + key +
                                             " / offload_optimizer=" + row.at("offload_optimizer").get<std::string>();
                    QTest::newRow(name.c_str())
                        << i << offload << (std::string(key) != "zero2_current") << qint64(row.at("cpu_bytes").get<std::int64_t>())
                        << qint64(row.at("gpu_bytes").get<std::int64_t>());
                }
        }
    }
    void zero2_bytes() {
        QFETCH(int, caseIndex);
        QFETCH(bool, offload);
        QFETCH(bool, legacy);
        QFETCH(qint64, cpuBytes);
        QFETCH(qint64, gpuBytes);
        const auto c = load_test_json("anchors/deepspeed_estimator.json").at("cases")[caseIndex];
        const EstimatorResult r = zero2(input(c), offload, legacy ? Zero2Formula::Legacy : Zero2Formula::Current);
        QCOMPARE(qint64(r.cpu_bytes), cpuBytes);
        QCOMPARE(qint64(r.gpu_bytes), gpuBytes);
    }

    void zero3_bytes_data() {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<bool>("offloadParam");
        QTest::addColumn<bool>("offloadOptimizer");
        QTest::addColumn<bool>("zeroInit");
        QTest::addColumn<qint64>("cpuBytes");
        QTest::addColumn<qint64>("gpuBytes");
        const auto cases = load_test_json("anchors/deepspeed_estimator.json").at("cases");
        for (int i = 0; i < static_cast<int>(cases.size()); ++i) {
            const auto& c = cases[i];
            for (const auto& row : c.at("zero3")) {
                const std::string name = c.at("name").get<std::string>() +
                                         " / offload_param=" + row.at("offload_param").get<std::string>() +
                                         " offload_optimizer=" + row.at("offload_optimizer").get<std::string>() +
                                         " zero_init=" + std::to_string(row.at("zero_init").get<int>());
                QTest::newRow(name.c_str()) << i << (row.at("offload_param") == "cpu") << (row.at("offload_optimizer") == "cpu")
                                            << (row.at("zero_init").get<int>() == 1) << qint64(row.at("cpu_bytes").get<std::int64_t>())
                                            << qint64(row.at("gpu_bytes").get<std::int64_t>());
            }
        }
    }
    void zero3_bytes() {
        QFETCH(int, caseIndex);
        QFETCH(bool, offloadParam);
        QFETCH(bool, offloadOptimizer);
        QFETCH(bool, zeroInit);
        QFETCH(qint64, cpuBytes);
        QFETCH(qint64, gpuBytes);
        const auto c = load_test_json("anchors/deepspeed_estimator.json").at("cases")[caseIndex];
        const EstimatorResult r = zero3(input(c), offloadOptimizer, offloadParam, zeroInit);
        QCOMPARE(qint64(r.cpu_bytes), cpuBytes);
        QCOMPARE(qint64(r.gpu_bytes), gpuBytes);
    }

    void printed_tables_data() {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<QString>("table");
        const auto cases = load_test_json("anchors/deepspeed_estimator.json").at("cases");
        for (int i = 0; i < static_cast<int>(cases.size()); ++i)
            for (const char* t : {"zero2_current_printed", "zero2_legacy_printed", "zero3_printed"})
                QTest::newRow((cases[i].at("name").get<std::string>() + " / " + t).c_str()) << i << QString::fromLatin1(t);
    }
    void printed_tables() {
        QFETCH(int, caseIndex);
        QFETCH(QString, table);
        const auto c = load_test_json("anchors/deepspeed_estimator.json").at("cases")[caseIndex];
        const std::string expected = c.at(table.toStdString()).get<std::string>() + "\n";
        std::string actual;
        if (table == QLatin1String("zero3_printed")) actual = zero3_table(input(c));
        else actual = zero2_table(input(c), table == QLatin1String("zero2_current_printed") ? Zero2Formula::Current : Zero2Formula::Legacy);
        QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected));
    }

    // The memory model's model-state slices agree with DeepSpeed's estimator: stage 2 without
    // offload is 2P + 18P/N; stage 3 is 18P/N plus the 4 Lp working set the planner keeps in buffers.
    void memory_model_matches_estimator_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("gpus");
        for (const char* m : {"llama-2-7b", "t5-3b", "llama-2-70b", "gpt2"})
            for (int n : {1, 8, 64}) QTest::newRow((std::string(m) + " x" + std::to_string(n)).c_str()) << QString::fromLatin1(m) << n;
    }
    void memory_model_matches_estimator() {
        QFETCH(QString, model);
        QFETCH(int, gpus);
        const ModelSpec m = model_preset(model.toStdString()).spec;
        EstimatorInput in;
        in.total_params = static_cast<double>(parameter_count(m));
        in.largest_layer_params = static_cast<double>(largest_layer_params(m));
        in.num_gpus_per_node = gpus;
        Training t;
        ZeroSetup z;
        z.stage = 2;
        const double stage2 = model_state_bytes(in.total_params, gpus, t, z, Convention::DeepSpeed).total();
        QVERIFY(std::fabs(stage2 - static_cast<double>(zero2(in, false, Zero2Formula::Current).gpu_bytes)) < 1.0);
        z.offload_optimizer = OffloadDevice::Cpu;
        QCOMPARE(model_state_bytes(in.total_params, gpus, t, z, Convention::DeepSpeed).total(),
                 static_cast<double>(zero2(in, true, Zero2Formula::Current).gpu_bytes));
        z = ZeroSetup{};
        z.stage = 3;
        const double stage3 = model_state_bytes(in.total_params, gpus, t, z, Convention::DeepSpeed).total() + 4 * in.largest_layer_params;
        QVERIFY(std::fabs(stage3 - static_cast<double>(zero3(in, false, false, true).gpu_bytes)) < 1.0);
    }
};

ZP_TEST_APPLESS_MAIN(TestDsEstimator)
#include "tst_ds_estimator.moc"
