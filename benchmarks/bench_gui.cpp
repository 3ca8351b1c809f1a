// bench_gui: drives 1,000 slider changes through the real window offscreen (set the value, let
// the event loop recompute, replot and repaint) and reports p50/p99 ms per change, the time
// from process start to the first painted frame, and peak RSS.
//   QT_QPA_PLATFORM=offscreen build/release/benchmarks/bench_gui [CHANGES]
// CHANGES (default 1000) is there so a profiler run can be short:
//   valgrind --tool=callgrind build/release/benchmarks/bench_gui 100
// and `first-frame` stops at the first painted frame, so callgrind counts what the start costs:
//   valgrind --tool=callgrind build/release/benchmarks/bench_gui first-frame
#include "core/model/model_spec.h"
#include "core/model/parallel_layout.h"
#include "core/presets/default_scenario.h"
#include "core/search/overview.h"
#include "core/search/recommender.h"
#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/time_view.h"
#include "ui/qcustomplot_include.h"
#include "ui/widgets/scaled_slider.h"

#include "benchmarks/searched_plan.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

const auto g_process_start = std::chrono::steady_clock::now();

// Notes when the window has painted for the first time, and counts the paints of the plots.
class PaintCounter : public QObject {
public:
    double first_ms = -1;
    int paints = 0;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint) {
            ++paints;
            if (first_ms < 0)
                first_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_process_start).count();
        }
        return QObject::eventFilter(o, e);
    }
};

double quantile(const std::vector<double>& sorted, double q) {
    return sorted[std::min(sorted.size() - 1, static_cast<std::size_t>(q * static_cast<double>(sorted.size())))];
}

// The plan the window shows: its layout and GPUs, so a reader sees that the search ran.
std::string planWords(const zp::ui::MainWindow& window) {
    const zp::Scenario s = window.document()->exportScenario();
    const std::string layout = zp::layout_words(s);
    return std::to_string(s.cluster.world_size()) + " GPUs, " + (layout.empty() ? std::string("data parallel") : layout) + ", ZeRO-" +
           std::to_string(s.zero.stage) + ", " + std::to_string(window.document()->overview().plan.candidates_evaluated) +
           " candidates searched";
}

// The core's share of a change: compute_overview (the recommender with its layout search, the
// bars, the scaling curves) for `s`, median milliseconds over `runs` calls.
double overviewMs(const zp::Scenario& s, int runs) {
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        const zp::Overview o = zp::compute_overview(s);
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        if (o.bars.empty()) std::fprintf(stderr, "compute_overview gave no bars\n");
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// Moves slider a and slider b in turn between their two positions, `changes` times, and returns
// the sorted milliseconds per change (empty when a change did not finish). `visited` gets the
// GPU counts and model sizes the changes went through.
std::vector<double> measureChanges(const zp::ui::MainWindow& window, QSlider* a, const std::array<int, 2>& a_positions, QSlider* b,
                                   const std::array<int, 2>& b_positions, int changes, const int (&replots)[3],
                                   const PaintCounter (&painted)[3], std::set<std::string>& visited) {
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(changes));
    for (int i = 0; i < changes; ++i) {
        QSlider* s = (i % 2 == 0) ? a : b;
        const std::array<int, 2>& positions = (i % 2 == 0) ? a_positions : b_positions;
        const int target = positions[(i / 2) % 2 == 0 ? 1 : 0];
        int replots_before[3], paints_before[3];
        for (int p = 0; p < 3; ++p) {
            replots_before[p] = replots[p];
            paints_before[p] = painted[p].paints;
        }
        const auto done = [&] {
            for (int p = 0; p < 3; ++p)
                if (replots[p] == replots_before[p] || painted[p].paints == paints_before[p]) return false;
            return true;
        };
        QElapsedTimer t;
        t.start();
        s->setValue(target);
        // Recompute and replots are queued and the paint follows them: run the event loop until
        // every plot has redrawn its content and painted it into the window.
        while (!done() && t.elapsed() < 5000) QCoreApplication::processEvents(QEventLoop::AllEvents);
        if (!done()) {
            std::fprintf(stderr, "change %d did not replot and repaint the three views\n", i);
            return {};
        }
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        const zp::Scenario& now = window.document()->scenario();
        visited.insert(std::to_string(now.cluster.world_size()) + " GPUs x " +
                       std::to_string(static_cast<long long>(static_cast<double>(zp::parameter_count(now.model)) / 1e9)) + "B x " +
                       std::to_string(now.training.seq_len));
    }
    std::sort(ms.begin(), ms.end());
    return ms;
}

}  // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const bool first_frame_only = argc > 1 && std::strcmp(argv[1], "first-frame") == 0;
    const int changes = first_frame_only ? 0 : argc > 1 ? std::atoi(argv[1]) : 1000;
    if (!first_frame_only && changes < 100) {
        std::fprintf(stderr, "usage: bench_gui [CHANGES >= 100 | first-frame]\n");
        return 2;
    }
    // One counter per plot: a change is done when each plot has replotted and then painted.
    PaintCounter painted[3];
    zp::ui::MainWindow window(zp::ui::MainWindow::Ephemeral);
    window.resize(1480, 920);
    QCustomPlot* plots[3] = {window.memoryView()->plot(), window.scalingView()->plot(), window.timeView()->plot()};
    int replots[3] = {0, 0, 0};
    for (int p = 0; p < 3; ++p) {
        plots[p]->installEventFilter(&painted[p]);
        QObject::connect(plots[p], &QCustomPlot::afterReplot, [&replots, p] { ++replots[p]; });
    }
    window.show();
    while (painted[0].first_ms < 0) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    // A frame counts only once the memory plot has drawn its content: a paint before its first
    // replot would show an empty chart (ui/chart/replot_queue.cpp queues that replot at show).
    if (replots[0] == 0) {
        std::fprintf(stderr, "the memory plot painted before it had replotted: the first frame was empty\n");
        return 1;
    }
    if (first_frame_only) {
        // Stop here: what callgrind counts is the start, not the window's and Qt's teardown after it.
        std::printf("first painted frame: %.1f ms after process start\n", painted[0].first_ms);
        std::fflush(stdout);
        std::_Exit(0);
    }

    // Alternate between two slider families so every change really recomputes: the GPU count
    // (log slider, powers of two) and the model size.
    QSlider* gpus = window.controls()->gpuCountSlider()->slider();
    QSlider* size = window.controls()->modelSizeSlider()->slider();
    // Positions that map to different values: 8 <-> 64 GPUs, 6.7B <-> ~30B parameters.
    std::set<std::string> visited;
    const std::vector<double> ms = measureChanges(window, gpus, {gpus->value(), gpus->value() + 250}, size,
                                                  {size->value(), size->value() + 120}, changes, replots, painted, visited);
    if (ms.empty()) return 1;
    std::printf("slider changes: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms per change (default plan: %s)\n", changes, quantile(ms, 0.50),
                quantile(ms, 0.99), ms.back(), planWords(window).c_str());

    // The same on a plan whose layout search runs on every change (benchmarks/searched_plan.h:
    // BLOOM-176B on 384 A100s, tensor and pipeline sizes on auto): the sequence slider moves between
    // 2048 and 4096 tokens (powers of two), the model size between BLOOM and about 100B.
    const zp::Scenario bloom = zp::bench::bloom_searched_plan();
    window.document()->reset(bloom);
    window.flushPending();
    std::printf("search plan before the changes: %s\n", planWords(window).c_str());
    QSlider* seq = window.controls()->findChild<zp::ui::ScaledSlider*>(QStringLiteral("seq_len"))->slider();
    std::set<std::string> searched_visited;
    const std::vector<double> searched = measureChanges(window, seq, {seq->value(), seq->value() + 60}, size,
                                                        {size->value(), size->value() - 60}, changes, replots, painted, searched_visited);
    if (searched.empty()) return 1;
    const auto join = [](const std::set<std::string>& v) {
        std::string out;
        for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
        return out;
    };
    std::printf("  visited without the search: %s\n  visited with the search: %s\n", join(visited).c_str(), join(searched_visited).c_str());
    // Of a change with the search, the core's part: the last plan's scenario and the default's.
    std::printf(
        "  compute_overview alone, median of 50: %.2f ms on the last searched plan, %.2f ms on BLOOM's 384 GPUs, %.2f ms on the "
        "default plan\n",
        overviewMs(window.document()->scenario(), 50), overviewMs(bloom, 50), overviewMs(zp::default_plan_scenario(), 50));
    std::printf("with the layout search: %d changes, p50 %.2f ms, p99 %.2f ms, max %.2f ms per change (last plan: %s)\n", changes,
                quantile(searched, 0.50), quantile(searched, 0.99), searched.back(), planWords(window).c_str());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("first painted frame: %.1f ms after process start\n", painted[0].first_ms);
    std::printf("peak RSS: %.1f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}
