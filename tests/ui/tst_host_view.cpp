// Host RAM per node, offscreen: the host view is a tab beside the scaling view; each setup's bar
// stacks the core's host slices at the moment the node peaks (core/memory/host_memory.h), its
// caption says when, the line sits at the node's RAM, a setup that does not fit the RAM is
// marked, and the recommendation card names the host peak's phase.
#include "core/base/units.h"
#include "core/memory/host_slices.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"
#include "ui/plots/host_view.h"

#include <QTabWidget>
#include "test_main.h"

#include <cmath>

using namespace zp;
using namespace zp::ui;

namespace {

Scenario scenario(const char* model, const char* gpu, std::int64_t gpus, double ram_gib) {
    Scenario s = default_scenario();
    s.model = model_preset(model).spec;
    s.cluster.use_gpu(gpu_preset(gpu));
    s = with_gpu_count(s, gpus, std::min<std::int64_t>(gpus, 8));
    s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(ram_gib);
    s.training.seq_len = 1024;
    validate(s);
    return s;
}

}  // namespace

class TestHostView : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void is_a_tab_beside_the_scaling_view() {
        MainWindow w(MainWindow::Ephemeral);
        QTabWidget* tabs = w.plotTabs();
        const int index = tabs->indexOf(w.hostView());
        QVERIFY(index >= 0);
        QCOMPARE(tabs->tabText(index), QStringLiteral("Host RAM"));
    }

    void draws_the_core_host_peaks_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<qint64>("gpus");
        QTest::addColumn<double>("ramGib");
        QTest::newRow("t5-3b on one RTX 3090, 64 GiB: the CPU-offload setups do not fit") << "t5-3b"
                                                                                          << "rtx-3090" << qint64(1) << 64.0;
        QTest::newRow("llama-2-7b on 8 x A100, 1 TiB") << "llama-2-7b"
                                                       << "a100-80gb" << qint64(8) << 1024.0;
        QTest::newRow("llama-2-70b on 16 x A100, 2 TiB") << "llama-2-70b"
                                                         << "a100-80gb" << qint64(16) << 2048.0;
        // Bars of about 250 GiB under 2 TiB of RAM: the axis fits the bars, the RAM named at its top.
        QTest::newRow("llama-2-7b on 8 x A100, 2 TiB: the RAM far above the bars") << "llama-2-7b"
                                                                                   << "a100-80gb" << qint64(8) << 2048.0;
    }
    void draws_the_core_host_peaks() {
        QFETCH(QString, model);
        QFETCH(QString, gpu);
        QFETCH(qint64, gpus);
        QFETCH(double, ramGib);
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.document()->reset(scenario(model.toLatin1().constData(), gpu.toLatin1().constData(), gpus, ramGib));
        w.plotTabs()->setCurrentWidget(w.hostView());
        w.show();
        w.flushPending();
        HostView* view = w.hostView();
        const Overview& o = w.document()->overview();
        QVERIFY(!o.bars.empty());
        bool any_short = false;
        for (std::size_t b = 0; b < o.bars.size(); ++b) {
            const Candidate& c = o.bars[b];
            const HostSlices& peak = c.memory.host.peak().bytes;
            double stacked = 0;
            for (std::size_t i = 0; i < host_slices().size(); ++i) {
                const double gib = view->sliceGib(static_cast<int>(i), static_cast<int>(b));
                QVERIFY(std::isfinite(gib) && gib >= 0);
                QVERIFY(std::fabs(gib - bytes_to_gib(host_slices()[i].bytes(peak))) < 1e-9);
                stacked += gib;
            }
            // The stack is the node's peak, the core's cpu_bytes_per_node.
            QVERIFY(std::fabs(stacked - bytes_to_gib(c.memory.cpu_bytes_per_node)) < 1e-6);
            const QString caption = view->barCaption(static_cast<int>(b));
            QVERIFY2(caption.endsWith(hostPhaseShortName(c.memory.host.peak_phase)), qPrintable(caption));
            QCOMPARE(caption.startsWith(QStringLiteral("\u2717")), !c.fit.cpu);
            any_short = any_short || !c.fit.cpu;
            // The tooltip lists every phase and says when it peaks.
            const QString tip = view->barTooltip(static_cast<int>(b));
            for (HostPhase p : {HostPhase::Loading, HostPhase::Initialize, HostPhase::Training, HostPhase::CheckpointSave})
                QVERIFY2(tip.contains(hostPhaseName(p)), qPrintable(tip));
            QVERIFY(tip.contains(QString::fromLatin1(host_phase_words(c.memory.host.peak_phase))));
        }
        QCOMPARE(view->capacityGib(), ramGib);
        if (model == QStringLiteral("t5-3b")) QVERIFY(any_short);
        // The axis reaches the RAM line unless it is over 3x the tallest bar: then the bars use the
        // height, and the RAM is named at the top edge.
        double tallest = 0;
        for (const Candidate& c : o.bars) tallest = std::max(tallest, std::min(bytes_to_gib(c.memory.cpu_bytes_per_node), 4 * ramGib));
        const QCPRange y = view->plot()->yAxis->range();
        QCOMPARE(view->ramAboveBars(), ramGib > 3 * tallest);
        if (view->ramAboveBars()) {
            QVERIFY(y.upper < ramGib && tallest > 0.7 * y.upper);
            QVERIFY(view->plot()->yAxis2->tickVectorLabels().join(QString()).contains(capacityText(ramGib)));
        } else {
            QVERIFY(y.upper >= ramGib);
        }
    }

    void the_card_names_the_host_peak() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(scenario("llama-2-7b", "a100-80gb", 8, 1024));
        w.flushPending();
        const Overview& o = w.document()->overview();
        QVERIFY(o.plan_valid && o.plan.feasible);
        const QString text = w.card()->plainText();
        QVERIFY2(
            text.contains(QStringLiteral("Host RAM peaks ") + QString::fromLatin1(host_phase_words(o.plan.best.memory.host.peak_phase))),
            qPrintable(text));
        QVERIFY2(text.contains(hostPhaseShortName(o.plan.best.memory.host.peak_phase)), qPrintable(text));
    }
};

ZP_TEST_MAIN(TestHostView)
#include "tst_host_view.moc"
