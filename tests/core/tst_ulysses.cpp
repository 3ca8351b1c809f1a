// DeepSpeed-Ulysses sequence parallelism (Parallelism::ulysses, DeepSpeed's sequence_parallel_size):
// ZeRO over data x sequence ranks, the batch rule over data ranks only, activations per rank with
// s -> s/u (Korthikanti's per-layer formula), the four all-to-alls per attention layer and pass
// (deepspeed/sequence/layer.py; Jacobs et al. 2023, arXiv 2309.14509 Sec. 3.2), the constraints
// DeepSpeed and Megatron-DeepSpeed enforce, the ds_config key, its lint, and the search.
// Covers core/model/scenario.{h,cpp}, core/memory/activations.cpp, core/time/step_time.cpp,
// core/model/parallel_layout.cpp, core/deepspeed/{config_export,config_import,lint}.cpp,
// core/io/scenario_json.cpp and core/search/recommender.cpp.
#include "core/base/errors.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/lint.h"
#include "core/deepspeed/megatron_launch.h"
#include "core/io/scenario_json.h"
#include "core/memory/activations.h"
#include "core/memory/memory_model.h"
#include "core/model/parallel_layout.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/time/collectives.h"
#include "core/time/step_explain.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;
using zp::test::korthikanti_gpt;
using zp::test::preset_scenario;

namespace {

// Llama-3-8B at 32k tokens on `gpus` A100s with ZeRO-3 and Ulysses `u` (the README's example).
Scenario llama_32k(std::int64_t gpus, std::int64_t u) {
    Scenario s = preset_scenario("llama-3-8b", "a100-80gb", gpus);
    s.training.seq_len = 32768;
    s.training.micro_batch = 1;
    s.training.global_batch = 64;
    s.zero.stage = 3;
    s.parallel.ulysses = u;
    return s;
}

}  // namespace

class TestUlysses : public QObject {
    Q_OBJECT
private slots:
    // utils/groups.py _get_sequence_data_parallel_group: ZeRO shards over data x sequence ranks;
    // runtime/config.py: the batch rule's world_size is the world over sequence_parallel_size.
    void partition_group_data() {
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("u");
        QTest::addColumn<qint64>("dp");
        QTest::addColumn<qint64>("zero");
        QTest::newRow("groups.py: 8 GPUs, SP 8 -> DP 1, ZeRO over 8") << qint64(8) << qint64(8) << qint64(1) << qint64(8);
        QTest::newRow("groups.py: 16 GPUs, SP 2 -> DP 8, ZeRO over 16") << qint64(16) << qint64(2) << qint64(8) << qint64(16);
        QTest::newRow("no Ulysses: ZeRO over the data-parallel ranks") << qint64(16) << qint64(1) << qint64(16) << qint64(16);
    }
    void partition_group() {
        QFETCH(qint64, gpus);
        QFETCH(qint64, u);
        QFETCH(qint64, dp);
        QFETCH(qint64, zero);
        const Scenario s = llama_32k(gpus, u);
        QCOMPARE(data_parallel_size(s), dp);
        QCOMPARE(zero_partition_size(s), zero);
        // The model states of ZeRO-3 are 18P over the partition group, as with plain data parallelism
        // over the same GPUs.
        Scenario plain = s;
        plain.parallel.ulysses = 1;
        const MemoryBreakdown a = estimate_memory(s), b = estimate_memory(plain);
        QCOMPARE(a.model_states_bytes(), b.model_states_bytes());
        // The batch rule counts data ranks only: global 64 = micro 1 x gas x dp.
        QCOMPARE(estimate_step(s).gradient_accumulation_steps, 64 / dp);
    }

    // Korthikanti et al. 2022 Sec. 4.1, per layer 34sbh + 5as^2b, with s -> s/u for the sbh terms and
    // 5as^2b/u for the scores (each rank holds a/u heads of the full s x s).
    void korthikanti_with_s_over_u_data() {
        QTest::addColumn<qint64>("u");
        QTest::newRow("u 1") << qint64(1);
        QTest::newRow("u 4") << qint64(4);
        QTest::newRow("u 8") << qint64(8);
    }
    void korthikanti_with_s_over_u() {
        QFETCH(qint64, u);
        const double h = 4096, a = 32, s = 8192, b = 2;
        const LayerActivationBytes l = layer_activation_bytes(korthikanti_gpt(4096, 32), 8192, 2, 2.0,
                                                              TensorSplit{.tensor = 1, .sequence_parallel = false, .ulysses = u});
        QCOMPARE(l.attention + l.mlp + l.norms, 34.0 * (s / static_cast<double>(u)) * b * h);
        QCOMPARE(l.scores, 5.0 * a * s * s * b / static_cast<double>(u));
        // The sbh terms equal the unsplit layer's at s/u.
        const LayerActivationBytes shorter = layer_activation_bytes(korthikanti_gpt(4096, 32), 8192 / u, 2, 2.0, TensorSplit{});
        QCOMPARE(l.attention, shorter.attention);
        QCOMPARE(l.mlp, shorter.mlp);
        QCOMPARE(l.norms, shorter.norms);
    }

    // Per rank, activations at SP 4 equal the SP 1 activations at s/4 where nothing depends on s^2:
    // full recompute keeps each layer's input (2sbh) and the logits are per token.
    void activations_at_sp_4_are_sp_1_at_quarter_sequence() {
        Scenario s = llama_32k(8, 4);
        s.training.checkpointing = Checkpointing::Full;
        Scenario quarter = s;
        quarter.parallel.ulysses = 1;
        quarter.training.seq_len = 32768 / 4;
        const ActivationBytes a = activation_bytes(s.model, s.training, s.finetune, s.parallel);
        const ActivationBytes q = activation_bytes(quarter.model, quarter.training, quarter.finetune, quarter.parallel);
        QCOMPARE(a.per_layer_stored, q.per_layer_stored);
        QCOMPARE(a.embedding_and_logits, q.embedding_and_logits);
        // The layer rebuilt in backward: the same, plus flash attention's output kept before the
        // all-to-all back (a q-wide tensor of the rank's s/4 tokens, 2 bytes each).
        const double flash_out = 2.0 * (32768 / 4) * static_cast<double>(s.model.heads * s.model.head_dim);
        QCOMPARE(a.recompute_working, q.recompute_working + flash_out);
        // Selective recompute drops only the scores (none with flash attention): the flash output stays.
        s.training.checkpointing = quarter.training.checkpointing = Checkpointing::Selective;
        QCOMPARE(activation_bytes(s.model, s.training, s.finetune, s.parallel).per_layer_stored,
                 activation_bytes(quarter.model, quarter.training, quarter.finetune, quarter.parallel).per_layer_stored + flash_out);
    }

    // Jacobs et al. 2023 Sec. 3.2: per layer an all-to-all of q, k, v (3Nh) and of the context (Nh):
    // each rank sends (u-1)/u of its 4 (N/u) h elements; the paper's per-link 4Nh/P as u grows.
    void all_to_all_volume_per_layer() {
        Scenario s = llama_32k(8, 8);
        s.model = korthikanti_gpt(4096, 32);
        const UlyssesTraffic t = ulysses_traffic(s);
        const double N = 32768, h = 4096, u = 8;
        QCOMPARE(t.forward_bytes, (u - 1) / u * 2.0 * 4.0 * N * h / u);
        QCOMPARE(t.backward_bytes, t.forward_bytes);
        QCOMPARE(t.recompute_bytes, 0.0);
        QCOMPARE(t.link, GroupLink::IntraNode);
        s.training.checkpointing = Checkpointing::Full;
        QCOMPARE(ulysses_traffic(s).recompute_bytes, t.forward_bytes);
        // GQA (Llama-3-8B: 8 key/value heads of 32): k and v move a quarter of q's bytes each.
        const UlyssesTraffic gqa = ulysses_traffic(llama_32k(8, 8));
        QCOMPARE(gqa.forward_bytes, (u - 1) / u * 2.0 * (N / u) * 128.0 * (32 + 8 + 8 + 32));
        // Sixteen ranks over two nodes of 8: the group crosses the network.
        QCOMPARE(ulysses_traffic(llama_32k(16, 16)).link, GroupLink::InterNode);
        QCOMPARE(ulysses_traffic(llama_32k(8, 1)).link, GroupLink::None);
        // The step time's shortcut agrees with the walk over every rank (parallel_layout.cpp).
        for (const auto& [gpus, per_node, degree] : {std::tuple{8, 8, 8}, {16, 8, 16}, {16, 8, 4}, {24, 8, 3}, {16, 4, 8}, {12, 6, 2}}) {
            Scenario x = llama_32k(8, degree);
            x.cluster.gpus_per_node = per_node;
            x.cluster.nodes = gpus / per_node;
            QCOMPARE(ulysses_link(x), layout_links(x).sequence);
        }
    }

    // Compute per GPU is the model's FLOPs over the world: a micro step at SP 8 takes an eighth;
    // the all-to-alls add exposed time, more once they cross the network.
    void step_time() {
        const StepTime one = estimate_step(llama_32k(8, 1));
        const StepTime eight = estimate_step(llama_32k(8, 8));
        QCOMPARE(eight.compute.micro_step_seconds, one.compute.micro_step_seconds / 8.0);
        QCOMPARE(one.ulysses_seconds, 0.0);
        QVERIFY(eight.ulysses_seconds > 0);
        const StepTime across = estimate_step(llama_32k(16, 16));
        QVERIFY(across.ulysses_seconds / 64.0 > eight.ulysses_seconds / 64.0);  // per micro step, gas 64 both
        // The step's explanation counts them as their own term.
        const StepExplanation e = explain_step(across);
        QCOMPARE(e.terms[static_cast<std::size_t>(StepTerm::UlyssesAllToAll)].seconds, across.ulysses_seconds);
    }

    // ZeRO-1/2 with Ulysses reduce the gradients in fp32 (stage_1_and_2.py allreduce_bucket:
    // communication_data_type = torch.float32 when sequence_parallel_size > 1): on 16 A100s over two
    // nodes, ZeRO-1's boundary all-reduce is twice the bf16 one a plan without Ulysses moves for the
    // same 8B parameters; its all-gather of the 16-bit partitions is not.
    void zero12_reduce_in_fp32_with_ulysses() {
        Scenario s = llama_32k(16, 4);
        s.zero.stage = 1;
        s.zero.overlap_comm = false;
        const StepTime with = estimate_step(s);
        const double N = 16, P = static_cast<double>(parameter_count(s.model));
        const double bus = bottleneck_gbytes_per_s(s.cluster, std::min(N, 8.0));
        ZP_COMPARE_NEAR(with.exposed_allgather_seconds,
                        allgather_seconds(2.0 * P, N, bus) + ring_latency_seconds(s.cluster, N, s.assumptions.collective_latency_seconds));
        QVERIFY(with.exposed_allreduce_seconds > allreduce_seconds(4.0 * P, N, bus));
        QVERIFY(with.exposed_allreduce_seconds < allreduce_seconds(4.0 * P, N, bus) * 1.05);
    }

    // Each constraint's refusal, named after where DeepSpeed or Megatron-DeepSpeed enforces it.
    void constraints_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("u");
        QTest::addColumn<qint64>("tp");
        QTest::addColumn<qint64>("pp");
        QTest::addColumn<qint64>("seq");
        QTest::addColumn<QString>("error");
        const QString heads = QStringLiteral("must divide the attention heads (32)");
        QTest::newRow("ulysses_sp.py: heads % SP")
            << "llama-3-8b" << qint64(64) << qint64(64) << qint64(1) << qint64(1) << qint64(4096) << heads;
        QTest::newRow("ulysses_sp.py: kv heads % SP or SP % kv heads")
            << "llama-3.2-3b" << qint64(6) << qint64(6) << qint64(1) << qint64(1) << qint64(4098)
            << QStringLiteral("must divide the key/value heads (8) or be a multiple of them");
        QTest::newRow("ulysses_sp.py: SP 16 over 8 kv heads replicates them")
            << "llama-3-8b" << qint64(16) << qint64(16) << qint64(1) << qint64(1) << qint64(4096) << QString();
        QTest::newRow("ulysses_sp.py: seq % SP") << "llama-3-8b" << qint64(8) << qint64(4) << qint64(1) << qint64(1) << qint64(4098)
                                                 << QStringLiteral("must divide the sequence length (4098)");
        QTest::newRow("parallel_state_sp.py: world % SP") << "llama-3-8b" << qint64(8) << qint64(16) << qint64(1) << qint64(1)
                                                          << qint64(4096) << QStringLiteral("must be a multiple of 16");
        QTest::newRow("Megatron-DeepSpeed parallel_state.py: no TP") << "llama-3-8b" << qint64(8) << qint64(2) << qint64(2) << qint64(1)
                                                                     << qint64(4096) << QStringLiteral("without tensor and pipeline");
        QTest::newRow("Megatron-DeepSpeed parallel_state.py: no PP") << "llama-3-8b" << qint64(8) << qint64(2) << qint64(1) << qint64(2)
                                                                     << qint64(4096) << QStringLiteral("without tensor and pipeline");
        QTest::newRow("SP 8 on 8 GPUs") << "llama-3-8b" << qint64(8) << qint64(8) << qint64(1) << qint64(1) << qint64(4096) << QString();
    }
    void constraints() {
        QFETCH(QString, model);
        QFETCH(qint64, gpus);
        QFETCH(qint64, u);
        QFETCH(qint64, tp);
        QFETCH(qint64, pp);
        QFETCH(qint64, seq);
        QFETCH(QString, error);
        Scenario s = preset_scenario(model.toUtf8().constData(), "a100-80gb", gpus);
        if (gpus % 8 != 0) s.cluster.gpus_per_node = gpus, s.cluster.nodes = 1;
        s.zero.stage = 1;
        s.parallel.ulysses = u;
        s.parallel.tensor = tp;
        s.parallel.pipeline = pp;
        s.training.seq_len = seq;
        try {
            validate(s);
            QVERIFY2(error.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QVERIFY2(!error.isEmpty() && QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }
    // Megatron-DeepSpeed initialize.py: "not compatible with Megatron-LM's sequence parallel".
    void refuses_megatron_sequence_parallel() {
        Scenario s = llama_32k(8, 2);
        s.parallel.sequence_parallel = true;
        QVERIFY_THROWS_EXCEPTION(InputError, validate(s));
    }

    // The ALST tutorial's ds_config carries "sequence_parallel_size"; runtime/config.py divides the
    // world by it for train_batch_size. Written only with Ulysses, and read back by the import.
    void ds_config_key() {
        const Scenario s = llama_32k(16, 8);
        const auto j = deepspeed_config(s);
        QCOMPARE(j.at("sequence_parallel_size").get<std::int64_t>(), std::int64_t(8));
        QCOMPARE(j.at("train_batch_size").get<std::int64_t>(),
                 j.at("train_micro_batch_size_per_gpu").get<std::int64_t>() * j.at("gradient_accumulation_steps").get<std::int64_t>() * 2);
        QVERIFY(!deepspeed_config(llama_32k(16, 1)).contains("sequence_parallel_size"));
        Scenario back = llama_32k(16, 1);
        back = apply_ds_config(nlohmann::json::parse(j.dump()), back);
        QCOMPARE(back.parallel.ulysses, std::int64_t(8));
        QCOMPARE(back.training.global_batch, s.training.global_batch);
        // Megatron-DeepSpeed's launch line (megatron/arguments.py --ds-sequence-parallel-size), for a
        // model whose key/value heads are its query heads (Llama-2 7B); with grouped key/value heads
        // (Llama-3 8B: 8 of 32) its ParallelAttention asserts equal projections, so that export is refused.
        Scenario mha = s;
        mha.model = model_preset("llama-2-7b").spec;
        QVERIFY(megatron_launch_script(mha, "ds_config.json", "pretrain_gpt.py").find("--ds-sequence-parallel-size 8") !=
                std::string::npos);
        try {
            megatron_launch_script(s, "ds_config.json", "pretrain_gpt.py");
            QFAIL("Megatron-DeepSpeed's Ulysses exported with grouped key/value heads");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("projection_size == kv_projection_size")), e.what());
        }
        // The exported config passes the linter at the GPU count.
        const LintResult r = lint_ds_config(j.dump(), 16);
        for (const Diagnostic& d : r.diagnostics) QVERIFY2(d.severity != Severity::Error, d.message.c_str());
    }

    // lint: sequence_parallel_size is an integer >= 1 dividing the world size, and the batch rule
    // counts the world over it (runtime/config.py; parallel_state_sp.py).
    void lint_data() {
        QTest::addColumn<QString>("config");
        QTest::addColumn<qint64>("world");
        QTest::addColumn<QString>("error");
        const QString batch =
            QStringLiteral(R"("train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 2)");
        QTest::newRow("config.py: 16 = 2 x 2 x (8 / 2)")
            << QStringLiteral("{%1, \"sequence_parallel_size\": 2}").arg(batch) << qint64(8) << QString();
        QTest::newRow("config.py: without it 16 != 2 x 2 x 8")
            << QStringLiteral("{%1}").arg(batch) << qint64(8) << QStringLiteral("train_batch_size is not equal");
        QTest::newRow("parallel_state_sp.py: 3 does not divide 8")
            << QStringLiteral("{%1, \"sequence_parallel_size\": 3}").arg(batch) << qint64(8)
            << QStringLiteral("sequence_parallel_size 3 does not divide the world size 8");
        QTest::newRow("at least 1") << QStringLiteral("{%1, \"sequence_parallel_size\": 0}").arg(batch) << qint64(8)
                                    << QStringLiteral("must be at least 1");
        QTest::newRow("an integer") << QStringLiteral("{%1, \"sequence_parallel_size\": 2.5}").arg(batch) << qint64(8)
                                    << QStringLiteral("Input should be a valid integer");
    }
    void lint() {
        QFETCH(QString, config);
        QFETCH(qint64, world);
        QFETCH(QString, error);
        const LintResult r = lint_ds_config(config.toStdString(), world);
        QString errors;
        for (const Diagnostic& d : r.diagnostics)
            if (d.severity == Severity::Error) errors += QString::fromStdString(d.path + ": " + d.message) + QLatin1Char('\n');
        if (error.isEmpty()) QVERIFY2(errors.isEmpty(), qPrintable(errors));
        else QVERIFY2(errors.contains(error), qPrintable(errors));
    }

    // Sessions (version 10) store the degree; a version-9 file (no field) reads as 1
    // (core/io/session_version.cpp upgrade_9_to_10).
    void session_field() {
        const Scenario s = llama_32k(16, 8);
        nlohmann::json j = scenario_to_json(s);
        QCOMPARE(j.at("parallel").at("ulysses").get<std::int64_t>(), std::int64_t(8));
        QCOMPARE(scenario_from_json(j, "test").parallel.ulysses, std::int64_t(8));
        nlohmann::json v9 = scenario_to_json(llama_32k(16, 1));
        v9["version"] = 9;
        v9["parallel"].erase("ulysses");
        v9["parallel"].erase("auto_ulysses");
        QCOMPARE(scenario_from_json(v9, "test").parallel.ulysses, std::int64_t(1));
    }

    // The search keeps a fixed Ulysses degree, and with --sp auto covers the degrees validate accepts.
    void search() {
        Scenario s = llama_32k(8, 8);
        const Plan fixed = recommend(s);
        QVERIFY(fixed.feasible);
        QCOMPARE(fixed.best.parallel.ulysses, std::int64_t(8));
        s.parallel.ulysses = 1;
        SearchSpace space;
        space.auto_ulysses = true;
        std::vector<std::int64_t> degrees;
        for (const Parallelism& p : searched_layouts(s, space)) degrees.push_back(p.ulysses);
        QCOMPARE(degrees, (std::vector<std::int64_t>{1, 2, 4, 8}));
        const Plan chosen = recommend(s, space);
        QVERIFY(chosen.feasible);
        QVERIFY(chosen.best.parallel.ulysses > 1);  // 32k tokens fit only split
        // The bounded search gives the exhaustive search's plan (tst_robustness's property), over
        // models, GPU counts and sequence lengths, with --sp auto.
        int compared = 0;
        for (const char* model : {"llama-3-8b", "llama-2-7b", "mixtral-8x7b"})
            for (const std::int64_t gpus : {8, 16})
                for (const std::int64_t seq : {4096, 16384, 65536}) {
                    Scenario x = llama_32k(gpus, 1);
                    x.model = model_preset(model).spec;
                    x.training.seq_len = seq;
                    const Plan bounded = recommend(x, space), all = recommend(x, space, SearchPruning::Exhaustive);
                    QCOMPARE(bounded.candidates_evaluated, all.candidates_evaluated);
                    QCOMPARE(bounded.feasible, all.feasible);
                    QCOMPARE(bounded.per_setup_feasible, all.per_setup_feasible);
                    if (bounded.feasible) {
                        QCOMPARE(bounded.best.parallel, all.best.parallel);
                        QCOMPARE(bounded.best.step.seconds, all.best.step.seconds);
                    }
                    ++compared;
                }
        QCOMPARE(compared, 18);
    }

    // layout_words and the rank placement: Ulysses ranks consecutive (parallel_state_sp.py).
    void layout() {
        const Scenario s = llama_32k(16, 4);
        QCOMPARE(QString::fromStdString(layout_words(s)), QStringLiteral("sequence 4 x data 4"));
        QCOMPARE(rank_coordinates(s, 5), (RankCoordinates{0, 1, 0, 1}));  // data slot 1, sequence rank 1
        const GroupLinks l = layout_links(s);
        QCOMPARE(l.sequence, GroupLink::IntraNode);
        QCOMPARE(l.data, GroupLink::InterNode);  // ZeRO over all 16
    }
};

ZP_TEST_APPLESS_MAIN(TestUlysses)
#include "tst_ulysses.moc"
