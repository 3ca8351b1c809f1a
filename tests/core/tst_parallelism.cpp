// Megatron-DeepSpeed's tensor and pipeline parallelism (Scenario::parallel): Korthikanti et al.
// 2022 Table 2's activation forms with tensor and sequence parallelism, the most loaded rank's
// share of the parameters, ZeRO over the data-parallel ranks, the pipeline's in-flight micro
// batches and bubble, the constraints, and BLOOM-176B's measured throughput. Covers
// core/memory/activations.cpp, core/model/parallel_layout.cpp, core/time/step_time.cpp and
// core/model/scenario.cpp validate_parallelism.
#include "core/base/errors.h"
#include "core/memory/activations.h"
#include "core/memory/allocator.h"
#include "core/memory/fit_stage.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/parallel_layout.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/time/collectives.h"
#include "core/time/step_time.h"
#include "core/validation/measured_runs.h"
#include "core/validation/validate.h"
#include "same_plan.h"
#include "test_data.h"
#include "test_util.h"

#include "test_main.h"

using namespace zp;
using zp::test::korthikanti_gpt;
using zp::test::preset_scenario;

namespace {

// Llama-2 13B on 8 DGX A100 nodes at tensor 8 x pipeline 4 (data 2), ZeRO-1, micro batch 1, global
// batch 64: 32 micro steps a step.
Scenario llama2_13b_tp8_pp4() {
    Scenario s = preset_scenario("llama-2-13b", "a100-80gb", 64);
    s.zero.stage = 1;
    s.training.micro_batch = 1;
    s.training.global_batch = 64;
    s.parallel.tensor = 8;
    s.parallel.pipeline = 4;
    return s;
}

}  // namespace

class TestParallelism : public QObject {
    Q_OBJECT
private slots:
    // The divisors every size list starts from, smallest first, for a node and for a world of a
    // million GPUs (the window recomputes them on every change).
    // How the layout's data-parallel part reads in the card's Batch row and the controls: one
    // group in the singular, never "1 data-parallel groups".
    void data_parallel_phrases_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("tensor");
        QTest::addColumn<qint64>("pipeline");
        QTest::addColumn<qint64>("ulysses");
        QTest::addColumn<QString>("words");
        QTest::newRow("one GPU") << 1LL << 1LL << 1LL << 1LL << "one GPU";
        QTest::newRow("data parallel only") << 8LL << 1LL << 1LL << 1LL << "8 GPUs";
        QTest::newRow("tensor 2 x pipeline 2 on 8") << 8LL << 2LL << 2LL << 1LL << "2 data-parallel groups of 4 GPUs";
        QTest::newRow("tensor 8 on 8: one group") << 8LL << 8LL << 1LL << 1LL << "one model-parallel group of 8 GPUs";
        QTest::newRow("Ulysses 4 on 8") << 8LL << 1LL << 1LL << 4LL << "2 data-parallel groups of 4 sequence-parallel GPUs";
        QTest::newRow("Ulysses 8 on 8: one group") << 8LL << 1LL << 1LL << 8LL << "one group of 8 sequence-parallel GPUs";
    }
    void data_parallel_phrases() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, tensor);
        QFETCH(qint64, pipeline);
        QFETCH(qint64, ulysses);
        QFETCH(QString, words);
        Scenario s = with_gpu_count(zp::test::preset_scenario("llama-2-7b", "a100-80gb", 8), gpus, 8);
        s.parallel.tensor = tensor;
        s.parallel.pipeline = pipeline;
        s.parallel.ulysses = ulysses;
        QCOMPARE(QString::fromStdString(zp::data_parallel_words(s)), words);
    }

    void divisors_smallest_first_data() {
        QTest::addColumn<qint64>("n");
        QTest::addColumn<QString>("expected");
        QTest::newRow("0: {1}") << qint64(0) << "1";
        QTest::newRow("1") << qint64(1) << "1";
        QTest::newRow("a DGX-2's 16") << qint64(16) << "1 2 4 8 16";
        QTest::newRow("BLOOM's 384") << qint64(384) << "1 2 3 4 6 8 12 16 24 32 48 64 96 128 192 384";
        QTest::newRow("a prime, 1,000,003") << qint64(1000003) << "1 1000003";
        QTest::newRow("a million") << qint64(1000000)
                                   << "1 2 4 5 8 10 16 20 25 32 40 50 64 80 100 125 160 200 250 320 400 500 625 800 1000 1250 1600 2000 "
                                      "2500 3125 4000 5000 6250 8000 10000 12500 15625 20000 25000 31250 40000 50000 62500 100000 "
                                      "125000 200000 250000 500000 1000000";
    }
    void divisors_smallest_first() {
        QFETCH(qint64, n);
        QFETCH(QString, expected);
        QStringList got;
        for (const std::int64_t d : divisors(n)) got << QString::number(d);
        QCOMPARE(got.join(QLatin1Char(' ')), expected);
    }

    // The layouts an auto search covers for BLOOM's cluster (384 A100s in nodes of 8, global batch
    // 2048): tensor inside a node dividing the 112 heads, pipeline at most the 70 layers, and a
    // data-parallel size dividing 2048, so the pipeline carries the factor 3 of 384. BLOOM's own
    // TP 4 x PP 12 is one of them.
    void auto_layouts_of_bloom() {
        Scenario s = preset_scenario("bloom-176b", "a100-80gb", 384);
        s.training.global_batch = 2048;
        const std::vector<Parallelism> layouts = searched_layouts(s, SearchSpace{true, true});
        QCOMPARE(layouts.size(), std::size_t(20));
        bool bloom = false;
        for (const Parallelism& l : layouts) {
            Scenario t = s;
            t.parallel = l;
            t.zero.stage = 1;
            validate_parallelism(t);  // throws on a layout DeepSpeed/Megatron would refuse
            QCOMPARE(2048 % data_parallel_size(t), std::int64_t(0));
            QCOMPARE(l.sequence_parallel, l.tensor > 1);
            bloom = bloom || (l.tensor == 4 && l.pipeline == 12);
        }
        QVERIFY(bloom);
        for (std::size_t i = 1; i < layouts.size(); ++i) QVERIFY(layouts[i - 1].model_parallel() <= layouts[i].model_parallel());
        // Fixed sizes stay fixed: the scenario's own layout only.
        QCOMPARE(searched_layouts(s, SearchSpace{}).size(), std::size_t(1));
    }

    // Issue 16's check: `recommend --model bloom-176b --gpus 384 --gpu a100-80gb --seq 2048
    // --global-batch 2048 --tp auto --pp auto` proposes a 3D layout that fits, with its step time;
    // the bounded search picks what the exhaustive one picks.
    void auto_search_proposes_a_3d_layout_for_bloom() {
        Scenario s = preset_scenario("bloom-176b", "a100-80gb", 384);
        s.training.global_batch = 2048;
        s.training.seq_len = 2048;
        const Plan p = recommend(s, SearchSpace{true, true});
        QVERIFY(p.feasible);
        QVERIFY(p.best.fit.all());
        QVERIFY(p.best.parallel.tensor > 1 && p.best.parallel.pipeline > 1);
        QVERIFY(p.best.zero.stage <= 1);  // a pipeline runs ZeRO 0/1 only
        QVERIFY(p.best.step.seconds > 0 && std::isfinite(p.best.step.seconds));
        QCOMPARE(with_candidate(s, p.best).training.global_batch, std::int64_t(2048));
        QVERIFY(p.candidates_evaluated > 20 * 1000);
        const Plan all = recommend(s, SearchSpace{true, true}, SearchPruning::Exhaustive);
        QVERIFY(all.best.parallel == p.best.parallel);
        QCOMPARE(all.best.micro_batch, p.best.micro_batch);
        QCOMPARE(all.best.step.seconds, p.best.step.seconds);
        // Plain data parallelism alone cannot hold BLOOM with a 2048 batch on 384 GPUs at all
        // (2048 is not a multiple of 384): the search without auto sizes refuses the batch.
        QVERIFY_THROWS_EXCEPTION(InputError, recommend(s));
    }

    // The layout search's two threads share what each layout found (recommender.cpp FoundSoFar:
    // each setup's fastest feasible point and least GPU peak, the fastest of all) and skip a
    // candidate strictly slower than its setup's fastest and the plan's window; a line whose
    // least-memory bucket (kLeastMemoryBucket) cannot fit is dropped when it cannot be its setup's
    // least-memory point either. Every setup's bar and the plan stay the exhaustive search's,
    // candidate by candidate, whichever thread found the bars first.
    void bounded_layout_search_keeps_every_setup_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<bool>("simplerWithin2Percent");
        // The first two choose a simpler point within 2% of the fastest (the plan's window).
        QTest::newRow("GPT-3 175B, 128 H100") << QStringLiteral("gpt3-175b") << QStringLiteral("h100-80gb") << qint64(128) << qint64(2048)
                                              << qint64(512) << true;
        QTest::newRow("Llama-2-70B, 64 A100-80GB")
            << QStringLiteral("llama-2-70b") << QStringLiteral("a100-80gb") << qint64(64) << qint64(2048) << qint64(512) << true;
        QTest::newRow("BLOOM-176B, 64 V100-32GB")
            << QStringLiteral("bloom-176b") << QStringLiteral("v100-32gb") << qint64(64) << qint64(2048) << qint64(512) << false;
        // No layout runs ZeRO-2 or 3 (2048 sequences split over no pipeline-free layout): nine
        // setups refused everywhere, their bars the least-memory points.
        QTest::newRow("BLOOM-176B, 384 A100-80GB")
            << QStringLiteral("bloom-176b") << QStringLiteral("a100-80gb") << qint64(384) << qint64(2048) << qint64(2048) << false;
        QTest::newRow("Llama-2-70B, 32 A100-40GB, 4k")
            << QStringLiteral("llama-2-70b") << QStringLiteral("a100-40gb") << qint64(32) << qint64(4096) << qint64(256) << false;
    }
    void bounded_layout_search_keeps_every_setup() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(qint64, gpus);
        QFETCH(qint64, seq);
        QFETCH(qint64, globalBatch);
        Scenario s = preset_scenario(model.toStdString().c_str(), gpu.toStdString().c_str(), gpus);
        s.training.seq_len = seq;
        s.training.global_batch = globalBatch;
        const SearchSpace space{true, true};
        QVERIFY(searched_layouts(s, space).size() > 2);  // a thread searches more than one layout: the bars are shared
        const Plan all = recommend(s, space, SearchPruning::Exhaustive);
        // Also with the layouts searched last first, so every bar a layout meets comes from a
        // layout merged after it (a tie goes to the earlier layout).
        for (const SearchPruning pruning : {SearchPruning::Bounds, SearchPruning::BoundsLaterLayoutsFirst}) {
            const Plan bounded = recommend(s, space, pruning);
            QVERIFY(bounded.feasible);
            QVERIFY(bounded.candidates_estimated < all.candidates_estimated);
            expect_same_plan(all, bounded, QString::fromLatin1(QTest::currentDataTag()));
            if (QTest::currentTestFailed()) return;
        }
        // What the rows stand for: BLOOM's nine refused setups, and a plan chosen within 2% of the
        // fastest, simpler (the first two rows).
        QFETCH(bool, simplerWithin2Percent);
        if (gpus == 384) QCOMPARE(std::count(all.per_setup_feasible.begin(), all.per_setup_feasible.end(), false), 9);
        if (simplerWithin2Percent)
            QVERIFY2(std::any_of(all.why.begin(), all.why.end(),
                                 [](const std::string& w) { return w.find("is the simplest") != std::string::npos; }),
                     "the plan is the simplest within 2% of the fastest");
    }

    // The recommended candidate applied to a layout keeps the user's global batch: micro x
    // accumulation x the data-parallel ranks (not every GPU), as train_batch_size counts them.
    void candidate_keeps_the_global_batch_under_a_layout() {
        Scenario s = preset_scenario("bloom-176b", "a100-80gb", 384);
        s.parallel.tensor = 4;
        s.parallel.pipeline = 12;
        s.zero.stage = 1;
        s.training.global_batch = 2048;
        s.training.seq_len = 2048;
        const Plan p = recommend(s);
        QVERIFY(p.feasible);
        QCOMPARE(with_candidate(s, p.best).training.global_batch, std::int64_t(2048));
    }

    // A global batch DeepSpeed's batch rule refuses: the error counts the data-parallel ranks
    // (train_batch_size = micro x accumulation x data-parallel ranks, runtime/config.py
    // _batch_assertion), not the GPUs, and names the nearest batches that split.
    void batch_rule_error_counts_data_parallel_ranks_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("tensor");
        QTest::addColumn<qint64>("globalBatch");
        QTest::addColumn<qint64>("microBatch");
        QTest::addColumn<QString>("advice");
        QTest::newRow("64 GPUs at tensor 8: 8 ranks, 12 -> 8 or 16")
            << qint64(64) << qint64(8) << qint64(12) << qint64(1)
            << QStringLiteral(
                   "over 8 data-parallel GPUs: make it a multiple of micro batch x data-parallel GPUs = 8, such as 8 or 16 (DeepSpeed: ");
        QTest::newRow("24 GPUs, a pretraining batch of 1024 -> 1008 or 1032")
            << qint64(24) << qint64(1) << qint64(1024) << qint64(1) << QStringLiteral("= 24, such as 1008 or 1032 (DeepSpeed: ");
        QTest::newRow("8 GPUs, micro batch 4: 100 -> 96 or 128")
            << qint64(8) << qint64(1) << qint64(100) << qint64(4) << QStringLiteral("= 32, such as 96 or 128 (DeepSpeed: ");
        QTest::newRow("fewer sequences than ranks: 4 on 8 -> 8 alone")
            << qint64(8) << qint64(1) << qint64(4) << qint64(1) << QStringLiteral("= 8, such as 8 (DeepSpeed: ");
    }
    void batch_rule_error_counts_data_parallel_ranks() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, tensor);
        QFETCH(qint64, globalBatch);
        QFETCH(qint64, microBatch);
        QFETCH(QString, advice);
        Scenario s = preset_scenario("llama-2-13b", "a100-80gb", gpus);
        s.zero.stage = 1;
        s.parallel.tensor = tensor;
        s.training.global_batch = globalBatch;
        s.training.micro_batch = microBatch;
        try {
            (void)estimate_step(s);
            QFAIL("the batch rule accepted a global batch that does not split");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(advice), e.what());
        }
    }

    // Korthikanti et al. Table 2, per layer: tensor parallel sbh(10 + 24/t + 5as/(ht)); with
    // sequence parallelism sbh(34/t + 5as/(ht)); selective recompute drops the 5as/(ht) term.
    void korthikanti_table_2_data() {
        QTest::addColumn<qint64>("t");
        QTest::addColumn<bool>("sp");
        QTest::addColumn<double>("sbhFactor");  // the s*b*h coefficient besides the scores
        QTest::newRow("no parallelism: 34") << qint64(1) << false << 34.0;
        QTest::newRow("tensor parallel t=8: 10 + 24/8") << qint64(8) << false << 10.0 + 24.0 / 8;
        QTest::newRow("tensor + sequence parallel t=8: 34/8") << qint64(8) << true << 34.0 / 8;
        QTest::newRow("tensor parallel t=4: 10 + 24/4") << qint64(4) << false << 10.0 + 24.0 / 4;
    }
    void korthikanti_table_2() {
        QFETCH(qint64, t);
        QFETCH(bool, sp);
        QFETCH(double, sbhFactor);
        // GPT-3 175B's layer (Korthikanti Sec. 5): s 2048, h 12288, a 96, b 1.
        const double s = 2048, b = 1, h = 12288, a = 96;
        const LayerActivationBytes l = layer_activation_bytes(korthikanti_gpt(12288, 96), 2048, 1, 2.0, TensorSplit{t, sp});
        QCOMPARE(l.attention + l.mlp + l.norms, s * b * h * sbhFactor);
        QCOMPARE(l.scores, 5.0 * a * s * s * b / static_cast<double>(t));
    }

    // The 1F1B schedule's first stage holds p micro batches of its L/p layers: as many stored
    // activations as the whole model without pipelining (Korthikanti Sec. 4.2.3); the interleaved
    // schedule 1 + (p-1)/(p v) times that.
    void pipeline_first_stage_holds_l_layers() {
        Training tr;
        tr.seq_len = 2048;
        tr.checkpointing = Checkpointing::Selective;
        const ModelSpec m = korthikanti_gpt(12288, 96, 96);
        Parallelism one;
        one.tensor = 8;
        one.sequence_parallel = true;
        Parallelism piped = one;
        piped.pipeline = 8;
        const double flat = activation_bytes(m, tr, {}, one).per_layer_stored;
        QCOMPARE(activation_bytes(m, tr, {}, piped).per_layer_stored, flat);
        piped.virtual_stages = 3;
        QCOMPARE(activation_bytes(m, tr, {}, piped).per_layer_stored, flat * (1.0 + 7.0 / 24.0));
    }

    // The most loaded rank: without pipelining a t-th of the model; with it, the first or last
    // stage (the embedding or the output layer on top of L/p layers), a t-th of that.
    void most_loaded_rank_share() {
        Scenario s = preset_scenario("llama-2-7b", "a100-80gb", 16);
        s.parallel.tensor = 4;
        QCOMPARE(model_parallel_share(s), 0.25);
        s.parallel.pipeline = 2;
        const ModelSpec& m = s.model;
        const double P = static_cast<double>(parameter_count(m));
        const double word = 32000.0 * 4096.0;
        const double layers = P - 2 * word;  // untied input embedding and output layer
        QCOMPARE(model_parallel_share(s), (word + layers / 2) / 4 / P);
        // ZeRO-1's optimizer states of that share, partitioned over 16 / 8 = 2 data-parallel ranks.
        s.zero.stage = 1;
        QCOMPARE(data_parallel_size(s), std::int64_t{2});
        const MemoryBreakdown mb = estimate_memory(s);
        QCOMPARE(mb.optimizer_states_bytes, 12.0 * P * model_parallel_share(s) / 2);
    }

    // DeepSpeed's partition_uniform (deepspeed/runtime/utils.py): floor(L/p) layers per stage, one
    // more on each of the first L mod p. BLOOM's 70 layers on 12 stages: ten of 6, two of 5.
    void stage_layers_data() {
        QTest::addColumn<qlonglong>("layers");
        QTest::addColumn<qlonglong>("pipeline");
        QTest::addColumn<QList<qlonglong>>("expected");
        QTest::newRow("BLOOM 70 layers on 12 stages") << 70LL << 12LL << QList<qlonglong>{6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 5, 5};
        QTest::newRow("GPT-3 96 layers on 8 stages") << 96LL << 8LL << QList<qlonglong>{12, 12, 12, 12, 12, 12, 12, 12};
        QTest::newRow("Llama-2-7b 32 layers on 3 stages") << 32LL << 3LL << QList<qlonglong>{11, 11, 10};
        QTest::newRow("no pipeline") << 32LL << 1LL << QList<qlonglong>{32};
    }
    void stage_layers() {
        QFETCH(qlonglong, layers);
        QFETCH(qlonglong, pipeline);
        QFETCH(QList<qlonglong>, expected);
        QList<qlonglong> got;
        for (std::int64_t i = 0; i < pipeline; ++i) got.push_back(zp::stage_layers(layers, pipeline, i));
        QCOMPARE(got, expected);
    }

    // Each stage's rank (pipeline_stage_memory), BLOOM as it ran (TP 4 x PP 12 x DP 8, ZeRO-1,
    // micro batch 2, full recompute): the stages' parameters add up to the model (with the tied
    // embedding's second copy on the last stage, Megatron's shared embedding group); in 1F1B stage
    // i keeps p - i micro batches of its own layers (Megatron's num_warmup_microbatches + 1); only
    // the last stage computes the loss; no stage's peak exceeds the most loaded rank's estimate.
    void pipeline_stages_of_bloom() {
        Scenario s = preset_scenario("bloom-176b", "a100-80gb", 384);
        s.training.seq_len = 2048;
        s.training.global_batch = 2048;
        s.training.micro_batch = 2;
        s.training.checkpointing = Checkpointing::Full;
        s.parallel.tensor = 4;
        s.parallel.pipeline = 12;
        s.parallel.sequence_parallel = false;
        s.zero.stage = 1;
        const std::vector<MemoryBreakdown> stages = pipeline_stage_memory(s);
        QCOMPARE(stages.size(), std::size_t{12});
        double params = 0;
        for (const MemoryBreakdown& m : stages) params += m.params_bytes;
        const double word = 250880.0 * 14336.0;
        QVERIFY(qAbs(params * 4 / 2 - (static_cast<double>(parameter_count(s.model)) + word)) < 1e-6 * params);
        const MemoryBreakdown most = estimate_memory(s);
        const double layer_input = 2.0 * 2048 * 2 * 14336;  // 2sbh kept per layer with full recompute
        for (std::size_t i = 0; i < stages.size(); ++i) {
            const double in_flight = 12.0 - static_cast<double>(i);
            const double layers = static_cast<double>(zp::stage_layers(70, 12, static_cast<std::int64_t>(i)));
            Scenario one = s;
            one.parallel.pipeline_rank = static_cast<std::int64_t>(i);
            QCOMPARE(activation_bytes(one.model, one.training, {}, one.parallel).per_layer_stored * 70, in_flight * layers * layer_input);
            QVERIFY2(
                stages[i].peak_required_bytes <= most.peak_required_bytes * (1 + 1e-9),
                qPrintable(QStringLiteral("stage %1: %2 > %3").arg(i).arg(stages[i].peak_required_bytes).arg(most.peak_required_bytes)));
            if (i != 11) QVERIFY(stages[i].peak.phase != StepPhase::Loss);
        }
    }

    // What the search reads of a pipelined candidate (memory_peaks): estimate_memory's GPU peak,
    // host RAM and NVMe to the bit; with a limit between the two stages' peaks that the first
    // passes, the first stage's figure alone (the last is not read); the stage given back.
    void memory_peaks_of_a_pipeline_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("tensor");
        QTest::addColumn<int>("pipeline");
        QTest::addColumn<int>("micro");
        QTest::addColumn<bool>("firstStageOverCard");
        QTest::newRow("BLOOM-176B as it ran, TP 4 x PP 12, on 80 GB") << "bloom-176b"
                                                                      << "a100-80gb" << 384 << 4 << 12 << 2 << false;
        QTest::newRow("BLOOM-176B, TP 8 x PP 3 on 40 GB: the first stage over the card") << "bloom-176b"
                                                                                         << "a100-40gb" << 384 << 8 << 3 << 4 << true;
        QTest::newRow("Llama-3-8B, PP 4: the last stage's logits peak") << "llama-3-8b"
                                                                        << "h100-80gb" << 8 << 1 << 4 << 16 << false;
        QTest::newRow("Llama-3-8B, PP 4 on 40 GB: both over the card, the last higher") << "llama-3-8b"
                                                                                        << "a100-40gb" << 8 << 1 << 4 << 16 << true;
        QTest::newRow("Llama-2-70B, TP 8 x PP 4 on 40 GB") << "llama-2-70b"
                                                           << "a100-40gb" << 64 << 8 << 4 << 1 << false;
    }
    void memory_peaks_of_a_pipeline() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(int, gpus);
        QFETCH(int, tensor);
        QFETCH(int, pipeline);
        QFETCH(int, micro);
        QFETCH(bool, firstStageOverCard);
        Scenario s = preset_scenario(model.toStdString().c_str(), gpu.toStdString().c_str(), gpus);
        s.parallel.tensor = tensor;
        s.parallel.pipeline = pipeline;
        s.zero.stage = 1;
        s.training.micro_batch = micro;
        s.training.global_batch = 2048;
        s.training.checkpointing = Checkpointing::Full;
        const MemoryBreakdown m = estimate_memory(s);
        Scenario x = s;
        MemoryMemo memo;
        const MemoryPeaks peaks = memory_peaks(x, memo);
        QVERIFY(peaks.gpu_required_bytes == m.peak_required_bytes);
        if (check_fit(s, m).gpu) {
            QVERIFY(peaks.cpu_bytes_per_node == m.cpu_bytes_per_node);
            QVERIFY(peaks.nvme_bytes_per_node == m.nvme_bytes_per_node);
        }
        QCOMPARE(x.parallel.pipeline_rank, s.parallel.pipeline_rank);
        // Asked with a limit the first stage passes, the first stage's peak alone, as estimate_memory
        // reads that stage; a limit below the card's usable memory counts as that memory.
        Scenario first = s;
        first.parallel.pipeline_rank = 0;
        const double first_bytes = estimate_memory(first).peak_required_bytes;
        QCOMPARE(first_bytes > usable_gpu_bytes(s), firstStageOverCard);
        MemoryMemo fresh;
        const double cut = memory_peaks(x, fresh, 0.0).gpu_required_bytes;
        QVERIFY(cut == (firstStageOverCard ? first_bytes : m.peak_required_bytes));
        QCOMPARE(x.parallel.pipeline_rank, s.parallel.pipeline_rank);
    }

    // The most loaded pipeline rank is whichever of the first and last stages peaks higher: with
    // Llama-3's 128,256-token vocabulary the last stage's logits and loss outweigh the first
    // stage's micro batches in flight, and the fit check sees them (review of the per-stage work).
    void most_loaded_stage_is_the_larger_of_first_and_last() {
        Scenario s = preset_scenario("llama-3-8b", "h100-80gb", 8);
        s.parallel.pipeline = 4;
        s.zero.stage = 1;
        s.training.micro_batch = 16;
        s.training.global_batch = 64;
        s.training.checkpointing = Checkpointing::Full;
        const std::vector<MemoryBreakdown> stages = pipeline_stage_memory(s);
        double worst = 0;
        for (const MemoryBreakdown& m : stages) worst = std::max(worst, m.peak_required_bytes);
        const MemoryBreakdown most = estimate_memory(s);
        QCOMPARE(most.peak_required_bytes, worst);
        QVERIFY(stages.back().peak_required_bytes > stages.front().peak_required_bytes);
        QCOMPARE(most.peak.phase, StepPhase::Loss);
        QVERIFY(!check_fit(s, most).gpu);
    }

    // The rank a one-rank picture (the step view's timeline) draws is the stage whose peak the fit
    // uses (fit_deciding_stage): its estimate is estimate_memory's, and its timeline's peak is the
    // reported peak. Llama-3's large vocabulary makes the last stage decide; a small vocabulary
    // with no recompute leaves it to the first stage's micro batches in flight.
    void fit_deciding_stage_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("t");
        QTest::addColumn<qint64>("p");
        QTest::addColumn<qint64>("micro");
        QTest::addColumn<int>("recompute");
        QTest::addColumn<qint64>("stage");
        QTest::newRow("Llama-3-8B PP 4, micro 16, full recompute: the last (logits and loss)")
            << "llama-3-8b" << qint64(8) << qint64(1) << qint64(4) << qint64(16) << int(Checkpointing::Full) << qint64(3);
        QTest::newRow("Llama-2-7B PP 4, micro 1, no recompute: the first (4 micro batches in flight)")
            << "llama-2-7b" << qint64(8) << qint64(1) << qint64(4) << qint64(1) << int(Checkpointing::None) << qint64(0);
        QTest::newRow("BLOOM-176B TP 4 x PP 12, micro 2, full recompute: the first (12 micro batches in flight)")
            << "bloom-176b" << qint64(384) << qint64(4) << qint64(12) << qint64(2) << int(Checkpointing::Full) << qint64(0);
        QTest::newRow("Llama-2-7B without pipelining: no stage")
            << "llama-2-7b" << qint64(8) << qint64(1) << qint64(1) << qint64(1) << int(Checkpointing::None) << qint64(-1);
    }
    void fit_deciding_stage() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, t);
        QFETCH(qint64, p);
        QFETCH(qint64, micro);
        QFETCH(int, recompute);
        QFETCH(qint64, stage);
        Scenario s = preset_scenario(model.toUtf8().constData(), "a100-80gb", gpus);
        s.parallel.tensor = t;
        s.parallel.pipeline = p;
        s.zero.stage = 1;
        s.training.seq_len = 2048;
        s.training.micro_batch = micro;
        s.training.global_batch = micro * 16 * data_parallel_size(s);
        s.training.checkpointing = static_cast<Checkpointing>(recompute);
        QCOMPARE(zp::fit_deciding_stage(s), stage);
        const Scenario at = at_fit_deciding_stage(s);
        QCOMPARE(at.parallel.pipeline_rank, stage);
        const MemoryBreakdown most = estimate_memory(s);
        QCOMPARE(estimate_memory(at).peak_required_bytes, most.peak_required_bytes);
        const StepPeak peak = step_peak(step_timeline(at, TimelineDetail::EveryLayer), at, reservable_gpu_bytes(at));
        QCOMPARE(peak.allocated_bytes, most.peak_allocated_bytes);
        // A stage named stays the one drawn.
        s.parallel.pipeline_rank = p > 1 ? 1 : -1;
        QCOMPARE(zp::fit_deciding_stage(s), p > 1 ? qint64(1) : qint64(-1));
    }

    // The scaling curves' GPU counts keep a layout that exists there: Ulysses a degree dividing the
    // GPUs, experts one dividing the data-parallel ranks (with_gpu_count).
    void fewer_gpus_keep_a_valid_layout() {
        Scenario s = preset_scenario("llama-3-8b", "h100-80gb", 16);
        s.parallel.ulysses = 8;
        QCOMPARE(with_gpu_count(s, 4, 8).parallel.ulysses, std::int64_t{4});
        Scenario m = preset_scenario("mixtral-8x7b", "h100-80gb", 16);
        m.parallel.expert = 8;
        QCOMPARE(with_gpu_count(m, 2, 8).parallel.expert, std::int64_t{2});
    }

    // Narayanan et al. 2021 Sec. 2.2: with equal stages the bubble is (p-1) micro steps of a stage,
    // (p-1)/v interleaved. With unequal ones it is what the stages other than the slowest take (a
    // flow shop's makespan: the stages' sum plus m - 1 times the largest): the last stage carries the
    // LM head, so the other three add less than three of its micro steps, and the more so the larger
    // the vocabulary; with a head of a few columns the stages are equal again.
    void pipeline_bubble() {
        Scenario s = llama2_13b_tp8_pp4();
        const StepTime st = estimate_step(s);
        const double bubble = st.pipeline_bubble_seconds / st.compute.micro_step_seconds;
        QVERIFY2(bubble < 3.0 && bubble > 2.8, qPrintable(QString::number(bubble)));
        Scenario interleaved = s;
        interleaved.parallel.virtual_stages = 2;
        const StepTime si = estimate_step(interleaved);
        QCOMPARE(si.pipeline_bubble_seconds / si.compute.micro_step_seconds, bubble / 2.0);
        Scenario tiny_head = s;
        tiny_head.model.vocab = 8;
        const StepTime equal = estimate_step(tiny_head);
        QVERIFY2(std::abs(equal.pipeline_bubble_seconds / equal.compute.micro_step_seconds - 3.0) < 0.01,
                 qPrintable(QString::number(equal.pipeline_bubble_seconds / equal.compute.micro_step_seconds)));
        Scenario wide_head = s;
        wide_head.model.vocab = 250880;
        const StepTime wide = estimate_step(wide_head);
        QVERIFY(wide.pipeline_bubble_seconds / wide.compute.micro_step_seconds < bubble);
        QVERIFY(st.tensor_parallel_seconds > 0 && st.pipeline_p2p_seconds > 0);
    }

    // The slowest pipeline stage sets every 1F1B slot (Narayanan et al. 2021 Sec. 2.2.1): the first,
    // with ceil(L/p) layers (DeepSpeed gives the extra layers to the first stages), or the last, with
    // its layers and the LM head and loss whole (Megatron-LM's post_process; Megatron-DeepSpeed's
    // GPTModelPipe 'type:transformer': the head in the last partition). BigScience's 181B
    // candidate (hidden 14336, vocabulary 250,880: the head about one layer) and the same at GPT-2's
    // 50,257 words, at tensor 8, micro batch 1.
    void slowest_pipeline_stage_data() {
        QTest::addColumn<std::int64_t>("layers");
        QTest::addColumn<std::int64_t>("pipeline");
        QTest::addColumn<std::int64_t>("vocab");
        QTest::addColumn<double>("stage_layers");
        QTest::addColumn<bool>("last");
        QTest::newRow("72 layers / 12 stages, BLOOM's vocabulary: the last, 6 + head")
            << std::int64_t{72} << std::int64_t{12} << std::int64_t{250880} << 6.0 << true;
        QTest::newRow("70 layers / 12 stages, BLOOM's vocabulary: the last, 5 + head")
            << std::int64_t{70} << std::int64_t{12} << std::int64_t{250880} << 5.0 << true;
        QTest::newRow("70 layers / 12 stages, GPT-2's vocabulary: the first, 6")
            << std::int64_t{70} << std::int64_t{12} << std::int64_t{50257} << 6.0 << false;
        QTest::newRow("72 layers / 2 stages, BLOOM's vocabulary: the last, 36 + head")
            << std::int64_t{72} << std::int64_t{2} << std::int64_t{250880} << 36.0 << true;
    }
    void slowest_pipeline_stage() {
        QFETCH(std::int64_t, layers);
        QFETCH(std::int64_t, pipeline);
        QFETCH(std::int64_t, vocab);
        QFETCH(double, stage_layers);
        QFETCH(bool, last);
        Scenario s = preset_scenario("gpt3-175b", "a100-80gb", 8 * pipeline);
        s.model.layers = layers;
        s.model.hidden = 14336;
        s.model.heads = s.model.kv_heads = 64;
        s.model.head_dim = 0;
        s.model.ffn = 4 * 14336;
        s.model.vocab = vocab;
        s.parallel.tensor = 8;
        s.parallel.pipeline = pipeline;
        s.zero.stage = 1;
        s.training.micro_batch = 1;
        s.training.auto_micro_batch = false;
        s.training.global_batch = 64;
        const std::int64_t gas = 64;
        const ComputeTime whole =
            compute_time(s.model, s.training, s.cluster.gpu, gas, 0.0, 1.0,
                         {.host_seconds_per_kernel = s.assumptions.host_seconds_per_kernel}, s.finetune, 0.0, {.tensor = 8});
        const ComputeTime stage = pipeline_stage_time(whole, stage_layers, static_cast<double>(layers), gas, last);
        // The head whole on the last stage, nowhere else; the layers at their share.
        const double head = whole.head_forward_seconds + whole.head_backward_seconds;
        const double expected = (whole.micro_step_seconds - head) * stage_layers / static_cast<double>(layers) + (last ? head : 0.0);
        QVERIFY(std::abs(stage.micro_step_seconds - expected) <= 1e-12 * expected);
        QVERIFY(head > 0);
        // estimate_step takes that stage (compute before gradient accumulation, which stage 1 adds).
        Scenario fused = s;
        fused.training.gradient_accumulation = GradientAccumulation::Fused;
        const StepTime st = estimate_step(fused);
        QVERIFY2(std::abs(st.compute.micro_step_seconds / stage.micro_step_seconds - 1) < 1e-9,
                 qPrintable(QStringLiteral("%1 against %2").arg(st.compute.micro_step_seconds).arg(stage.micro_step_seconds)));
    }

    // What a stage sends per tensor rank each micro step (Parallelism::pipeline_send): DeepSpeed's
    // PipelineEngine (the default) a t-th of the activation, 2 s b h / t bytes, forward and its
    // gradient back, each all-gathered over the tensor ranks at the receiver on NVLink
    // (runtime/pipe/engine.py PartitionedTensor: pipe_partitioned, grad_partitioned), as
    // Megatron-LM's scatter/gather (Narayanan Sec. 4.1); Megatron-Core the whole activation; with
    // sequence parallelism a t-th and nothing to gather. Llama-2 13B (hidden 5120) at tensor 8 x
    // pipeline 4 on 8 DGX A100 nodes: a stage fills a node, so the sends cross the network, one
    // 200 Gb/s NIC per GPU at 0.9 (collectives.h): 22.5 GB/s; the gather is a ring over 8 GPUs.
    void pipeline_sends_per_tensor_rank() {
        Scenario s = llama2_13b_tp8_pp4();
        s.training.seq_len = 4096;
        const double G = 32, latency = s.assumptions.collective_latency_seconds;
        const double activation = 2.0 * 4096 * 5120;
        const double link = 22.5e9;
        const double gather = 7.0 / 8.0 * activation / (intra_node_bus_gbytes_per_s(s.cluster) * 1e9) + latency;
        QCOMPARE(int(s.parallel.pipeline_send), int(PipelineSend::ScatterGather));
        QVERIFY(std::abs(estimate_step(s).pipeline_p2p_seconds - G * 2 * (activation / 8 / link + latency + gather)) < 1e-9);
        s.parallel.pipeline_send = PipelineSend::Whole;
        QVERIFY(std::abs(estimate_step(s).pipeline_p2p_seconds - G * 2 * (activation / link + latency)) < 1e-9);
        s.parallel.sequence_parallel = true;
        QVERIFY(std::abs(estimate_step(s).pipeline_p2p_seconds - G * 2 * (activation / 8 / link + latency)) < 1e-9);
        s.parallel.pipeline_send = PipelineSend::ScatterGather;
        QVERIFY(std::abs(estimate_step(s).pipeline_p2p_seconds - G * 2 * (activation / 8 / link + latency)) < 1e-9);
    }

    // DeepSpeed's partitioned checkpoints (checkpointing.py gather_partitioned_activations): one
    // all_gather of a layer's input (2 s b h bytes) over the tensor ranks before each recomputed
    // layer, every micro step, beside Megatron's four forward and backward all-reduces and the
    // recompute's two. Sequence parallelism splits the inputs already: nothing more there.
    void partitioned_checkpoints_gather_data() {
        QTest::addColumn<bool>("sequence_parallel");
        QTest::newRow("Llama-2 13B, tensor 8, full recompute: one gather a layer") << false;
        QTest::newRow("the same with sequence parallelism: none") << true;
    }
    void partitioned_checkpoints_gather() {
        QFETCH(bool, sequence_parallel);
        Scenario s = preset_scenario("llama-2-13b", "a100-80gb", 64);
        s.zero.stage = 1;
        s.training.micro_batch = 1;
        s.training.global_batch = 64;
        s.training.checkpointing = Checkpointing::Full;
        s.parallel.tensor = 8;
        s.parallel.sequence_parallel = sequence_parallel;
        const StepTime whole = estimate_step(s);
        s.training.partition_activations = true;
        const StepTime split = estimate_step(s);
        const double layer_input = 2.0 * 4096.0 * 1.0 * 5120.0;  // bf16 s b h
        const double G = static_cast<double>(whole.gradient_accumulation_steps);
        const double gathers = sequence_parallel ? 0.0
                                                 : 40.0 * G *
                                                       (allgather_seconds(layer_input, 8, intra_node_bus_gbytes_per_s(s.cluster)) +
                                                        s.assumptions.collective_latency_seconds);
        QCOMPARE(split.tensor_parallel_seconds - whole.tensor_parallel_seconds, gathers);
        QCOMPARE(split.compute_seconds, whole.compute_seconds);
    }

    // With a pipeline the recommender keeps to ZeRO 0/1 and says why not the others.
    void recommender_keeps_pipelines_on_zero_0_1() {
        Scenario s = preset_scenario("llama-2-13b", "a100-80gb", 64);
        s.parallel.tensor = 8;
        s.parallel.pipeline = 2;
        s.zero.stage = 1;
        const Plan plan = recommend(s);
        QVERIFY(plan.feasible);
        QVERIFY(plan.best.zero.stage <= 1);
        int refused = 0;
        for (const auto& r : plan.rejected)
            if (r.reason.find("ZeRO stage 0 or 1 only") != std::string::npos) ++refused;
        QCOMPARE(refused, 9);  // ZeRO-2, ZeRO-2 + CPU optimizer and the seven ZeRO-3 setups
    }

    void constraints_data() {
        QTest::addColumn<qint64>("tp");
        QTest::addColumn<qint64>("pp");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("error");
        QTest::newRow("TP across nodes") << qint64(16) << qint64(1) << 1 << QStringLiteral("must divide the 8 GPUs per node");
        QTest::newRow("PP with ZeRO-2") << qint64(1) << qint64(2) << 2 << QStringLiteral("incompatible with pipeline parallelism");
        QTest::newRow("GPUs not a multiple") << qint64(8) << qint64(3) << 1 << QStringLiteral("must be a multiple of 24");
        QTest::newRow("more stages than layers") << qint64(1) << qint64(32) << 1 << QString();  // 32 layers: one a stage
        QTest::newRow("TP 8 with ZeRO-3 is allowed") << qint64(8) << qint64(1) << 3 << QString();
    }
    void constraints() {
        QFETCH(qint64, tp);
        QFETCH(qint64, pp);
        QFETCH(int, stage);
        QFETCH(QString, error);
        Scenario s = preset_scenario("llama-2-7b", "a100-80gb", 32);
        s.parallel.tensor = tp;
        s.parallel.pipeline = pp;
        s.zero.stage = stage;
        try {
            validate(s);
            QVERIFY2(error.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QVERIFY2(!error.isEmpty() && QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }

    // BLOOM-176B (bigscience tr11 chronicles, measured_runs.json): TP 4 x PP 12 x DP 8 on 384
    // A100s, 149 TFLOP/s per GPU measured; within validate's 15%.
    void bloom_176b() {
        const auto report = validation::validate_cases(bundled_measured_runs());
        bool seen = false;
        for (const auto& r : report.rows)
            if (r.id == "M52") {
                seen = true;
                QVERIFY2(r.ok, qPrintable(QStringLiteral("ratio %1").arg(r.ratio)));
            }
        QVERIFY(seen);
    }
};

ZP_TEST_APPLESS_MAIN(TestParallelism)
#include "tst_parallelism.moc"
