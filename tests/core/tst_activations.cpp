// Activation memory (core/memory/activations.cpp): the general per-layer form equals Korthikanti et
// al.'s closed forms (arXiv 2205.05198 Table 2) for GPT-style layers
// (tests/data/anchors/korthikanti_activations.json), and its generalisations (GQA, SwiGLU, flash
// attention, logits, CPU checkpointing).
#include "core/memory/activations.h"
#include "core/presets/model_presets.h"
#include "test_data.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;

namespace {
ModelSpec gpt_layer(std::int64_t hidden, std::int64_t heads) { return gpt2_style(1, hidden, heads, 50257, 0); }
}  // namespace

class TestActivations : public QObject {
    Q_OBJECT
private slots:
    void published_gpt3_layer_data() {
        QTest::addColumn<qint64>("s");
        QTest::addColumn<qint64>("h");
        QTest::addColumn<qint64>("a");
        QTest::addColumn<int>("checkpointing");
        QTest::addColumn<double>("expectedBytes");
        const auto examples = load_test_json("anchors/korthikanti_activations.json").at("examples");
        const auto& shape = json_row(examples, "model", "GPT-3 175B");
        const auto& bytes = json_row(examples, "model", "GPT-3 175B per layer, b=1, t=1");
        const qint64 s = shape.at("s"), h = shape.at("h"), a = shape.at("a");
        QTest::newRow("Korthikanti Table 2: GPT-3 layer, no recompute")
            << s << h << a << int(Checkpointing::None) << bytes.at("bytes_no_recompute").get<double>();
        QTest::newRow("Korthikanti Table 2: GPT-3 layer, selective")
            << s << h << a << int(Checkpointing::Selective) << bytes.at("bytes_selective").get<double>();
        QTest::newRow("Korthikanti Table 2: GPT-3 layer, full")
            << s << h << a << int(Checkpointing::Full) << bytes.at("bytes_full").get<double>();
    }
    void published_gpt3_layer() {
        QFETCH(qint64, s);
        QFETCH(qint64, h);
        QFETCH(qint64, a);
        QFETCH(int, checkpointing);
        QFETCH(double, expectedBytes);
        Training t;
        t.seq_len = s;
        t.micro_batch = 1;
        t.flash_attention = false;
        t.checkpointing = static_cast<Checkpointing>(checkpointing);
        const ActivationBytes bytes = activation_bytes(gpt_layer(h, a), t);
        QCOMPARE(bytes.per_layer_stored, expectedBytes);
    }

    // torchtitan's op-level selective checkpointing (core/model/op_sac.h: every second aten.mm saved,
    // counted in forward order, and the attention output): per token and layer, the input, q, v,
    // the attention output, the gate (w1) and the down projection (w2) in 16 bits, and flash
    // attention's log-sum-exp in fp32 per head. Llama-3 8B: (4 x 4096 + 1024 + 14336) x 2 + 32 x 4
    // = 63,616 bytes (the held-out review of stop 82 read 63 KB a token a layer off torchtitan's
    // policy, where the planner's attention-only selective kept 176 KB).
    void op_level_selective_checkpointing_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("bytesPerTokenLayer");
        QTest::newRow("Llama-3 8B (GQA 8 of 32, SwiGLU 14336): 63,616 B") << QStringLiteral("llama-3-8b") << 63616.0;
        // Llama-2 7B: (4 x 4096 + 4096 + 11008) x 2 + 32 x 4 = 63,104 B.
        QTest::newRow("Llama-2 7B (MHA, SwiGLU 11008): 63,104 B") << QStringLiteral("llama-2-7b") << 63104.0;
    }
    void op_level_selective_checkpointing() {
        QFETCH(QString, model);
        QFETCH(double, bytesPerTokenLayer);
        Training t;
        t.seq_len = 8192;
        t.micro_batch = 2;
        t.flash_attention = true;
        t.checkpointing = Checkpointing::SelectiveOp;
        const ActivationBytes bytes = activation_bytes(model_preset(model.toStdString()).spec, t);
        QCOMPARE(bytes.per_layer_stored, bytesPerTokenLayer * 8192 * 2);
        // Backward rebuilds one layer whole, as under full recompute.
        t.checkpointing = Checkpointing::Full;
        QCOMPARE(bytes.recompute_working, activation_bytes(model_preset(model.toStdString()).spec, t).recompute_working);
    }

    // s*b*h*(34 + 5as/h), and the split 11sbh + 5as^2b | 19sbh | 4sbh, for several shapes.
    void closed_forms_data() {
        QTest::addColumn<qint64>("s");
        QTest::addColumn<qint64>("b");
        QTest::addColumn<qint64>("h");
        QTest::addColumn<qint64>("a");
        QTest::newRow("GPT-3 175B (Korthikanti Sec. 5)") << qint64(2048) << qint64(1) << qint64(12288) << qint64(96);
        QTest::newRow("MT-NLG 530B (Korthikanti Sec. 5)") << qint64(2048) << qint64(1) << qint64(20480) << qint64(128);
        QTest::newRow("GPT-2 small, b=8") << qint64(1024) << qint64(8) << qint64(768) << qint64(12);
        QTest::newRow("GPT-2 XL, s=4096 b=2") << qint64(4096) << qint64(2) << qint64(1600) << qint64(25);
    }
    void closed_forms() {
        QFETCH(qint64, s);
        QFETCH(qint64, b);
        QFETCH(qint64, h);
        QFETCH(qint64, a);
        const double sbh = double(s) * double(b) * double(h);
        const LayerActivationBytes l = layer_activation_bytes(gpt_layer(h, a), s, b);
        QCOMPARE(l.attention + l.scores, 11 * sbh + 5.0 * double(a) * double(s) * double(s) * double(b));
        QCOMPARE(l.mlp, 19 * sbh);
        QCOMPARE(l.norms, 4 * sbh);
        QCOMPARE(l.total(), sbh * (34 + 5.0 * double(a) * double(s) / double(h)));
        QCOMPARE(l.attention + l.mlp + l.norms, 34 * sbh);
    }

    // Backward through one layer, op by op (activations.cpp gradient_working_bytes): the larger of
    // the MLP's gradients alive at once and the attention's, in units of sbh with 16-bit tensors.
    // GPT layer (f = 4h): MLP 2h residual and input + 2 x 4h (gelu_backward's output beside its
    // input) = 20sbh; attention without flash 2h + 2(q + q + k + v) = 10sbh and two score-sized
    // gradients 4as^2b; with flash 2h + 2(3q + 2kv) + 4q (fp32 dq_accum) = 16sbh. Llama-style
    // SwiGLU (f = 11008 at h = 4096): three ffn-wide gradients, Liger one.
    void backward_gradients_op_by_op_data() {
        QTest::addColumn<bool>("gated");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<int>("loss");
        QTest::addColumn<double>("mlpSbh");
        QTest::addColumn<double>("attentionSbh");
        QTest::addColumn<double>("scoreGradients");
        QTest::newRow("GPT layer, eager attention") << false << false << int(LossKernel::Full) << 20.0 << 10.0 << 2.0;
        QTest::newRow("GPT layer, flash attention") << false << true << int(LossKernel::Full) << 20.0 << 16.0 << 0.0;
        QTest::newRow("SwiGLU, flash attention") << true << true << int(LossKernel::Full) << 4 + 6 * 11008.0 / 4096 << 16.0 << 0.0;
        QTest::newRow("SwiGLU, flash attention, Liger")
            << true << true << int(LossKernel::Chunked) << 4 + 2 * 11008.0 / 4096 << 16.0 << 0.0;
    }
    void backward_gradients_op_by_op() {
        QFETCH(bool, gated);
        QFETCH(bool, flash);
        QFETCH(int, loss);
        QFETCH(double, mlpSbh);
        QFETCH(double, attentionSbh);
        QFETCH(double, scoreGradients);
        const qint64 s = 2048, b = 2, h = 4096, a = 32;
        const ModelSpec m = gated ? llama_style(1, h, a, a, 11008, 32000, false) : gpt_layer(h, a);
        Training t;
        t.seq_len = s;
        t.micro_batch = b;
        t.precision = Precision::Bf16;
        t.flash_attention = flash;
        t.loss_kernel = static_cast<LossKernel>(loss);
        const double sbh = double(s) * double(b) * double(h);
        const double scores = scoreGradients * 2.0 * double(a) * double(s) * double(s) * double(b);
        QCOMPARE(activation_bytes(m, t).gradient_working, std::max(mlpSbh * sbh, attentionSbh * sbh + scores));
    }

    // fp32 training: autograd saves fp32 tensors, so every stored tensor is 4 bytes an element and
    // the three dropout masks stay 1 byte: for f = 4h, attention 4(h + 2h + 2h) + h = 21sbh + 9as^2b,
    // MLP 37sbh, norms 8sbh (the paper's 11, 19, 4 with 2-byte tensors).
    void fp32_tensors_masks_stay_bytes() {
        const qint64 s = 1024, b = 8, h = 1600, a = 25;
        const double sbh = double(s) * double(b) * double(h);
        const LayerActivationBytes l = layer_activation_bytes(gpt_layer(h, a), s, b, bytes_per_element(Precision::Fp32));
        QCOMPARE(l.attention + l.scores, 21 * sbh + 9.0 * double(a) * double(s) * double(s) * double(b));
        QCOMPARE(l.mlp, 37 * sbh);
        QCOMPARE(l.norms, 8 * sbh);
        Training t;
        t.seq_len = s;
        t.micro_batch = b;
        t.precision = Precision::Fp32;
        t.checkpointing = Checkpointing::Full;
        // A checkpoint is the layer's fp32 input, 4sbh; the logits have no fp32 copy: 8sbh + 4sbV.
        const ModelSpec m = gpt_layer(h, a);
        const ActivationBytes fp32 = activation_bytes(m, t);
        QCOMPARE(fp32.per_layer_stored, 4 * sbh);
        QCOMPARE(fp32.embedding_and_logits, 8 * sbh + 4.0 * double(s) * double(b) * double(m.vocab));
    }

    void generalisations() {
        // Grouped-query attention stores smaller K and V: Llama-2 70B (8 kv heads of 128, so K and V
        // are 1024 wide instead of 8192). 16-bit K and V: 2 x 2 x (8192 - 1024) = 28,672 bytes per
        // token fewer, x 4096 tokens = 117,440,512.
        const ModelSpec mha = llama_style(1, 8192, 64, 64, 28672, 32000, false);
        const ModelSpec gqa = llama_style(1, 8192, 64, 8, 28672, 32000, false);
        const auto lm = layer_activation_bytes(mha, 4096, 1), lg = layer_activation_bytes(gqa, 4096, 1);
        QCOMPARE(lm.attention - lg.attention, 117440512.0);
        // SwiGLU, per token: the 16-bit input 2h, gate 2f, up 2f, SiLU output 2f, product 2f (the down
        // projection's input) and the 1-byte dropout mask h: 3 x 8192 + 8 x 28672 = 253,952 bytes,
        // x 4096 tokens = 1,040,187,392.
        QCOMPARE(lg.mlp, 1040187392.0);
        // Flash attention never stores the scores; selective recompute drops exactly them.
        Training t;
        t.seq_len = 4096;
        t.flash_attention = true;
        const double flash = activation_bytes(gqa, t).per_layer_stored;
        t.flash_attention = false;
        t.checkpointing = Checkpointing::Selective;
        QCOMPARE(activation_bytes(gqa, t).per_layer_stored, flash);
    }

    void qk_norm_keeps_its_inputs() {
        // Qwen3-32B (Qwen/Qwen3-32B config.json: 64 heads and 8 key/value heads of 128, hidden 5120):
        // q_norm and k_norm keep the q and k projections' outputs, 16-bit, 8192 and 1024 wide:
        // 2 x (8192 + 1024) = 18,432 bytes per token more than the same layer without QK-norm,
        // x 4096 tokens = 75,497,472; a quarter of that per rank of tensor parallelism 4.
        ModelSpec qwen = model_preset("qwen3-32b").spec;
        qwen.layers = 1;
        ModelSpec plain = qwen;
        plain.qk_norm = false;
        QCOMPARE(layer_activation_bytes(qwen, 4096, 1).norms - layer_activation_bytes(plain, 4096, 1).norms, 75497472.0);
        TensorSplit tp4;
        tp4.tensor = 4;
        QCOMPARE(layer_activation_bytes(qwen, 4096, 1, 2.0, tp4).norms - layer_activation_bytes(plain, 4096, 1, 2.0, tp4).norms,
                 75497472.0 / 4);
        // Ulysses wraps only the attention core: the norms see the rank's s/u tokens, every head.
        TensorSplit sp8;
        sp8.ulysses = 8;
        QCOMPARE(layer_activation_bytes(qwen, 4096, 1, 2.0, sp8).norms - layer_activation_bytes(plain, 4096, 1, 2.0, sp8).norms,
                 75497472.0 / 8);
    }

    void logits_and_cpu_checkpointing() {
        // A 128K vocabulary at 4096 tokens: the final norm's and the head's 16-bit inputs (2 x 2h) and
        // the 16-bit logits plus their fp32 copy (6V) are 4096 x (16,384 + 769,536) = 3,219,128,320 bytes.
        const ModelSpec m = model_preset("llama-3-8b").spec;
        Training t;
        t.seq_len = 4096;
        const ActivationBytes a = activation_bytes(m, t);
        QCOMPARE(a.embedding_and_logits, 3219128320.0);
        t.checkpointing = Checkpointing::Full;
        const ActivationBytes on_gpu = activation_bytes(m, t);
        t.cpu_checkpointing = true;
        const ActivationBytes on_cpu = activation_bytes(m, t);
        // Full recompute keeps each layer's 16-bit input, 2sbh = 2 x 4096 x 4096 = 33,554,432 bytes: 32
        // layers are 1,073,741,824 on the host; the GPU still stages one, so it saves 31 of them.
        QCOMPARE(on_cpu.cpu_bytes_per_gpu, 1073741824.0);
        QCOMPARE(on_gpu.gpu_bytes - on_cpu.gpu_bytes, 1040187392.0);
    }

    // DeepSpeed's partition_activations (runtime/activation_checkpointing/checkpointing.py
    // partition_activations: numel / mp_size of every checkpoint per rank) keeps a t-th of each
    // layer input, as Megatron's sequence parallelism does; with cpu_checkpointing that share is
    // what waits in host memory. ZeRO-Infinity's 5T (Table 1): 12 sequences of 1024 x 49,152 in
    // fp16 at mp 4 are 2 x 12 x 1024 x 49,152 / 4 = 301,989,888 bytes a layer, 174 layers on the host.
    void partitioned_checkpoints_data() {
        QTest::addColumn<bool>("cpu");
        QTest::newRow("ZeRO-Infinity Table 1, 5T: partitioned, in GPU memory") << false;
        QTest::newRow("ZeRO-Infinity Table 1, 5T: partitioned, in host memory") << true;
    }
    void partitioned_checkpoints() {
        QFETCH(bool, cpu);
        ModelSpec m = model_preset("gpt3-175b").spec;
        m.layers = 174;
        m.hidden = 49152;
        m.heads = 384;
        m.kv_heads = 384;
        m.head_dim = 128;
        m.ffn = 4 * 49152;
        Training t;
        t.precision = Precision::Fp16;
        t.seq_len = 1024;
        t.micro_batch = 12;
        t.flash_attention = false;
        t.checkpointing = Checkpointing::Full;
        t.cpu_checkpointing = cpu;
        Parallelism tp4;
        tp4.tensor = 4;
        const ActivationBytes whole = activation_bytes(m, t, FineTune{}, tp4);
        t.partition_activations = true;
        const ActivationBytes split = activation_bytes(m, t, FineTune{}, tp4);
        QCOMPARE(split.per_layer_stored, 301989888.0);
        QCOMPARE(whole.per_layer_stored, 4 * 301989888.0);
        QCOMPARE(split.cpu_bytes_per_gpu, cpu ? 174 * 301989888.0 : 0.0);
        // Sequence parallelism splits them already: partitioning adds nothing there.
        Parallelism sp = tp4;
        sp.sequence_parallel = true;
        QCOMPARE(activation_bytes(m, t, FineTune{}, sp).per_layer_stored, split.per_layer_stored);
        // Without tensor parallelism there is nothing to split over.
        QCOMPARE(activation_bytes(m, t, FineTune{}, Parallelism{}).per_layer_stored, 4 * 301989888.0);
    }
};

ZP_TEST_APPLESS_MAIN(TestActivations)
#include "tst_activations.moc"
