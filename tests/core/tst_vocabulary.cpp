// Every vocabulary the planner keeps in one table, walked row by row: the enum names and their
// aliases, the presets, the ZeRO setups, the intra-node links and the input limits; and the
// README's lists of them, which are hand-written and must agree with the tables.
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/units.h"
#include "core/model/enum_names.h"
#include "core/model/limits.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <QRegularExpression>
#include <QSet>
#include "test_main.h"
#include "test_text.h"

#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <set>

using namespace zp;

using ClusterEdit = std::function<void(Cluster&)>;
Q_DECLARE_METATYPE(ClusterEdit)
using zp::test::q;

namespace {

// --- Enums ---------------------------------------------------------------------------------

template <class E>
void addEnumRows(const char* kind) {
    for (const auto& n : EnumVocabulary<E>::names)
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(QLatin1String(kind), QLatin1String(n.name))))
            << QString::fromLatin1(kind) << QString::fromLatin1(n.name) << false;
    for (const auto& n : EnumVocabulary<E>::aliases)
        QTest::newRow(qPrintable(QStringLiteral("%1 %2 (alias)").arg(QLatin1String(kind), QLatin1String(n.name))))
            << QString::fromLatin1(kind) << QString::fromLatin1(n.name) << true;
}

// A name parses to its value and the value prints as the name; an alias parses to a value
// whose printed name is a different, canonical one.
template <class E>
void checkEnumName(const QString& name, bool alias) {
    const std::string text = name.toStdString();
    const E value = parse_enum<E>(text);
    const std::string printed = to_string(value);
    if (alias) {
        QVERIFY2(printed != text, "an alias must not be the printed name");
        QCOMPARE(parse_enum<E>(printed), value);
    } else {
        QCOMPARE(q(printed), name);
    }
    // choice_list names every canonical spelling once, in table order.
    QStringList listed;
    for (const auto& n : enum_names<E>()) listed << QString::fromLatin1(n.name);
    QCOMPARE(q(choice_list<E>()), listed.join(QLatin1Char('|')));
    QCOMPARE(QSet<QString>(listed.begin(), listed.end()).size(), listed.size());
    QCOMPARE(listed.count(q(printed)), qsizetype(1));
}

template <class E>
void checkUnknownEnumName() {
    try {
        parse_enum<E>("no-such-name");
        QFAIL("parsed an unknown name");
    } catch (const InputError& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains(q(choice_list<E>())), e.what());
        QVERIFY2(message.contains(QStringLiteral("'no-such-name'")), e.what());
    }
}

// --- Limits --------------------------------------------------------------------------------

// One limit and the scenario field it bounds. `set` writes a value in the limit's unit.
struct LimitRow {
    const char* name;
    bool integer;
    double min, max;
    bool min_open, max_open;
    std::function<void(Scenario&, double)> set;
};

LimitRow row(const char* name, const limits::CountRange& r, std::function<void(Scenario&, double)> set) {
    return {name, true, static_cast<double>(r.min), static_cast<double>(r.max), r.min_open, r.max_open, std::move(set)};
}
LimitRow row(const char* name, const limits::RealRange& r, std::function<void(Scenario&, double)> set) {
    return {name, false, r.min, r.max, r.min_open, r.max_open, std::move(set)};
}

std::int64_t whole(double v) { return static_cast<std::int64_t>(v); }

// Model dimensions are set on GPT-2 124M, so that no extreme dimension pushes the parameter
// count past its own limit.
ModelSpec& gpt2(Scenario& s) {
    s.model = model_preset("gpt2").spec;
    return s.model;
}

const std::vector<LimitRow>& limitRows() {
    using namespace limits;
    static const std::vector<LimitRow> rows = {
        row("GPUs per node", kGpusPerNode,
            [](Scenario& s, double v) {
                s.cluster.nodes = 1;
                s.cluster.gpus_per_node = whole(v);
            }),
        row("nodes", kNodes,
            [](Scenario& s, double v) {
                s.cluster.gpus_per_node = 1;
                s.cluster.nodes = whole(v);
            }),
        row("GPU memory (GiB)", kGpuMemoryGib, [](Scenario& s, double v) { s.cluster.gpu.memory_gib = v; }),
        row("GPU peak TFLOP/s", kPeakTflops, [](Scenario& s, double v) { s.cluster.gpu.peak_tflops_16bit = v; }),
        row("intra-node GB/s", kIntraNodeGBytesPerS, [](Scenario& s, double v) { s.cluster.intra_node_gbytes_per_s = v; }),
        row("inter-node Gbit/s", kInterNodeGbitsPerS, [](Scenario& s, double v) { s.cluster.inter_node_gbits_per_s = v; }),
        row("PCIe GB/s", kPcieGBytesPerS, [](Scenario& s, double v) { s.cluster.pcie_gbytes_per_s = v; }),
        row("CPU RAM (GiB)", kCpuRamGib, [](Scenario& s, double v) { s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(v); }),
        row("NVMe (GiB)", kNvmeGib, [](Scenario& s, double v) { s.cluster.nvme_bytes_per_node = gib_to_bytes(v); }),
        row("NVMe GB/s", kNvmeGBytesPerS, [](Scenario& s, double v) { s.cluster.nvme_gbytes_per_s = v; }),
        row("CPU Adam params/s", kCpuAdamParamsPerSecond, [](Scenario& s, double v) { s.cluster.cpu_adam_params_per_second = v; }),
        row("sequence length", kSeqLen, [](Scenario& s, double v) { s.training.seq_len = whole(v); }),
        row("micro batch", kMicroBatch, [](Scenario& s, double v) { s.training.micro_batch = whole(v); }),
        row("global batch", kGlobalBatch, [](Scenario& s, double v) { s.training.global_batch = whole(v); }),
        row("ZeRO stage", kZeroStage, [](Scenario& s, double v) { s.zero.stage = static_cast<int>(v); }),
        row("reduce bucket", kBucketElems, [](Scenario& s, double v) { s.zero.reduce_bucket_elems = v; }),
        row("headroom", kHeadroom, [](Scenario& s, double v) { s.assumptions.headroom = v; }),
        row("MFU", kMfu, [](Scenario& s, double v) { s.assumptions.mfu = v; }),
        row("CUDA context (GiB)", kCudaContextGib, [](Scenario& s, double v) { s.assumptions.cuda_context_bytes = gib_to_bytes(v); }),
        row("layers", kLayers, [](Scenario& s, double v) { gpt2(s).layers = whole(v); }),
        row("hidden", kModelWidth, [](Scenario& s, double v) { gpt2(s).hidden = whole(v); }),
        row("heads", kModelWidth,
            [](Scenario& s, double v) {
                gpt2(s).kv_heads = 1;  // divides any head count
                s.model.heads = whole(v);
            }),
        row("head_dim", kModelWidth, [](Scenario& s, double v) { gpt2(s).head_dim = whole(v); }),
        row("ffn", kModelTable, [](Scenario& s, double v) { gpt2(s).ffn = whole(v); }),
        row("vocab", kModelTable, [](Scenario& s, double v) { gpt2(s).vocab = whole(v); }),
        row("positions", kPositions, [](Scenario& s, double v) { gpt2(s).positions = whole(v); }),
        row("relative buckets", kRelativeBuckets, [](Scenario& s, double v) { gpt2(s).relative_attention_buckets = whole(v); }),
        row("experts", kExperts,
            [](Scenario& s, double v) {
                gpt2(s).experts_per_token = 1;
                s.model.experts = whole(v);
            }),
        row("norms per layer", kNormsPerLayer, [](Scenario& s, double v) { gpt2(s).norms_per_layer = static_cast<int>(v); }),
    };
    return rows;
}

bool valid(const LimitRow& r, double v) {
    Scenario s = default_scenario();
    r.set(s, v);
    try {
        validate(s);
        return true;
    } catch (const InputError&) {
        return false;
    }
}

// --- README --------------------------------------------------------------------------------

QString readme() { return q(read_text_file(ZP_SOURCE_DIR "/README.md")); }

// Every "--option a|b|c" list in the README (a lone "--convention paper" in prose is skipped).
QStringList readmeChoiceLists(const QString& text, const QString& option) {
    QStringList lists;
    const QRegularExpression re(QRegularExpression::escape(option) + QStringLiteral(" ([A-Za-z0-9_.|-]+)"));
    for (auto m = re.globalMatch(text); m.hasNext();) {
        const QString list = m.next().captured(1);
        if (list.contains(QLatin1Char('|'))) lists << list;
    }
    return lists;
}

// "models `gpt2 gpt2-xl ...`": the backquoted names after `label`, across line breaks.
QStringList readmePresetList(const QString& text, const QString& label) {
    const QRegularExpression re(QStringLiteral("\\b") + label + QStringLiteral(" `([^`]+)`"));
    const auto m = re.match(text);
    if (!m.hasMatch()) return {};
    return m.captured(1).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
}

template <class P>
QStringList names(const std::vector<P>& presets) {
    QStringList out;
    for (const P& p : presets) out << q(p.name);
    return out;
}

}  // namespace

class TestVocabulary : public QObject {
    Q_OBJECT
private slots:
    void enum_name_round_trips_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("alias");
        addEnumRows<Precision>("precision");
        addEnumRows<Optimizer>("optimizer");
        addEnumRows<Checkpointing>("checkpointing");
        addEnumRows<OffloadDevice>("offload");
        addEnumRows<Convention>("convention");
        addEnumRows<NormKind>("norm");
    }
    void enum_name_round_trips() {
        QFETCH(QString, kind);
        QFETCH(QString, name);
        QFETCH(bool, alias);
        if (kind == QLatin1String("precision")) checkEnumName<Precision>(name, alias);
        else if (kind == QLatin1String("optimizer")) checkEnumName<Optimizer>(name, alias);
        else if (kind == QLatin1String("checkpointing")) checkEnumName<Checkpointing>(name, alias);
        else if (kind == QLatin1String("offload")) checkEnumName<OffloadDevice>(name, alias);
        else if (kind == QLatin1String("convention")) checkEnumName<Convention>(name, alias);
        else if (kind == QLatin1String("norm")) checkEnumName<NormKind>(name, alias);
        else QFAIL("unknown kind");
    }

    void unknown_enum_names_list_the_choices() {
        checkUnknownEnumName<Precision>();
        checkUnknownEnumName<Optimizer>();
        checkUnknownEnumName<Checkpointing>();
        checkUnknownEnumName<OffloadDevice>();
        checkUnknownEnumName<Convention>();
        checkUnknownEnumName<NormKind>();
    }

    void preset_round_trips_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("name");
        for (const auto& g : gpu_presets())
            QTest::newRow(qPrintable(QStringLiteral("GPU ") + q(g.name))) << QStringLiteral("gpu") << q(g.name);
        for (const auto& m : model_presets())
            QTest::newRow(qPrintable(QStringLiteral("model ") + q(m.name))) << QStringLiteral("model") << q(m.name);
        for (const auto& c : cluster_presets())
            QTest::newRow(qPrintable(QStringLiteral("cluster ") + q(c.name))) << QStringLiteral("cluster") << q(c.name);
    }
    void preset_round_trips() {
        QFETCH(QString, kind);
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        QStringList all;
        if (kind == QLatin1String("gpu")) {
            QCOMPARE(q(gpu_preset(n).name), name);
            all = names(gpu_presets());
            QCOMPARE(q(gpu_preset_names()), all.join(QStringLiteral(", ")));
        } else if (kind == QLatin1String("model")) {
            const ModelPreset& p = model_preset(n);
            QCOMPARE(q(p.name), name);
            QCOMPARE(q(p.spec.name), name);  // sessions store the spec's name; the window finds the preset by it
            all = names(model_presets());
            QCOMPARE(q(model_preset_names()), all.join(QStringLiteral(", ")));
        } else {
            const ClusterPreset& c = cluster_preset(n);
            QCOMPARE(q(c.name), name);
            // A cluster's GPU is a preset with its own links (Cluster::use_gpu).
            QCOMPARE(c.cluster.gpu, gpu_preset(c.cluster.gpu.name));
            QCOMPARE(c.cluster.intra_node_gbytes_per_s, c.cluster.gpu.intra_node_gbytes_per_s);
            QCOMPARE(c.cluster.pcie_gbytes_per_s, c.cluster.gpu.pcie_gbytes_per_s);
            all = names(cluster_presets());
            QCOMPARE(q(cluster_preset_names()), all.join(QStringLiteral(", ")));
        }
        QCOMPARE(all.count(name), qsizetype(1));
        QVERIFY(name != QLatin1String(kCustomGpuName));
    }

    void unknown_preset_names_list_the_known_ones() {
        const auto message = [](const std::function<void()>& lookup) {
            try {
                lookup();
            } catch (const InputError& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QCOMPARE(message([] { gpu_preset("tpu-v5"); }), QStringLiteral("unknown GPU 'tpu-v5'; known GPUs: ") + q(gpu_preset_names()));
        QCOMPARE(message([] { model_preset("llama-9b"); }),
                 QStringLiteral("unknown model 'llama-9b'; known models: ") + q(model_preset_names()));
        QCOMPARE(message([] { cluster_preset("dgx-z"); }),
                 QStringLiteral("unknown cluster 'dgx-z'; known clusters: ") + q(cluster_preset_names()));
    }

    void every_gpu_link_is_in_the_link_table() {
        std::set<double> speeds;
        std::set<std::string> labels;
        for (const IntraNodeLink& l : intra_node_links()) {
            speeds.insert(l.gbytes_per_s);
            labels.insert(l.name);
        }
        QCOMPARE(speeds.size(), intra_node_links().size());
        QCOMPARE(labels.size(), intra_node_links().size());
        for (const GpuSpec& g : gpu_presets()) {
            QVERIFY2(speeds.count(g.intra_node_gbytes_per_s), g.name.c_str());
            QVERIFY2(speeds.count(g.pcie_gbytes_per_s), g.name.c_str());  // host links are PCIe generations
        }
    }

    // The window's node picker (with_node): the GPU count stays when it fills whole nodes or part
    // of one, otherwise the nearest whole number of nodes; the result is a run of that preset.
    void node_presets_keep_the_gpu_count_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<qint64>("nodes");
        QTest::addColumn<qint64>("per_node");
        QTest::newRow("DGX-2, 8 GPUs: part of one node") << QStringLiteral("dgx-2") << qint64(8) << qint64(1) << qint64(8);
        QTest::newRow("DGX-2, 32 GPUs: two nodes") << QStringLiteral("dgx-2") << qint64(32) << qint64(2) << qint64(16);
        QTest::newRow("DGX-2, 24 GPUs: rounded to 2 nodes") << QStringLiteral("dgx-2") << qint64(24) << qint64(2) << qint64(16);
        QTest::newRow("DGX-2, 40 GPUs: rounded to 3 nodes") << QStringLiteral("dgx-2") << qint64(40) << qint64(3) << qint64(16);
        QTest::newRow("DGX A100, 64 GPUs") << QStringLiteral("dgx-a100") << qint64(64) << qint64(8) << qint64(8);
        QTest::newRow("4090 server, 12 GPUs: rounded to 2 nodes") << QStringLiteral("rtx4090-box") << qint64(12) << qint64(2) << qint64(8);
        QTest::newRow("workstation, 4 GPUs: 4 nodes of one") << QStringLiteral("workstation") << qint64(4) << qint64(4) << qint64(1);
    }
    void node_presets_keep_the_gpu_count() {
        QFETCH(QString, preset);
        QFETCH(qint64, gpus);
        QFETCH(qint64, nodes);
        QFETCH(qint64, per_node);
        const ClusterPreset& p = cluster_preset(preset.toStdString());
        Scenario s = default_scenario();
        s.parallel.tensor = 8;
        const Scenario out = with_node(s, p.cluster, gpus);
        QCOMPARE(out.cluster.nodes, nodes);
        QCOMPARE(out.cluster.gpus_per_node, per_node);
        QCOMPARE(out.cluster.inter_node_gbits_per_s, p.cluster.inter_node_gbits_per_s);
        QCOMPARE(out.cluster.nics_per_node, p.cluster.nics_per_node);
        QCOMPARE(out.parallel.tensor, std::gcd(std::int64_t{8}, per_node));  // with_gpu_count's group rule
        QCOMPARE(out.model.name, s.model.name);
        QCOMPARE(cluster_preset_of(out.cluster), &p);
    }

    // Choosing a GPU (with_gpu, the window's GPU list): on an unedited preset node, the GPU's
    // usual node with the same GPU count (usual_node); an edited node, or a GPU no preset has,
    // keeps its host and changes the GPU only.
    void gpu_choice_takes_its_usual_node_data() {
        QTest::addColumn<QString>("from");  // a node preset, or "edited": the DGX A100 with 1 TiB of RAM
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<QString>("node");  // the preset the result is a run of; empty: none
        QTest::addColumn<double>("ramGib");
        QTest::newRow("DGX A100 x8, RTX 4090: the 8-GPU server") << "dgx-a100" << qint64(8) << "rtx-4090"
                                                                 << "rtx4090-box" << 512.0;
        QTest::newRow("DGX A100 x1, RTX 4090: the workstation") << "dgx-a100" << qint64(1) << "rtx-4090"
                                                                << "workstation" << 128.0;
        QTest::newRow("DGX A100 x16, H100: two DGX H100") << "dgx-a100" << qint64(16) << "h100-80gb"
                                                          << "dgx-h100" << 2048.0;
        QTest::newRow("DGX A100, A100 40GB: no preset, host kept") << "dgx-a100" << qint64(8) << "a100-40gb" << QString() << 2048.0;
        QTest::newRow("edited host, RTX 4090: host kept") << "edited" << qint64(8) << "rtx-4090" << QString() << 1024.0;
        QTest::newRow("workstation, RTX 4090 again: unchanged") << "workstation" << qint64(1) << "rtx-4090"
                                                                << "workstation" << 128.0;
    }
    void gpu_choice_takes_its_usual_node() {
        QFETCH(QString, from);
        QFETCH(qint64, gpus);
        QFETCH(QString, gpu);
        QFETCH(QString, node);
        QFETCH(double, ramGib);
        Scenario s = default_scenario();
        if (from == QLatin1String("edited")) s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(1024);
        else s = with_node(s, cluster_preset(from.toStdString()).cluster, gpus);
        s = with_gpu_count(s, gpus, s.cluster.gpus_per_node);
        const Scenario out = with_gpu(s, gpu_preset(gpu.toStdString()));
        QCOMPARE(QString::fromStdString(out.cluster.gpu.name), gpu);
        QCOMPARE(out.cluster.world_size(), std::int64_t{gpus});
        QCOMPARE(out.cluster.cpu_ram_bytes_per_node, gib_to_bytes(ramGib));
        const ClusterPreset* p = cluster_preset_of(out.cluster);
        QCOMPARE(p ? QString::fromStdString(p->name) : QString(), node);
        QCOMPARE(out.model.name, s.model.name);
    }

    // A GPU on another GPU's node keeps that node's host: the window's card says whose
    // (host_of_other_node), since the plan's host RAM and NVMe rest on it (a window review: an RTX
    // 3090 QLoRA plan "fits" on a DGX A100's 2 TiB of RAM, with nothing said).
    void host_of_other_node_names_the_node_data() {
        QTest::addColumn<QString>("node");   // the node preset the cluster starts from
        QTest::addColumn<QString>("gpu");    // the GPU then put in it
        QTest::addColumn<bool>("edited");    // the host's RAM edited afterwards
        QTest::addColumn<QString>("other");  // the node host_of_other_node names; empty: none
        QTest::newRow("DGX A100 as it is: its own host") << "dgx-a100"
                                                         << "a100-80gb" << false << QString();
        QTest::newRow("RTX 3090 on a DGX A100's host") << "dgx-a100"
                                                       << "rtx-3090" << false << "dgx-a100";
        QTest::newRow("RTX 3090 on a workstation's host") << "workstation"
                                                          << "rtx-3090" << false << "workstation";
        QTest::newRow("RTX 3090 with the RAM set: the user's host") << "dgx-a100"
                                                                    << "rtx-3090" << true << QString();
        QTest::newRow("H100 on a DGX H100: its own (a DGX H200 has the same host)") << "dgx-h100"
                                                                                    << "h100-80gb" << false << QString();
    }
    void host_of_other_node_names_the_node() {
        QFETCH(QString, node);
        QFETCH(QString, gpu);
        QFETCH(bool, edited);
        QFETCH(QString, other);
        Cluster c = cluster_preset(node.toStdString()).cluster;
        c.gpu = gpu_preset(gpu.toStdString());
        if (edited) c.cpu_ram_bytes_per_node = gib_to_bytes(64);
        const ClusterPreset* p = host_of_other_node(c);
        QCOMPARE(p ? QString::fromStdString(p->name) : QString(), other);
    }

    void cluster_preset_of_a_node_data() {
        QTest::addColumn<QString>("expected");  // empty: no preset
        QTest::addColumn<ClusterEdit>("edit");
        QTest::newRow("the default scenario is a DGX A100") << QStringLiteral("dgx-a100") << ClusterEdit([](Cluster&) {});
        QTest::newRow("DGX-2, one node of 4 GPUs") << QStringLiteral("dgx-2") << ClusterEdit([](Cluster& c) {
            c = cluster_preset("dgx-2").cluster;
            c.gpus_per_node = 4;
        });
        QTest::newRow("DGX-2 nodes of 8 GPUs, 2 nodes: not a DGX-2") << QString() << ClusterEdit([](Cluster& c) {
            c = cluster_preset("dgx-2").cluster;
            c.gpus_per_node = 8;
            c.nodes = 2;
        });
        QTest::newRow("network edited") << QString() << ClusterEdit([](Cluster& c) { c.inter_node_gbits_per_s = 400; });
        QTest::newRow("NICs edited") << QString() << ClusterEdit([](Cluster& c) { c.nics_per_node = 4; });
        QTest::newRow("GPU memory edited") << QString() << ClusterEdit([](Cluster& c) { c.gpu = custom_gpu(c.gpu, 40); });
        QTest::newRow("host RAM edited") << QString() << ClusterEdit([](Cluster& c) { c.cpu_ram_bytes_per_node /= 2; });
        QTest::newRow("another GPU") << QString() << ClusterEdit([](Cluster& c) { c.use_gpu(gpu_preset("h100-80gb")); });
    }
    void cluster_preset_of_a_node() {
        QFETCH(QString, expected);
        QFETCH(ClusterEdit, edit);
        Cluster c = default_scenario().cluster;
        edit(c);
        const ClusterPreset* p = cluster_preset_of(c);
        QCOMPARE(p ? q(p->name) : QString(), expected);
    }

    void custom_gpu_keeps_throughput_and_links() {
        Cluster c = cluster_preset("dgx-h100").cluster;
        const GpuSpec h100 = c.gpu;
        c.gpu = custom_gpu(c.gpu, 96);
        QCOMPARE(q(c.gpu.name), QString::fromLatin1(kCustomGpuName));
        QCOMPARE(c.gpu.memory_gib, 96.0);
        QCOMPARE(c.gpu.peak_tflops_16bit, h100.peak_tflops_16bit);
        QCOMPARE(c.gpu.intra_node_gbytes_per_s, h100.intra_node_gbytes_per_s);
        c.intra_node_gbytes_per_s = 1;
        c.use_gpu(gpu_preset("v100-32gb"));
        QCOMPARE(c.intra_node_gbytes_per_s, links::kNvLink2);
        QCOMPARE(c.pcie_gbytes_per_s, links::kPcie3x16);
    }

    void zero_setup_labels_tell_setups_apart_data() {
        QTest::addColumn<int>("index");
        const auto rows = zp::zero_setup_rows();
        for (std::size_t i = 0; i < rows.size(); ++i) QTest::newRow(setup_label(rows[i].key).c_str()) << static_cast<int>(i);
    }
    void zero_setup_labels_tell_setups_apart() {
        QFETCH(int, index);
        const auto rows = zp::zero_setup_rows();
        const SetupKey key = rows[static_cast<std::size_t>(index)].key;
        const bool in_overview = rows[static_cast<std::size_t>(index)].in_overview;
        int same_label = 0, same_short = 0;
        for (const ZeroSetupRow& r : rows) {
            if (setup_label(r.key) == setup_label(key)) ++same_label;
            // The short labels tick the overview's bars, and the recommended setup joins them
            // whatever its row: every row's is its own ("ZeRO-3+CPU", "ZeRO-3+CPU opt").
            if (short_setup_label(r.key) == short_setup_label(key)) ++same_short;
        }
        QCOMPARE(same_label, 1);
        QCOMPARE(same_short, 1);
        if (!in_overview) QVERIFY(short_setup_label(key).find('+') != std::string::npos);  // only offloads are outside
        QVERIFY(setup_key(zero_setups()[static_cast<std::size_t>(index)]) == key);
        validate(with_setup(default_scenario(), key));  // every row is a combination DeepSpeed supports
    }

    void overview_setups_are_the_flagged_rows_in_order() {
        std::vector<SetupKey> flagged;
        for (const ZeroSetupRow& r : zp::zero_setup_rows())
            if (r.in_overview) flagged.push_back(r.key);
        QCOMPARE(overview_setups().size(), flagged.size());
        for (std::size_t i = 0; i < flagged.size(); ++i) QVERIFY(setup_key(overview_setups()[i]) == flagged[i]);
        QCOMPARE(zero_setups().size(), zp::zero_setup_rows().size());
    }

    void limit_ends_data() {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < limitRows().size(); ++i) QTest::newRow(limitRows()[i].name) << static_cast<int>(i);
    }
    // The lowest and highest valid values pass validate(); the next value past each fails
    // (for an open end: the end itself; for a real closed end: the adjacent double).
    void limit_ends() {
        QFETCH(int, index);
        const LimitRow& r = limitRows()[static_cast<std::size_t>(index)];
        constexpr double inf = std::numeric_limits<double>::infinity();
        const double step_down = r.integer ? r.min - 1 : std::nextafter(r.min, -inf);
        const double step_up = r.integer ? r.max + 1 : std::nextafter(r.max, inf);
        const double lowest = r.min_open ? std::nextafter(r.min, inf) : r.min;
        const double below = r.min_open ? r.min : step_down;
        const double highest = r.max_open ? std::nextafter(r.max, -inf) : r.max;
        const double above = r.max_open ? r.max : step_up;
        QVERIFY2(valid(r, lowest), qPrintable(QStringLiteral("lowest %1").arg(lowest, 0, 'g', 17)));
        QVERIFY2(!valid(r, below), qPrintable(QStringLiteral("below %1").arg(below, 0, 'g', 17)));
        QVERIFY2(valid(r, highest), qPrintable(QStringLiteral("highest %1").arg(highest, 0, 'g', 17)));
        QVERIFY2(!valid(r, above), qPrintable(QStringLiteral("above %1").arg(above, 0, 'g', 17)));
    }

    // The limits on products: the world size (nodes x GPUs per node, each within its own
    // limit) and the parameter count (dimensions each within theirs).
    void product_limits() {
        Scenario s = default_scenario();
        s.cluster.nodes = 1000;
        s.cluster.gpus_per_node = 1000;
        QCOMPARE(s.cluster.world_size(), limits::kWorldSize.max);
        validate(s);
        s.cluster.nodes = 1001;
        QVERIFY_THROWS_EXCEPTION(InputError, validate(s));
        s = default_scenario();
        s.model = model_preset("gpt2").spec;
        s.model.params_override = static_cast<std::int64_t>(limits::kParams.max);
        validate(s);
        s.model.params_override += 1;
        QVERIFY_THROWS_EXCEPTION(InputError, validate(s));
    }

    void readme_enum_lists_match_the_tables() {
        const QString text = readme();
        const auto check = [&](const QString& option, const std::string& list) {
            const QStringList found = readmeChoiceLists(text, option);
            QVERIFY2(!found.isEmpty(), qPrintable(option + QStringLiteral(" has no list in README.md")));
            for (const QString& f : found) QCOMPARE(f, q(list));
        };
        check(QStringLiteral("--precision"), choice_list<Precision>());
        check(QStringLiteral("--optimizer"), choice_list<Optimizer>());
        check(QStringLiteral("--checkpointing"), choice_list<Checkpointing>());
        check(QStringLiteral("--offload-optimizer"), choice_list<OffloadDevice>());
        check(QStringLiteral("--offload-param"), choice_list<OffloadDevice>());
        check(QStringLiteral("--convention"), choice_list<Convention>());
    }

    void readme_preset_lists_match_the_tables() {
        const QString text = readme();
        QCOMPARE(readmePresetList(text, QStringLiteral("models")), names(model_presets()));
        QCOMPARE(readmePresetList(text, QStringLiteral("GPUs")), names(gpu_presets()));
        QCOMPARE(readmePresetList(text, QStringLiteral("clusters")), names(cluster_presets()));
    }
};

ZP_TEST_MAIN(TestVocabulary)
#include "tst_vocabulary.moc"
