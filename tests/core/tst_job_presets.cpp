// What each job starts from (core/presets/job_presets.h): the settings of the recipe it cites, the
// model and cluster kept, and on the hardware people bring for it a plan that fits.
#include "core/model/enum_names.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/job_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"

#include "test_main.h"

using namespace zp;

namespace {
Scenario on(const char* model, const char* cluster, std::int64_t gpus) {
    Scenario s = default_scenario();
    s.model = model_preset(model).spec;
    return with_node(s, cluster_preset(cluster).cluster, gpus);
}
}  // namespace

class TestJobPresets : public QObject {
    Q_OBJECT
private slots:
    void settings_data() {
        QTest::addColumn<QString>("job");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<QString>("method");
        QTest::addColumn<qint64>("loraRank");
        QTest::addColumn<QString>("recompute");  // "auto" or the fixed policy
        QTest::addColumn<bool>("alst");
        QTest::addColumn<QString>("optimizerStorage");
        QTest::newRow("Llama 2 pre-training: 4096 tokens, 4M tokens a step")
            << "pretrain" << 4096LL << 1024LL << "full" << 8LL << "auto" << false << "standard";
        // 0: the automatic global batch, 64 raised to a multiple of micro batch x GPUs.
        QTest::newRow("Llama 2 SFT: batch 64 of 4096 tokens")
            << "finetune" << 4096LL << 0LL << "full" << 8LL << "auto" << false << "standard";
        QTest::newRow("QLoRA paper's LoRA: r 64 on all linear layers")
            << "lora" << 4096LL << 0LL << "lora" << 64LL << "auto" << false << "standard";
        QTest::newRow("QLoRA: NF4, r 64, gradient checkpointing, paged AdamW")
            << "qlora" << 4096LL << 0LL << "qlora" << 64LL << "full" << false << "paged";
        QTest::newRow("ALST: every part on, 128K tokens, micro batch 1")
            << "long-context" << 131072LL << 0LL << "full" << 8LL << "full" << true << "standard";
    }
    void settings() {
        QFETCH(QString, job);
        QFETCH(qint64, seq);
        QFETCH(qint64, globalBatch);
        QFETCH(QString, method);
        QFETCH(qint64, loraRank);
        QFETCH(QString, recompute);
        QFETCH(bool, alst);
        QFETCH(QString, optimizerStorage);
        Scenario start = on("llama-3.1-8b", "dgx-h100", 8);
        start.training.loss_kernel = LossKernel::Chunked;  // a setting of the previous job is replaced
        start.training.optimizer_storage = OptimizerStorage::EightBit;
        start.training.outputs_kept = true;
        start.training.logit_metrics = 2;
        start.finetune.freeze_layers = 4;
        const Scenario s = with_job(start, parse_job(job.toStdString()));
        QCOMPARE(QString::fromLatin1(to_string(s.job)), job);
        QCOMPARE(s.training.seq_len, seq);
        QCOMPARE(s.training.global_batch, globalBatch);
        QCOMPARE(QString::fromLatin1(to_string(s.finetune.method)), method);
        QCOMPARE(s.finetune.lora_rank, loraRank);
        QCOMPARE(s.finetune.freeze_layers, std::int64_t{0});
        QCOMPARE(QString::fromLatin1(to_string(s.training.optimizer_storage)), optimizerStorage);
        QVERIFY(!s.training.outputs_kept);
        QCOMPARE(s.training.logit_metrics, std::int64_t{0});
        QCOMPARE(s.training.auto_checkpointing, recompute == QLatin1String("auto"));
        if (recompute != QLatin1String("auto")) QCOMPARE(QString::fromLatin1(to_string(s.training.checkpointing)), recompute);
        QCOMPARE(s.training.tiled_mlp, alst);
        QCOMPARE(s.training.cpu_checkpointing, alst);
        QCOMPARE(s.training.loss_kernel == LossKernel::Chunked, alst);
        QCOMPARE(s.parallel.auto_ulysses, alst);
        QCOMPARE(int(s.training.precision), int(Precision::Bf16));
        QCOMPARE(int(s.training.optimizer), int(Optimizer::AdamW));
        // The model and the cluster are the user's, whatever the job.
        QVERIFY(s.model == start.model);
        QVERIFY(s.cluster == start.cluster);
    }

    // The job shown (the window's Job row, the controls it shows first) follows the fine-tuning
    // method when that was changed after the job was chosen.
    void job_shown_follows_the_method_data() {
        QTest::addColumn<QString>("job");
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("shown");
        QTest::newRow("full fine-tune, as chosen") << "finetune"
                                                   << "full"
                                                   << "finetune";
        QTest::newRow("--finetune qlora on the default full fine-tune") << "finetune"
                                                                        << "qlora"
                                                                        << "qlora";
        QTest::newRow("LoRA on pre-training") << "pretrain"
                                              << "lora"
                                              << "lora";
        QTest::newRow("QLoRA job, method LoRA") << "qlora"
                                                << "lora"
                                                << "lora";
        QTest::newRow("LoRA job, method back to full: custom") << "lora"
                                                               << "full"
                                                               << "custom";
        QTest::newRow("long context, as chosen") << "long-context"
                                                 << "full"
                                                 << "long-context";
        QTest::newRow("custom stays custom") << "custom"
                                             << "qlora"
                                             << "custom";
    }
    void job_shown_follows_the_method() {
        QFETCH(QString, job);
        QFETCH(QString, method);
        QFETCH(QString, shown);
        Scenario s = with_job(default_scenario(), parse_job(job.toStdString()));
        s.finetune.method = parse_enum<FineTuneMethod>(method.toStdString());
        QCOMPARE(QString::fromLatin1(to_string(job_shown(s))), shown);
    }

    void custom_changes_nothing_but_the_job() {
        Scenario s = on("llama-3.1-8b", "dgx-h100", 8);
        const Scenario lora = with_job(s, Job::Lora);
        Scenario back = with_job(lora, Job::Custom);
        QCOMPARE(int(back.job), int(Job::Custom));
        back.job = Job::Lora;
        QVERIFY(back == lora);
    }

    // On the hardware the first-use tasks name, the job's starting values give a plan that fits.
    void fits_on_its_hardware_data() {
        QTest::addColumn<QString>("job");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("cluster");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("gpus");
        QTest::newRow("LoRA, Llama-3.1-8B, two RTX 4090s") << "lora"
                                                           << "llama-3.1-8b"
                                                           << "workstation-2x4090"
                                                           << "" << 2LL;
        QTest::newRow("QLoRA, Llama-3.1-70B, one 48 GB L40S") << "qlora"
                                                              << "llama-3.1-70b"
                                                              << "dgx-a100"
                                                              << "l40s" << 1LL;
        QTest::newRow("full fine-tune, Llama-3.1-70B, 16 H100s") << "finetune"
                                                                 << "llama-3.1-70b"
                                                                 << "dgx-h100"
                                                                 << "" << 16LL;
        QTest::newRow("long context, Llama-3.1-8B, 8 H100s at 128K") << "long-context"
                                                                     << "llama-3.1-8b"
                                                                     << "dgx-h100"
                                                                     << "" << 8LL;
    }
    void fits_on_its_hardware() {
        QFETCH(QString, job);
        QFETCH(QString, model);
        QFETCH(QString, cluster);
        QFETCH(QString, gpu);
        QFETCH(qint64, gpus);
        Scenario s = on(model.toLatin1().constData(), cluster.toLatin1().constData(), gpus);
        if (!gpu.isEmpty()) s = with_gpu(s, gpu_preset(gpu.toStdString()));
        s = with_job(s, parse_job(job.toStdString()));
        const Plan p = recommend(s);
        QVERIFY2(p.feasible, qPrintable(job + QLatin1String(" on ") + cluster));
    }
};

ZP_TEST_APPLESS_MAIN(TestJobPresets)
#include "tst_job_presets.moc"
