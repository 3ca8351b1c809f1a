// bench_gui: drives 1,000 slider changes through the real window offscreen (set the value, let
// the event loop recompute, replot and repaint) and reports p50/p99 ms per change, the time
// from process start to the first painted frame, and peak RSS.
//   QT_QPA_PLATFORM=offscreen build/release/benchmarks/bench_gui [CHANGES]
// CHANGES (default 1000) is there so a profiler run can be short:
//   valgrind --tool=callgrind build/release/benchmarks/bench_gui 100
#include "ui/control_panel.h"
#include "ui/main_window.h"
#include "ui/memory_view.h"
#include "ui/planner_document.h"
#include "ui/qcustomplot_include.h"
#include "ui/scaled_slider.h"
#include "ui/scaling_view.h"
#include "ui/time_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

}  // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int changes = argc > 1 ? std::atoi(argv[1]) : 1000;
    if (changes < 100) {
        std::fprintf(stderr, "usage: bench_gui [CHANGES >= 100]\n");
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

    // Alternate between two slider families so every change really recomputes: the GPU count
    // (log slider, powers of two) and the model size.
    QSlider* gpus = window.controls()->gpuCountSlider()->slider();
    QSlider* size = window.controls()->modelSizeSlider()->slider();
    std::vector<double> ms;
    ms.reserve(static_cast<std::size_t>(changes));
    // Positions that map to different values: 8 <-> 64 GPUs, 6.7B <-> ~30B parameters.
    const int gpu_positions[2] = {gpus->value(), gpus->value() + 250};
    const int size_positions[2] = {size->value(), size->value() + 120};
    for (int i = 0; i < changes; ++i) {
        QSlider* s = (i % 2 == 0) ? gpus : size;
        const int* positions = (i % 2 == 0) ? gpu_positions : size_positions;
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
            return 1;
        }
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto at = [&ms](double q) { return ms[static_cast<std::size_t>(q * static_cast<double>(ms.size()))]; };
    std::printf("slider changes: %d, p50 %.2f ms, p99 %.2f ms, max %.2f ms per change\n", changes, at(0.50), at(0.99), ms.back());
    std::printf("first painted frame: %.0f ms after process start\n", painted[0].first_ms);
    std::printf("peak RSS: %.1f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}
