// The window's one-call summary (core/search/overview.cpp): the bars are the seven overview setups
// in their fixed order, and the recommended one where it is another; when the plan or the batch split is invalid the bars fall back to plain
// estimates; the scaling series run 1, 2, 4 ... 4096 GPUs for stages 0-3. Each point is the
// estimate of the plan at that count (the step's peak, which tst_step_timeline and
// tst_memory_model pin with hand-computed figures), and its model states are the stage's formula.
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/presets/model_presets.h"
#include "core/search/overview.h"
#include "core/search/scenario_edits.h"
#include "test_util.h"

#include "test_main.h"

using namespace zp;

namespace {
// GPT-2 124M on one node of 8 A100-80GB-like GPUs, sequence 1024, bf16 AdamW, no flash attention,
// 2e8 buckets with overlap_comm, DeepSpeed's accounting: every input the totals depend on is set here.
Scenario gpt2_on_8() {
    Scenario s;
    s.model = model_preset("gpt2").spec;
    s.model.activation =
        MlpActivation::Fused;  // its shape with a fused activation: the layer tests/hand_calculations.py counts (Korthikanti's)
    s.cluster.nodes = 1;
    s.cluster.gpus_per_node = 8;
    s.cluster.gpu.memory_gib = 80;
    s.cluster.gpu.peak_tflops_16bit = 312;
    s.cluster.cpu_ram_bytes_per_node = 2048.0 * 1024 * 1024 * 1024;
    s.cluster.nvme_bytes_per_node = 30720.0 * 1024 * 1024 * 1024;
    s.training.precision = Precision::Bf16;
    s.training.optimizer = Optimizer::AdamW;
    s.training.seq_len = 1024;
    s.training.micro_batch = 1;
    s.training.global_batch = 64;
    s.training.checkpointing = Checkpointing::None;
    s.training.flash_attention = false;
    s.zero.overlap_comm = true;
    s.zero.reduce_bucket_elems = s.zero.allgather_bucket_elems = 2e8;
    s.zero.stage3_prefetch_bucket_elems = 5e7;
    s.zero.stage3_max_live_parameters = 1e9;
    s.assumptions.convention = Convention::DeepSpeed;
    s.assumptions.cuda_context_bytes = 1024.0 * 1024 * 1024;
    return s;
}

// The seven bars of the memory and time views, in order (docs/design.md §6.4): DDP, ZeRO-1, -2, -3,
// ZeRO-2 + CPU, ZeRO-3 + CPU (optimizer and parameters), ZeRO-3 + NVMe (both).
const SetupKey kBars[] = {
    {0, OffloadDevice::None, OffloadDevice::None}, {1, OffloadDevice::None, OffloadDevice::None},
    {2, OffloadDevice::None, OffloadDevice::None}, {3, OffloadDevice::None, OffloadDevice::None},
    {2, OffloadDevice::Cpu, OffloadDevice::None},  {3, OffloadDevice::Cpu, OffloadDevice::Cpu},
    {3, OffloadDevice::Nvme, OffloadDevice::Nvme},
};

bool same_candidate(const Candidate& a, const Candidate& b) {
    return a.zero == b.zero && a.checkpointing == b.checkpointing && a.micro_batch == b.micro_batch &&
           a.gradient_accumulation_steps == b.gradient_accumulation_steps && a.memory.total_bytes() == b.memory.total_bytes() &&
           a.step.seconds == b.step.seconds;
}
}  // namespace

class TestOverview : public QObject {
    Q_OBJECT
private slots:
    // A valid plan: each bar is exactly the plan's candidate for that setup.
    void bars_are_the_overview_setups_in_order() {
        const Scenario s = gpt2_on_8();
        const Overview o = compute_overview(s);
        QVERIFY(o.step_valid);
        QVERIFY(o.plan_valid);
        QVERIFY(o.step_error.empty());
        QVERIFY(o.plan_error.empty());
        QVERIFY(o.plan.feasible);
        QCOMPARE(o.bars.size(), std::size(kBars));
        for (std::size_t i = 0; i < o.bars.size(); ++i) {
            QCOMPARE(setup_key(o.bars[i].zero), kBars[i]);
            bool found = false;
            for (const Candidate& c : o.plan.per_setup)
                if (setup_key(c.zero) == kBars[i]) {
                    QVERIFY2(same_candidate(o.bars[i], c), setup_label(kBars[i]).c_str());
                    found = true;
                }
            QVERIFY(found);
            QVERIFY(o.bars[i].step.seconds > 0);
            QCOMPARE(o.bars[i].micro_batch * o.bars[i].gradient_accumulation_steps * 8, std::int64_t(64));
        }
    }

    // The recommended setup is always a bar the views can mark: Llama-2 70B on 8 A100 80GB fits
    // only with the optimizer on the CPU, and ZeRO-3 with the optimizer alone offloaded (a row
    // outside the seven) is the plan. Its bar joins the seven in the rows' order, after ZeRO-3 + CPU
    // optimizer's place (between ZeRO-2 + CPU and ZeRO-3 + CPU for both).
    void bars_include_the_recommended_setup() {
        const Scenario s = zp::test::preset_scenario("llama-2-70b", "a100-80gb", 8);
        const Overview o = compute_overview(s);
        QVERIFY(o.plan_valid && o.plan.feasible);
        const SetupKey best = setup_key(o.plan.best.zero);
        QCOMPARE(best, (SetupKey{3, OffloadDevice::Cpu, OffloadDevice::None}));
        QCOMPARE(o.bars.size(), std::size(kBars) + 1);
        QCOMPARE(setup_key(o.bars[5].zero), best);
        const std::vector<ZeroSetup> setups = bar_setups(o);
        QCOMPARE(setups.size(), o.bars.size());
        for (std::size_t i = 0, k = 0; i < o.bars.size(); ++i) {
            QCOMPARE(setup_key(setups[i]), setup_key(o.bars[i].zero));
            if (i == 5) continue;
            QCOMPARE(setup_key(o.bars[i].zero), kBars[k++]);
        }
        // Where the plan is one of the seven, the seven alone (GPT-2 on 8 GPUs: above).
        QCOMPARE(compute_overview(gpt2_on_8()).bars.size(), std::size(kBars));
    }

    // The scaling curves with micro batch 1 and no recompute (the only ones the search may use
    // here), at every power of two from 1 to 4096 GPUs: each point is what must fit at that count
    // (the step's peak, the fit's quantity: MemoryBreakdown::peak_required_bytes), and the model
    // states under it follow the stage's formula, DeepSpeed's bytes per parameter P = 124,439,808:
    // DDP 20P, ZeRO-1 4P + 16P/N, ZeRO-2 2P + 18P/N, ZeRO-3 18P/N.
    void scaling_series_data() {
        QTest::addColumn<int>("stage");
        QTest::addColumn<double>("whole");
        QTest::addColumn<double>("partitioned");
        QTest::newRow("DDP: 20P whatever the GPU count") << 0 << 20.0 << 0.0;
        QTest::newRow("ZeRO-1: 4P + 16P/N") << 1 << 4.0 << 16.0;
        QTest::newRow("ZeRO-2: 2P + 18P/N") << 2 << 2.0 << 18.0;
        QTest::newRow("ZeRO-3: 18P/N") << 3 << 0.0 << 18.0;
    }
    void scaling_series() {
        QFETCH(int, stage);
        QFETCH(double, whole);
        QFETCH(double, partitioned);
        Scenario s = gpt2_on_8();
        s.training.auto_micro_batch = false;
        s.training.auto_checkpointing = false;
        const Overview o = compute_overview(s);
        QVERIFY(o.plan_valid && o.plan.feasible);
        QCOMPARE(o.scaling.size(), std::size_t(4));
        const ScalingSeries& series = o.scaling[static_cast<std::size_t>(stage)];
        QCOMPARE(series.stage, stage);
        QCOMPARE(series.points.size(), std::size_t(13));
        const double P = 124439808.0;
        ZeroSetup z;
        z.stage = stage;
        for (std::size_t i = 0; i < series.points.size(); ++i) {
            const std::int64_t gpus = std::int64_t(1) << i;
            QCOMPARE(series.points[i].gpus, gpus);
            const Scenario v = with_gpu_count(with_setup(s, z), gpus, 8);
            ZP_COMPARE_NEAR(series.points[i].required_bytes, estimate_memory(v).peak_required_bytes);
            ZP_COMPARE_NEAR(timeline_inputs(v).states.total(), (whole + partitioned / static_cast<double>(gpus)) * P);
        }
    }

    // Each stage's curve is drawn at its bar's layout, micro batch, recompute and buckets, so at the
    // scenario's GPU count it passes through the bar: BLOOM-176B at tensor 4 x pipeline 12 on 384
    // GPUs (a count between the powers of two, added to the curve: a pipeline of 12 fits neither 256
    // nor 512 GPUs) and GPT-2 on 8.
    void curves_pass_through_their_bars_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("tensor");
        QTest::addColumn<qint64>("pipeline");
        QTest::newRow("BLOOM-176B, 384 GPUs, tensor 4 x pipeline 12")
            << QStringLiteral("bloom-176b") << qint64(384) << qint64(4) << qint64(12);
        QTest::newRow("GPT-2, 8 GPUs") << QStringLiteral("gpt2") << qint64(8) << qint64(1) << qint64(1);
    }
    void curves_pass_through_their_bars() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, tensor);
        QFETCH(qint64, pipeline);
        Scenario s = zp::test::preset_scenario(model.toStdString().c_str(), "a100-80gb", gpus);
        s.parallel.tensor = tensor;
        s.parallel.pipeline = pipeline;
        s.training.seq_len = 2048;
        s.training.global_batch = 2048;
        const Overview o = compute_overview(s);
        QVERIFY(o.plan_valid);
        for (const ScalingSeries& series : o.scaling) {
            const auto at = std::find_if(series.points.begin(), series.points.end(), [&](const ScalingPoint& p) { return p.gpus == gpus; });
            QVERIFY(at != series.points.end());
            QVERIFY(std::is_sorted(series.points.begin(), series.points.end(),
                                   [](const ScalingPoint& a, const ScalingPoint& b) { return a.gpus < b.gpus; }));
            const auto bar = std::find_if(o.bars.begin(), o.bars.end(), [&](const Candidate& c) {
                return setup_key(c.zero) == SetupKey{series.stage, OffloadDevice::None, OffloadDevice::None};
            });
            QVERIFY(bar != o.bars.end());
            ZP_COMPARE_NEAR(at->required_bytes, bar->memory.peak_required_bytes);
        }
    }

    // Nodes of 6 GPUs do not divide 8, 16, ...: those points use nodes of one GPU instead of failing.
    void scaling_with_an_odd_node_size() {
        Scenario s = gpt2_on_8();
        s.cluster.gpus_per_node = 6;
        s.training.global_batch = 72;
        const Overview o = compute_overview(s);
        QVERIFY(o.plan_valid);
        QCOMPARE(o.scaling.size(), std::size_t(4));
        // 13 powers of two and the scenario's own 6 GPUs between them
        for (const ScalingSeries& series : o.scaling) {
            QCOMPARE(series.points.size(), std::size_t(14));
            QCOMPARE(series.points[3].gpus, std::int64_t(6));
        }
    }

    // Global batch 16 with micro batch 4 on 8 GPUs is not a whole number of accumulation steps, but
    // the search can still use micro batch 1 or 2: the bars are the plan's, the step is flagged.
    void invalid_step_keeps_the_plan() {
        Scenario s = gpt2_on_8();
        s.training.global_batch = 16;
        s.training.micro_batch = 4;
        const Overview o = compute_overview(s);
        QVERIFY(!o.step_valid);
        QVERIFY(!o.step_error.empty());
        QVERIFY(o.plan_valid);
        QCOMPARE(o.bars.size(), std::size(kBars));
        for (std::size_t i = 0; i < o.bars.size(); ++i) {
            QCOMPARE(setup_key(o.bars[i].zero), kBars[i]);
            QVERIFY(o.bars[i].step.seconds > 0);
            QCOMPARE(o.bars[i].micro_batch * o.bars[i].gradient_accumulation_steps * 8, std::int64_t(16));
        }
    }

    // A fixed micro batch of 3 with the automatic global batch: the search raises the batch to 72
    // (3 x 3 x 8) as the step does, so there is a plan (until 2026-11-29 it refused that 64 does not
    // split, and the bars fell back to the scenario as given). Each bar is its setup at micro batch 3,
    // 3 accumulation steps, and what must fit is that setup's estimate. The scaling curves keep micro
    // batch 3 (auto is off), so DDP's is flat.
    void fixed_micro_batch_plans_at_the_raised_batch() {
        Scenario s = gpt2_on_8();
        s.training.global_batch = 0;
        s.training.micro_batch = 3;
        s.training.auto_micro_batch = false;
        const Overview o = compute_overview(s);
        QVERIFY(o.step_valid);
        QVERIFY2(o.plan_valid, o.plan_error.c_str());
        QCOMPARE(o.bars.size(), std::size(kBars));
        for (std::size_t i = 0; i < o.bars.size(); ++i) {
            QCOMPARE(setup_key(o.bars[i].zero), kBars[i]);
            QCOMPARE(o.bars[i].micro_batch, std::int64_t(3));
            QCOMPARE(o.bars[i].gradient_accumulation_steps, std::int64_t(3));
            QVERIFY(o.bars[i].step.seconds > 0);
        }
        // Each bar is its setup's estimate at micro batch 3: what must fit, the step's peak.
        for (std::size_t i : {std::size_t(0), std::size_t(3)})
            ZP_COMPARE_NEAR(o.bars[i].memory.total_bytes(), estimate_memory(with_candidate(s, o.bars[i])).peak_required_bytes);
        // DDP keeps 20P whatever the GPU count: its curve is flat.
        ZP_COMPARE_NEAR(o.scaling[0].points[0].required_bytes, o.scaling[0].points[12].required_bytes);
    }

    // Global batch 12 on 8 GPUs: neither the step nor any plan exists. The bars are memory-only
    // estimates of the scenario as given (micro batch 1, no recompute), with every step field zero.
    // The scaling curves use the least-memory settings instead, micro batch 1 with full recompute
    // (activations 12 x 2sbh + one whole layer + logits = 18,874,368 + 89,653,248 + 311,924,736 =
    // 420,452,352): lower than the bars' no-recompute estimate at the same 8 GPUs.
    void nothing_valid_falls_back_to_memory_only() {
        Scenario s = gpt2_on_8();
        s.training.global_batch = 12;
        const Overview o = compute_overview(s);
        QVERIFY(!o.step_valid);
        QVERIFY(!o.plan_valid);
        QVERIFY(!o.step_error.empty());
        QVERIFY(!o.plan_error.empty());
        QCOMPARE(o.bars.size(), std::size(kBars));
        for (std::size_t i = 0; i < o.bars.size(); ++i) {
            QCOMPARE(setup_key(o.bars[i].zero), kBars[i]);
            QCOMPARE(o.bars[i].micro_batch, std::int64_t(1));
            QCOMPARE(o.bars[i].checkpointing, Checkpointing::None);
            QCOMPARE(o.bars[i].step.seconds, 0.0);
            QCOMPARE(o.bars[i].step.tokens_per_second, 0.0);
            QVERIFY(o.bars[i].fit.gpu);
        }
        Scenario as_given = s;
        as_given.training.micro_batch = 1;
        as_given.training.checkpointing = Checkpointing::None;
        for (std::size_t i : {std::size_t(0), std::size_t(5)})
            ZP_COMPARE_NEAR(o.bars[i].memory.total_bytes(), estimate_memory(with_setup(as_given, o.bars[i].zero)).peak_required_bytes);
        QVERIFY(o.scaling[0].points[3].required_bytes < o.bars[0].memory.total_bytes());
        QVERIFY(o.scaling[3].points[12].required_bytes < o.scaling[0].points[12].required_bytes);
    }
};

ZP_TEST_APPLESS_MAIN(TestOverview)
#include "tst_overview.moc"
