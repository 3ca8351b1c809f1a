// core/validation: measured runs read into scenarios and measurements by generic rules (units by
// name, fits/OOM text, GPU type fragments), malformed documents refused naming case and field,
// and no rule keyed by a case id.
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/units.h"
#include "core/io/hf_config.h"
#include "core/memory/memory_model.h"
#include "core/model/deepspeed_release.h"
#include "core/model/model_spec.h"
#include "core/presets/default_scenario.h"
#include "core/search/recommender.h"
#include "core/time/collectives.h"
#include "core/time/compute_time.h"
#include "core/time/step_time.h"
#include "core/validation/holdout.h"
#include "core/validation/means.h"
#include "core/validation/measured_runs.h"
#include "core/validation/pairs.h"
#include "core/validation/validate.h"
#include "test_data.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <QDir>
#include <QRegularExpression>
#include "test_main.h"

using namespace zp;
using namespace zp::validation;

Q_DECLARE_METATYPE(zp::validation::Dimension)

namespace {

// One well-formed case; `patch` replaces fields (JSON text spliced in).
std::string document(const std::string& patch = "") {
    return R"({"cases": [{"id": "X1", "kind": "peak_memory",
        "model": {"name": "Llama-2-7b", "params": 6738415616, "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "ffn": 11008, "vocab": 32000},
        "gpus": 8, "gpus_per_node": 8, "nodes": 1, "gpu": {"type": "A100 80GB", "memory_gib": 79.15},
        "stage": 3, "offload_optimizer": "none", "offload_param": "none", "precision": "bf16", "optimizer": "AdamW",
        "micro_batch": 1, "grad_accum": 1, "seq": 2048, "checkpointing": "full", "flash_attention": true, "lora": null,
        "measured": {"value": 20000, "unit": "MiB", "what": "max_allocated"}, "assumptions": ""
        )" +
           patch + "}]}";
}

// measured_runs_2.json N10's launch (Hugging Face run_clm.py through the Trainer on one DGX-2's 16
// V100s, fp16, ZeRO-1) with another GPT-2 size, built through the importer `--hf-config` uses from
// the keys the model's config.json states (n_layer, n_embd, n_head).
Scenario n10_launch_with_gpt2(qint64 layers, qint64 hidden, qint64 heads) {
    static const std::vector<MeasuredCase> second = bundled_measured_runs("measured_runs_2.json");
    const auto n10 = std::find_if(second.begin(), second.end(), [](const MeasuredCase& c) { return c.id == "N10"; });
    if (n10 == second.end()) qFatal("no bundled case N10");
    Scenario s = n10->scenario;
    // The autotuner's DeepSpeed (9caa74e57, PR #1554: v0.5.7) reduced ZeRO-2's gradient buckets to
    // their owners (ZeroSetup::multi_rank_bucket_allreduce came with v0.12.4).
    s.zero.multi_rank_bucket_allreduce = false;
    s.model = import_hf_config(QStringLiteral(R"({"model_type": "gpt2", "n_layer": %1, "n_embd": %2, "n_head": %3, )"
                                              R"("vocab_size": 50257, "n_positions": 1024})")
                                   .arg(layers)
                                   .arg(hidden)
                                   .arg(heads)
                                   .toStdString());
    return s;
}

// A case of a bundled runs file as `validate` builds it (the source facts and corrections
// applied), each file read once; nullptr when the file has no such case.
const MeasuredCase* bundled_case(const std::string& file, const std::string& id) {
    static std::map<std::string, std::vector<MeasuredCase>> files;
    auto it = files.find(file);
    if (it == files.end()) it = files.emplace(file, bundled_measured_runs(file)).first;
    const auto c = std::find_if(it->second.begin(), it->second.end(), [&](const MeasuredCase& m) { return m.id == id; });
    return c == it->second.end() ? nullptr : &*c;
}

// A bundled published-throughput case.
MeasuredCase paper_case(const QString& id) {
    const MeasuredCase* c = bundled_case("paper_throughput.json", id.toStdString());
    if (!c) qFatal("no bundled case %s", qPrintable(id));
    return *c;
}

// The third set's row of `id`, the set validated once for every test that reads it; and how a
// failing row reads.
const CaseResult* third_set_row(const QString& id) {
    static const ValidationReport report = validate_cases(bundled_measured_runs("measured_runs_3.json"));
    const auto row = std::find_if(report.rows.begin(), report.rows.end(), [&](const CaseResult& r) { return r.id == id.toStdString(); });
    return row == report.rows.end() ? nullptr : &*row;
}
QString ratio_text(const CaseResult& r) {
    return QStringLiteral("predicted %1, measured %2: ratio %3").arg(r.predicted).arg(r.measured).arg(r.ratio);
}

}  // namespace

class TestValidation : public QObject {
    Q_OBJECT
private slots:
    void unit_conversion_data() {
        QTest::addColumn<QString>("unit");
        QTest::addColumn<zp::validation::Dimension>("dimension");
        QTest::addColumn<double>("factor");
        QTest::newRow("MiB is 2^20 bytes") << QStringLiteral("MiB") << Dimension::Bytes << kBytesPerMiB;
        QTest::newRow("MB (MiB) is MiB") << QStringLiteral("MB (MiB)") << Dimension::Bytes << kBytesPerMiB;
        QTest::newRow("MB is 1e6 bytes") << QStringLiteral("MB") << Dimension::Bytes << 1e6;
        QTest::newRow("GB is 1e9 bytes") << QStringLiteral("GB") << Dimension::Bytes << 1e9;
        QTest::newRow("GB with a remark is GB") << QStringLiteral("GB (approx., max RSS)") << Dimension::Bytes << 1e9;
        QTest::newRow("GB (GiB) is GiB") << QStringLiteral("GB (GiB)") << Dimension::Bytes << kBytesPerGiB;
        QTest::newRow("GiB is 2^30 bytes") << QStringLiteral("GiB") << Dimension::Bytes << kBytesPerGiB;
        QTest::newRow("ms is 1e-3 s") << QStringLiteral("ms per iteration") << Dimension::Seconds << 1e-3;
        QTest::newRow("s/iteration is seconds") << QStringLiteral("s/iteration (10 samples)") << Dimension::Seconds << 1.0;
        QTest::newRow("samples/s") << QStringLiteral("samples/s (global)") << Dimension::PerSecond << 1.0;
        QTest::newRow("TFLOPs per GPU is 1e12 FLOP/s") << QStringLiteral("TFLOPs per GPU") << Dimension::FlopsPerSecond << 1e12;
    }
    void unit_conversion() {
        QFETCH(QString, unit);
        QFETCH(zp::validation::Dimension, dimension);
        QFETCH(double, factor);
        const auto u = parse_unit(unit.toStdString());
        QVERIFY(u);
        QCOMPARE(u->dimension, dimension);
        QCOMPARE(u->factor, factor);
    }
    void unknown_units() {
        for (const char* u : {"", "furlongs", "G", "per cent"}) QVERIFY2(!parse_unit(u), u);
    }

    void fit_text_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("checks");  // "mb:fits|oom[:ddp]" separated by spaces
        QTest::newRow("bare OOM at the case's micro batch") << QStringLiteral("OOM") << QStringLiteral("3:oom");
        QTest::newRow("bare fits") << QStringLiteral("fits") << QStringLiteral("3:fits");
        QTest::newRow("fits with a remark") << QStringLiteral("fits; ~13 G per card") << QStringLiteral("3:fits");
        QTest::newRow("boundary pair is two checks")
            << QStringLiteral("fits at micro_batch 20; OOM at 30") << QStringLiteral("20:fits 30:oom");
        QTest::newRow("max fitting micro batch")
            << QStringLiteral("max fitting micro_batch 40 (ZeRO-2); DDP max 16 fp32 / 20 fp16") << QStringLiteral("40:fits");
        QTest::newRow("DDP clause is plain data parallel")
            << QStringLiteral("fits at micro_batch 16 (ZeRO-3 + CPU offload); DDP OOM at 1") << QStringLiteral("16:fits 1:oom:ddp");
        QTest::newRow("fits at with a remark") << QStringLiteral("fits at micro_batch 1 (105 h for 3 epochs)") << QStringLiteral("1:fits");
        QTest::newRow("nothing readable") << QStringLiteral("it ran, mostly") << QString();
    }
    void fit_text() {
        QFETCH(QString, text);
        QFETCH(QString, checks);
        QStringList got;
        for (const FitCheck& c : parse_fit_text(text.toStdString(), 3))
            got << QString::number(c.micro_batch) + (c.fits ? QStringLiteral(":fits") : QStringLiteral(":oom")) +
                       (c.plain_data_parallel ? QStringLiteral(":ddp") : QString());
        QCOMPARE(got.join(QLatin1Char(' ')), checks);
    }

    void gpu_type_data() {
        QTest::addColumn<QString>("type");
        QTest::addColumn<double>("memory_gib");
        QTest::addColumn<QString>("label");
        QTest::addColumn<double>("tflops");
        QTest::newRow("V100 SXM3 32GB is the 32 GB V100")
            << QStringLiteral("V100-SXM3 32GB (DGX-2)") << 31.72 << QStringLiteral("v100-32gb with the case's memory") << 125.0;
        QTest::newRow("V100 16GB") << QStringLiteral("V100 16GB (AWS p3)") << 16.0 << QStringLiteral("v100-16gb") << 125.0;
        QTest::newRow("A100 80GB") << QStringLiteral("A100 80GB") << 80.0 << QStringLiteral("a100-80gb") << 312.0;
        QTest::newRow("A100 40GB") << QStringLiteral("A100-SXM4-40GB") << 0.0 << QStringLiteral("a100-40gb") << 312.0;
        QTest::newRow("A800 is a custom A100") << QStringLiteral("A800 80GB") << 79.35 << QStringLiteral("custom from a100-80gb") << 312.0;
        QTest::newRow("H100 PCIe") << QStringLiteral("H100 PCIe 80GB") << 0.0 << QStringLiteral("h100-pcie") << 756.0;
        QTest::newRow("H100") << QStringLiteral("H100 80GB") << 0.0 << QStringLiteral("h100-80gb") << 989.0;
        QTest::newRow("RTX 3090") << QStringLiteral("RTX 3090 24GB") << 24.0 << QStringLiteral("rtx-3090") << 71.0;
        QTest::newRow("Titan RTX is custom") << QStringLiteral("Titan RTX 24GB") << 23.65 << QStringLiteral("custom from rtx-3090")
                                             << 130.0;
        QTest::newRow("unknown type") << QStringLiteral("TPU v5e") << 16.0 << QString() << 0.0;
    }
    void gpu_type() {
        QFETCH(QString, type);
        QFETCH(double, memory_gib);
        QFETCH(QString, label);
        QFETCH(double, tflops);
        std::string got_label;
        const auto g = match_gpu_type(type.toStdString(), memory_gib, &got_label);
        if (label.isEmpty()) {
            QVERIFY(!g);
            return;
        }
        QVERIFY(g);
        QCOMPARE(QString::fromStdString(got_label), label);
        QCOMPARE(g->peak_tflops_16bit, tflops);
        if (memory_gib > 0) QCOMPARE(g->memory_gib, memory_gib);
    }

    void not_representable_data() {
        QTest::addColumn<QString>("lora");
        QTest::addColumn<QString>("assumptions");
        QTest::addColumn<QString>("reason");
        QTest::newRow("plain run") << QString() << QStringLiteral("stage 3, buckets default") << QString();
        QTest::newRow("LoRA with a rank is modelled")
            << QStringLiteral("LoRA r=8, alpha 32, default T5 targets (q,v)") << QString() << QString();
        QTest::newRow("LoRA without a rank") << QStringLiteral("LoRA on the attention") << QString() << QStringLiteral("states no rank");
        QTest::newRow("ZeRO++ with its switches is modelled") << QString() << QStringLiteral("ZeRO++ ON (qwZ + hpZ=16)") << QString();
        QTest::newRow("ZeRO++ by key") << QString() << QStringLiteral("zero_quantized_weights true") << QString();
        QTest::newRow("ZeRO++ without switches") << QString() << QStringLiteral("ZeRO++ was on") << QStringLiteral("without its switches");
        QTest::newRow("TP and PP are modelled") << QString() << QStringLiteral("TP=4, PP=12, DP=8") << QString();
    }
    void not_representable() {
        QFETCH(QString, lora);
        QFETCH(QString, assumptions);
        QFETCH(QString, reason);
        const std::optional<std::string> l = lora.isEmpty() ? std::nullopt : std::optional(lora.toStdString());
        const QString got = QString::fromStdString(not_representable_reason(l, assumptions.toStdString()));
        if (reason.isEmpty()) QVERIFY2(got.isEmpty(), qPrintable(got));
        else QVERIFY2(got.contains(reason), qPrintable(got));
    }

    // DeepSpeedExamples training/bf16_master_weight/README.md's two configurations, as a case's
    // precision text may name them, and DeepSpeed's own keys.
    void low_precision_master_named_data() {
        QTest::addColumn<QString>("precision");
        QTest::addColumn<bool>("named");
        QTest::newRow("the README's baseline") << QStringLiteral("bf16 (DeepSpeed bf16 engine, fp32 master weights/grads/Adam states)")
                                               << false;
        QTest::newRow("the same, as N02 states it") << QStringLiteral("bf16 (fp32 master)") << false;
        QTest::newRow("the README's BF16 low-precision (master + opt states)")
            << QStringLiteral("BF16 low-precision (master + opt states)") << true;
        QTest::newRow("by DeepSpeed's keys") << QStringLiteral("bf16, bf16_master_weights_and_grads and bf16_optimizer_states") << true;
        QTest::newRow("bf16 master weights") << QStringLiteral("bf16 (bf16 master weights, bf16 Adam states)") << true;
        QTest::newRow("fp16 master weights") << QStringLiteral("fp16, fp16_master_weights_and_grads") << true;
    }
    void low_precision_master_named() {
        QFETCH(QString, precision);
        QFETCH(bool, named);
        QCOMPARE(names_low_precision_master(precision.toStdString()), named);
    }
    // The bf16_master_weight README (4 H100s, 6.86B at ZeRO-3, micro batch 1 x 512): max allocated
    // 31.38 GiB with fp32 master weights (measured_runs_2.json N01) and 18.93 with bf16 master
    // weights and optimizer states (measured_runs_3.json D01): each, and the 12.45 GiB between
    // them, within 15%.
    void bf16_master_weights_readme() {
        const MeasuredCase* n01 = bundled_case("measured_runs_2.json", "N01");
        const MeasuredCase* d01 = bundled_case("measured_runs_3.json", "D01");
        QVERIFY(n01 && d01);
        QVERIFY(!n01->scenario.zero.bf16_master_weights && d01->scenario.zero.bf16_master_weights);
        const double gib = 1073741824.0;
        const double fp32_master = estimate_memory(n01->scenario).peak_allocated_bytes / gib;
        const double bf16_master = estimate_memory(d01->scenario).peak_allocated_bytes / gib;
        QVERIFY2(std::abs(fp32_master / 31.38 - 1) <= 0.15, qPrintable(QString::number(fp32_master)));
        QVERIFY2(std::abs(bf16_master / 18.93 - 1) <= 0.15, qPrintable(QString::number(bf16_master)));
        QVERIFY2(std::abs((fp32_master - bf16_master) / (31.38 - 18.93) - 1) <= 0.15,
                 qPrintable(QString::number(fp32_master - bf16_master)));
    }

    // BigScience's all_reduce_bench on Jean Zay's A100 nodes (experiments/bandwidth/
    // all_reduce_bench-a100-n4.txt, 2022-01-28): a 4e9-byte fp32 all-reduce over 4 nodes x 8 GPUs,
    // one ring of 8 ranks a node, 1.525 s a trial. The fabric measured_runs_facts.json gives the
    // prequel's February runs must time it so, and the A100's usual node (a DGX A100) does not.
    void jean_zay_fabric_times_its_all_reduce_bench() {
        const MeasuredCase* b01 = bundled_case("measured_runs_3.json", "B01t");
        QVERIFY(b01);
        const Cluster& jean_zay = b01->scenario.cluster;
        QCOMPARE(jean_zay.nics_per_node, 4);
        const auto bench_seconds = [](const Cluster& c) { return allreduce_seconds(4e9, 32, bottleneck_gbytes_per_s(c, 8)); };
        QVERIFY2(std::abs(bench_seconds(jean_zay) / 1.525 - 1) <= 0.02, qPrintable(QString::number(bench_seconds(jean_zay))));
        Cluster dgx_a100 = jean_zay;
        dgx_a100.inter_node_gbits_per_s = 1600;
        dgx_a100.nics_per_node = 8;
        QVERIFY2(bench_seconds(dgx_a100) < 0.5, qPrintable(QString::number(bench_seconds(dgx_a100))));
    }

    // Named in a bf16 ZeRO-3 case, both of DeepSpeed's switches are on; at ZeRO-0, or in fp16, the
    // case is not representable rather than scored with fp32 master weights.
    void low_precision_master_cases() {
        const auto on = parse_measured_runs(document(R"j(, "precision": "BF16 low-precision (master + opt states)")j"), "runs.json");
        QVERIFY(on.front().scenario.zero.bf16_master_weights);
        QVERIFY(on.front().not_representable.empty());
        const auto stage0 =
            parse_measured_runs(document(R"j(, "stage": 0, "precision": "BF16 low-precision (master + opt states)")j"), "runs.json");
        QVERIFY(stage0.front().not_representable.find("16-bit master weights") != std::string::npos);
        const auto fp16 = parse_measured_runs(document(R"(, "precision": "fp16, fp16_master_weights_and_grads")"), "runs.json");
        QVERIFY(fp16.front().not_representable.find("16-bit master weights") != std::string::npos);
    }

    // The DeepSpeed ZeRO++ tutorial's runs (measured_runs.json M12, M13) state their switches both ways.
    void zeropp_switches_from_text_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("hpz");
        QTest::addColumn<bool>("qwz");
        QTest::addColumn<bool>("qgz");
        QTest::newRow("ds_config keys")
            << QStringLiteral(
                   "ZeRO++ ON: zero_quantized_weights true, zero_hpz_partition_size 16 (secondary intra-node copy), zero_quantized_gradients true")
            << qint64(16) << true << true;
        QTest::newRow("paper names") << QStringLiteral("ZeRO++ ON (qwZ + hpZ=16 + qgZ)") << qint64(16) << true << true;
        QTest::newRow("hpZ alone") << QStringLiteral("zero_hpz_partition_size: 8") << qint64(8) << false << false;
    }
    void zeropp_switches_from_text() {
        QFETCH(QString, text);
        QFETCH(qint64, hpz);
        QFETCH(bool, qwz);
        QFETCH(bool, qgz);
        const auto z = zeropp_from_text(text.toStdString());
        QVERIFY(z.has_value());
        QCOMPARE(z->hpz_partition_size, hpz);
        QCOMPARE(z->quantized_weights, qwz);
        QCOMPARE(z->quantized_gradients, qgz);
        QVERIFY(!zeropp_from_text("stage 3, hpZ's secondary partition is not used"));
    }

    void parallelism_from_text_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("tp");
        QTest::addColumn<qint64>("pp");
        QTest::newRow("BLOOM's replica setup") << QStringLiteral("TP=4, PP=12, DP=8 (README 'Replica setup')") << qint64(4) << qint64(12);
        QTest::newRow("Megatron flags") << QStringLiteral("--tensor-model-parallel-size 1 --pipeline-model-parallel-size 2") << qint64(1)
                                        << qint64(2);
        QTest::newRow("none") << QStringLiteral("stage 3, buckets default") << qint64(1) << qint64(1);
    }
    void parallelism_from_text() {
        QFETCH(QString, text);
        QFETCH(qint64, tp);
        QFETCH(qint64, pp);
        const Parallelism p = zp::validation::parallelism_from_text(text.toStdString());
        QCOMPARE(p.tensor, tp);
        QCOMPARE(p.pipeline, pp);
    }

    void malformed_document_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        const auto doc = [](const char* patch) { return QString::fromStdString(document(patch)); };
        QTest::newRow("syntax error has line and column") << QStringLiteral("{\n \"cases\": [,]}") << QStringLiteral("line 2, column");
        QTest::newRow("no cases array") << QStringLiteral("{\"runs\": []}") << QStringLiteral("'cases' array");
        QTest::newRow("empty cases") << QStringLiteral("{\"cases\": []}") << QStringLiteral("'cases' is empty");
        QTest::newRow("missing id") << QStringLiteral("{\"cases\": [{\"kind\": \"peak_memory\"}]}")
                                    << QStringLiteral("cases[0]: id is missing");
        QTest::newRow("id a number") << QStringLiteral("{\"cases\": [{\"id\": 5, \"kind\": \"peak_memory\"}]}")
                                     << QStringLiteral("cases[0]: id must be text (a short name of the run), got 5");
        QTest::newRow("unknown kind") << doc(R"(, "kind": "vibes")") << QStringLiteral("case X1: kind 'vibes'");
        QTest::newRow("layers not an integer") << doc(R"(, "model": {"layers": "32", "hidden": 4096, "heads": 32, "vocab": 32000})")
                                               << QStringLiteral("case X1: model: layers must be an integer");
        QTest::newRow("missing gpus") << doc(R"(, "gpus": null)") << QStringLiteral("case X1: gpus is missing");
        QTest::newRow("stage 4") << doc(R"(, "stage": 4)") << QStringLiteral("case X1: stage must be 0, 1, 2 or 3");
        QTest::newRow("unknown attention kernel") << doc(R"(, "attention_kernel": "xformers")")
                                                  << QStringLiteral("case X1: attention_kernel 'xformers' is none of flash-attn-2, triton");
        QTest::newRow("attention kernel without flash attention")
            << doc(R"(, "flash_attention": false, "attention_kernel": "triton")")
            << QStringLiteral("case X1: attention_kernel names a flash attention kernel");
        QTest::newRow("FSDP's sync on a DeepSpeed run")
            << doc(R"(, "fsdp_sync_each_batch": true)") << QStringLiteral("case X1: fsdp_sync_each_batch is PyTorch FSDP's");
        QTest::newRow("unknown offload") << doc(R"(, "offload_param": "disk")") << QStringLiteral("case X1: offload_param");
        QTest::newRow("unreadable precision") << doc(R"(, "precision": "int4")") << QStringLiteral("case X1: precision 'int4'");
        QTest::newRow("unreadable optimizer") << doc(R"(, "optimizer": "Shampoo")") << QStringLiteral("case X1: optimizer 'Shampoo'");
        QTest::newRow("unknown unit") << doc(R"(, "measured": {"value": 1, "unit": "furlongs", "what": "max_allocated"})")
                                      << QStringLiteral("case X1: measured: unit 'furlongs'");
        QTest::newRow("time unit for memory") << doc(R"(, "measured": {"value": 1, "unit": "ms", "what": "max_allocated"})")
                                              << QStringLiteral("case X1: measured: unit 'ms'");
        QTest::newRow("unknown what") << doc(R"(, "measured": {"value": 1, "unit": "MiB", "what": "vibes"})")
                                      << QStringLiteral("case X1: measured: what 'vibes'");
        QTest::newRow("text value for memory") << doc(R"(, "measured": {"value": "OOM", "unit": "MiB", "what": "max_allocated"})")
                                               << QStringLiteral("case X1: measured: value must be a positive number");
        QTest::newRow("unreadable fit text")
            << doc(R"(, "kind": "fits_or_oom", "measured": {"value": "ran fine", "unit": null, "what": "fits"})")
            << QStringLiteral("case X1: measured: value 'ran fine' is neither");
        QTest::newRow("gpus over nodes") << doc(R"(, "gpus": 12, "gpus_per_node": 8, "nodes": 1)")
                                         << QStringLiteral("case X1: gpus 12 cannot");
        // A field validate does not read would leave the run scored as something it was not.
        QTest::newRow("unknown field") << doc(R"(, "context_parallel": 2)") << QStringLiteral("case X1: unknown field 'context_parallel'");
        QTest::newRow("unknown model field")
            << doc(R"(, "model": {"layers": 32, "hidden": 4096, "heads": 32, "vocab": 32000, "experts": 8})")
            << QStringLiteral("case X1: model: unknown field 'experts'");
        QTest::newRow("unknown engine") << doc(R"(, "engine": "megatron")") << QStringLiteral("case X1: engine 'megatron' is none of");
        QTest::newRow("unknown GPU without memory")
            << doc(R"(, "gpu": {"type": "TPU v5e"})") << QStringLiteral("case X1: gpu: type 'TPU v5e'");
        // A number in a free-text field that does not convert names the case and the text.
        QTest::newRow("LoRA rank beyond a count")
            << doc(R"(, "lora": "LoRA r=99999999999999999999")")
            << QStringLiteral("case X1: \"LoRA r=99999999999999999999\": 99999999999999999999 is not a number");
        QTest::newRow("LoRA alpha of a point alone")
            << doc(R"(, "lora": "LoRA r=8, alpha .")") << QStringLiteral("case X1: \"LoRA r=8, alpha .\": . is not a number");
        QTest::newRow("tensor size beyond a count")
            << doc(R"(, "assumptions": "TP=99999999999999999999")") << QStringLiteral("case X1: \"TP=99999999999999999999\"");
        QTest::newRow("hpZ size beyond a count")
            << doc(R"(, "assumptions": "hpZ=99999999999999999999")") << QStringLiteral("case X1: \"hpZ=99999999999999999999\"");
        QTest::newRow("fit micro batch beyond a count")
            << doc(R"(, "kind": "fits_or_oom", "measured": {"value": "OOM at 99999999999999999999", "unit": null, "what": "fits"})")
            << QStringLiteral("case X1: \"OOM at 99999999999999999999\"");
    }
    void malformed_document() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        try {
            parse_measured_runs(text.toStdString(), "runs.json");
            QFAIL("no error");
        } catch (const InputError& e) {
            const QString got = QString::fromUtf8(e.what());
            QVERIFY2(got.startsWith(QStringLiteral("runs.json: ")) && got.contains(error), qPrintable(got));
        }
    }

    void a_case_becomes_a_scenario() {
        const auto cases = parse_measured_runs(document(R"(, "micro_batch": 2, "grad_accum": null)"), "runs.json");
        QCOMPARE(cases.size(), std::size_t(1));
        const MeasuredCase& c = cases.front();
        QCOMPARE(QString::fromStdString(c.scenario.model.name), QStringLiteral("llama-2-7b"));  // name and dims agree: the preset
        QCOMPARE(c.scenario.training.global_batch, std::int64_t(2 * kAssumedGradAccum * 8));
        QCOMPARE(c.scenario.training.seq_len, std::int64_t(2048));
        QCOMPARE(c.assumed, std::vector<std::string>{"grad_accum = 1"});
        QCOMPARE(c.measurement.value, 20000 * kBytesPerMiB);
        QCOMPARE(c.measurement.quantity, Quantity::Allocated);
        const ValidationReport r = validate_cases(cases);
        QCOMPARE(r.rows.size(), std::size_t(1));
        QCOMPARE(r.rows.front().predicted, predicted_gpu_bytes(c.scenario, Quantity::Allocated));
    }

    // A case that states no precision takes what a plan on its GPU takes (precision_for_gpu): bf16
    // on an A100, fp16 on a V100, which has no bf16 tensor cores; either way it is listed as assumed.
    void unstated_precision_follows_the_gpu_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("assumed");
        QTest::newRow("A100: bf16") << QStringLiteral(R"({"type": "A100 80GB", "memory_gib": 79.15})")
                                    << QStringLiteral("precision = bf16");
        QTest::newRow("V100: fp16") << QStringLiteral(R"({"type": "V100 32GB", "memory_gib": 31.72})")
                                    << QStringLiteral("precision = fp16");
    }
    void unstated_precision_follows_the_gpu() {
        QFETCH(QString, gpu);
        QFETCH(QString, assumed);
        const auto cases = parse_measured_runs(document(R"(, "precision": null, "gpu": )" + gpu.toStdString()), "runs.json");
        QCOMPARE(cases.front().assumed, std::vector<std::string>{assumed.toStdString()});
    }

    // A peak-memory figure without its sequence length (PEFT's T0_3B row, padded to the longest
    // tweet of each batch) would be decided by the assumed length: it is listed, not checked. A
    // fit case keeps the assumption.
    void peak_without_sequence_is_not_checked() {
        const auto peak = parse_measured_runs(document(R"(, "seq": null)"), "runs.json");
        QVERIFY(QString::fromStdString(peak.front().not_representable).contains(QStringLiteral("sequence length is not stated")));
        QCOMPARE(validate_cases(peak).rows.size(), std::size_t(0));
        const auto fit = parse_measured_runs(
            document(R"(, "seq": null, "kind": "fits_or_oom", "measured": {"value": "OOM", "unit": null, "what": "fits"})"), "runs.json");
        QVERIFY(fit.front().not_representable.empty());
        QCOMPARE(fit.front().assumed, std::vector<std::string>{"seq = 1024"});
    }

    // A case's engine selects the model it is scored with: DeepSpeed when absent, PyTorch FSDP
    // (core/memory/fsdp_memory.h) for "fsdp" and "fsdp2", and FSDP's own dtypes from the precision
    // text; any other engine is refused by name, never scored as something it was not.
    void engine_field_data() {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("precision");
        QTest::addColumn<int>("expected_engine");
        QTest::addColumn<int>("expected_precision");
        QTest::newRow("absent: DeepSpeed") << QString() << "bf16" << int(Engine::DeepSpeed) << int(FsdpPrecision::Mixed);
        QTest::newRow("deepspeed") << "deepspeed"
                                   << "bf16" << int(Engine::DeepSpeed) << int(FsdpPrecision::Mixed);
        QTest::newRow("fsdp, Trainer bf16: MixedPrecision")
            << "fsdp"
            << "bf16 (HF Trainer AMP with FSDP; fp32 sharded master params)" << int(Engine::Fsdp) << int(FsdpPrecision::Mixed);
        QTest::newRow("fsdp, bf16 AMP: autocast") << "fsdp"
                                                  << "bf16 AMP (fp32 master params)" << int(Engine::Fsdp) << int(FsdpPrecision::Autocast);
        QTest::newRow("fsdp2, pure bf16") << "fsdp2"
                                          << "bf16 (pure)" << int(Engine::Fsdp2) << int(FsdpPrecision::Pure);
    }
    void engine_field() {
        QFETCH(QString, engine);
        QFETCH(QString, precision);
        QFETCH(int, expected_engine);
        QFETCH(int, expected_precision);
        std::string doc = document(engine.isEmpty() ? "" : ", \"engine\": \"" + engine.toStdString() + "\"");
        doc.replace(doc.find("\"precision\": \"bf16\""), std::string("\"precision\": \"bf16\"").size(),
                    "\"precision\": \"" + precision.toStdString() + "\"");
        const auto cases = parse_measured_runs(doc, "runs.json");
        QVERIFY(cases.front().not_representable.empty());
        QCOMPARE(int(cases.front().scenario.fsdp.engine), expected_engine);
        if (expected_engine != int(Engine::DeepSpeed)) QCOMPARE(int(cases.front().scenario.fsdp.precision), expected_precision);
        QCOMPARE(validate_cases(cases).rows.size(), std::size_t(1));
    }
    void unknown_engine_is_refused() {
        try {
            parse_measured_runs(document(", \"engine\": \"megatron-fsdp\""), "runs.json");
            QFAIL("accepted an unknown engine");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("'megatron-fsdp' is none of deepspeed, fsdp, fsdp2")), e.what());
        }
    }

    // The rows of one page, issue or paper share a source key, so --holdout leaves them out together.
    void source_keys_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("key");
        QTest::newRow("repository page with a URL")
            << QStringLiteral("github.com/deepspeedai/DeepSpeed docs/_tutorials/zero.md (https://www.deepspeed.ai/tutorials/zero/) + x")
            << QStringLiteral("github.com/deepspeedai/DeepSpeed docs/_tutorials/zero.md");
        QTest::newRow("issue with its author") << QStringLiteral("github.com/huggingface/transformers/issues/9996 (stas00, 2021-02-04)")
                                               << QStringLiteral("github.com/huggingface/transformers/issues/9996");
        QTest::newRow("paper: its authors and year")
            << QStringLiteral("Narayanan et al. 2021 (arXiv 2104.04473), Table 2") << QStringLiteral("Narayanan et al. 2021");
        QTest::newRow("paper, title after a comma")
            << QStringLiteral("Ren et al. 2021, ZeRO-Offload: Democratizing Billion-Scale") << QStringLiteral("Ren et al. 2021");
        QTest::newRow("trailing comma") << QStringLiteral("github.com/bigscience-workshop/bigscience train/chronicles.md, section x")
                                        << QStringLiteral("github.com/bigscience-workshop/bigscience train/chronicles.md");
        QTest::newRow("empty") << QString() << QString();
    }
    void source_keys() {
        QFETCH(QString, source);
        QFETCH(QString, key);
        QCOMPARE(QString::fromStdString(source_key(source.toStdString())), key);
    }

    // The fitted-constants document names every constant of the code once, only those, and only
    // rows that are cases of the bundled files.
    void fitted_constants_document() {
        const auto constants = fitted_constants(read_text_file(test_data_path("anchors/fitted_constants.json")), "fitted_constants.json");
        QVERIFY(constants.size() >= 2);
        std::vector<std::string> ids;
        for (const auto& c : bundled_measured_runs()) ids.push_back(c.id);
        for (const char* file : {"anchors/paper_throughput.json", "anchors/host_ram_runs.json", "anchors/measured_runs_2.json",
                                 "anchors/measured_runs_3.json"})
            for (const auto& c : parse_measured_runs(read_text_file(test_data_path(file)), file)) ids.push_back(c.id);
        int refitted = 0;
        for (const auto& k : constants) {
            QVERIFY2(k.value > 0, k.name.c_str());
            refitted += k.refitted();
            QVERIFY2(k.refitted() == k.not_refitted.empty(), k.name.c_str());
            QVERIFY2(!k.refitted() || !k.refit_on().empty(), k.name.c_str());
            for (const auto& id : k.rows) QVERIFY2(std::find(ids.begin(), ids.end(), id) != ids.end(), (k.name + ": " + id).c_str());
        }
        QCOMPARE(refitted, 9);
    }
    void malformed_fitted_constants_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("no array") << QStringLiteral("{}") << QStringLiteral("'constants' array");
        QTest::newRow("unknown constant") << QStringLiteral(R"({"constants": [{"name": "luck", "rows": []}]})")
                                          << QStringLiteral("'luck' is not a fitted constant");
        QTest::newRow("a constant left out") << QStringLiteral(R"({"constants": [{"name": "GEMM efficiency, Volta", "rows": []}]})")
                                             << QStringLiteral("says nothing of the fitted constant");
        QTest::newRow("rows not ids") << QStringLiteral(R"({"constants": [{"name": "GEMM efficiency, Volta", "rows": [2]}]})")
                                      << QStringLiteral("rows must be case ids");
    }
    void malformed_fitted_constants() {
        QFETCH(QString, text);
        QFETCH(QString, error);
        try {
            fitted_constants(text.toStdString(), "k.json");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }

    // --holdout on the bundled rows: the constants the code takes from fits, fitted again on all
    // their rows, land within 15% of the code's values: the GEMM efficiencies (Volta, Ampere, Hopper) and
    // the two host times (the code took them from this joint fit). The cached shares move a few
    // reserves each and their fit is reported, not required to agree (README, In-sample and held
    // out; ZeRO-3's sits at the search's bound); a row of a source none of whose rows fitted a
    // constant keeps its in-sample prediction;
    // a source that held every row a constant moves leaves it at its value, and its rows say that
    // their held-out error is unknown (on the second set alone, N02 is the one row the ZeRO-3 hook
    // time moves; among all bundled rows M47 moves it too).
    void holdout_on_bundled_rows() {
        const auto constants = fitted_constants(read_text_file(test_data_path("anchors/fitted_constants.json")), "fitted_constants.json");
        auto cases = bundled_measured_runs();
        for (const char* file : {"measured_runs_2.json", "measured_runs_3.json", "paper_throughput.json"})
            for (const auto& c : bundled_measured_runs(file)) cases.push_back(c);
        const HoldoutReport r = validate_holdout(cases, constants);
        int all_rows_fits = 0;
        for (const auto& f : r.refits) {
            if (!f.left_out.empty()) continue;
            ++all_rows_fits;
            const auto k = std::find_if(constants.begin(), constants.end(), [&](const FittedConstant& c) { return c.name == f.constant; });
            QVERIFY(k != constants.end());
            if (k->reserve_constant()) continue;
            QVERIFY2(std::abs(f.value / k->value - 1) < 0.15,
                     qPrintable(QString::fromStdString(f.constant) + QStringLiteral(" re-fits to %1").arg(f.value)));
        }
        QCOMPARE(all_rows_fits, 9);
        for (const auto& row : r.rows) {
            QVERIFY(std::isfinite(row.held_out_ratio) && row.held_out_ratio > 0);
            if (row.refitted.empty()) QCOMPARE(row.held_out_ratio, row.in_sample_ratio);
        }
        QVERIFY(!r.groups.empty());
        bool hook_alone = false;
        for (const auto& row : validate_holdout(bundled_measured_runs("measured_runs_2.json"), constants).rows)
            if (row.id == "N02")
                hook_alone =
                    row.not_refitted.find("ZeRO-3 host seconds per module hook (no other source's row moves it)") != std::string::npos;
        QVERIFY(hook_alone);
    }

    void preset_only_when_dims_agree() {
        const auto cases = parse_measured_runs(
            document(
                R"j(, "model": {"name": "Llama-2-7b (wide)", "layers": 32, "hidden": 4096, "heads": 32, "ffn": 14336, "vocab": 32000})j"),
            "runs.json");
        QCOMPARE(QString::fromStdString(cases.front().scenario.model.name), QStringLiteral("Llama-2-7b (wide)"));
        QCOMPARE(cases.front().scenario.model.ffn, std::int64_t(14336));
    }

    // Every case of the bundled file is read; the ones the planner cannot plan say why. Every
    // fact and correction of measured_runs_facts.json applies to the case it names.
    void every_bundled_case_is_read() {
        const auto cases = bundled_measured_runs();
        QCOMPARE(cases.size(), std::size_t(32));
        const ValidationReport r = validate_cases(cases);
        QVERIFY(!r.rows.empty());
        for (const auto& n : r.not_representable) QVERIFY(!n.reason.empty());
        for (const auto& row : r.rows) QVERIFY2(std::isfinite(row.ratio) && row.ratio > 0, row.id.c_str());
        int with_facts = 0;
        for (const auto& c : cases) with_facts += !c.from_source.empty();
        // M14-M16: the GPU their README names; M05/M06: the script's recompute; M09, M11-M13: the ZeRO++
        // tutorial's reduce bucket; M48/M50: atorch's MixedPrecision, transformers 4.31, KV cache and loop;
        // M52: BLOOM's BF16_Optimizer (its slurm script's ZeRO stage 0 in bf16) and Megatron-DeepSpeed's
        // fused softmax; M16: the reward model's 8 sequences a forward (DataCollatorReward); M07/M08 and
        // M14/M15: the DeepSpeed release of the ZeRO tutorial and of DeepSpeed-Chat's logs.
        QCOMPARE(with_facts, 14);
    }

    // Without flash attention, whose softmax each bundled run ran (measured_runs_facts.json, citing
    // the code): Megatron's fused kernel for Megatron-LM's papers and Megatron-DeepSpeed's runs,
    // Hugging Face's eager attention and the 2019-2020 Megatron-LM of the ZeRO tutorials unfused.
    void attention_softmax_by_source_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("softmax");
        QTest::newRow("ZeRO tutorial, DeepSpeedExamples Megatron-LM/ (M06)") << "measured_runs.json"
                                                                             << "M06"
                                                                             << "unfused";
        QTest::newRow("DeepSpeed-Chat, Hugging Face OPT (M15)") << "measured_runs.json"
                                                                << "M15"
                                                                << "unfused";
        QTest::newRow("ZeRO++ tutorial, Megatron-DeepSpeed (M13)") << "measured_runs.json"
                                                                   << "M13"
                                                                   << "fused";
        QTest::newRow("BLOOM, Megatron-DeepSpeed (M52)") << "measured_runs.json"
                                                         << "M52"
                                                         << "fused";
        QTest::newRow("autotuning, Hugging Face GPT-2 XL (N10)") << "measured_runs_2.json"
                                                                 << "N10"
                                                                 << "unfused";
        QTest::newRow("MT-NLG 530B (N23)") << "measured_runs_2.json"
                                           << "N23"
                                           << "fused";
        QTest::newRow("Narayanan et al. 2021 Table 1 (P01)") << "paper_throughput.json"
                                                             << "P01"
                                                             << "fused";
        QTest::newRow("ZeRO paper, Megatron-LM of 2019 (P35)") << "paper_throughput.json"
                                                               << "P35"
                                                               << "unfused";
        QTest::newRow("ZeRO-Infinity, Megatron-LM v1.1.5 (P48)") << "paper_throughput.json"
                                                                 << "P48"
                                                                 << "fused";
    }
    void attention_softmax_by_source() {
        QFETCH(QString, file);
        QFETCH(QString, id);
        QFETCH(QString, softmax);
        const MeasuredCase* c = bundled_case(file.toStdString(), id.toStdString());
        QVERIFY(c);
        QVERIFY(!c->scenario.training.flash_attention);
        QCOMPARE(QString::fromLatin1(to_string(c->scenario.training.attention_softmax)), softmax);
    }

    // How each source's loss was computed (scenario.h LossKernel), from the transformers release it
    // ran where its source dates it (core/model/transformers_release.h; measured_runs_facts.json):
    // before 4.46 the model's forward up-cast the logits and shifted a copy (atorch's pinned 4.31,
    // Answer.AI's fsdp_qlora of February-March 2024); a case that names no release reads as 4.46 to
    // 4.50; a kernel the case names (llm-foundry's flash-attn cross-entropy) is kept.
    void loss_by_source_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("loss");
        QTest::newRow("atorch's Llama 2, transformers==4.31.0 (M48)") << "measured_runs.json"
                                                                      << "M48"
                                                                      << "shifted";
        QTest::newRow("fsdp_qlora, Llama-2 7B QLoRA on two 3090s, March 2024 (N12)") << "measured_runs_2.json"
                                                                                     << "N12"
                                                                                     << "shifted";
        QTest::newRow("fsdp_qlora benchmarks, Llama-2 7B (F06)") << "measured_runs_3.json"
                                                                 << "F06"
                                                                 << "shifted";
        QTest::newRow("PEFT's DeepSpeed guide, no release named (M35)") << "measured_runs.json"
                                                                        << "M35"
                                                                        << "full";
        QTest::newRow("llm-foundry MPT, flash-attn's cross-entropy (LH01)") << "measured_runs_3.json"
                                                                            << "LH01"
                                                                            << "xentropy";
    }
    void loss_by_source() {
        QFETCH(QString, file);
        QFETCH(QString, id);
        QFETCH(QString, loss);
        const MeasuredCase* c = bundled_case(file.toStdString(), id.toStdString());
        QVERIFY(c);
        QCOMPARE(QString::fromLatin1(to_string(c->scenario.training.loss_kernel)), loss);
    }

    // A case's "transformers" sets what that release does by default (transformers_release.h), and
    // what the case states beside it wins; a case that names none reads as 4.46 to 4.50; a release
    // that is not one is refused by name.
    void transformers_field_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<bool>("load_in_16bit");
        QTest::addColumn<bool>("low_cpu_mem_usage");
        QTest::addColumn<bool>("reentrant");
        QTest::addColumn<QString>("loss");
        QTest::newRow("no release named: 4.46 to 4.50") << "" << false << false << true << "full";
        QTest::newRow("4.31.0") << R"(, "transformers": "4.31.0")" << false << false << true << "shifted";
        QTest::newRow("4.51.3") << R"(, "transformers": "4.51.3")" << false << true << true << "full";
        QTest::newRow("5.0.0") << R"(, "transformers": "5.0.0")" << true << true << false << "full";
        QTest::newRow("4.31.0 with flash-attn's cross-entropy stated")
            << R"(, "transformers": "4.31.0", "loss_kernel": "xentropy")" << false << false << true << "xentropy";
    }
    void transformers_field() {
        QFETCH(QString, patch);
        QFETCH(bool, load_in_16bit);
        QFETCH(bool, low_cpu_mem_usage);
        QFETCH(bool, reentrant);
        QFETCH(QString, loss);
        const auto cases = parse_measured_runs(document(patch.toStdString()), "runs.json");
        const Training& t = cases.front().scenario.training;
        QCOMPARE(t.load_in_16bit, load_in_16bit);
        QCOMPARE(t.low_cpu_mem_usage, low_cpu_mem_usage);
        QCOMPARE(t.reentrant_recompute, reentrant);
        QCOMPARE(QString::fromLatin1(to_string(t.loss_kernel)), loss);
        // The shifted loss is noted only where the case runs it.
        bool noted = false;
        for (const std::string& n : cases.front().notes) noted = noted || n.find("(before 4.46)") != std::string::npos;
        QCOMPARE(noted, loss == QLatin1String("shifted"));
    }
    void transformers_field_refuses_a_non_release() {
        try {
            parse_measured_runs(document(R"(, "transformers": "5.0.0rc1")"), "runs.json");
            QFAIL("a release candidate was read as a release");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(QStringLiteral("transformers")), e.what());
        }
    }

    // Where each source's model reads its logits' weight (scenario.h LmHead; measured_runs_facts.json):
    // Megatron's GPT, in Megatron-DeepSpeed and in ZeRO-Infinity's Megatron-LM v1.1.5, the word
    // embedding inside the model's forward; a Hugging Face model its lm_head module.
    void lm_head_by_source_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("head");
        QTest::newRow("ZeRO++ tutorial, Megatron-DeepSpeed (M09)") << "measured_runs.json"
                                                                   << "M09"
                                                                   << "embedding-weight";
        QTest::newRow("ZeRO++ tutorial with ZeRO++ (M12)") << "measured_runs.json"
                                                           << "M12"
                                                           << "embedding-weight";
        QTest::newRow("ColossalAI's DeepSpeed LLaMA-7B, Hugging Face (M47)") << "measured_runs.json"
                                                                             << "M47"
                                                                             << "module";
        QTest::newRow("DeepSpeed-Chat, Hugging Face OPT (M15)") << "measured_runs.json"
                                                                << "M15"
                                                                << "module";
        QTest::newRow("ZeRO++ blog, Megatron-DeepSpeed (P36)") << "paper_throughput.json"
                                                               << "P36"
                                                               << "embedding-weight";
        QTest::newRow("ZeRO-Infinity, Megatron-LM v1.1.5 (P48)") << "paper_throughput.json"
                                                                 << "P48"
                                                                 << "embedding-weight";
    }
    void lm_head_by_source() {
        QFETCH(QString, file);
        QFETCH(QString, id);
        QFETCH(QString, head);
        const MeasuredCase* c = bundled_case(file.toStdString(), id.toStdString());
        QVERIFY(c);
        QCOMPARE(QString::fromLatin1(to_string(c->scenario.training.lm_head)), head);
    }

    // The source facts document: a fact fills only what a case leaves null, a correction replaces
    // only the value it names, and anything else is refused naming the entry. An entry keyed by
    // "sources" reaches every case of that source, a user's file too, and leaves a case that says
    // otherwise as it is; an "ids" entry whose case the document lacks is another document's.
    void source_facts_data() {
        QTest::addColumn<QString>("facts");
        QTest::addColumn<bool>("bySourceOnly");  // a user's FILE
        QTest::addColumn<int>("applied");
        QTest::addColumn<QString>("error");  // empty: reads
        const auto text = [](const char* s) { return QString::fromUtf8(s); };
        QTest::newRow("fact fills the null grad_accum")
            << text(R"({"facts": [{"ids": ["X1"], "fields": {"grad_accum": 4}, "source": "s"}]})") << false << 1 << QString();
        QTest::newRow("fact over a stated value") << text(R"({"facts": [{"ids": ["X1"], "fields": {"seq": 4096}, "source": "s"}]})")
                                                  << false << 0 << text("facts.json: facts[0]: case X1 states seq itself");
        QTest::newRow("fact for a case of another document")
            << text(R"({"facts": [{"ids": ["X9"], "fields": {"grad_accum": 4}, "source": "s"}]})") << false << 0 << QString();
        QTest::newRow("correction of the stated value")
            << text(
                   R"({"facts": [], "corrections": [{"ids": ["X1"], "fields": {"seq": 4096}, "was": {"seq": 2048}, "source": "s", "why": "w"}]})")
            << false << 1 << QString();
        QTest::newRow("correction whose 'was' is stale")
            << text(
                   R"({"facts": [], "corrections": [{"ids": ["X1"], "fields": {"seq": 4096}, "was": {"seq": 1024}, "source": "s", "why": "w"}]})")
            << false << 0 << text("case X1's seq is not the value the correction replaces");
        QTest::newRow("correction without why")
            << text(R"({"facts": [], "corrections": [{"ids": ["X1"], "fields": {"seq": 4096}, "was": {"seq": 2048}, "source": "s"}]})")
            << false << 0 << text("a correction needs 'was'");
        QTest::newRow("no facts array") << text(R"({"fact": []})") << false << 0 << text("expected an object with a 'facts' array");
        QTest::newRow("ids and sources at once")
            << text(R"({"facts": [{"ids": ["X1"], "sources": ["example/trainer"], "fields": {"grad_accum": 4}, "source": "s"}]})") << false
            << 0 << text("needs 'ids' or 'sources'");
        QTest::newRow("source-keyed correction, a user's file")
            << text(
                   R"({"facts": [], "corrections": [{"sources": ["example/trainer"], "fields": {"seq": 4096}, "was": {"seq": 2048}, "source": "s", "why": "w"}]})")
            << true << 1 << QString();
        QTest::newRow("source-keyed correction of a case that says otherwise")
            << text(
                   R"({"facts": [], "corrections": [{"sources": ["example/trainer"], "fields": {"seq": 4096}, "was": {"seq": 1024}, "source": "s", "why": "w"}]})")
            << true << 0 << QString();
        QTest::newRow("source-keyed fact over a stated value")
            << text(R"({"facts": [{"sources": ["example/trainer"], "fields": {"seq": 4096}, "source": "s"}]})") << false << 0 << QString();
        QTest::newRow("source of another run")
            << text(R"({"facts": [{"sources": ["example/other"], "fields": {"grad_accum": 4}, "source": "s"}]})") << false << 0
            << QString();
        QTest::newRow("ids entry, a user's file")
            << text(R"({"facts": [{"ids": ["X1"], "fields": {"grad_accum": 4}, "source": "s"}]})") << true << 0 << QString();
    }
    void source_facts() {
        QFETCH(QString, facts);
        QFETCH(bool, bySourceOnly);
        QFETCH(int, applied);
        QFETCH(QString, error);
        const std::string text = facts.toStdString();
        const SourceFacts f{text, "facts.json", bySourceOnly};
        try {
            const auto cases =
                parse_measured_runs(document(R"(, "grad_accum": null, "source": "github.com/example/trainer train.py")"), "runs.json", &f);
            QVERIFY2(error.isEmpty(), "no error");
            QCOMPARE(cases.front().from_source.size(), std::size_t(applied));
            if (applied == 0) return;
            if (facts.contains(QStringLiteral("grad_accum"))) {
                QCOMPARE(cases.front().scenario.training.global_batch, std::int64_t(4 * 8));
                QVERIFY(cases.front().assumed.empty());
            } else {
                QCOMPARE(cases.front().scenario.training.seq_len, std::int64_t(4096));
                QVERIFY(QString::fromStdString(cases.front().from_source.front()).contains(QStringLiteral("(the file says 2048)")));
            }
        } catch (const InputError& e) {
            const QString got = QString::fromUtf8(e.what());
            QVERIFY2(!error.isEmpty() && got.contains(error), qPrintable(got));
        }
    }

    // Issue 14's targets for the step-time model over the bundled throughput cases, read as
    // `validate` reads them (with measured_runs_facts.json): median |predicted / measured - 1| <=
    // 15%, and no run off by more than 1.6x.
    void throughput_targets_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("minimumRows");
        QTest::addColumn<QStringList>("knownBeyond");
        QTest::newRow("measured_runs.json: public DeepSpeed and FSDP runs") << QStringLiteral("measured_runs.json") << 5 << QStringList();
        // Two rows miss the 1.6x: the ZeRO++ blog's ZeRO-3 baselines on 4 x and 8 x 100 Gb/s at 1K and
        // 2K tokens (predicted 0.56 and 0.54 of the measured), whose rings reach about twice the one
        // NIC the planner caps a ring at (core/time/collectives.h); the cap that would reach them
        // takes Narayanan's ZeRO-3 rows beyond 1.6x instead (docs/design.md §5.2).
        // (ZeRO-Infinity's 5T and 10T rows, predicted 0.57 and 0.46 while Table 1's batch/GPU was read
        // per data-parallel rank, are within 15% read over all GPUs with their checkpoints partitioned
        // in host memory: paper_throughput.json says why.)
        QTest::newRow(
            "paper_throughput.json: Narayanan et al. 2021 Tables 1-2, Korthikanti et al. 2022 Table 5, ZeRO-Offload abstract, ZeRO Sec. 1 + "
            "Table 5, DeepSpeed on Azure, the ZeRO++ blog, ZeRO-Infinity Table 1 + Figure 5")
            << QStringLiteral("paper_throughput.json") << 56 << QStringList{QStringLiteral("P42"), QStringLiteral("P46")};
    }
    void throughput_targets() {
        QFETCH(QString, file);
        QFETCH(int, minimumRows);
        QFETCH(QStringList, knownBeyond);
        const std::string path = ZP_TEST_DATA_DIR "/anchors/" + file.toStdString();
        const auto cases =
            file == QStringLiteral("measured_runs.json") ? bundled_measured_runs() : parse_measured_runs(read_text_file(path), path);
        const ValidationReport r = validate_cases(cases);
        std::vector<double> errors;
        for (const CaseResult& row : r.rows) {
            if (row.kind != "throughput") continue;
            errors.push_back(std::abs(row.ratio - 1));
            // Known beyond 1.6x: held within 2x, so that a change which moves them further is seen.
            const QString id = QString::fromStdString(row.id);
            const double limit = !knownBeyond.contains(id) ? 1.6 : 2.0;
            QVERIFY2(row.ratio <= limit && row.ratio >= 1 / limit,
                     qPrintable(QString::fromStdString(row.id) + QStringLiteral(" ratio ") + QString::number(row.ratio)));
        }
        QVERIFY(static_cast<int>(errors.size()) >= minimumRows);
        std::sort(errors.begin(), errors.end());
        const std::size_t n = errors.size();
        const double median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
        QVERIFY2(median <= 0.15, qPrintable(QStringLiteral("median |error| ") + QString::number(median)));
    }

    // Issue 16's checks, one row per published figure (tests/data/anchors/paper_throughput.json,
    // read as `validate` reads it): Narayanan et al. 2021 Table 1's measured TFLOP/s per GPU within
    // 20%, its Table 2 (PTD-P and ZeRO-3 at three GPU counts each) within 20%, Korthikanti et
    // al. 2022 Table 5's iteration times within 15%; issue 14's ZeRO paper (100B on 400 V100s) and
    // DeepSpeed on Azure (ZeRO-3 at 175B, 1T and 2T) figures within 15%.
    void paper_rows_within_target_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("tolerance");
        const char* table1[] = {"1.7B", "3.6B", "7.5B", "18.4B", "39.1B", "76.1B", "145.6B", "310.1B", "529.6B", "1008.0B"};
        const char* table1_ids[] = {"P01", "P03", "P04", "P05", "P06", "P07", "P08", "P09", "P10", "P11"};
        for (int i = 0; i < 10; ++i)
            QTest::newRow(qPrintable(QStringLiteral("Narayanan 2021 Table 1, %1").arg(QLatin1String(table1[i]))))
                << QString::fromLatin1(table1_ids[i]) << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, ZeRO-3 175B, 384 GPUs") << QStringLiteral("P12") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, ZeRO-3 175B, 768 GPUs") << QStringLiteral("P13") << 0.20;
        // The communication-bound end (micro batch 1 on 192 nodes): the planner's rings are faster
        // than Selene's were (1.20 since the prefetch runs a whole module ahead; 1.17 before).
        QTest::newRow("Narayanan 2021 Table 2, ZeRO-3 175B, 1536 GPUs") << QStringLiteral("P14") << 0.25;
        QTest::newRow("Narayanan 2021 Table 2, PTD-P 175B, 384 GPUs") << QStringLiteral("P15") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, PTD-P 175B, 768 GPUs") << QStringLiteral("P16") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, PTD-P 175B, 1536 GPUs") << QStringLiteral("P17") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, ZeRO-3 530B, 640 GPUs") << QStringLiteral("P18") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, ZeRO-3 530B, 1120 GPUs") << QStringLiteral("P19") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, ZeRO-3 530B, 2240 GPUs") << QStringLiteral("P20") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, PTD-P 530B, 560 GPUs") << QStringLiteral("P21") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, PTD-P 530B, 1120 GPUs") << QStringLiteral("P22") << 0.20;
        QTest::newRow("Narayanan 2021 Table 2, PTD-P 530B, 2240 GPUs") << QStringLiteral("P23") << 0.20;
        const char* sizes[] = {"22B", "175B", "530B", "1T"};
        for (int i = 0; i < 4; ++i) {
            QTest::newRow(qPrintable(QStringLiteral("Korthikanti 2022 Table 5, %1, full recompute").arg(QLatin1String(sizes[i]))))
                << QStringLiteral("P%1").arg(24 + 2 * i) << 0.15;
            QTest::newRow(
                qPrintable(QStringLiteral("Korthikanti 2022 Table 5, %1, sequence parallel + selective").arg(QLatin1String(sizes[i]))))
                << QStringLiteral("P%1").arg(25 + 2 * i) << 0.15;
        }
        QTest::newRow("DeepSpeed on Azure 2022, ZeRO-3 175B, 256 A100s, micro 32 x 512") << QStringLiteral("P32") << 0.15;
        QTest::newRow("DeepSpeed on Azure 2022, ZeRO-3 + CPU Adam 1T, 1024 A100s, micro 8") << QStringLiteral("P33") << 0.15;
        QTest::newRow("DeepSpeed on Azure 2022, ZeRO-3 + CPU Adam 2T, 1024 A100s, micro 8") << QStringLiteral("P34") << 0.15;
        QTest::newRow("ZeRO paper Sec. 1 + Table 5, ZeRO-100B 100B, 400 V100s, MP 16") << QStringLiteral("P35") << 0.15;
        // The ZeRO++ blog's 18B on 384 V100s: on one 100 Gb/s NIC per node, where a ring's NIC is the
        // node's network, both bars within 15%; ZeRO++ on 2, 4 and 8 NICs within 20% (its
        // remaining inter-node traffic is small); the multi-NIC baselines are throughput_targets'.
        QTest::newRow("ZeRO++ blog Figure 7, 1 x 100 Gb/s, 1K tokens, ZeRO-3") << QStringLiteral("P36") << 0.15;
        QTest::newRow("ZeRO++ blog Figure 7, 1 x 100 Gb/s, 1K tokens, ZeRO++") << QStringLiteral("P37") << 0.15;
        QTest::newRow("ZeRO++ blog Figure 7, 1 x 100 Gb/s, 2K tokens, ZeRO-3") << QStringLiteral("P38") << 0.15;
        QTest::newRow("ZeRO++ blog Figure 7, 1 x 100 Gb/s, 2K tokens, ZeRO++") << QStringLiteral("P39") << 0.15;
        QTest::newRow("ZeRO++ blog Figure 8, 200 Gb/s, 2K tokens, ZeRO++") << QStringLiteral("P41") << 0.20;
        QTest::newRow("ZeRO++ blog Figure 6, 4 x 100 Gb/s, 1K tokens, ZeRO++") << QStringLiteral("P43") << 0.20;
        QTest::newRow("ZeRO++ blog Figure 6, 4 x 100 Gb/s, 2K tokens, ZeRO++") << QStringLiteral("P45") << 0.20;
        QTest::newRow("ZeRO++ blog Figure 8, 800 Gb/s, 2K tokens, ZeRO++") << QStringLiteral("P47") << 0.20;
        // Issue 34: ZeRO-Infinity's Figure 5 within 25% (Rajbhandari et al. 2021, Table 1's
        // configurations; batch/GPU over all GPUs, checkpoints in host memory, partitioned at mp 4).
        const char* infinity[] = {"5(c) 10B, one DGX-2, all on GPU",
                                  "5(c) 50B, one DGX-2, NVMe optimizer, CPU params",
                                  "5(c) 100B, one DGX-2, NVMe optimizer, CPU params",
                                  "5(c) 0.5T, one DGX-2, NVMe",
                                  "5(c) 1T, one DGX-2, NVMe",
                                  "5(a) 0.5T, 512 V100s, mp 4, all on GPU",
                                  "5(a) 1T, 512 V100s, mp 4, all on GPU",
                                  "5(a) 5T, 512 V100s, mp 4, NVMe",
                                  "5(a) 10T, 512 V100s, mp 4, NVMe"};
        for (int i = 0; i < 9; ++i)
            QTest::newRow(qPrintable(QStringLiteral("ZeRO-Infinity Figure %1").arg(QLatin1String(infinity[i]))))
                << QStringLiteral("P%1").arg(48 + i) << 0.25;
    }
    void paper_rows_within_target() {
        QFETCH(QString, id);
        QFETCH(double, tolerance);
        static const ValidationReport report = validate_cases(bundled_measured_runs("paper_throughput.json"));
        const auto row =
            std::find_if(report.rows.begin(), report.rows.end(), [&](const CaseResult& r) { return r.id == id.toStdString(); });
        QVERIFY2(row != report.rows.end(), qPrintable(id + QStringLiteral(" is not a checked row")));
        // Rows outside their tolerance at the fitted constants, each with what the planner lacks; a
        // row that comes back within it fails here (XPASS) and leaves the list.
        static const std::map<QString, const char*> known_misses = {
            // 1.11 at Volta's 0.45, 1.26 at its re-fit: the one single-node, all-on-GPU ZeRO-3 row
            // (10B on a DGX-2, batch 8: 12.3 s of compute, its gathers 0.49 s on NVSwitch and
            // hidden) measured at 45 TFLOP/s where the 32-node rows reach 46-49 and, on one node,
            // the offloaded 50B and 100B 1.00-1.05x: what its step loses is not known.
            {QStringLiteral("P48"), "ZeRO-Infinity's 10B on one DGX-2: 1.26x, not explained"},
        };
        if (const auto miss = known_misses.find(id); miss != known_misses.end()) QEXPECT_FAIL("", miss->second, Continue);
        QVERIFY2(std::abs(row->ratio - 1) <= tolerance, qPrintable(id + QStringLiteral(" ratio ") + QString::number(row->ratio)));
    }

    // ZeRO-Infinity's Table 1 runs (Rajbhandari et al. 2021) as validate builds them from
    // paper_throughput.json (P48-P56, whose throughput is within 25% above) on the DGX-2 preset's
    // node (1.5 TB host RAM, 30 TB NVMe): whether the planner says they fit, GPU, host RAM and NVMe.
    // The paper trained each of them, so each must fit. Each row wider than Fig. 6(b)'s untiled 8K
    // takes the smallest TiledLinear factor that covers its rank's largest linear (the case's
    // assumptions), and both runs on 32 nodes offload the optimizer (measured_runs_facts.json: the
    // one "GPU | GPU" cell Table 1 prints for them cannot hold the 1T's 29.3 GiB of states, and
    // DeepSpeed's ZeRO-3 Offload post reports that run; zero_infinity_table_1_cell_as_printed below).
    void zero_infinity_table_1_runs_fit_data() {
        QTest::addColumn<QString>("id");
        QTest::newRow("Table 1: 10B, one DGX-2, all on the GPU") << QStringLiteral("P48");
        QTest::newRow("Table 1: 50B, one DGX-2, CPU params, NVMe optimizer") << QStringLiteral("P49");
        QTest::newRow("Table 1: 100B, one DGX-2, CPU params, NVMe optimizer") << QStringLiteral("P50");
        QTest::newRow("Table 1: 0.5T, one DGX-2, NVMe") << QStringLiteral("P51");
        // TiledLinear at tile factor 4 (the case's tile_factor, from the paper's Fig. 6(b)) and no
        // 16-bit model gathered on save (the example's ds_config, measured_runs_facts.json).
        QTest::newRow("Table 1: 1T, one DGX-2, NVMe") << QStringLiteral("P52");
        // The two 32-node runs of Table 1's one 'GPU | GPU' cell, with the optimizer on the CPU
        // as DeepSpeed's ZeRO-3 Offload post reports the 1T run (measured_runs_facts.json's
        // correction; zero_infinity_table_1_cell_as_printed below is why).
        QTest::newRow("Table 1: 0.5T, 32 nodes, mp 4, optimizer on the CPU (the 1T run's cell)") << QStringLiteral("P53");
        QTest::newRow("Table 1: 1T, 32 nodes, mp 4, optimizer on the CPU (ZeRO-3 Offload)") << QStringLiteral("P54");
        QTest::newRow("Table 1: 5T, 32 nodes, mp 4, NVMe") << QStringLiteral("P55");
        QTest::newRow("Table 1: 10T, 32 nodes, mp 4, NVMe") << QStringLiteral("P56");
    }
    void zero_infinity_table_1_runs_fit() {
        QFETCH(QString, id);
        const MeasuredCase c = paper_case(id);
        const MemoryBreakdown m = estimate_memory(c.scenario);
        const Fit fit = check_fit(c.scenario, m);
        QVERIFY2(fit.all(), qPrintable(QStringLiteral("GPU %1 of %2 GiB, host RAM %3 of %4 GiB per node, NVMe %5")
                                           .arg(m.peak_required_bytes / 1073741824.0, 0, 'f', 1)
                                           .arg(usable_gpu_bytes(c.scenario) / 1073741824.0, 0, 'f', 1)
                                           .arg(m.host.peak_bytes() / 1073741824.0, 0, 'f', 0)
                                           .arg(c.scenario.cluster.cpu_ram_bytes_per_node / 1073741824.0, 0, 'f', 0)
                                           .arg(fit.nvme ? QStringLiteral("fits") : QStringLiteral("over"))));
    }

    // Why the correction reads both 32-node runs with the optimizer on the CPU: Table 1's one
    // 'GPU | GPU' cell, taken as printed, fits neither. The 1T's model states alone are 16 bytes x
    // 1.008e12 / 512 = 29.3 GiB; the 0.5T's 14.7 GiB and one layer recomputed at its 28 sequences
    // (16-bit a*s^2*b/t score tensors of 2.0 GiB each) need about 36. The floors below sit under
    // what the model gives at this writing (35.8 and 53.0 GiB) and over the 30.1 GiB usable card:
    // should the memory model ever fit them as printed, the correction loses its reason and this
    // row says so.
    void zero_infinity_table_1_cell_as_printed_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("atLeastGib");
        QTest::newRow("Table 1: 0.5T, 32 nodes, optimizer on the GPU") << QStringLiteral("P53") << 34.0;
        QTest::newRow("Table 1: 1T, 32 nodes, optimizer on the GPU") << QStringLiteral("P54") << 50.0;
    }
    void zero_infinity_table_1_cell_as_printed() {
        QFETCH(QString, id);
        QFETCH(double, atLeastGib);
        Scenario s = paper_case(id).scenario;
        QCOMPARE(s.zero.offload_optimizer, OffloadDevice::Cpu);  // as corrected
        s.zero.offload_optimizer = OffloadDevice::None;          // as printed
        const MemoryBreakdown m = estimate_memory(s);
        QVERIFY2(!check_fit(s, m).gpu, qPrintable(QString::number(m.peak_required_bytes / 1073741824.0, 'f', 1)));
        QVERIFY2(m.peak_required_bytes / 1073741824.0 >= atLeastGib,
                 qPrintable(QString::number(m.peak_required_bytes / 1073741824.0, 'f', 1)));
    }

    // N10's siblings: the same launch (measured_runs_2.json N10, the GPT-2 XL autotuning README:
    // Hugging Face run_clm.py through the Trainer on one DGX-2's 16 V100s, fp16,
    // ds_config_fp16_z1.json) with the other GPT-2 READMEs' models and micro batches
    // (DeepSpeedExamples training/autotuning/hf/{gpt2,gpt2-medium,gpt2-large}/README.md, "Throughput
    // Comparison": end-to-end samples/s of HF + DS at ZeRO-1, gas 1; their test_tune.sh z1 launch
    // passes no --block_size, so run_clm.py's 1024 tokens). GPT-2 medium's autotuned row is left out:
    // its tuning launch passes --block_size 512 and the README does not say which the row ran. Shapes
    // from the models' config.json (n_layer, n_embd, n_head) through the Hugging Face importer, 354,823,168 and 774,030,080 parameters
    // as Hugging Face counts them. No constant was read off these rows; the bar is the one the
    // held-back runs are checked at, 25%.
    void autotuning_readmes_end_to_end_data() {
        QTest::addColumn<qint64>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<qint64>("microBatch");
        QTest::addColumn<double>("samplesPerSecond");
        QTest::newRow("gpt2 README: HF + DS hand-tuned, ZeRO-1, mbs 8")
            << qint64(12) << qint64(768) << qint64(12) << qint64(124439808) << qint64(8) << 397.827;
        QTest::newRow("gpt2 README: HF + DS autotuning, z1_gas1_tmbspg15")
            << qint64(12) << qint64(768) << qint64(12) << qint64(124439808) << qint64(15) << 431.586;
        QTest::newRow("gpt2-medium README: HF + DS hand-tuned, ZeRO-1, mbs 4")
            << qint64(24) << qint64(1024) << qint64(16) << qint64(354823168) << qint64(4) << 142.211;
        QTest::newRow("gpt2-large README: HF + DS hand-tuned, ZeRO-1, mbs 2")
            << qint64(36) << qint64(1280) << qint64(20) << qint64(774030080) << qint64(2) << 56.797;
        QTest::newRow("gpt2-large README: HF + DS autotuning, ZeRO-1, mbs 3")
            << qint64(36) << qint64(1280) << qint64(20) << qint64(774030080) << qint64(3) << 69.061;
    }
    void autotuning_readmes_end_to_end() {
        QFETCH(qint64, layers);
        QFETCH(qint64, hidden);
        QFETCH(qint64, heads);
        QFETCH(qint64, params);
        QFETCH(qint64, microBatch);
        QFETCH(double, samplesPerSecond);
        Scenario s = n10_launch_with_gpt2(layers, hidden, heads);
        QCOMPARE(parameter_count(s.model), params);
        s.training.micro_batch = microBatch;
        s.training.global_batch = s.cluster.world_size() * microBatch;
        const double predicted = static_cast<double>(s.training.global_batch) / estimate_step(s).seconds;
        QVERIFY2(std::abs(predicted / samplesPerSecond - 1) <= 0.25,
                 qPrintable(QStringLiteral("predicted %1 samples/s, measured %2").arg(predicted).arg(samplesPerSecond)));
    }

    // The same READMEs' "Detailed HF + DS autotuning Result Summary": the autotuner's best
    // throughput per ZeRO stage, each at its own best micro batch (z<stage>_gas1_tmbspg<mbs>),
    // on one DGX-2's 16 V100s through N10's launch (the tuning runs' test_tune.sh "tune": GPT-2
    // and GPT-2 large at run_clm.py's 1024 tokens, GPT-2 medium and XL with --block_size 512).
    // The metric is DeepSpeed's forward + backward + step timings (the READMEs: less than the
    // step's latency), so only its order is held: the planner must rank every pair of stages as
    // the autotuner measured them where they differ by more than 5% (GPT-2's z0 441.7 and z1 452.0,
    // 2.3% apart, are a tie and rank either way). Stages the autotuner could not run (0 samples/s,
    // "Not runnable") are left out. No constant was read off these rows. GPT-2 large's ZeRO-1 over
    // ZeRO-2 (measured 12% apart) is an expected failure: since ZeRO-1's all-gather after the step
    // is counted (2026-11-28) the planner has ZeRO-1 2% behind (79.9 against 81.5 samples/s), and
    // what makes v0.5's ZeRO-2 slower (its per-rank reduces of each bucket, docs/design.md §5.1) is
    // not modelled.
    void autotuning_stage_ranking_data() {
        QTest::addColumn<qint64>("layers");
        QTest::addColumn<qint64>("hidden");
        QTest::addColumn<qint64>("heads");
        QTest::addColumn<qint64>("seq");
        // stage -> (micro batch, samples/s); an absent stage did not run.
        QTest::addColumn<QVariantMap>("stages");
        auto stages = [](std::initializer_list<std::tuple<int, int, double>> rows) {
            QVariantMap m;
            for (const auto& [stage, mbs, rate] : rows) m.insert(QString::number(stage), QVariantList{mbs, rate});
            return m;
        };
        QTest::newRow("gpt2 README: z0 441.7 (mbs 11), z1 452.0 (mbs 15)")
            << qint64(12) << qint64(768) << qint64(12) << qint64(1024) << stages({{0, 11, 441.693}, {1, 15, 452.004}});
        QTest::newRow("gpt2-medium README: z0 167.7 (mbs 5), z1 175.5 (mbs 6), z2 161.6 (mbs 6)")
            << qint64(24) << qint64(1024) << qint64(16) << qint64(512) << stages({{0, 5, 167.688}, {1, 6, 175.46}, {2, 6, 161.619}});
        QTest::newRow("gpt2-large README: z0 59.0 (mbs 2), z1 87.3 (mbs 3), z2 77.8 (mbs 3)")
            << qint64(36) << qint64(1280) << qint64(20) << qint64(1024) << stages({{0, 2, 59.0229}, {1, 3, 87.3017}, {2, 3, 77.8338}});
        QTest::newRow("gpt2-xl README: z1 40.2, z2 33.0, z3 12.9 (mbs 1)")
            << qint64(48) << qint64(1600) << qint64(25) << qint64(512) << stages({{1, 1, 40.1749}, {2, 1, 33.0472}, {3, 1, 12.8604}});
    }
    void autotuning_stage_ranking() {
        QFETCH(qint64, layers);
        QFETCH(qint64, hidden);
        QFETCH(qint64, heads);
        QFETCH(qint64, seq);
        QFETCH(QVariantMap, stages);
        Scenario base = n10_launch_with_gpt2(layers, hidden, heads);
        base.training.seq_len = seq;
        std::map<int, std::pair<double, double>> rates;  // stage -> (measured, predicted) samples/s
        for (auto it = stages.cbegin(); it != stages.cend(); ++it) {
            Scenario s = base;
            s.zero.stage = it.key().toInt();
            s.training.micro_batch = it.value().toList().at(0).toLongLong();
            s.training.global_batch = s.cluster.world_size() * s.training.micro_batch;
            const MemoryBreakdown m = estimate_memory(s);
            QVERIFY2(check_fit(s, m).gpu, qPrintable(QStringLiteral("ZeRO-%1 at micro batch %2 ran; the planner says %3 GiB")
                                                         .arg(it.key())
                                                         .arg(s.training.micro_batch)
                                                         .arg(m.peak_required_bytes / 1073741824.0, 0, 'f', 1)));
            rates[s.zero.stage] = {it.value().toList().at(1).toDouble(),
                                   static_cast<double>(s.training.global_batch) / estimate_step(s).seconds};
        }
        for (const auto& [a, ra] : rates)
            for (const auto& [b, rb] : rates) {
                if (a >= b || std::abs(ra.first / rb.first - 1) <= 0.05) continue;
                if (a == 1 && b == 2)
                    QEXPECT_FAIL("gpt2-large README: z0 59.0 (mbs 2), z1 87.3 (mbs 3), z2 77.8 (mbs 3)",
                                 "v0.5.7's ZeRO-2 reduces each bucket as about 200 dist.reduce calls, one per run of slices bound "
                                 "for one rank (stage2.py average_tensor), which the planner does not count (docs/design.md 5.1)",
                                 Continue);
                QVERIFY2((ra.first > rb.first) == (ra.second > rb.second),
                         qPrintable(QStringLiteral("ZeRO-%1 measured %2, predicted %3 samples/s; ZeRO-%4 measured %5, predicted %6")
                                        .arg(a)
                                        .arg(ra.first)
                                        .arg(ra.second, 0, 'f', 1)
                                        .arg(b)
                                        .arg(rb.first)
                                        .arg(rb.second, 0, 'f', 1)));
            }
    }

    // Answer.AI's fsdp_qlora benchmarks note, every row that states its run (tests/data/anchors/
    // measured_runs_3.json, its F rows): N12's and N14's siblings, LoRA and QLoRA under PyTorch FSDP on two
    // RTX 3090s and two RTX 4090s, 7B to 70B, CPU offload and DDP, context 512 to 24,576. No
    // constant is read off them; they hold the planner to the thresholds on runs it has not seen:
    // peak reserved memory within 20%, the 4090's times within 25%.
    void fsdp_qlora_benchmarks_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("F01 Llama-2 7B with a batch size of one (dual 3090): QLoRA, batch 1, context 512, reserved")
            << QStringLiteral("F01") << 0.20;
        QTest::newRow("F02 Llama-2 7B with a batch size of one (dual 3090): QLoRA, batch 1, context 2048, reserved")
            << QStringLiteral("F02") << 0.20;
        QTest::newRow("F03 Llama-2 7B with a batch size of one (dual 3090): LoRA, batch 1, context 512, reserved")
            << QStringLiteral("F03") << 0.20;
        QTest::newRow("F04 Llama-2 7B with a batch size of one (dual 3090): LoRA, batch 1, context 2048, reserved")
            << QStringLiteral("F04") << 0.20;
        QTest::newRow("F05 Llama-2 7B with Context Length of 2048 (dual 3090): QLoRA, batch 4, context 2048, reserved")
            << QStringLiteral("F05") << 0.20;
        QTest::newRow("F06 Llama-2 7B with Context Length of 2048 (dual 3090): QLoRA, batch 10, context 2048, reserved")
            << QStringLiteral("F06") << 0.20;
        QTest::newRow("F07 Llama-2 7B with Context Length of 2048 (dual 3090): LoRA, batch 4, context 2048, reserved")
            << QStringLiteral("F07") << 0.20;
        QTest::newRow("F08 Llama-2 7B with Context Length of 2048 (dual 3090): LoRA, batch 6, context 2048, reserved")
            << QStringLiteral("F08") << 0.20;
        QTest::newRow("F09 DDP, Llama-2 7B with Context Length of 2048 (dual 3090): QLoRA, batch 8, context 2048, DDP, reserved")
            << QStringLiteral("F09") << 0.20;
        QTest::newRow("F10 DDP, Llama-2 7B with Context Length of 2048 (dual 3090): LoRA, batch 4, context 2048, DDP, reserved")
            << QStringLiteral("F10") << 0.20;
        QTest::newRow("F11 Yi 34B with Context Length of 2048 (dual 3090): QLoRA, batch 2, context 2048, reserved")
            << QStringLiteral("F11") << 0.20;
        QTest::newRow("F12 Yi 34B with Context Length of 2048 (dual 3090): QLoRA, batch 4, context 2048, CPU offload, reserved")
            << QStringLiteral("F12") << 0.20;
        QTest::newRow("F13 Llama-2 70B with Context Length of 2048 (dual 3090): QLoRA, batch 2, context 2048, CPU offload, reserved")
            << QStringLiteral("F13") << 0.20;
        QTest::newRow("F14 Llama-2 7B with Context Length of 2048 (dual 4090): LoRA, batch 4, context 2048, DDP, samples/s")
            << QStringLiteral("F14") << 0.25;
        QTest::newRow("F15 Llama-2 7B with Context Length of 2048 (dual 4090): LoRA, batch 6, context 2048, samples/s")
            << QStringLiteral("F15") << 0.25;
        QTest::newRow("F16 Llama-2 7B with Context Length of 2048 (dual 4090): LoRA, batch 10, context 2048, CPU offload, samples/s")
            << QStringLiteral("F16") << 0.25;
        QTest::newRow("F17 Llama-2 7B with Context Length of 2048 (dual 4090): LoRA, batch 10, context 2048, CPU offload, reserved")
            << QStringLiteral("F17") << 0.20;
        QTest::newRow("F18 Llama-2 7B with Context Length of 2048 (dual 4090): QLoRA, batch 8, context 2048, DDP, samples/s")
            << QStringLiteral("F18") << 0.25;
        QTest::newRow("F19 Llama-2 7B with Context Length of 2048 (dual 4090): QLoRA, batch 10, context 2048, samples/s")
            << QStringLiteral("F19") << 0.25;
        QTest::newRow("F20 Llama-2 7B with Context Length of 2048 (dual 4090): QLoRA, batch 12, context 2048, CPU offload, samples/s")
            << QStringLiteral("F20") << 0.25;
        QTest::newRow("F21 Llama-2 7B with Context Length of 2048 (dual 4090): QLoRA, batch 12, context 2048, CPU offload, reserved")
            << QStringLiteral("F21") << 0.20;
        QTest::newRow("F22 Yi 34B with Context Length of 2048 (dual 4090): QLoRA, batch 2, context 2048, samples/s")
            << QStringLiteral("F22") << 0.25;
        QTest::newRow("F23 Yi 34B with Context Length of 2048 (dual 4090): QLoRA, batch 4, context 2048, CPU offload, samples/s")
            << QStringLiteral("F23") << 0.25;
        QTest::newRow("F24 Llama-2 70B with Context Length of 2048 (dual 4090): QLoRA, batch 2, context 2048, CPU offload, samples/s")
            << QStringLiteral("F24") << 0.25;
        QTest::newRow("F25 Mistral 7B v0.2 Base (dual 4090): QLoRA, batch 12, context 2048, CPU offload, samples/s")
            << QStringLiteral("F25") << 0.25;
        QTest::newRow("F26 Mistral 7B v0.2 Base (dual 4090): QLoRA, batch 12, context 2048, CPU offload, reserved")
            << QStringLiteral("F26") << 0.20;
        QTest::newRow("F27 Mistral 7B v0.2 Base (dual 4090): QLoRA, batch 1, context 24576, CPU offload, samples/s")
            << QStringLiteral("F27") << 0.25;
        QTest::newRow("F28 Mistral 7B v0.2 Base (dual 4090): QLoRA, batch 1, context 24576, CPU offload, reserved")
            << QStringLiteral("F28") << 0.20;
    }
    void fsdp_qlora_benchmarks() {
        QFETCH(QString, id);
        QFETCH(double, tolerance);
        const CaseResult* row = third_set_row(id);
        QVERIFY(row);
        QVERIFY2(std::abs(row->ratio - 1) <= tolerance, qPrintable(ratio_text(*row)));
    }

    // torchtitan's runs under its op-level selective checkpointing (Checkpointing::SelectiveOp,
    // measured_runs_3.json T rows; nothing was fitted to them): the peak reserved memory of Llama 3.1
    // 8B on 8 and 128 H100s (benchmarks/llama3_h100_202412_torchtitan.md Tables 1 and 3) within the
    // reserve's 20%, and Llama 2 70B on 64 A100s fitting at local batch 1 and not at 2
    // (docs/performance.md and its footnote). Planned with attention-only selective recompute, the
    // 8-GPU run needed 125 GiB (1.52x) and the 70B fit at 1 was called out of memory.
    void torchtitan_op_level_checkpointing_data() {
        QTest::addColumn<QString>("id");
        QTest::newRow("T01 torchtitan Table 1: Llama 3.1 8B, 8 H100s, local batch 2: 82.4 GiB reserved") << QStringLiteral("T01");
        QTest::newRow("T02 torchtitan Table 3: Llama 3.1 8B, 128 H100s, local batch 2: 67.0 GiB reserved") << QStringLiteral("T02");
        QTest::newRow("T03 torchtitan performance.md: Llama 2 70B, 64 A100s: fits at local batch 1, not at 2") << QStringLiteral("T03");
    }
    void torchtitan_op_level_checkpointing() {
        QFETCH(QString, id);
        const MeasuredCase* c = bundled_case("measured_runs_3.json", id.toStdString());
        QVERIFY(c);
        QCOMPARE(c->scenario.training.checkpointing, Checkpointing::SelectiveOp);
        const std::vector<CaseResult> rows = validate_cases({*c}).rows;
        QVERIFY(!rows.empty());
        for (const CaseResult& r : rows) QVERIFY2(r.ok, qPrintable(ratio_text(r)));
    }

    // llm-foundry's MPT benchmark tables (scripts/train/benchmarking/README.md, 'H100 80GB BF16' and
    // 'A100 80GB ...'): every one-node row (LH, LA; 512 to 65,536 tokens, MPT's Triton flash
    // attention), one row each, within 25% (the held-out target). They fitted the Triton kernel's
    // share of FlashAttention-2's rate (0.55) and, the H100 rows, Hopper's GEMM efficiency (0.57).
    // And every row of its 'A100 40GB' table (LB: 1 to 16 nodes over the stated 1600 Gb/s), fitted
    // to nothing.
    void llm_foundry_benchmarks_data() {
        QTest::addColumn<QString>("id");
        for (const auto& c : bundled_measured_runs("measured_runs_3.json")) {
            if (c.id.rfind("LH", 0) != 0 && c.id.rfind("LA", 0) != 0 && c.id.rfind("LB", 0) != 0) continue;
            const std::string row = c.id + " " + c.scenario.model.name.substr(0, c.scenario.model.name.find(' ')) + ", " +
                                    std::to_string(c.scenario.training.seq_len) + " tokens, micro batch " +
                                    std::to_string(c.scenario.training.micro_batch) + " (" + c.gpu_label + ")";
            QTest::newRow(row.c_str()) << QString::fromStdString(c.id);
        }
    }
    void llm_foundry_benchmarks() {
        QFETCH(QString, id);
        // The rows name the kernel they ran: timed at its share of FlashAttention-2's rate.
        const MeasuredCase* c = bundled_case("measured_runs_3.json", id.toStdString());
        QVERIFY(c);
        QCOMPARE(c->scenario.assumptions.flash_attention_scale, compute_model::kTritonFlashShare);
        const CaseResult* row = third_set_row(id);
        QVERIFY(row);
        // Rows outside 25%, each with what the planner lacks; one that comes back fails here (XPASS).
        static const std::map<QString, const char*> known_misses = {
            // MPT-30b at 8,192 tokens, micro batch 1, on both GPUs (1.22-1.23x before FSDP's
            // recompute stopped at the down projection, 1.30-1.31x since): the two slowest rows of
            // their tables (MFU 39% and 30% where the 4,096-token rows reach 51% and 36%). The sweep's
            // scripts/train/yamls/pretrain/mpt-30b.yaml (b2a43a1) has n_heads 56, heads of 128, which
            // the Triton kernel does not pad (the published checkpoint's 64 heads of 112 are not what
            // it ran): not explained.
            {QStringLiteral("LA01"), "MPT-30b at 8,192 tokens: 1.31x, not explained"},
            {QStringLiteral("LH01"), "MPT-30b at 8,192 tokens: 1.30x, not explained"},
            // MPT-760m at 512 tokens, micro batch 96, was one (1.26x) until Composer's two train metrics
            // over the logits were timed (Training::logit_metrics): 1.23x since, its 1,024-token row
            // 1.16x where the 2,048-token one is 0.99x.
        };
        if (const auto miss = known_misses.find(id); miss != known_misses.end()) QEXPECT_FAIL("", miss->second, Continue);
        QVERIFY2(std::abs(row->ratio - 1) <= 0.25, qPrintable(ratio_text(*row)));
    }

    // Every row of those tables ran, so each must fit (held out: nothing is fitted to it). Their loss
    // is flash-attn's fused cross-entropy (loss_kernel xentropy: llm-foundry's loss_fn default);
    // planned with transformers' full loss instead, 90 of the 174 are called out of memory (up to
    // 1.47x the usable memory: the logits' fp32 up-cast and log-softmax). Composer keeps each micro
    // batch's output to the next forward (keeps_outputs): the logits the loss saved, counted once.
    void llm_foundry_runs_fit_data() { llm_foundry_benchmarks_data(); }
    void llm_foundry_runs_fit() {
        QFETCH(QString, id);
        const MeasuredCase* c = bundled_case("measured_runs_3.json", id.toStdString());
        QVERIFY(c);
        QCOMPARE(c->scenario.training.loss_kernel, LossKernel::Xentropy);
        const MemoryBreakdown m = estimate_memory(c->scenario);
        const double of_usable = m.peak_required_bytes / usable_gpu_bytes(c->scenario);
        // Rows called out of memory by at most 1.2% of the usable memory: the largest micro batch
        // their sweep ran, at the edge the planner's headroom draws.
        static const std::map<QString, const char*> known_misses = {
            {QStringLiteral("LH19"), "MPT-3b at 8,192 tokens, micro batch 3: 1.010x usable"},
            {QStringLiteral("LA22"), "MPT-3b at 8,192 tokens, micro batch 3: 1.010x usable"},
            {QStringLiteral("LB39"), "MPT-1b at 2,048 tokens, micro batch 10, 16 nodes: 1.008x usable"},
            {QStringLiteral("LB40"), "MPT-1b at 2,048 tokens, micro batch 10, 8 nodes: 1.009x usable"},
            {QStringLiteral("LB41"), "MPT-1b at 2,048 tokens, micro batch 10, 4 nodes: 1.012x usable"},
        };
        if (const auto miss = known_misses.find(id); miss != known_misses.end()) {
            QVERIFY2(of_usable <= 1.02, qPrintable(id + QStringLiteral(": ") + QString::number(of_usable) + QStringLiteral(" of usable")));
            QEXPECT_FAIL("", miss->second, Continue);
        }
        QVERIFY2(of_usable <= 1.0, qPrintable(id + QStringLiteral(": ") + QString::number(of_usable) + QStringLiteral(" of usable")));
    }

    // The layout of a case: explicit fields where it states them, else what its assumptions text
    // names (the Megatron-DeepSpeed runs of measured_runs.json: "TP=4, PP=12").
    void layout_fields_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<qint64>("tensor");
        QTest::addColumn<qint64>("pipeline");
        QTest::addColumn<qint64>("virtualStages");
        QTest::addColumn<bool>("sequenceParallel");
        QTest::newRow("none: one data-parallel group") << QString() << qint64(1) << qint64(1) << qint64(1) << false;
        QTest::newRow("from the assumptions text")
            << QStringLiteral(R"(, "stage": 1, "assumptions": "TP=2, PP=4")") << qint64(2) << qint64(4) << qint64(1) << false;
        QTest::newRow("explicit fields")
            << QStringLiteral(
                   R"(, "stage": 0, "tensor_parallel": 2, "pipeline_parallel": 2, "virtual_stages": 2, "sequence_parallel": true)")
            << qint64(2) << qint64(2) << qint64(2) << true;
        QTest::newRow("explicit fields win over the text")
            << QStringLiteral(R"(, "stage": 1, "assumptions": "TP=8, PP=1", "tensor_parallel": 4)") << qint64(4) << qint64(1) << qint64(1)
            << false;
    }
    void layout_fields() {
        QFETCH(QString, patch);
        QFETCH(qint64, tensor);
        QFETCH(qint64, pipeline);
        QFETCH(qint64, virtualStages);
        QFETCH(bool, sequenceParallel);
        // document() states stage 3 and an empty assumptions text; a later key wins in the JSON reader.
        const auto cases = parse_measured_runs(document(patch.toStdString()), "runs.json");
        const Parallelism& p = cases.front().scenario.parallel;
        QCOMPARE(p.tensor, tensor);
        QCOMPARE(p.pipeline, pipeline);
        QCOMPARE(p.virtual_stages, virtualStages);
        QCOMPARE(p.sequence_parallel, sequenceParallel);
        QVERIFY2(cases.front().not_representable.empty(), cases.front().not_representable.c_str());
    }
    void layout_field_errors() {
        try {
            parse_measured_runs(document(R"(, "stage": 0, "tensor_parallel": 0)"), "runs.json");
            QFAIL("accepted tensor_parallel 0");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("case X1: tensor_parallel must be an integer >= 1")), e.what());
        }
    }

    // The DeepSpeed release a case states decides stage 3's host gradient buffer (ZeroSetup::
    // zero3_host_gradient_buffer: added in v0.6.0), whether ZeRO-2 all-reduces each gradient bucket
    // whole (multi_rank_bucket_allreduce: v0.12.4, PR #4695), whether ZeRO-3's prefetch runs to
    // stage3_max_live_parameters (zero3_prefetch_to_max_live: v0.6.0, PR #1453) and whether a
    // recomputed layer's gathers read hpZ's secondary partition (hpz_in_recompute: v0.13.2, PR
    // #4906); absent, the release of today.
    void deepspeed_version_data() {
        QTest::addColumn<QString>("patch");
        QTest::addColumn<bool>("buffer");
        QTest::addColumn<bool>("wholeBuckets");
        QTest::addColumn<bool>("prefetchToMaxLive");
        QTest::addColumn<bool>("hpzInRecompute");
        QTest::newRow("not stated: today's DeepSpeed") << QString() << true << true << true << true;
        QTest::newRow("ZeRO-Infinity's 0.3") << QStringLiteral(R"(, "deepspeed_version": "0.3")") << false << false << false << false;
        QTest::newRow("0.5.10, the last without the buffer")
            << QStringLiteral(R"(, "deepspeed_version": "0.5.10")") << false << false << false << false;
        QTest::newRow("0.6, the first with it") << QStringLiteral(R"(, "deepspeed_version": "0.6")") << true << false << true << false;
        QTest::newRow("0.10, the ZeRO++ tutorial's")
            << QStringLiteral(R"(, "deepspeed_version": "0.10")") << true << false << true << false;
        QTest::newRow("0.12 reads as 0.12.0") << QStringLiteral(R"(, "deepspeed_version": "0.12")") << true << false << true << false;
        QTest::newRow("0.12.3, the last with per-rank reduces")
            << QStringLiteral(R"(, "deepspeed_version": "0.12.3")") << true << false << true << false;
        QTest::newRow("0.12.4, the first with whole buckets")
            << QStringLiteral(R"(, "deepspeed_version": "0.12.4")") << true << true << true << false;
        QTest::newRow("0.13.1, the last without hpZ in the recompute")
            << QStringLiteral(R"(, "deepspeed_version": "0.13.1")") << true << true << true << false;
        QTest::newRow("0.13.2, the first with it") << QStringLiteral(R"(, "deepspeed_version": "0.13.2")") << true << true << true << true;
        QTest::newRow("0.14.2") << QStringLiteral(R"(, "deepspeed_version": "0.14.2")") << true << true << true << true;
    }
    void deepspeed_version() {
        QFETCH(QString, patch);
        QFETCH(bool, buffer);
        QFETCH(bool, wholeBuckets);
        QFETCH(bool, prefetchToMaxLive);
        QFETCH(bool, hpzInRecompute);
        const auto cases = parse_measured_runs(document(patch.toStdString()), "runs.json");
        QCOMPARE(cases.front().scenario.zero.zero3_host_gradient_buffer, buffer);
        QCOMPARE(cases.front().scenario.zero.multi_rank_bucket_allreduce, wholeBuckets);
        QCOMPARE(cases.front().scenario.zero.zero3_prefetch_to_max_live, prefetchToMaxLive);
        QCOMPARE(cases.front().scenario.zero.hpz_in_recompute, hpzInRecompute);
    }
    // The window's release eras (core/model/deepspeed_release.h kDeepSpeedReleaseEras) agree with
    // the release predicates they restate (deepspeed_defaults.h): an era's first and last release
    // set the same switches, each era's differ from the next newer one's, and the newest is today's
    // (the default ZeroSetup).
    void release_eras_follow_the_boundaries() {
        QVERIFY(follows_release(ZeroSetup{}, kDeepSpeedReleaseEras.front().first));
        for (std::size_t i = 0; i < kDeepSpeedReleaseEras.size(); ++i) {
            const DeepSpeedReleaseEra& era = kDeepSpeedReleaseEras[i];
            ZeroSetup first;
            apply_deepspeed_release(first, era.first);
            if (i > 0) QVERIFY2(follows_release(first, era.last), qPrintable(QStringLiteral("era %1").arg(i)));
            if (i > 0) QVERIFY2(!follows_release(first, kDeepSpeedReleaseEras[i - 1].first), qPrintable(QStringLiteral("era %1").arg(i)));
        }
    }
    // A plan that uses what its release (ZeroSetup::deepspeed_release) does not have is refused
    // with the release that brought it (release_firsts: each release's own config classes).
    void release_refuses_what_it_lacks_data() {
        QTest::addColumn<QString>("release");
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("refusal");  // "" accepted
        QTest::newRow("ZeRO++ in 0.9.5") << "0.9.5"
                                         << "zeropp"
                                         << "ZeRO++ (hpZ, qwZ, qgZ), which DeepSpeed has from v0.10.0";
        QTest::newRow("ZeRO++ in 0.10.0") << "0.10.0"
                                          << "zeropp"
                                          << "";
        QTest::newRow("MiCS in 0.9.1") << "0.9.1"
                                       << "mics"
                                       << "MiCS (mics_shard_size), which DeepSpeed has from v0.9.2";
        QTest::newRow("bf16 in 0.5.10: ignored there, fp32") << "0.5.10"
                                                             << "bf16"
                                                             << "bf16, which DeepSpeed has from v0.6.0";
        QTest::newRow("Lion in 0.10.3") << "0.10.3"
                                        << "lion"
                                        << "DeepSpeed's Lion, which DeepSpeed has from v0.11.0";
        QTest::newRow("whole-bucket all-reduce in 0.12.3") << "0.12.3"
                                                           << "multi-rank"
                                                           << "use_multi_rank_bucket_allreduce";
        QTest::newRow("Ulysses in 0.16.9") << "0.16.9"
                                           << "ulysses"
                                           << "sequence_parallel_size, which DeepSpeed has from v0.17.0";
        QTest::newRow("bf16 master weights in 0.18.2") << "0.18.2"
                                                       << "master"
                                                       << "from v0.18.3";
        QTest::newRow("bf16 master weights in 0.18.3") << "0.18.3"
                                                       << "master"
                                                       << "";
        QTest::newRow("today's: everything") << ""
                                             << "zeropp"
                                             << "";
    }
    void release_refuses_what_it_lacks() {
        QFETCH(QString, release);
        QFETCH(QString, change);
        QFETCH(QString, refusal);
        Scenario s = default_scenario();
        s.cluster.nodes = 2;
        s.zero.stage = 3;
        if (!release.isEmpty()) apply_deepspeed_release(s.zero, *parse_deepspeed_release(release.toStdString()));
        s.deepspeed_release = release.toStdString();
        if (change == QLatin1String("zeropp")) s.zero.quantized_weights = true;
        if (change == QLatin1String("mics")) s.zero.mics_shard_size = 8;
        if (change == QLatin1String("lion")) s.training.optimizer = Optimizer::Lion;
        if (change == QLatin1String("multi-rank")) {
            s.zero.stage = 2;
            s.zero.multi_rank_bucket_allreduce = true;
        }
        if (change == QLatin1String("ulysses")) s.parallel.ulysses = 2;
        if (change == QLatin1String("master")) s.zero.bf16_master_weights = true;
        if (change != QLatin1String("bf16"))
            s.training.precision =
                release == QLatin1String("0.18.2") || release == QLatin1String("0.18.3") ? Precision::Bf16 : Precision::Fp16;
        try {
            validate(s);
            QVERIFY2(refusal.isEmpty(), "accepted");
        } catch (const InputError& e) {
            QVERIFY2(!refusal.isEmpty() && QString::fromUtf8(e.what()).contains(refusal), e.what());
        }
    }

    // Setups a release lacks at the plan's precision are refused per setup (SetupRefusal::Release),
    // as the release's own config asserts (each release's DeepSpeedConfig run on the export).
    void setups_a_release_lacks_data() {
        QTest::addColumn<QString>("release");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("precision");
        QTest::addColumn<bool>("runs");
        QTest::newRow("0.3.11: \"Maximum supported ZeRO stage is 2\"") << "0.3.11" << 3 << int(Precision::Fp16) << false;
        QTest::newRow("0.3.12: ZeRO-3") << "0.3.12" << 3 << int(Precision::Fp16) << true;
        QTest::newRow("0.3.15: \"ZeRO is only supported if fp16 is enabled\"") << "0.3.15" << 2 << int(Precision::Fp32) << false;
        QTest::newRow("0.4.0: ZeRO in fp32") << "0.4.0" << 2 << int(Precision::Fp32) << true;
        QTest::newRow("0.6.1: \"bfloat16 mode is only enabled for Zero 1,2,3\"") << "0.6.1" << 0 << int(Precision::Bf16) << false;
        QTest::newRow("0.6.2: bf16 without ZeRO") << "0.6.2" << 0 << int(Precision::Bf16) << true;
    }
    void setups_a_release_lacks() {
        QFETCH(QString, release);
        QFETCH(int, stage);
        QFETCH(int, precision);
        QFETCH(bool, runs);
        Scenario s = default_scenario();
        s.deepspeed_release = release.toStdString();
        apply_deepspeed_release(s.zero, *parse_deepspeed_release(s.deepspeed_release));
        s.zero.stage = stage;
        s.training.precision = static_cast<Precision>(precision);
        QCOMPARE(evaluate(s).fit.refusal == SetupRefusal::Release, !runs);
    }

    void deepspeed_version_errors_data() {
        QTest::addColumn<QString>("version");
        QTest::newRow("a word") << QStringLiteral("latest");
        QTest::newRow("a patch that is not a number") << QStringLiteral("0.12.x");
        QTest::newRow("something after the patch") << QStringLiteral("0.12.4rc1");
        QTest::newRow("a fourth part") << QStringLiteral("0.12.4.1");
        QTest::newRow("a major alone") << QStringLiteral("1");
        QTest::newRow("a negative part") << QStringLiteral("0.-1");
    }
    void deepspeed_version_errors() {
        QFETCH(QString, version);
        try {
            const std::string field = ", \"deepspeed_version\": \"" + version.toStdString() + "\"";
            parse_measured_runs(document(field), "runs.json");
            QFAIL(qPrintable(QStringLiteral("accepted deepspeed_version %1").arg(version)));
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("case X1: deepspeed_version must be a release like")), e.what());
        }
    }

    // Issue 18's target for host RAM over the bundled host-RAM runs (measured_runs.json and the
    // project's host_ram_runs.json together, as `validate` reads them): median |error| <= 15%, and
    // no worse than DeepSpeed's own cold estimator on the same rows. Each row says when the node peaks.
    void host_ram_targets() {
        std::vector<MeasuredCase> cases;
        for (const char* file : {"measured_runs.json", "host_ram_runs.json"}) {
            const std::string path = std::string(ZP_TEST_DATA_DIR "/anchors/") + file;
            for (auto& c : parse_measured_runs(read_text_file(path), path)) cases.push_back(std::move(c));
        }
        const ValidationReport r = validate_cases(cases);
        int rows = 0;
        for (const CaseResult& row : r.rows) {
            if (row.quantity != Quantity::HostRam) continue;
            ++rows;
            QVERIFY(row.host_phase.has_value());
            QVERIFY(std::isfinite(row.ratio) && row.deepspeed_estimate > 0);
        }
        QVERIFY(rows >= 2);
        const auto group =
            std::find_if(r.groups.begin(), r.groups.end(), [](const GroupAggregate& g) { return g.group == "host RAM per node"; });
        QVERIFY(group != r.groups.end());
        QCOMPARE(group->count, rows);
        QVERIFY2(group->median_abs_error <= 0.15, qPrintable(QString::number(group->median_abs_error)));
        QCOMPARE(r.deepspeed_host_estimator.count, rows);
        QVERIFY2(group->median_abs_error <= r.deepspeed_host_estimator.median_abs_error,
                 qPrintable(QString::number(group->median_abs_error) + QStringLiteral(" vs DeepSpeed's ") +
                            QString::number(r.deepspeed_host_estimator.median_abs_error)));
    }

    // A runs file's "pairs" (core/validation/pairs.h): each malformed entry is one error naming
    // the pair and the field; a pair of a case that is not there names the case.
    void malformed_pairs_data() {
        QTest::addColumn<QString>("pairs");
        QTest::addColumn<QString>("error");
        QTest::newRow("not an array") << R"("pairs": {})"
                                      << "pairs must be an array";
        QTest::newRow("compare word") << R"("pairs": [{"name": "n", "base": "A", "variant": "B", "compare": "sum", "tolerance": 0.1,
            "why_tolerance": "w"}])"
                                      << "pairs[0].compare must be ratio or difference, got 'sum'";
        QTest::newRow("tolerance zero") << R"("pairs": [{"name": "n", "base": "A", "variant": "B", "compare": "ratio", "tolerance": 0,
            "why_tolerance": "w"}])"
                                        << "pairs[0].tolerance must be a positive number";
        QTest::newRow("no justification") << R"("pairs": [{"name": "n", "base": "A", "variant": "B", "compare": "ratio",
            "tolerance": 0.1}])"
                                          << "pairs[0].why_tolerance must be a non-empty string";
        QTest::newRow("missing case") << R"("pairs": [{"name": "n", "base": "A", "variant": "B", "compare": "ratio", "tolerance": 0.1,
            "why_tolerance": "w"}])"
                                      << "pair 'n': case A has no checked measurement";
    }
    void malformed_pairs() {
        QFETCH(QString, pairs);
        QFETCH(QString, error);
        const std::string text = "{\"cases\": [], " + pairs.toStdString() + "}";
        try {
            const auto specs = parse_measured_pairs(text, "p.json");
            validate_pairs(ValidationReport{}, specs);
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }

    // A document's "means" (core/validation/means.h): each malformed entry is one error naming the
    // mean and the field; a run with a measurement of its own belongs in "cases".
    void malformed_means_data() {
        const QString run = QStringLiteral(
            R"({"id": "R%1", "kind": "throughput", "model": {"name": "m", "layers": 2, "hidden": 256, "heads": 4, "ffn": 1024, "vocab": 1000},
            "gpus": 8, "gpus_per_node": 8, "stage": 2, "precision": "fp16", "optimizer": "adam", "micro_batch": 1, "grad_accum": 1,
            "seq": 128, "checkpointing": "none", "flash_attention": false%2})");
        const QString head = QStringLiteral(
            R"("means": [{"name": "n", "source": "s", "quote": "q", "measured": {"value": 10, "unit": "TFLOPs", "what": "tflops_per_gpu"},
            "tolerance": 0.15, "why_tolerance": "w", "runs": [)");
        QTest::addColumn<QString>("means");
        QTest::addColumn<QString>("error");
        QTest::newRow("not an array") << QStringLiteral(R"("means": {})") << QStringLiteral("means must be an array");
        QTest::newRow("one run") << head + run.arg(1).arg(QString()) + QStringLiteral("]}]")
                                 << QStringLiteral("means[0].runs must list at least two runs");
        QTest::newRow("a run with its own measurement")
            << head + run.arg(1).arg(QString()) + QStringLiteral(", ") +
                   run.arg(2).arg(QStringLiteral(R"(, "measured": {"value": 9, "unit": "TFLOPs", "what": "tflops_per_gpu"})")) +
                   QStringLiteral("]}]")
            << QStringLiteral("means[0].runs[1] has its own measured value");
        QTest::newRow("no tolerance") << QStringLiteral(R"("means": [{"name": "n", "source": "s", "quote": "q", "why_tolerance": "w"}])")
                                      << QStringLiteral("means[0].tolerance must be a positive number");
    }
    void malformed_means() {
        QFETCH(QString, means);
        QFETCH(QString, error);
        const std::string text = "{\"cases\": [], " + means.toStdString() + "}";
        try {
            validate_means(parse_measured_means(text, "p.json"));
            QFAIL("accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }

    // The ZeRO paper's figures stated as means (paper_throughput.json "means"): Sec. 10.2's 15
    // PetaFlops on average over Table 5's 8B-100B runs on 400 V100s (37.5 TFLOP/s per GPU), and
    // Sec. 10.4's "over 40 TFlops per GPU on average" over Table 10's data-parallel runs on 128:
    // the planner's mean over the same runs within 15%.
    void paper_means_within_target_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("runs");
        QTest::addColumn<double>("measured");
        QTest::newRow("ZeRO paper Sec. 10.2 + Table 5: 15 PF on 400 GPUs, 8B-100B")
            << QStringLiteral("ZeRO paper: 8B-100B, 400 V100s, MP 4-16") << 5 << 37.5e12;
        QTest::newRow("ZeRO paper Sec. 10.4 + Table 10: over 40 TFLOP/s, 1.5B-13B without MP")
            << QStringLiteral("ZeRO paper: 1.5B-13B, 128 V100s, no MP") << 9 << 40e12;
    }
    void paper_means_within_target() {
        QFETCH(QString, name);
        QFETCH(int, runs);
        QFETCH(double, measured);
        // With the source facts, as validate reads them (the paper's DeepSpeed release, v0.2.0).
        const std::string path = ZP_TEST_DATA_DIR "/anchors/paper_throughput.json";
        const std::string facts_text = read_text_file(test_data_path("anchors/measured_runs_facts.json"));
        const SourceFacts facts{facts_text, "measured_runs_facts.json"};
        const auto means = validate_means(parse_measured_means(read_text_file(path), path, &facts));
        const auto m = std::find_if(means.begin(), means.end(), [&](const MeanResult& r) { return r.name == name.toStdString(); });
        QVERIFY(m != means.end());
        QCOMPARE(static_cast<int>(m->runs.size()), runs);
        QCOMPARE(m->measured, measured);
        QVERIFY2(m->ok, qPrintable(QStringLiteral("error %1").arg(m->error)));
    }

    // Generic rules only: core/validation never names a case of the measured runs.
    void no_rule_keyed_by_a_case_id() {
        const QDir dir(QStringLiteral(ZP_SOURCE_DIR "/core/validation"));
        const QStringList files = dir.entryList({QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files);
        QVERIFY(files.size() >= 4);
        const QRegularExpression id(QStringLiteral("\\bM\\d{2}\\b"));
        for (const QString& f : files) {
            QFile file(dir.filePath(f));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(file.readAll());
            const auto m = id.match(text);
            QVERIFY2(!m.hasMatch(), qPrintable(f + QStringLiteral(" names case ") + m.captured()));
        }
    }
};

ZP_TEST_APPLESS_MAIN(TestValidation)
#include "tst_validation.moc"
