#pragma once
// One colour per memory slice and per time component, used by every view, and plot chrome
// taken from the palette so a dark theme stays readable.
#include "core/memory/memory_slices.h"

#include <QColor>
#include <QPalette>
#include <QString>

class QCustomPlot;
class QWidget;

namespace zp::ui {

// The memory slices come from the core's table (core/memory/memory_slices.h), in stacking order.
using Slice = SliceId;
inline constexpr int kSliceCount = static_cast<int>(memory_slices().size());

QString sliceName(Slice s);
// Mid-saturation colours that read on white and on near-black backgrounds (Tableau 10).
QColor sliceColor(Slice s);
// The frozen base's part of the parameters slice (fine-tuning): the parameters' hue, lighter.
QColor frozenWeightsColor();

// The host slices (core/memory/host_slices.h), by index, and the host phases' names.
QString hostSliceName(int slice);
QColor hostSliceColor(int slice);
QString hostPhaseName(HostPhase p);       // "Loading the model"
QString hostPhaseShortName(HostPhase p);  // "loading", for bar captions
// A capacity line's figure as the card and the CLI write it (format_bytes: "79.6 GiB", "2.0 TiB"),
// a whole number of GiB without ".0" ("80 GiB"): rounded to whole GiB an H100's 79.6 read "80"
// beside bars labelled 79.6, and a 2 TiB node's RAM "2048 GiB" beside a card that says 2.0 TiB.
QString capacityText(double gib);

// The GPU layout view's pipeline stages: hues spread evenly from the parameters' blue, mid
// saturation so they read on light and dark bases; `lighter` for odd data-parallel replicas.
QColor pipelineStageColor(int stage, int stages, bool lighter);

// The pinned plans (the Compare panel): one colour each, apart from the slices' hues, for their
// ghosted bars, dashed lines and the panel's column headers; lighter on a dark base.
QColor pinColor(int pin, const QPalette& palette);

enum class TimePart { Compute, Communication, Offload, DataWait };
QString timePartName(TimePart p);
QColor timePartColor(TimePart p);

// Axes, grid and background from the palette.
void applyPalette(QCustomPlot* plot, const QPalette& palette);
QColor capacityColor(const QPalette& palette);
QColor warningColor(const QPalette& palette);
QColor highlightColor(const QPalette& palette);
// What a label on a plot stands on: the plot's background, a little see-through, so the label
// reads on any bar's or curve's colour and what it covers still shows.
QColor labelBackground(const QPalette& palette);

class LegendStrip;

// Puts `plot` in `host` below `legend` (a widget of its own, so it never hides a bar and is
// not redrawn with every replot) and sets what every view wants: a minimum size, an opaque
// widget (it paints its own background, so parents need not repaint beneath it), and no
// antialiasing for `plain` elements (axis-aligned shapes look the same and draw faster).
void embedPlot(QWidget* host, QCustomPlot* plot, int plainElements, LegendStrip* legend);

// WCAG relative-luminance contrast ratio, for tests and for picking readable text.
double contrastRatio(const QColor& a, const QColor& b);

}  // namespace zp::ui
