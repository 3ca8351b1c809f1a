// Every GPU, node and model preset names where its figures come from (core/presets/: gpu_source,
// cluster_source, model_source), as data `zero-planner presets` lists (issue 38: "lists every new
// GPU, node and model with its source"): one row per preset, so a preset added without its
// source fails here by name.
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"

#include "test_main.h"

#include <string>

using namespace zp;

namespace {

// A source is one line of text that fits a Markdown table cell (README's Presets tables).
void check_source(const std::string& source) {
    QVERIFY2(!source.empty(), "no source");
    QVERIFY2(source.find('|') == std::string::npos, source.c_str());
    QVERIFY2(source.find('\n') == std::string::npos, source.c_str());
    for (const char c : source) QVERIFY2(static_cast<unsigned char>(c) < 0x80, source.c_str());  // ASCII: text columns line up
}

}  // namespace

class TestPresetSources : public QObject {
    Q_OBJECT
private slots:
    void gpu_has_a_source_data() {
        QTest::addColumn<QString>("name");
        for (const GpuSpec& g : gpu_presets()) QTest::newRow(g.name.c_str()) << QString::fromStdString(g.name);
    }
    void gpu_has_a_source() {
        QFETCH(QString, name);
        check_source(gpu_source(name.toStdString()));
    }

    void node_has_a_source_data() {
        QTest::addColumn<QString>("name");
        for (const ClusterPreset& c : cluster_presets()) QTest::newRow(c.name.c_str()) << QString::fromStdString(c.name);
    }
    void node_has_a_source() {
        QFETCH(QString, name);
        check_source(cluster_source(name.toStdString()));
    }

    void model_has_a_source_data() {
        QTest::addColumn<QString>("name");
        for (const ModelPreset& m : model_presets()) QTest::newRow(m.name.c_str()) << QString::fromStdString(m.name);
    }
    void model_has_a_source() {
        QFETCH(QString, name);
        check_source(model_source(name.toStdString()));
    }

    // A name no preset has has no source: the tables are keyed by preset name, not a fallback row.
    void unknown_names_have_none() {
        QCOMPARE(std::string(gpu_source("custom")), std::string());
        QCOMPARE(std::string(cluster_source("my-cluster")), std::string());
        QCOMPARE(std::string(model_source("llama-9b")), std::string());
    }

    // Where a comment says a figure is assumed or a node a typical build, its source says so too.
    void assumed_and_typical_builds_say_so_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("words");
        QTest::newRow("b200: GiB from GB assumed") << QString::fromUtf8(gpu_source("b200")) << QStringLiteral("assumed");
        QTest::newRow("gb300-nvl72: host bandwidth assumed")
            << QString::fromUtf8(cluster_source("gb300-nvl72")) << QStringLiteral("assumed");
        QTest::newRow("mi300x-8: host assumed") << QString::fromUtf8(cluster_source("mi300x-8")) << QStringLiteral("assumed");
        QTest::newRow("rtx4090-box") << QString::fromUtf8(cluster_source("rtx4090-box")) << QStringLiteral("not a vendor SKU");
        QTest::newRow("workstation") << QString::fromUtf8(cluster_source("workstation")) << QStringLiteral("not a vendor SKU");
        QTest::newRow("workstation-4x4090") << QString::fromUtf8(cluster_source("workstation-4x4090"))
                                            << QStringLiteral("not a vendor SKU");
        QTest::newRow("workstation-5090") << QString::fromUtf8(cluster_source("workstation-5090")) << QStringLiteral("not a vendor SKU");
    }
    void assumed_and_typical_builds_say_so() {
        QFETCH(QString, source);
        QFETCH(QString, words);
        QVERIFY2(source.contains(words), qPrintable(source));
    }
};

ZP_TEST_APPLESS_MAIN(TestPresetSources)
#include "tst_preset_sources.moc"
