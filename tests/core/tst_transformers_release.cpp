// The transformers release a run uses (core/model/transformers_release.h): the defaults that changed
// between releases and that the planner models, one row per era, named after the change that brought
// it: the loss outside the model's forward (4.46), every load on the meta device (4.51, PR #36963),
// the checkpoint's dtype and non-reentrant gradient checkpointing (5.0, PRs #42805 and #43203).
// Covers core/model/transformers_release.cpp and core/base/release_number.cpp; how `validate` reads
// a case's "transformers" is tst_validation's loss_by_source.
#include "core/memory/host_memory.h"
#include "core/memory/memory_model.h"
#include "core/model/deepspeed_release.h"
#include "core/model/logits.h"
#include "core/model/release_eras.h"
#include "core/model/transformers_release.h"
#include "core/presets/default_scenario.h"
#include "core/presets/model_presets.h"
#include "core/time/step_time.h"
#include "test_util.h"

#include "test_main.h"

using namespace zp;

class TestTransformersRelease : public QObject {
    Q_OBJECT
private slots:
    void parses_release_numbers_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<int>("major");
        QTest::addColumn<int>("minor");
        QTest::addColumn<int>("patch");
        QTest::newRow("4.31.0 (atorch's llama2 example)") << "4.31.0" << true << 4 << 31 << 0;
        QTest::newRow("4.46 reads as 4.46.0") << "4.46" << true << 4 << 46 << 0;
        QTest::newRow("5.0.1") << "5.0.1" << true << 5 << 0 << 1;
        QTest::newRow("a major alone is refused") << "5" << false << 0 << 0 << 0;
        QTest::newRow("a release candidate is refused") << "5.0.0rc1" << false << 0 << 0 << 0;
        QTest::newRow("a dev build is refused") << "4.57.0.dev0" << false << 0 << 0 << 0;
        QTest::newRow("four parts are refused") << "4.46.0.1" << false << 0 << 0 << 0;
        QTest::newRow("words are refused") << "latest" << false << 0 << 0 << 0;
        QTest::newRow("an empty part is refused") << "4..1" << false << 0 << 0 << 0;
        QTest::newRow("a sign is refused") << "-4.46" << false << 0 << 0 << 0;
        QTest::newRow("a negative zero is refused") << "-0.46" << false << 0 << 0 << 0;
        QTest::newRow("a negative zero minor is refused") << "4.-0" << false << 0 << 0 << 0;
        QTest::newRow("a plus sign is refused") << "+4.46" << false << 0 << 0 << 0;
        QTest::newRow("nothing is refused") << "" << false << 0 << 0 << 0;
    }
    void parses_release_numbers() {
        QFETCH(QString, text);
        QFETCH(bool, valid);
        const std::string t = text.toStdString();
        const std::optional<TransformersRelease> r = parse_transformers_release(t);
        QCOMPARE(r.has_value(), valid);
        // DeepSpeed's releases read the same way (core/base/release_number.h).
        QCOMPARE(parse_deepspeed_release(t).has_value(), valid);
        if (!valid) return;
        QFETCH(int, major);
        QFETCH(int, minor);
        QFETCH(int, patch);
        QCOMPARE(r->major, major);
        QCOMPARE(r->minor, minor);
        QCOMPARE(r->patch, patch);
    }

    // What each release does by default, from the changes' own code: before 4.46 LlamaForCausalLM's
    // forward up-cast the logits and shifted a copy; from 4.51 from_pretrained builds on the meta
    // device whatever low_cpu_mem_usage says; from 5.0 it loads the checkpoint's dtype ("auto") and
    // the Trainer checkpoints non-reentrantly.
    void sets_each_eras_defaults_data() {
        QTest::addColumn<QString>("release");
        QTest::addColumn<bool>("load_in_16bit");
        QTest::addColumn<bool>("low_cpu_mem_usage");
        QTest::addColumn<bool>("reentrant");
        QTest::addColumn<bool>("shifted_loss");
        QTest::newRow("4.31.0: loss in the forward, fp32 load, a shard beside the model, re-entrant")
            << "4.31.0" << false << false << true << true;
        QTest::newRow("4.45.2: the last release before loss_utils") << "4.45.2" << false << false << true << true;
        QTest::newRow("4.46.0: ForCausalLMLoss (loss_utils.py)") << "4.46.0" << false << false << true << false;
        QTest::newRow("4.50.3: the last release before the meta-device load") << "4.50.3" << false << false << true << false;
        QTest::newRow("4.51.0: every load on the meta device (PR #36963)") << "4.51.0" << false << true << true << false;
        QTest::newRow("4.57.1: fp32 load and re-entrant still") << "4.57.1" << false << true << true << false;
        QTest::newRow("5.0.0: dtype auto (PR #42805), non-reentrant (PR #43203)") << "5.0.0" << true << true << false << false;
        QTest::newRow("5.2: as 5.0") << "5.2" << true << true << false << false;
    }
    void sets_each_eras_defaults() {
        QFETCH(QString, release);
        QFETCH(bool, load_in_16bit);
        QFETCH(bool, low_cpu_mem_usage);
        QFETCH(bool, reentrant);
        QFETCH(bool, shifted_loss);
        // From the opposite of every answer, so each field is set, not left as it was.
        Training t = default_scenario().training;
        t.load_in_16bit = !load_in_16bit;
        t.low_cpu_mem_usage = !low_cpu_mem_usage;
        t.reentrant_recompute = !reentrant;
        t.loss_kernel = shifted_loss ? LossKernel::Full : LossKernel::Shifted;
        const TransformersRelease r = *parse_transformers_release(release.toStdString());
        QVERIFY(!follows_transformers_release(t, r));
        apply_transformers_release(t, r);
        QCOMPARE(t.load_in_16bit, load_in_16bit);
        QCOMPARE(t.low_cpu_mem_usage, low_cpu_mem_usage);
        QCOMPARE(t.reentrant_recompute, reentrant);
        QCOMPARE(t.loss_kernel, shifted_loss ? LossKernel::Shifted : LossKernel::Full);
        QVERIFY(follows_transformers_release(t, r));
        // Exactly one era holds the release, and its first release sets the same.
        int eras_holding = 0;
        for (const TransformersReleaseEra& era : kTransformersReleaseEras) {
            Training by_era = default_scenario().training;
            apply_transformers_release(by_era, era.first);
            if (by_era == t) ++eras_holding;
        }
        QCOMPARE(eras_holding, 1);
    }

    // A loss that is not the Hugging Face model's own is no release's: Liger's chunked loss,
    // flash-attn's xentropy, and Megatron's GPT's (its LM head the embedding weight) stay.
    void keeps_a_loss_not_the_models_own_data() {
        QTest::addColumn<int>("kernel");
        QTest::addColumn<bool>("megatron_head");
        QTest::newRow("Liger's fused linear cross-entropy") << static_cast<int>(LossKernel::Chunked) << false;
        QTest::newRow("flash-attn's xentropy (llm-foundry)") << static_cast<int>(LossKernel::Xentropy) << false;
        QTest::newRow("Megatron's GPT, its loss on the whole logits") << static_cast<int>(LossKernel::Full) << true;
    }
    void keeps_a_loss_not_the_models_own() {
        QFETCH(int, kernel);
        QFETCH(bool, megatron_head);
        for (const TransformersReleaseEra& era : kTransformersReleaseEras) {
            Training t = default_scenario().training;
            t.loss_kernel = static_cast<LossKernel>(kernel);
            t.lm_head = megatron_head ? LmHead::EmbeddingWeight : LmHead::Module;
            apply_transformers_release(t, era.first);
            QCOMPARE(static_cast<int>(t.loss_kernel), kernel);
        }
    }

    // What the window's release boxes show and offer (core/model/release_eras.h): today's plan
    // follows the newest era and every era is offered; under Liger's loss "before 4.46" sets what
    // 4.46 to 4.50 sets and is not offered; a switch set by hand follows none.
    void era_choice_shows_and_offers() {
        const auto apply = [](Training& t, const TransformersRelease& r) { apply_transformers_release(t, r); };
        const auto follows = [](const Training& t, const TransformersRelease& r) { return follows_transformers_release(t, r); };
        Training t = default_scenario().training;
        EraChoice c = era_choice(kTransformersReleaseEras, t, apply, follows);
        QCOMPARE(c.shown, 0);
        QCOMPARE(c.offered, (std::vector<bool>{true, true, true, true}));
        t.loss_kernel = LossKernel::Chunked;
        c = era_choice(kTransformersReleaseEras, t, apply, follows);
        QCOMPARE(c.offered, (std::vector<bool>{true, true, true, false}));
        apply_transformers_release(t, kTransformersReleaseEras[3].first);
        QCOMPARE(era_choice(kTransformersReleaseEras, t, apply, follows).shown, 2);
        t.load_in_16bit = true;  // a 16-bit load with a re-entrant recompute: no era's
        QCOMPARE(era_choice(kTransformersReleaseEras, t, apply, follows).shown, -1);
        // DeepSpeed's eras each set their switches apart: all offered.
        const EraChoice ds = era_choice(
            kDeepSpeedReleaseEras, default_scenario().zero, [](ZeroSetup& z, const DeepSpeedRelease& r) { apply_deepspeed_release(z, r); },
            [](const ZeroSetup& z, const DeepSpeedRelease& r) { return follows_release(z, r); });
        QCOMPARE(ds.shown, 0);
        QCOMPARE(ds.offered, (std::vector<bool>{true, true, true, true}));
    }

    // Today's defaults are the newest era's: a plan built from nothing follows 5.0 and later.
    void todays_plan_follows_the_newest_era() {
        const Training t = default_scenario().training;
        QVERIFY(follows_transformers_release(t, kTransformersReleaseEras.front().first));
        for (std::size_t i = 1; i < kTransformersReleaseEras.size(); ++i)
            QVERIFY(!follows_transformers_release(t, kTransformersReleaseEras[i].first));
    }

    // The eras are ordered newest first, each ending before the next newer one begins.
    void eras_are_ordered_newest_first() {
        for (std::size_t i = 1; i < kTransformersReleaseEras.size(); ++i) {
            const TransformersReleaseEra& newer = kTransformersReleaseEras[i - 1];
            const TransformersReleaseEra& era = kTransformersReleaseEras[i];
            QVERIFY(std::tie(era.last.major, era.last.minor) < std::tie(newer.first.major, newer.first.minor));
            QVERIFY(std::tie(era.first.major, era.first.minor) <= std::tie(era.last.major, era.last.minor));
        }
    }

    // Before 4.46 the loss was the model's own forward's, and whether it up-cast the logits was its
    // family's (core/model/logits.h): LlamaForCausalLM's "logits = logits.float()" and its kin;
    // GPT-2's, GPT-NeoX's, BLOOM's and Falcon's forwards shift the 16-bit logits as the head returns
    // them, T5's takes the loss of them unshifted. A family with no class then, or none, up-casts.
    void forward_up_cast_by_family_data() {
        QTest::addColumn<QString>("family");
        QTest::addColumn<bool>("upcasts");
        QTest::newRow("llama (LlamaForCausalLM 4.31: logits.float())") << "llama" << true;
        QTest::newRow("mistral (written from Llama)") << "mistral" << true;
        QTest::newRow("qwen2 (written from Llama)") << "qwen2" << true;
        QTest::newRow("gpt2 (GPT2LMHeadModel: the head's logits shifted)") << "gpt2" << false;
        QTest::newRow("gpt_neox (GPTNeoXForCausalLM: embed_out's logits shifted)") << "gpt_neox" << false;
        QTest::newRow("bloom (BloomForCausalLM)") << "bloom" << false;
        QTest::newRow("falcon (FalconForCausalLM)") << "falcon" << false;
        QTest::newRow("t5 (T5ForConditionalGeneration, unshifted)") << "t5" << false;
        QTest::newRow("qwen3 (no class before 4.46: the larger)") << "qwen3" << true;
        QTest::newRow("a model from dimensions") << "" << true;
    }
    void forward_up_cast_by_family() {
        QFETCH(QString, family);
        QFETCH(bool, upcasts);
        ModelSpec m = model_preset("gpt2-xl").spec;
        m.family = family.toStdString();
        QCOMPARE(forward_upcasts_logits(m), upcasts);
        Training t = default_scenario().training;
        apply_transformers_release(t, *parse_transformers_release("4.40"));
        QCOMPARE(loss_upcasts(m, t), upcasts);
        QCOMPARE(returned_logit_bytes(m, t), upcasts ? 4.0 : 2.0);
        apply_transformers_release(t, *parse_transformers_release("4.46"));
        QVERIFY(loss_upcasts(m, t));  // ForCausalLMLoss up-casts for every model
    }

    // The same plan on 4.40 twice, GPT-2 XL's dimensions with GPT-2's family and with Llama's, 16 x
    // 1,024 tokens a GPU, ZeRO-2 with full recompute, peaking in the loss's backward: the saved
    // log-softmax, nll_loss's gradient and log_softmax's input gradient, three logit-sized tensors,
    // 2 bytes a logit each against 4 (6 bytes a logit in all). Under FSDP's autocast nll_loss's fp32
    // copy of the 16-bit log-probabilities adds 4 of them back.
    void a_forward_without_up_cast_holds_and_moves_less() {
        Scenario llama_kin = default_scenario();
        llama_kin.model = model_preset("gpt2-xl").spec;
        llama_kin.model.family = "llama";
        llama_kin.zero.stage = 2;
        llama_kin.training.checkpointing = Checkpointing::Full;
        llama_kin.training.seq_len = 1024;
        llama_kin.training.micro_batch = 16;
        llama_kin.training.auto_micro_batch = false;
        apply_transformers_release(llama_kin.training, *parse_transformers_release("4.40"));
        Scenario gpt2 = llama_kin;
        gpt2.model.family = "gpt2";
        const double logits = 16.0 * 1024.0 * 50257.0;
        const MemoryBreakdown with = estimate_memory(llama_kin), without = estimate_memory(gpt2);
        QCOMPARE(with.peak.phase, StepPhase::Loss);
        ZP_COMPARE_NEAR(with.peak_allocated_bytes - without.peak_allocated_bytes, 6.0 * logits);
        Scenario fsdp = gpt2, fsdp_llama = llama_kin;
        fsdp.fsdp.engine = fsdp_llama.fsdp.engine = Engine::Fsdp;
        fsdp.zero.stage = fsdp_llama.zero.stage = 3;
        ZP_COMPARE_NEAR(estimate_memory(fsdp_llama).peak_allocated_bytes - estimate_memory(fsdp).peak_allocated_bytes, 2.0 * logits);
    }

    // What a release changes in a plan, through the estimator: Llama-2 7B on one DGX A100 (the
    // default plan), ZeRO-2 (every process loads the whole model), full recompute. 4.50 against 5.0:
    // host RAM while loading grows (fp32, and a checkpoint shard beside the model, in each of the 8
    // processes), and the step re-runs each block's down projection (re-entrant), so it is longer.
    void an_older_release_loads_heavier_and_recomputes_more() {
        Scenario today = default_scenario();
        today.zero.stage = 2;
        today.training.checkpointing = Checkpointing::Full;
        Scenario older = today;
        apply_transformers_release(older.training, *parse_transformers_release("4.50"));
        const double loading_now = host_memory(today).moment(HostPhase::Loading).bytes.total();
        const double loading_then = host_memory(older).moment(HostPhase::Loading).bytes.total();
        QVERIFY2(loading_then > 1.5 * loading_now, qPrintable(QStringLiteral("%1 vs %2 bytes").arg(loading_then).arg(loading_now)));
        QVERIFY(estimate_step(older).seconds > estimate_step(today).seconds);
    }
};

ZP_TEST_APPLESS_MAIN(TestTransformersRelease)
#include "tst_transformers_release.moc"
