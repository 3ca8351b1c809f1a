// The recommender: never an infeasible plan, host RAM respected, deterministic, and the
// textbook answers for the textbook cases.
#include "core/presets/cluster_presets.h"
#include "core/model/default_scenario.h"
#include "core/search/scenario_edits.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/model/units.h"

#include <QtTest>

using namespace zp;

namespace {
Scenario on(const char* model, const char* gpu, std::int64_t gpus) {
    Scenario s = default_scenario();
    s.model = model_preset(model).spec;
    s.cluster.use_gpu(gpu_preset(gpu));
    s.cluster.gpus_per_node = std::min<std::int64_t>(gpus, 8);
    s.cluster.nodes = gpus / s.cluster.gpus_per_node;
    return s;
}
bool same_plan(const Plan& a, const Plan& b) {
    return a.feasible == b.feasible && a.best.zero.stage == b.best.zero.stage && a.best.zero.offload_optimizer == b.best.zero.offload_optimizer &&
           a.best.zero.offload_param == b.best.zero.offload_param && a.best.micro_batch == b.best.micro_batch &&
           a.best.checkpointing == b.best.checkpointing && a.best.step.seconds == b.best.step.seconds && a.rejected.size() == b.rejected.size();
}
}  // namespace

class TestRecommender : public QObject {
    Q_OBJECT
private slots:
    void never_infeasible_over_a_grid() {
        int scenarios = 0, feasible = 0;
        for (const char* model : {"gpt2", "qwen2-0.5b", "llama-2-7b", "llama-2-13b", "mixtral-8x7b", "llama-2-70b"})
            for (const char* gpu : {"rtx-4090", "a100-40gb", "a100-80gb", "h100-80gb"})
                for (std::int64_t gpus : {1, 2, 8, 32, 128})
                    for (std::int64_t seq : {1024, 4096, 16384})
                        for (double ram_gib : {128.0, 1024.0})
                            for (double nvme_gib : {0.0, 8000.0}) {
                                Scenario s = on(model, gpu, gpus);
                                s.training.seq_len = seq;
                                s.training.global_batch = 256;
                                s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(ram_gib);
                                s.cluster.nvme_bytes_per_node = gib_to_bytes(nvme_gib);
                                const Plan p = recommend(s);
                                ++scenarios;
                                if (!p.feasible) {
                                    QVERIFY(!p.suggestions.empty());
                                    continue;
                                }
                                ++feasible;
                                // Re-evaluate the chosen setup from scratch: it must fit every tier.
                                const Candidate c = evaluate(with_candidate(s, p.best));
                                QVERIFY(c.fit.all());
                                QVERIFY(c.memory.total_bytes() <= usable_gpu_bytes(s));
                                QVERIFY(c.memory.cpu_bytes_per_node <= s.cluster.cpu_ram_bytes_per_node);
                                QVERIFY(c.memory.nvme_bytes_per_node <= s.cluster.nvme_bytes_per_node);
                                QCOMPARE(p.best.micro_batch * p.best.gradient_accumulation_steps * gpus, std::int64_t(256));
                                // A tie is never explained as "0.0% slower": the simpler setup won it.
                                for (const Rejection& r : p.rejected) QVERIFY2(r.reason.rfind("fits, but is 0.0% slower", 0) != 0, r.reason.c_str());
                            }
        QVERIFY(scenarios >= 1000);
        QVERIFY(feasible > 100);
    }

    // Full CPU offload of Llama-2 70B on one node needs P x 18 x 1.5 = 1.7 TiB of host RAM.
    void respects_host_ram() {
        Scenario s = on("llama-2-70b", "a100-80gb", 8);
        s.training.global_batch = 64;
        s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(1024);
        s.cluster.nvme_bytes_per_node = 0;
        const Plan p = recommend(s);
        QVERIFY(!p.feasible);  // every CPU-offload setup needs more than 1 TiB, and there is no NVMe
        bool explained = false;
        for (const auto& r : p.rejected)
            if (r.setup == "ZeRO-3 + CPU optimizer and params") explained = r.reason.find("host RAM") != std::string::npos;
        QVERIFY(explained);
    }

    // Llama-2 7B on 8 x A100 80GB: ZeRO-1 and ZeRO-3 reach the same 24,372 tokens/s.
    void the_default_tie_goes_to_the_simpler_setup() {
        const Plan p = recommend(default_scenario());
        QVERIFY(p.feasible);
        QCOMPARE(p.best.zero.stage, 1);
        bool explained = false;
        for (const Rejection& r : p.rejected)
            if (r.setup == "ZeRO-3") explained = r.reason == "fits and is within 2% (24,372 tokens/s), but ZeRO-1 is simpler";
        QVERIFY(explained);
    }

    void deterministic() {
        const Scenario s = on("llama-2-13b", "a100-40gb", 16);
        QVERIFY(same_plan(recommend(s), recommend(s)));
    }

    void textbook_cases_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<bool>("offloads");
        QTest::newRow("7B on 8 x A100-80GB, bf16: no offload") << "llama-2-7b" << "a100-80gb" << qint64(8) << false;
        QTest::newRow("1.3B-class on one 24 GB GPU: partitioning cannot help, offload") << "gpt2-xl" << "rtx-4090" << qint64(1) << true;
    }
    void textbook_cases() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(qint64, gpus);
        QFETCH(bool, offloads);
        Scenario s = on(model.toStdString().c_str(), gpu.toStdString().c_str(), gpus);
        if (model == "gpt2-xl") s = on("gpt2-xl", "rtx-4090", 1), s.cluster = cluster_preset("workstation").cluster;
        const Plan p = recommend(s);
        QVERIFY(p.feasible);
        QCOMPARE(p.best.zero.offload_optimizer != OffloadDevice::None, offloads);
    }

    void one_point_three_b_on_24gb() {
        // A bare 1.3B: 20 bytes/param of DeepSpeed model states is 26 GB, more than a 24 GB card.
        Scenario s = default_scenario();
        s.model = synthesize_model(1'300'000'000);
        s.cluster = cluster_preset("workstation").cluster;
        const Plan p = recommend(s);
        QVERIFY(p.feasible);
        QVERIFY(p.best.zero.offload_optimizer != OffloadDevice::None);
    }

    void explains_when_nothing_fits() {
        Scenario s = on("llama-2-70b", "a100-80gb", 8);
        s.training.global_batch = 64;
        s.training.seq_len = 4096;
        s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(1024);
        s.cluster.nvme_bytes_per_node = 0;
        const Plan p = recommend(s);
        QVERIFY(!p.feasible);
        QVERIFY(!p.suggestions.empty());
        QCOMPARE(p.rejected.size(), zero_setups().size());
    }
};

QTEST_APPLESS_MAIN(TestRecommender)
#include "tst_recommender.moc"
