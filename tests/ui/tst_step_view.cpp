// Memory over one step, offscreen: the step view draws one point per moment of the core's
// timeline for the selected setup, labels the peaks with the core's phase and figures, draws the
// capacity and usable lines where the GPU's memory is, and draws something finite for a scenario
// that does not fit. The recommendation card names the peak's phase, and the memory bars carry
// the peak reserve.
#include "core/base/units.h"
#include "core/memory/fit_stage.h"
#include "core/memory/memory_model.h"
#include "core/memory/step_timeline.h"
#include "core/model/enum_names.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/overview.h"
#include "core/search/scenario_edits.h"
#include "tests/ui/offscreen.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/plot_label.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/recommendation_card.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/step_view.h"
#include "ui/qcustomplot_include.h"

#include <QTabWidget>

#include <algorithm>
#include "test_main.h"

#include <cmath>

using namespace zp;
using namespace zp::ui;

namespace {

Scenario scenario(const char* model, const char* gpu, std::int64_t gpus, int stage, std::int64_t seq, bool fused) {
    Scenario s = default_scenario();
    s.model = model_preset(model).spec;
    s.cluster.use_gpu(gpu_preset(gpu));
    s = with_gpu_count(s, gpus, std::min<std::int64_t>(gpus, 8));
    s.zero.stage = stage;
    s.training.seq_len = seq;
    s.training.checkpointing = Checkpointing::Full;
    s.training.auto_checkpointing = false;
    s.training.fused_optimizer = fused;
    validate(s);
    return s;
}

// `pipeline` stages of ZeRO-1, micro batch `micro`, 4 micro batches per step.
Scenario pipelined(const char* model, const char* gpu, std::int64_t gpus, std::int64_t pipeline, std::int64_t micro) {
    Scenario s = scenario(model, gpu, gpus, 1, 4096, true);
    s.parallel.pipeline = pipeline;
    s.training.micro_batch = micro;
    s.training.auto_micro_batch = false;
    s.training.global_batch = micro * 4 * data_parallel_size(s);
    validate(s);
    return s;
}

ZeroSetup stageSetup(int stage) {
    for (const ZeroSetup& z : overview_setups())
        if (z.stage == stage && z.offload_optimizer == OffloadDevice::None && z.offload_param == OffloadDevice::None) return z;
    qFatal("no overview setup for stage %d", stage);
}

// The candidate the step view shows, found the way the config preview finds it.
Candidate shownCandidate(const PlannerDocument& doc) {
    const Overview& o = doc.overview();
    if (doc.selectionFollowsPlan() && o.plan_valid && o.plan.feasible) return o.plan.best;
    for (const Candidate& c : o.bars)
        if (same_setup(c.zero, doc.selectedSetup())) return c;
    qFatal("the selected setup has no bar");
}

struct Row {
    const char* name;
    Scenario s;
    int stage;
};

const std::vector<Row>& rows() {
    static const std::vector<Row> r = {
        {"llama-3-8b, 8 x rtx-3090, ZeRO-3, seq 1024, full recompute", scenario("llama-3-8b", "rtx-3090", 8, 3, 1024, true), 3},
        {"llama-2-7b, 8 x v100-32gb, ZeRO-2, torch.optim", scenario("llama-2-7b", "v100-32gb", 8, 2, 1024, false), 2},
        {"llama-2-70b on one rtx-3090 (does not fit)", scenario("llama-2-70b", "rtx-3090", 1, 0, 4096, true), 0},
        // The last stage's logits and loss decide the fit: the timeline is that stage's.
        {"llama-3-8b, 8 x h100-80gb, PP 4, micro 16 (the last stage decides)", pipelined("llama-3-8b", "h100-80gb", 8, 4, 16), 1},
    };
    return r;
}

}  // namespace

class TestStepView : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void is_a_tab_beside_the_scaling_view() {
        MainWindow w(MainWindow::Ephemeral);
        QTabWidget* tabs = w.plotTabs();
        const int index = tabs->indexOf(w.stepView());
        QVERIFY(index >= 0);
        QCOMPARE(tabs->tabText(index), QStringLiteral("One step"));
        QCOMPARE(tabs->tabToolTip(index), QStringLiteral("Memory over one step"));
        QCOMPARE(tabs->currentIndex(), tabs->indexOf(w.scalingView()));
    }

    // A clicked bar under a searched layout exports what it draws: GPT-3 175B on 1,024 A100s with
    // tensor and pipeline on auto, the ZeRO-2 bar is measured at tensor 8; the ds_config, the layout
    // line and the step view took the scenario's own tensor 1 (the review of 0.2.0: "Chosen: none,
    // data parallel over 1024 GPUs" beside a bar that fits only at tensor 8).
    void a_clicked_bar_exports_its_own_layout() {
        Scenario s = default_scenario();
        s.model = model_preset("gpt3-175b").spec;
        s.cluster = with_gpu_count(s, 1024, 8).cluster;
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(s);
        w.flushPending();
        w.document()->selectSetup(stageSetup(2));
        w.flushPending();
        const Candidate bar = shownCandidate(*w.document());
        QVERIFY(bar.parallel.tensor > 1);
        QCOMPARE(w.document()->exportScenario().parallel.tensor, bar.parallel.tensor);
        QCOMPARE(w.document()->exportScenario().parallel.pipeline, bar.parallel.pipeline);
        QCOMPARE(w.document()->exportScenario().training.micro_batch, bar.micro_batch);
    }

    void draws_the_core_timeline_data() {
        QTest::addColumn<int>("row");
        for (int i = 0; i < static_cast<int>(rows().size()); ++i) QTest::newRow(rows()[static_cast<std::size_t>(i)].name) << i;
    }
    void draws_the_core_timeline() {
        QFETCH(int, row);
        const Scenario& s = rows()[static_cast<std::size_t>(row)].s;
        const int stage = rows()[static_cast<std::size_t>(row)].stage;
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.document()->reset(s);
        w.flushPending();
        w.document()->selectSetup(stageSetup(stage));
        w.flushPending();
        StepView* view = w.stepView();
        const Candidate c = shownCandidate(*w.document());
        QVERIFY(same_setup(c.zero, stageSetup(stage)));
        const std::vector<StepMoment> timeline =
            step_timeline(at_fit_deciding_stage(with_candidate(w.document()->scenario(), c)), TimelineDetail::EveryLayer);
        // One point per moment: every forward and backward layer and the other phases.
        QVERIFY(timeline.size() >= 2 * static_cast<std::size_t>(s.model.layers));
        QCOMPARE(view->pointCount(), static_cast<int>(timeline.size()));
        double top = 0, reserved = 0;
        for (int i = 0; i < view->pointCount(); ++i) {
            QVERIFY(std::isfinite(view->stackTopGib(i)) && std::isfinite(view->reservedGib(i)));
            QVERIFY(view->reservedGib(i) >= view->stackTopGib(i));  // the reserve holds what is allocated
            // and only grows, as long as it is within the card (beyond it, it follows what is allocated)
            if (i > 0 && c.fit.gpu) QVERIFY(view->reservedGib(i) >= view->reservedGib(i - 1));
            top = std::max(top, view->stackTopGib(i));
            reserved = std::max(reserved, view->reservedGib(i));
        }
        // The drawn peaks are the core's peaks, and the labels say where they are.
        QVERIFY(std::fabs(top - bytes_to_gib(c.memory.peak_allocated_bytes)) < 1e-6);
        QVERIFY(std::fabs(reserved - bytes_to_gib(c.memory.peak_reserved_bytes)) < 1e-6);
        const QString phase = QString::fromLatin1(to_string(c.memory.peak.phase));
        QVERIFY2(view->allocatedPeakLabel().startsWith(QStringLiteral("peak allocated ")), qPrintable(view->allocatedPeakLabel()));
        QVERIFY2(view->allocatedPeakLabel().endsWith(QStringLiteral(", ") + phase), qPrintable(view->allocatedPeakLabel()));
        QVERIFY(view->reservedPeakLabel().contains(QStringLiteral("nvidia-smi")));
        // The capacity line at the GPU's memory, the usable one at capacity minus headroom.
        QCOMPARE(view->capacityGib(), s.cluster.gpu.memory_gib);
        QVERIFY(std::fabs(view->usableGib() - bytes_to_gib(usable_gpu_bytes(s))) < 1e-9);
        // The phases in the order they happen, one name each.
        QCOMPARE(view->phaseLabels().first(), QStringLiteral("start-up"));
        QVERIFY(view->phaseLabels().contains(QStringLiteral("optimizer step")));
        // Finite axes and no NaN in any text, whether the setup fits or not.
        QCustomPlot* plot = view->plot();
        const QCPRange y = plot->yAxis->range();
        QVERIFY(std::isfinite(y.lower) && std::isfinite(y.upper) && y.upper > y.lower);
        QVERIFY(y.upper >= s.cluster.gpu.memory_gib);
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)))
                QVERIFY2(!t->text().contains(QStringLiteral("nan"), Qt::CaseInsensitive) && !t->text().contains(QStringLiteral("inf")),
                         qPrintable(t->text()));
        // The caption as written (the window wraps it to the plot's width: fitAxisLabels).
        const QString caption = QString(plot->xAxis->label()).replace(QLatin1Char('\n'), QLatin1Char(' '));
        QVERIFY(!caption.contains(QStringLiteral("nan"), Qt::CaseInsensitive));
        QCOMPARE(caption.contains(QStringLiteral("does not fit")), !c.fit.gpu);
        // A pipelined plan names the stage drawn, the one whose peak decides the fit.
        const std::int64_t drawn = fit_deciding_stage(with_candidate(w.document()->scenario(), c));
        QCOMPARE(caption.contains(QStringLiteral("on pipeline stage %1 of %2").arg(drawn + 1).arg(s.parallel.pipeline)),
                 s.parallel.pipeline > 1);
    }

    // Shown in its tab, the labels stand apart and inside the plot.
    void labels_neither_overlap_nor_leave_the_plot() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.plotTabs()->setCurrentWidget(w.stepView());
        w.show();
        w.document()->reset(scenario("llama-2-7b", "v100-32gb", 8, 2, 1024, false));
        QCoreApplication::processEvents();
        w.flushPending();
        QCustomPlot* plot = w.stepView()->plot();
        QList<PlotLabel*> labels;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* label = qobject_cast<PlotLabel*>(plot->item(i)); label && label->visible() && !label->text().isEmpty())
                labels << label;
        QCOMPARE(labels.size(), 2);
        for (PlotLabel* a : labels) {
            QVERIFY2(QRectF(plot->rect()).contains(a->drawnBox()), qPrintable(a->text()));
            for (PlotLabel* b : labels)
                QVERIFY2(a == b || !a->drawnBox().intersects(b->drawnBox()), qPrintable(a->text() + QStringLiteral(" | ") + b->text()));
        }
    }

    // The default plan (Llama-2 7B, ZeRO-2, no recompute): the reserve rises to its peak left of the
    // allocated peak, so the allocated label reads to the right, where the reserved line does not
    // run through its box; the dashed usable line has its legend entry.
    void allocated_label_stays_off_the_reserved_line() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.plotTabs()->setCurrentWidget(w.stepView());
        w.show();
        QCoreApplication::processEvents();
        w.flushPending();
        QCustomPlot* plot = w.stepView()->plot();
        QCPGraph* reserved = nullptr;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (plot->graph(i)->name().startsWith(QStringLiteral("Reserved"))) reserved = plot->graph(i);
        QVERIFY(reserved && reserved->data()->size() > 2);
        PlotLabel* allocated = nullptr;
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto* label = qobject_cast<PlotLabel*>(plot->item(i)); label && label->text().startsWith(QStringLiteral("peak allocated")))
                allocated = label;
        QVERIFY(allocated);
        const QRectF box = allocated->drawnBox();
        for (auto it = reserved->data()->constBegin(); it != reserved->data()->constEnd(); ++it) {
            const QPointF at(plot->xAxis->coordToPixel(it->key), plot->yAxis->coordToPixel(it->value));
            QVERIFY2(!box.contains(at), qPrintable(QStringLiteral("reserved %1 GiB at moment %2").arg(it->value).arg(it->key)));
        }
        const auto entries = w.stepView()->legend()->entries();
        QVERIFY(std::any_of(entries.begin(), entries.end(),
                            [](const LegendStrip::Entry& e) { return e.swatch == LegendStrip::Swatch::Dashed; }));
    }

    // A change while the tab is hidden is drawn when the tab is shown.
    void hidden_view_catches_up_when_shown() {
        MainWindow w(MainWindow::Ephemeral);
        w.resize(1480, 920);
        w.show();
        QCoreApplication::processEvents();
        w.document()->reset(scenario("llama-3-8b", "rtx-3090", 8, 3, 1024, true));
        w.document()->recomputeNow();
        QCoreApplication::processEvents();
        w.plotTabs()->setCurrentWidget(w.stepView());
        QCoreApplication::processEvents();
        const Candidate c = shownCandidate(*w.document());
        QCOMPARE(w.stepView()->pointCount(),
                 static_cast<int>(step_timeline(with_candidate(w.document()->scenario(), c), TimelineDetail::EveryLayer).size()));
    }

    void card_names_the_peak_and_which_figure() {
        MainWindow w(MainWindow::Ephemeral);
        w.document()->reset(scenario("llama-2-7b", "v100-32gb", 8, 2, 1024, false));
        w.flushPending();
        const Overview& o = w.document()->overview();
        QVERIFY(o.plan.feasible);
        const QString card = w.card()->plainText();
        const QString phase = QString::fromLatin1(to_string(o.plan.best.memory.peak.phase));
        QVERIFY2(card.contains(QStringLiteral("Peaks in the ") + phase + QStringLiteral(": ")), qPrintable(card));
        QVERIFY2(card.contains(QString::fromUtf8(o.plan.best.memory.peak.cause)), qPrintable(card));
        QVERIFY(card.contains(QStringLiteral("Peak reserved per GPU: ")));
        QVERIFY(card.contains(QStringLiteral("(nvidia-smi)")));
        QVERIFY(card.contains(QStringLiteral("Must fit per GPU: ")));
        QVERIFY(!card.contains(QStringLiteral("Memory per GPU")));
    }

    void memory_bars_carry_the_peak_reserve() {
        MainWindow w(MainWindow::Ephemeral);
        w.flushPending();
        const Overview& o = w.document()->overview();
        for (std::size_t b = 0; b < o.bars.size(); ++b) {
            const int bar = static_cast<int>(b);
            QCOMPARE(w.memoryView()->peakReservedGib(bar), bytes_to_gib(o.bars[b].memory.peak_reserved_bytes));
            const QString tip = w.memoryView()->barTooltip(bar);
            QVERIFY(tip.contains(QStringLiteral("Must fit")));
            QVERIFY(tip.contains(QStringLiteral("Must fit at the ") + QString::fromLatin1(to_string(o.bars[b].memory.required_phase))));
            QVERIFY(tip.contains(QStringLiteral("Peak reserved (nvidia-smi)")));
            QVERIFY(tip.contains(QStringLiteral("Peaks in the ") + QString::fromLatin1(to_string(o.bars[b].memory.peak.phase))));
        }
    }
};

ZP_TEST_MAIN(TestStepView)
#include "tst_step_view.moc"
