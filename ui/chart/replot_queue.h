#pragma once
// One replot of a QCustomPlot on the next turn of the event loop, and none that a replot since has
// made needless (one that started after it was asked for). QCustomPlot's own rpQueuedReplot (qcustomplot.cpp, QCustomPlot::replot) posts a
// zero-time single shot that replots whatever happened in between: a plot changed and then
// resized (every plot of the window, when it is first shown) drew twice, and a plot in a hidden
// tab drew for nobody. Here the queued replot is skipped when the plot has replotted since it was
// asked for (beforeReplot), and a hidden plot replots when it is next shown instead.
class QCustomPlot;
class QWidget;

namespace zp::ui {

// For a fit made in an afterLayout handler that moves the margins (an axis title on two lines,
// turned tick labels): lays `plot` out again as QCustomPlot::replot's updateLayout does (preparation,
// margins, layout) and announces afterLayout again, so that what depends on the layout (the bar
// labels' pitch) is fitted to the new one, all within the replot under way.
void relayoutInReplot(QCustomPlot* plot);

void queueReplot(QCustomPlot* plot);

// A QCustomPlot whose replots go through queueReplot. Its constructor ends with a
// replot(rpQueuedReplot) of its own (qcustomplot.cpp, QCustomPlot::QCustomPlot), which would draw
// every plot once more after the window's first frame, those in hidden tabs too: that posted call
// is dropped here, and the plot draws on the next turn of the event loop after it is shown (its
// pending resize is not drawn: replot_queue.cpp), at a resize while shown, or when asked to.
QCustomPlot* newPlot(QWidget* parent);

}  // namespace zp::ui
