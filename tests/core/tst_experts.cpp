// DeepSpeed-MoE expert parallelism (Parallelism::expert, core/model/experts.h): the routed experts a
// rank holds, the expert-data-parallel group ZeRO partitions them over, the capacity formula of
// sharded_moe.py, the dispatch/combine all-to-alls, and the constraints DeepSpeed asserts. Covers
// core/model/experts.cpp, core/model/parallel_layout.cpp rank_parameter_split,
// core/memory/model_states.cpp, core/time/step_time.cpp and the recommender's --ep auto.
#include "core/base/errors.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/framework_exports.h"
#include "core/deepspeed/megatron_launch.h"
#include "core/io/scenario_json.h"
#include "core/memory/memory_model.h"
#include "core/memory/model_states.h"
#include "core/model/experts.h"
#include "core/model/parallel_layout.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/time/collectives.h"
#include "core/time/step_explain.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include "test_main.h"

using namespace zp;
using zp::test::preset_scenario;

namespace {

// Mixtral-8x7B (transformers MixtralConfig): 32 layers of 8 experts, each a SwiGLU MLP of
// 3 x 4096 x 14336 weights; everything else (attention, norms, routers, embeddings, head).
constexpr double kMixtralParams = 46'702'792'704;
constexpr double kMixtralRouted = 32.0 * 8 * 3 * 4096 * 14336;  // 45,097,156,608
constexpr double kMixtralDense = kMixtralParams - kMixtralRouted;

Scenario mixtral(std::int64_t gpus, std::int64_t ep, int stage = 1) {
    Scenario s = preset_scenario("mixtral-8x7b", "h100-80gb", gpus);
    s.parallel.expert = ep;
    s.zero.stage = stage;
    return s;
}

}  // namespace

class TestExperts : public QObject {
    Q_OBJECT
private slots:
    void routed_params_of_mixtral() {
        const ModelSpec m = model_preset("mixtral-8x7b").spec;
        QCOMPARE(static_cast<double>(parameter_count(m)), kMixtralParams);
        QCOMPARE(routed_expert_params(m), kMixtralRouted);
    }

    // moe/layer.py num_local_experts = num_experts / ep_size: each GPU holds 8/EP experts of every
    // layer; the dense rest (attention, routers, embeddings) stays whole on every GPU.
    void per_gpu_expert_params_data() {
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("local");
        QTest::newRow("layer.py: EP 1, the model's own MoE block") << 1 << 8;
        QTest::newRow("layer.py: EP 2, 4 local experts") << 2 << 4;
        QTest::newRow("layer.py: EP 4, 2 local experts") << 4 << 2;
        QTest::newRow("layer.py: EP 8, 1 local expert") << 8 << 1;
    }
    void per_gpu_expert_params() {
        QFETCH(int, ep);
        QFETCH(int, local);
        const Scenario s = mixtral(16, ep);
        validate(s);
        QCOMPARE(local_experts(s), std::int64_t(local));
        const ParameterSplit p = rank_parameter_split(s);
        QCOMPARE(p.trainable, kMixtralDense + kMixtralRouted * local / 8);
        QCOMPARE(p.expert, ep > 1 ? kMixtralRouted / ep : 0.0);
        // 16-bit weights on the GPU at ZeRO-1: every parameter the rank holds, 2 bytes each.
        QCOMPARE(model_state_bytes(s, p).params, 2.0 * p.trainable);
    }

    // Megatron-DeepSpeed builds DeepSpeed's MoE layer at any --moe-expert-parallel-size, and its
    // expert linears are unsliced on every tensor rank (core/tensor_parallel/layers.py
    // is_expert_without_slicing): at tensor 4, EP 1 holds all 8 routed experts whole and EP 2 four,
    // while the dense rest is split over the tensor ranks either way. (EP 1 counted the experts
    // split by 4 too, so a rank held a quarter of what EP 2's did: fewer GPUs, less memory.)
    void experts_whole_on_tensor_ranks_at_every_ep_data() {
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("local");
        QTest::newRow("transformer.py: tensor 4, EP 1") << 1 << 8;
        QTest::newRow("transformer.py: tensor 4, EP 2") << 2 << 4;
    }
    void experts_whole_on_tensor_ranks_at_every_ep() {
        QFETCH(int, ep);
        QFETCH(int, local);
        Scenario s = mixtral(16, ep);
        s.parallel.tensor = 4;
        validate(s);
        const ParameterSplit p = rank_parameter_split(s);
        QCOMPARE(p.expert, kMixtralRouted * local / 8);
        QCOMPARE(p.trainable, kMixtralDense / 4 + kMixtralRouted * local / 8);
    }

    // utils/groups.py _create_expert_and_data_parallel: expert-data-parallel groups of DP / EP ranks
    // (its docstring: world 16, EP 2 -> expert_data_parallel_group [0,2,...,14], 8 ranks).
    void partition_groups_data() {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("edp");
        QTest::newRow("groups.py docstring: world 16, EP 2 -> 8") << 16 << 2 << 8;
        QTest::newRow("world 16, EP 8 -> 2") << 16 << 8 << 2;
        QTest::newRow("EP = DP: the group is the rank alone") << 8 << 8 << 1;
    }
    void partition_groups() {
        QFETCH(int, gpus);
        QFETCH(int, ep);
        QFETCH(int, edp);
        const Scenario s = mixtral(gpus, ep);
        QCOMPARE(expert_data_parallel_size(s), std::int64_t(edp));
        // ZeRO-1/2's partition: the dense parameters over DP, the rank's experts over DP / EP
        // (stage_1_and_2.py _configure_moe_settings).
        const ParameterSplit p = rank_parameter_split(s);
        QCOMPARE(zero_partition_elems(s, p), kMixtralDense / gpus + kMixtralRouted / ep / edp);
    }

    // At EP = DP with ZeRO-1 the experts' optimizer states are not partitioned further: 8 GPUs,
    // EP 8, each GPU keeps the fp32 master and Adam moments (12 bytes) of its whole expert, and a
    // DP-th of the dense rest's; the 16-bit weights whole.
    void ep_equal_dp_zero1_states() {
        const Scenario s = mixtral(8, 8, 1);
        const ModelStateBytes b = model_state_bytes(s, rank_parameter_split(s));
        QCOMPARE(b.optimizer_states, 12.0 * kMixtralRouted / 8 + 12.0 * kMixtralDense / 8);
        QCOMPARE(b.params, 2.0 * (kMixtralDense + kMixtralRouted / 8));
        // stage 1: the 16-bit gradients whole, the fp32 gradient partition as the optimizer's.
        QCOMPARE(b.gradients, 2.0 * (kMixtralDense + kMixtralRouted / 8) + 4.0 * (kMixtralRouted / 8 + kMixtralDense / 8));
    }

    // sharded_moe.py _capacity: ceil(tokens / experts x capacity_factor), capacity_factor x k for
    // top-k gating, at least min_capacity (moe/layer.py MoE default 4).
    void capacity_formula_data() {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("experts");
        QTest::addColumn<int>("k");
        QTest::addColumn<double>("factor");
        QTest::addColumn<int>("capacity");
        QTest::newRow("top2gating: Mixtral, 4096 tokens, factor 1.0") << 4096 << 8 << 2 << 1.0 << 1024;
        QTest::newRow("top2gating: Mixtral, 4096 tokens, factor 1.25") << 4096 << 8 << 2 << 1.25 << 1280;
        QTest::newRow("top2gating: 100 tokens, ceil(25 x 1.0)") << 100 << 8 << 2 << 1.0 << 25;
        QTest::newRow("top1gating: 1000 tokens, factor 1.0") << 1000 << 8 << 1 << 1.0 << 125;
        QTest::newRow("top1gating: 10 tokens, ceil(1.25) = 2 -> min_capacity 4") << 10 << 8 << 1 << 1.0 << 4;
        QTest::newRow("topkgating: DeepSeek-V2-Lite, 4096 tokens, top-6 of 64") << 4096 << 64 << 6 << 1.0 << 384;
        QTest::newRow("topkgating: 100 tokens, ceil(9.375) = 10") << 100 << 64 << 6 << 1.0 << 10;
    }
    void capacity_formula() {
        QFETCH(int, tokens);
        QFETCH(int, experts);
        QFETCH(int, k);
        QFETCH(double, factor);
        QFETCH(int, capacity);
        QCOMPARE(expert_capacity(tokens, experts, k, factor), std::int64_t(capacity));
    }

    // A capacity factor below 1 drops tokens even with balanced routing; the experts' GEMMs and
    // activations follow the capacity (experts x capacity rows), not tokens x k.
    void capacity_drives_slots() {
        Scenario s = mixtral(16, 8);
        QCOMPARE(routed_slots_per_token(s), 2.0);  // 8 x 1024 / 4096
        QCOMPARE(expert_routing(s).dropped_share, 0.0);
        s.training.capacity_factor = 0.5;
        QCOMPARE(routed_slots_per_token(s), 1.0);
        QCOMPARE(expert_routing(s).dropped_share, 0.5);
        const double half = estimate_memory(s).activations_bytes;
        s.training.capacity_factor = 2.0;
        QVERIFY(estimate_memory(s).activations_bytes > half);
        // Without expert parallelism the model's own block routes every token (dropless).
        s.parallel.expert = 1;
        QCOMPARE(routed_slots_per_token(s), 2.0);
    }

    // One all-to-all (sharded_moe.py MOELayer.forward, _AllToAll): a rank sends (EP-1)/EP of its
    // (experts, capacity, hidden) 16-bit tensor; with tensor parallelism drop_tokens splits the
    // capacity over the TP ranks first. Four per MoE layer and micro step, six with full recompute.
    void all_to_all_bytes_per_layer_data() {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("tp");
        QTest::addColumn<double>("bytes");
        QTest::newRow("EP 8: 7/8 of 8 x 1024 x 4096 x 2") << 16 << 8 << 1 << 7.0 / 8 * 8 * 1024 * 4096 * 2;
        QTest::newRow("EP 2: 1/2 of it") << 16 << 2 << 1 << 0.5 * 8 * 1024 * 4096 * 2;
        QTest::newRow("EP 2 with TP 2: drop_tokens halves it") << 16 << 2 << 2 << 0.5 * 8 * 1024 * 4096 * 2 / 2;
        QTest::newRow("EP 1: none") << 16 << 1 << 1 << 0.0;
    }
    void all_to_all_bytes_per_layer() {
        QFETCH(int, gpus);
        QFETCH(int, ep);
        QFETCH(int, tp);
        QFETCH(double, bytes);
        Scenario s = mixtral(gpus, ep);
        s.parallel.tensor = tp;
        validate(s);
        QCOMPARE(all_to_all_bytes(s), bytes);
        QCOMPARE(all_to_alls_per_layer(s), 4);
        s.training.checkpointing = Checkpointing::Full;
        QCOMPARE(all_to_alls_per_layer(s), 6);
    }

    // The step's all-to-all time: 4 x 32 MoE layers x G micro steps of (bytes / the EP group's bus
    // + a launch latency); EP 8 of a node's 8 GPUs rides NVLink, EP 16 the network.
    void all_to_all_time() {
        Scenario s = mixtral(16, 8, 2);
        s.training.global_batch = 64;
        const StepTime st = estimate_step(s);
        const double G = static_cast<double>(st.gradient_accumulation_steps);
        const double per = all_to_all_bytes(s) / (intra_node_bus_gbytes_per_s(s.cluster) * 1e9) + s.assumptions.collective_latency_seconds;
        QCOMPARE(st.expert_all_to_all_seconds, 4 * 32 * G * per);
        QVERIFY(expert_group_inside_node(s));

        Scenario lite = preset_scenario("deepseek-v2-lite", "h100-80gb", 16);
        lite.zero.stage = 1;
        lite.parallel.expert = 16;
        validate(lite);
        QVERIFY(!expert_group_inside_node(lite));
        // Across the network the all-to-alls decide DeepSeek-V2-Lite's step (explain_step names them).
        const StepTime across = estimate_step(lite);
        QVERIFY(across.expert_all_to_all_seconds > 0.5 * across.seconds);
        QCOMPARE(explain_step(across).dominant.term, StepTerm::ExpertAllToAll);
        lite.parallel.expert = 8;
        QVERIFY(expert_group_inside_node(lite));
        QVERIFY(estimate_step(lite).expert_all_to_all_seconds < 0.5 * across.expert_all_to_all_seconds);
    }

    // expert_group_inside_node against the rank order of rank_coordinates, group by group: the
    // EP consecutive data-parallel ranks at each tensor and pipeline position.
    void ep_group_placement_matches_rank_order_data() {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("per_node");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::newRow("EP 8, node of 8") << 16 << 8 << 1 << 8;
        QTest::newRow("EP 4 x TP 2, node of 8") << 32 << 8 << 2 << 4;
        QTest::newRow("EP 8 x TP 2, node of 8") << 32 << 8 << 2 << 8;
        QTest::newRow("EP 2, node of 4") << 16 << 4 << 1 << 2;
        QTest::newRow("EP 8, node of 4") << 16 << 4 << 1 << 8;
    }
    void ep_group_placement_matches_rank_order() {
        QFETCH(int, gpus);
        QFETCH(int, per_node);
        QFETCH(int, tp);
        QFETCH(int, ep);
        Scenario s = mixtral(gpus, ep);
        s.cluster.gpus_per_node = per_node;
        s.cluster.nodes = gpus / per_node;
        s.parallel.tensor = tp;
        validate(s);
        bool inside = true;
        for (std::int64_t r = 0; r < gpus; ++r) {
            const RankCoordinates c = rank_coordinates(s, r);
            const std::int64_t first_dp = c.dp / ep * ep;
            for (std::int64_t r2 = 0; r2 < gpus; ++r2) {
                const RankCoordinates d = rank_coordinates(s, r2);
                if (d.tp == c.tp && d.pp == c.pp && d.dp / ep * ep == first_dp && node_of_rank(s, r2) != node_of_rank(s, r)) inside = false;
            }
        }
        QCOMPARE(expert_group_inside_node(s), inside);
    }

    // Megatron-DeepSpeed's GPTModelPipe builds MoE layers (#373) and, with tensor and pipeline
    // parallelism, asserts DeepSpeed's pipe and grad partitioning off (megatron/model/gpt_model.py):
    // a mixture's pipeline sends each activation whole, at any expert-parallel size, and its
    // ds_config says so; a dense model keeps the scenario's choice.
    void mixture_pipeline_sends_whole_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("ep");
        QTest::addColumn<bool>("whole");
        QTest::newRow("Mixtral, tensor 2 x pipeline 2, EP 2") << "mixtral-8x7b" << 2 << 2 << true;
        QTest::newRow("Mixtral, tensor 2 x pipeline 2, EP 1") << "mixtral-8x7b" << 2 << 1 << true;
        QTest::newRow("Mixtral, pipeline 2 alone: nothing to slice") << "mixtral-8x7b" << 1 << 2 << false;
        QTest::newRow("Llama-2 7B, tensor 2 x pipeline 2: DeepSpeed slices") << "llama-2-7b" << 2 << 1 << false;
    }
    void mixture_pipeline_sends_whole() {
        QFETCH(QString, model);
        QFETCH(int, tp);
        QFETCH(int, ep);
        QFETCH(bool, whole);
        Scenario s = preset_scenario(model.toStdString().c_str(), "h100-80gb", 16);
        s.parallel.tensor = tp;
        s.parallel.pipeline = 2;
        s.parallel.expert = ep;
        s.zero.stage = 1;
        validate(s);
        QCOMPARE(effective_pipeline_send(s) == PipelineSend::Whole, whole);
        QCOMPARE(deepspeed_config(s).contains("pipeline"), whole);
        // The step's point-to-point term is the whole send's: as if --pp-send whole were given.
        Scenario asked = s;
        asked.parallel.pipeline_send = whole ? PipelineSend::Whole : PipelineSend::ScatterGather;
        QCOMPARE(estimate_step(s).pipeline_p2p_seconds, estimate_step(asked).pipeline_p2p_seconds);
        if (tp > 1 && !whole) {
            asked.parallel.pipeline_send = PipelineSend::Whole;
            QVERIFY(estimate_step(asked).pipeline_p2p_seconds != estimate_step(s).pipeline_p2p_seconds);
        }
    }

    // Each constraint, one line naming it (validate_experts via validate_parallelism).
    void refusals_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("ep");
        QTest::addColumn<int>("stage");
        QTest::addColumn<bool>("lora");
        QTest::addColumn<double>("factor");
        QTest::addColumn<QString>("message");
        QTest::newRow("a dense model") << "llama-2-7b" << 2 << 1 << false << 1.0 << "needs a mixture-of-experts model";
        QTest::newRow("layer.py: num_experts % ep_size") << "mixtral-8x7b" << 16 << 1 << false << 1.0 << "must divide the 8 routed experts";
        QTest::newRow("groups.py: dp_world_size % ep_size")
            << "deepseek-v2-lite" << 32 << 1 << false << 1.0 << "must divide the data-parallel size 16";
        QTest::newRow("engine.py: native MoE at ZeRO-3")
            << "mixtral-8x7b" << 8 << 3 << false << 1.0 << "Native DeepSpeed MoE is not supported with ZeRO Stage 3";
        QTest::newRow("adapters") << "mixtral-8x7b" << 2 << 2 << true << 1.0 << "planned for full training";
        QTest::newRow("capacity factor 0") << "mixtral-8x7b" << 2 << 2 << false << 0.0 << "capacity factor must be above 0";
    }
    void refusals() {
        QFETCH(QString, model);
        QFETCH(int, ep);
        QFETCH(int, stage);
        QFETCH(bool, lora);
        QFETCH(double, factor);
        QFETCH(QString, message);
        Scenario s = preset_scenario(model.toStdString().c_str(), "h100-80gb", 16);
        s.parallel.expert = ep;
        s.zero.stage = stage;
        s.training.capacity_factor = factor;
        if (lora) s.finetune.method = FineTuneMethod::Lora;
        try {
            validate(s);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        }
    }

    // The two fields (parallel.expert, training.capacity_factor, session version 10) round-trip;
    // a version-9 session reads expert 1 and capacity factor 1 (core/io/session_version.cpp).
    void session_fields_round_trip() {
        Scenario s = mixtral(16, 8, 2);
        s.training.capacity_factor = 1.25;
        const Scenario back = parse_session(session_text(s), "ep.zplan");
        QCOMPARE(back.parallel.expert, std::int64_t(8));
        QCOMPARE(back.training.capacity_factor, 1.25);
        QVERIFY(back == s);
    }

    // Exports: ep_size is a model-code argument (moe/layer.py MoE), not a ds_config key; the
    // Megatron-DeepSpeed launch carries its MoE flags (megatron/arguments.py).
    void exports_name_the_experts_data() {
        QTest::addColumn<QString>("flag");
        QTest::newRow("arguments.py --num-experts") << "--num-experts 8 \\";
        QTest::newRow("arguments.py --moe-expert-parallel-size") << "--moe-expert-parallel-size 8 \\";
        QTest::newRow("arguments.py --topk") << "--topk 2 \\";
        QTest::newRow("arguments.py --expert-interval (default 2)") << "--expert-interval 1 \\";
        QTest::newRow("arguments.py --moe-train-capacity-factor") << "--moe-train-capacity-factor 1.25 \\";
        QTest::newRow("arguments.py --moe-min-capacity") << "--moe-min-capacity 4 \\";
        QTest::newRow("arguments.py --create-moe-param-group (for ZeRO)") << "--create-moe-param-group \\";
    }
    void exports_name_the_experts() {
        QFETCH(QString, flag);
        Scenario s = mixtral(16, 8, 2);
        s.training.capacity_factor = 1.25;
        const std::string sh = megatron_launch_script(s);
        QVERIFY2(sh.find(flag.toStdString()) != std::string::npos, sh.c_str());
        QVERIFY(sh.find("--disable-moe-token-dropping") == std::string::npos);
        QVERIFY(launch_script(s).find("not a ds_config key") != std::string::npos);
        QVERIFY(deepspeed_config_text(s).find("ep_size") == std::string::npos);
    }

    // Megatron-DeepSpeed's per-layer experts (transformer.py get_num_experts_per_layer: layer
    // l + 1 has a mixture when (l + 1) % expert_interval == 0, with the list's entry): written as one
    // entry per layer, so the mixtures sit where the model has them: Llama-4 Maverick's every second
    // layer (interleave_moe_layer_step 2: layers 2, 4, ... of 48), DeepSeek-V2-Lite's after its first
    // dense layer, Mixtral's every layer (one value).
    void megatron_experts_per_layer_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("experts");
        QString maverick;
        for (int l = 1; l <= 48; ++l)
            maverick += (l > 1 ? QStringLiteral(" ") : QString()) + (l % 2 == 0 ? QStringLiteral("128") : QStringLiteral("1"));
        QString lite = QStringLiteral("1");
        for (int l = 2; l <= 27; ++l) lite += QStringLiteral(" 64");
        QTest::newRow("Llama-4 Maverick: interleaved") << QStringLiteral("llama-4-maverick") << maverick;
        QTest::newRow("DeepSeek-V2-Lite: first dense layer") << QStringLiteral("deepseek-v2-lite") << lite;
        QTest::newRow("Mixtral-8x7B: every layer") << QStringLiteral("mixtral-8x7b") << QStringLiteral("8");
    }
    void megatron_experts_per_layer() {
        QFETCH(QString, model);
        QFETCH(QString, experts);
        const Scenario s = preset_scenario(model.toStdString().c_str(), "h100-80gb", 64);
        const std::string sh = megatron_launch_script(s);
        QVERIFY2(sh.find("--num-experts " + experts.toStdString() + " \\\n  --expert-interval 1 \\") != std::string::npos, sh.c_str());
    }

    // The recommender with a fixed EP never proposes ZeRO-3 (DeepSpeed refuses it) and says why.
    void fixed_ep_skips_zero3() {
        const Plan p = recommend(mixtral(16, 8, 0));
        QVERIFY(p.feasible);
        QVERIFY(p.best.zero.stage <= 2);
        QCOMPARE(p.best.parallel.expert, std::int64_t(8));
        bool said = false;
        for (const Rejection& r : p.rejected)
            if (r.setup.find("ZeRO-3") == 0) said = said || r.reason.find("expert parallelism works with ZeRO stage 0, 1 or 2") == 0;
        QVERIFY(said);
    }

    // --ep auto: every divisor of the experts that divides the data-parallel size, and the bounded
    // search gives the exhaustive search's plan (tst_robustness's property, on MoE layouts).
    void auto_expert_layouts() {
        const Scenario s = mixtral(16, 1, 0);
        const std::vector<Parallelism> layouts = searched_layouts(s, SearchSpace{.auto_expert = true});
        std::vector<std::int64_t> eps;
        for (const Parallelism& l : layouts) eps.push_back(l.expert);
        QCOMPARE(eps, (std::vector<std::int64_t>{1, 2, 4, 8}));
        QCOMPARE(searched_layouts(preset_scenario("llama-2-7b", "h100-80gb", 16), SearchSpace{.auto_expert = true}).size(), std::size_t(1));

        for (const char* model : {"mixtral-8x7b", "deepseek-v2-lite"}) {
            for (std::int64_t gpus : {8, 16}) {
                Scenario t = preset_scenario(model, "h100-80gb", gpus);
                const Plan p = recommend(t, SearchSpace{.auto_expert = true});
                const Plan all = recommend(t, SearchSpace{.auto_expert = true}, SearchPruning::Exhaustive);
                QCOMPARE(all.candidates_evaluated, p.candidates_evaluated);
                QCOMPARE(all.feasible, p.feasible);
                QCOMPARE(all.per_setup_feasible, p.per_setup_feasible);
                if (p.feasible) {
                    QCOMPARE(all.best.step.seconds, p.best.step.seconds);
                    QCOMPARE(all.best.parallel.expert, p.best.parallel.expert);
                    QVERIFY(p.best.parallel.expert == 1 || p.best.zero.stage <= 2);
                }
            }
        }
    }
};

ZP_TEST_APPLESS_MAIN(TestExperts)
#include "tst_experts.moc"
