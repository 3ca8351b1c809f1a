// bench_gui: drives 1,000 slider changes through the real window offscreen (set the value, let
// the event loop recompute and replot) and reports p50/p99 ms per change, the time from process
// start to the first painted frame, and peak RSS.
//   QT_QPA_PLATFORM=offscreen taskset -c 0 build/release/benchmarks/bench_gui
#include "ui/control_panel.h"
#include "ui/log_slider.h"
#include "ui/main_window.h"
#include "ui/memory_view.h"
#include "ui/planner_document.h"
#include "ui/qcustomplot_include.h"
#include "ui/scaling_view.h"
#include "ui/time_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSlider>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

const auto g_process_start = std::chrono::steady_clock::now();

// Notes when the window has painted for the first time.
class FirstPaint : public QObject {
public:
    double ms = -1;
    bool eventFilter(QObject* o, QEvent* e) override {
        if (e->type() == QEvent::Paint && ms < 0)
            ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - g_process_start).count();
        return QObject::eventFilter(o, e);
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    FirstPaint first_paint;
    zp::ui::MainWindow window(false);
    window.resize(1480, 920);
    window.memoryView()->plot()->installEventFilter(&first_paint);
    window.show();
    while (first_paint.ms < 0) QCoreApplication::processEvents(QEventLoop::AllEvents, 5);

    // Alternate between two slider families so every change really recomputes: the GPU count
    // (log slider, powers of two) and the model size.
    QSlider* gpus = window.controls()->gpuCountSlider()->slider();
    QSlider* size = window.controls()->modelSizeSlider()->slider();
    int replots = 0;
    for (QCustomPlot* p : {window.memoryView()->plot(), window.scalingView()->plot(), window.timeView()->plot()})
        QObject::connect(p, &QCustomPlot::afterReplot, [&replots] { ++replots; });
    std::vector<double> ms;
    ms.reserve(1000);
    // Positions that map to different values: 8 <-> 64 GPUs, 6.7B <-> ~30B parameters.
    const int gpu_positions[2] = {gpus->value(), gpus->value() + 250};
    const int size_positions[2] = {size->value(), size->value() + 120};
    for (int i = 0; i < 1000; ++i) {
        QSlider* s = (i % 2 == 0) ? gpus : size;
        const int* positions = (i % 2 == 0) ? gpu_positions : size_positions;
        const int target = positions[(i / 2) % 2 == 0 ? 1 : 0];
        const int before = replots;
        QElapsedTimer t;
        t.start();
        s->setValue(target);
        // Recompute is queued, replots are queued: run the event loop until all three views redrew.
        while (replots < before + 3 && t.elapsed() < 5000) QCoreApplication::processEvents(QEventLoop::AllEvents);
        if (replots < before + 3) {
            std::fprintf(stderr, "change %d did not replot the three views\n", i);
            return 1;
        }
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("slider changes: 1000, p50 %.2f ms, p99 %.2f ms, max %.2f ms per change\n", ms[500], ms[990], ms.back());
    std::printf("first painted frame: %.0f ms after process start\n", first_paint.ms);
    std::printf("peak RSS: %.1f MiB\n", static_cast<double>(usage.ru_maxrss) / 1024.0);
    return 0;
}
