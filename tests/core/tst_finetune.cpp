// Fine-tuning (core/model/trainable_params.cpp, core/model/linear_modules.cpp): trainable and
// frozen parameter counts as PEFT's print_trainable_parameters() reports them, and the bytes of a
// frozen, quantised base. Counts are worked out by hand in tests/hand_calculations.py ("LoRA and
// QLoRA parameter counts") or printed by PEFT in its documentation, as each row says.
#include "core/model/enum_names.h"
#include "core/model/trainable_params.h"
#include "core/presets/model_presets.h"
#include "test_util.h"

#include "test_main.h"

#include <cmath>

using namespace zp;

namespace {

// bigscience/mt0-large (config.json: d_model 1024, d_ff 2816, 16 heads of d_kv 64, 24 + 24
// blocks, vocab 250112, gated-gelu, untied head).
ModelSpec mt0_large() {
    ModelSpec m;
    m.name = "mt0-large";
    m.family = "t5";
    m.layers = 48;
    m.hidden = 1024;
    m.heads = m.kv_heads = 16;
    m.head_dim = 64;
    m.ffn = 2816;
    m.gated_mlp = true;
    m.vocab = 250112;
    m.norm = NormKind::RmsNorm;
    m.encoder_decoder = true;
    m.relative_attention_buckets = 32;
    return m;
}

ModelSpec model_named(const QString& name) {
    return name == QStringLiteral("mt0-large") ? mt0_large() : model_preset(name.toStdString()).spec;
}

Scenario lora(const QString& model, std::string_view method, qint64 rank, std::string_view targets, const std::string& modules = {}) {
    Scenario s;
    s.model = model_named(model);
    s.finetune.method = parse_finetune_method(method);
    s.finetune.lora_rank = rank;
    s.finetune.targets = parse_lora_targets(targets);
    s.finetune.target_modules = modules;
    return s;
}

}  // namespace

class TestFineTune : public QObject {
    Q_OBJECT
private slots:
    // clang-format off
    void trainable_counts_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("method");
        QTest::addColumn<qint64>("rank");
        QTest::addColumn<QString>("targets");
        QTest::addColumn<QString>("modules");
        QTest::addColumn<qint64>("trainable");
        QTest::addColumn<qint64>("all");
        // PEFT's own print for Llama-2 7B with its defaults (r 8, q_proj and v_proj): "trainable
        // params: 4,194,304 || all params: 6,742,609,920 || trainable%: 0.0622".
        QTest::newRow("Llama-2 7B, r 8, PEFT's default q_proj,v_proj (PEFT's print)")
            << "llama-2-7b" << "lora" << qint64(8) << "default" << "" << qint64(4194304) << qint64(6742609920);
        // Issue 15: "reports 39,976,960 trainable parameters"; by hand 32 x 16 x (4 x 8192 + 3 x 15104).
        QTest::newRow("Llama-2 7B, r 16, all-linear (issue 15; hand)")
            << "llama-2-7b" << "lora" << qint64(16) << "all-linear" << "" << qint64(39976960) << qint64(6778392576);
        QTest::newRow("Llama-2 7B, r 16, attention q,k,v,o (hand: 32 x 4 x 16 x 8192)")
            << "llama-2-7b" << "lora" << qint64(16) << "attention" << "" << qint64(16777216) << qint64(6755192832);
        // QLoRA over every linear at r 64 (the QLoRA paper's setting): the adapters as at 16-bit; PEFT
        // counts a Params4bit as numel x 2 x itemsize, the unpacked count (PEFT before 0.7 printed
        // the packed count, "all params: 3,660,320,768").
        QTest::newRow("Llama-2 7B, QLoRA r 64, all-linear (hand)")
            << "llama-2-7b" << "qlora" << qint64(64) << "all-linear" << "" << qint64(159907840) << qint64(6898323456);
        // PEFT's README print for bigscience/mt0-large, r 8 on q and v: "trainable params: 2359296 ||
        // all params: 1231940608 || trainable%: 0.1915".
        QTest::newRow("mt0-large, r 8, PEFT's default q,v (PEFT README print)")
            << "mt0-large" << "lora" << qint64(8) << "default" << "" << qint64(2359296) << qint64(1231940608);
        QTest::newRow("GPT-2, r 8, c_attn (hand: 12 x 8 x (768 + 2304))")
            << "gpt2" << "lora" << qint64(8) << "default" << "" << qint64(294912) << qint64(124734720);
        // c_proj names both the attention and the MLP output: PEFT adapts both (12 x 4 x (768 + 768)
        // + 12 x 4 x (3072 + 768)).
        QTest::newRow("GPT-2, r 4, explicit c_proj: both modules of that name (hand)")
            << "gpt2" << "lora" << qint64(4) << "modules" << "c_proj" << qint64(258048) << qint64(124697856);
        // MLA (q_proj 2048->3072, kv_a_proj_with_mqa 2048->576, kv_b_proj 512->4096, o_proj) x 27, the
        // dense first layer's MLP (10944), 26 x 64 experts (1408) and 26 shared MLPs (2 x 1408); the
        // router is a bare Parameter, no Linear: 7,105,536 + 623,616 + 276,037,632 + 6,070,272.
        QTest::newRow("DeepSeek-V2-Lite, r 16, all-linear (hand)")
            << "deepseek-v2-lite" << "lora" << qint64(16) << "all-linear" << "" << qint64(289837056) << qint64(15996321280);
        QTest::newRow("Mixtral 8x7B, r 8, all-linear: experts and router (hand)")
            << "mixtral-8x7b" << "lora" << qint64(8) << "all-linear" << "" << qint64(121112576) << qint64(46823905280);
        // gpt-oss keeps its experts and router in fused Parameters (GptOssExperts, GptOssTopKRouter),
        // which "all-linear" does not reach: q 2880->4096, k and v 2880->512, o 4096->2880 only,
        // 24 x 8 x (6976 + 3392 + 3392 + 6976). The base is PEFT's dequantized 20,914,757,184.
        QTest::newRow("gpt-oss-20b, r 8, all-linear: attention only (hand)")
            << "gpt-oss-20b" << "lora" << qint64(8) << "all-linear" << "" << qint64(3981312) << qint64(20918738496);
        // Named, the fused experts are PEFT's target_parameters (lora.ParamWrapper: lora_A r*E x in,
        // lora_B out x r*E): per layer 8 x 32 x ((2880 + 5760) + (2880 + 2880)) = 3,686,400 more.
        QTest::newRow("gpt-oss-20b, r 8, attention + experts.gate_up_proj/down_proj (hand)")
            << "gpt-oss-20b" << "lora" << qint64(8) << "modules" << "q_proj,k_proj,v_proj,o_proj,gate_up_proj,down_proj"
            << qint64(92454912) << qint64(21007212096);
        // Llama-4 Scout: Llama4Router is an nn.Linear subclass and the shared expert nn.Linear modules;
        // the 16 routed experts are fused (Llama4TextExperts). 48 x 8 x (10240 + 6144 + 6144 + 10240 +
        // 5136 + 2 x 13312 + 13312), over the language model's 107,769,861,120 (tst_model_spec).
        QTest::newRow("Llama-4 Scout, r 8, all-linear: router and shared expert, not the routed ones (hand)")
            << "llama-4-scout" << "lora" << qint64(8) << "all-linear" << "" << qint64(29890560) << qint64(107769861120 + 29890560);
    }
    // clang-format on
    void trainable_counts() {
        QFETCH(QString, model);
        QFETCH(QString, method);
        QFETCH(qint64, rank);
        QFETCH(QString, targets);
        QFETCH(QString, modules);
        QFETCH(qint64, trainable);
        QFETCH(qint64, all);
        const Scenario s = lora(model, method.toStdString(), rank, targets.toStdString(), modules.toStdString());
        validate_finetune(s);
        const ParameterSplit p = parameter_split(s);
        QCOMPARE(qint64(p.trainable), trainable);
        QCOMPARE(qint64(p.peft_all()), all);
        QCOMPARE(p.frozen, p.base);
    }

    // Which share of a layer's tokens a module computes: DeepSeek-V2-Lite's 26 x 64 routed experts
    // 6/64, its shared experts and the dense first layer's MLP all of them.
    void token_shares() {
        int routed = 0, whole = 0;
        for (const LinearModule& l : linear_modules(model_preset("deepseek-v2-lite").spec)) {
            if (l.count == 26 * 64) {
                QCOMPARE(l.token_share, 6.0 / 64.0);
                ++routed;
            } else {
                QCOMPARE(l.token_share, 1.0);
                ++whole;
            }
        }
        QCOMPARE(routed, 3);  // gate_proj, up_proj, down_proj of the routed experts
        QVERIFY(whole >= 9);  // attention, dense MLP, shared MLP, lm_head
    }

    // A 4-bit base (hand): Llama-2 7B's 6,476,005,376 linear weights (all but lm_head) at half a
    // byte, the other 262,410,240 parameters in bf16; absmax with double quantisation 1/64 +
    // 4/(64 x 256) bytes per weight.
    void qlora_base_bytes() {
        Scenario s = lora(QStringLiteral("llama-2-7b"), "qlora", 64, "all-linear");
        ParameterSplit p = parameter_split(s);
        QCOMPARE(p.quantized, 6476005376.0);
        QCOMPARE(p.frozen_bytes, 6476005376.0 * 0.5 + 262410240.0 * 2);
        ZP_COMPARE_NEAR(p.quant_state_bytes, 6476005376.0 * (1.0 / 64 + 4.0 / 16384));
        s.finetune.double_quant = false;  // fp32 absmax per block of 64
        ZP_COMPARE_NEAR(parameter_split(s).quant_state_bytes, 6476005376.0 * 4.0 / 64);
        s.finetune.base_precision = BasePrecision::Int8;  // 1 byte, one fp32 scale per output row
        p = parameter_split(s);
        QCOMPARE(p.frozen_bytes, 6476005376.0 + 262410240.0 * 2);
        QCOMPARE(p.quant_state_bytes, 4.0 * 32 * (4096 * 4 + 11008 * 2 + 4096));
    }

    // bitsandbytes replaces nn.Linear modules only (replace_with_bnb_linear): gpt-oss's fused experts
    // and router stay bf16 under a 4-bit base; its attention linears, 24 x 26,542,080, are 4-bit.
    void qlora_leaves_fused_experts_in_16_bits() {
        const Scenario s = lora(QStringLiteral("gpt-oss-20b"), "qlora", 8, "all-linear");
        const ParameterSplit p = parameter_split(s);
        QCOMPARE(p.quantized, 24.0 * 26542080.0);
        QCOMPARE(p.frozen_bytes, p.quantized * 0.5 + (p.base - p.quantized) * 2.0);
    }

    // Full training with parts frozen (hand): Llama-2 7B's embedding 32000 x 4096 and each block
    // 202,383,360 (4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096).
    void freezing() {
        Scenario s;
        s.model = model_preset("llama-2-7b").spec;
        s.finetune.freeze_embeddings = true;
        s.finetune.freeze_layers = 4;
        validate_finetune(s);
        const ParameterSplit p = parameter_split(s);
        QCOMPARE(p.frozen, 131072000.0 + 4 * 202383360.0);
        QCOMPARE(p.trainable, 6738415616.0 - p.frozen);
    }

    // One-line refusals: what was wrong and what to do.
    void refusals_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("message");
        QTest::newRow("rank 0") << "rank"
                                << "LoRA rank must be between 1";
        QTest::newRow("unknown module") << "module"
                                        << "is not a Linear module of llama-2-7b; its modules are: q_proj";
        QTest::newRow("4-bit base with LoRA") << "lora-nf4"
                                              << "use --finetune qlora";
        QTest::newRow("QLoRA on a 16-bit base") << "qlora-bf16"
                                                << "QLoRA needs a quantised base";
        QTest::newRow("QLoRA at ZeRO-3 storing uint8") << "storage"
                                                       << "bnb_4bit_quant_storage equal to the compute dtype (bf16)";
        // FSDP flattens a unit's parameters into one FlatParameter, NO_SHARD included (PEFT's FSDP
        // guide; huggingface/alignment-handbook#169): an exports review found uint8 written for it.
        QTest::newRow("QLoRA under FSDP NO_SHARD storing uint8")
            << "storage-fsdp"
            << "QLoRA under FSDP needs bnb_4bit_quant_storage equal to the compute dtype (bf16)";
        QTest::newRow("freezing more layers than there are") << "freeze"
                                                             << "is not between 0 and the model's 32 layers";
        QTest::newRow("Phi-3 has no PEFT default") << "phi3"
                                                   << "PEFT has no default target_modules for phi3";
        QTest::newRow("gpt-oss experts with dropout: ParamWrapper refuses it") << "fused-dropout"
                                                                               << "lora.ParamWrapper does not work with lora_dropout != 0";
    }
    void refusals() {
        QFETCH(QString, what);
        QFETCH(QString, message);
        Scenario s = lora(QStringLiteral("llama-2-7b"), "lora", 8, "default");
        if (what == QStringLiteral("rank")) s.finetune.lora_rank = 0;
        if (what == QStringLiteral("module")) {
            s.finetune.targets = LoraTargets::Modules;
            s.finetune.target_modules = "q_proj,query";
        }
        if (what == QStringLiteral("lora-nf4")) s.finetune.base_precision = BasePrecision::Nf4;
        if (what == QStringLiteral("qlora-bf16")) {
            s.finetune.method = FineTuneMethod::Qlora;
            s.finetune.base_precision = BasePrecision::Bf16;
        }
        if (what == QStringLiteral("storage")) {
            s.finetune.method = FineTuneMethod::Qlora;
            s.finetune.quant_storage = QuantStorage::Uint8;
            s.zero.stage = 3;
        }
        if (what == QStringLiteral("storage-fsdp")) {
            s.finetune.method = FineTuneMethod::Qlora;
            s.finetune.quant_storage = QuantStorage::Uint8;
            s.fsdp.engine = Engine::Fsdp;
            s.zero.stage = 0;
        }
        if (what == QStringLiteral("freeze")) {
            s.finetune.method = FineTuneMethod::Full;
            s.finetune.freeze_layers = 33;
        }
        if (what == QStringLiteral("fused-dropout")) {
            s = lora(QStringLiteral("gpt-oss-20b"), "lora", 8, "modules", "q_proj,gate_up_proj");
            s.finetune.lora_dropout = 0.05;
        }
        if (what == QStringLiteral("phi3")) {
            s.model.family = "phi3";
            s.model.fused_qkv = true;
        }
        try {
            validate_finetune(s);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(message), e.what());
        }
    }

    // The LoRA ranges are core/model/limits.h's, the ones the command line and the window offer:
    // validate accepts both ends and refuses just past them (values written out, not read back
    // from limits.h, so a changed limit fails here).
    void lora_ranges_data() {
        QTest::addColumn<qint64>("rank");
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("dropout");
        QTest::addColumn<QString>("message");  // empty: accepted
        QTest::newRow("lowest") << qint64{1} << 1e-6 << 0.0 << QString();
        QTest::newRow("highest") << qint64{65536} << 1e6 << 0.999 << QString();
        QTest::newRow("rank 65537") << qint64{65537} << 16.0 << 0.0 << QStringLiteral("LoRA rank must be between 1 and 65536, got 65537");
        QTest::newRow("alpha 0") << qint64{8} << 0.0 << 0.0 << QStringLiteral("LoRA alpha must be between 1e-06 and 1000000");
        QTest::newRow("alpha 2e6") << qint64{8} << 2e6 << 0.0 << QStringLiteral("LoRA alpha must be between 1e-06 and 1000000");
        QTest::newRow("alpha NaN") << qint64{8} << std::nan("") << 0.0 << QStringLiteral("LoRA alpha must be between 1e-06 and 1000000");
        QTest::newRow("dropout 1") << qint64{8} << 16.0 << 1.0 << QStringLiteral("LoRA dropout must be between 0 and 0.999");
        QTest::newRow("dropout -0.1") << qint64{8} << 16.0 << -0.1 << QStringLiteral("LoRA dropout must be between 0 and 0.999");
    }
    void lora_ranges() {
        QFETCH(qint64, rank);
        QFETCH(double, alpha);
        QFETCH(double, dropout);
        QFETCH(QString, message);
        Scenario s = lora(QStringLiteral("llama-2-7b"), "lora", rank, "default");
        s.finetune.lora_alpha = alpha;
        s.finetune.lora_dropout = dropout;
        try {
            validate_finetune(s);
            QVERIFY2(message.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QVERIFY2(!message.isEmpty(), e.what());
            QCOMPARE(QString::fromStdString(e.what()), message);
        }
    }

    // One home for the element width: 2 bytes in the 16-bit formats, 4 in fp32.
    void bytes_per_element_of_each_precision() {
        QCOMPARE(bytes_per_element(Precision::Bf16), 2.0);
        QCOMPARE(bytes_per_element(Precision::Fp16), 2.0);
        QCOMPARE(bytes_per_element(Precision::Fp32), 4.0);
    }
};

ZP_TEST_APPLESS_MAIN(TestFineTune)
#include "tst_finetune.moc"
