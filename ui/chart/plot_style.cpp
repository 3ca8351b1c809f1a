#include "ui/chart/plot_style.h"

#include "core/base/format.h"
#include "core/base/units.h"

#include "ui/chart/legend_strip.h"
#include "ui/qcustomplot_include.h"

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace zp::ui {

QString sliceName(Slice s) {
    switch (s) {
    case Slice::Params: return QObject::tr("Parameters");
    case Slice::Gradients: return QObject::tr("Gradients");
    case Slice::OptimizerStates: return QObject::tr("Optimizer states");
    case Slice::Activations: return QObject::tr("Activations");
    case Slice::Buffers: return QObject::tr("Buffers");
    case Slice::Overhead: return QObject::tr("Overhead");
    }
    return {};
}

QColor sliceColor(Slice s) {
    switch (s) {
    case Slice::Params: return QColor(0x4e, 0x79, 0xa7);
    case Slice::Gradients: return QColor(0xf2, 0x8e, 0x2b);
    case Slice::OptimizerStates: return QColor(0xe1, 0x57, 0x59);
    case Slice::Activations: return QColor(0x76, 0xb7, 0xb2);
    case Slice::Buffers: return QColor(0x59, 0xa1, 0x4f);
    case Slice::Overhead: return QColor(0x9c, 0x75, 0x5f);
    }
    return Qt::gray;
}

QColor frozenWeightsColor() { return QColor(0xa0, 0xcb, 0xe8); }

QColor pinColor(int pin, const QPalette& palette) {
    // Darker than the slices, so a ghost's outline stands out against them; on a dark base the
    // same hues lightened, so outlines and names keep their contrast.
    static const QColor colors[] = {QColor(0x5b, 0x3a, 0x96), QColor(0x1b, 0x7a, 0x5a), QColor(0xa6, 0x4b, 0x00), QColor(0x4a, 0x4a, 0x4a)};
    const QColor c = colors[static_cast<std::size_t>(pin) % std::size(colors)];
    return palette.color(QPalette::Base).lightness() < 128 ? c.lighter(200) : c;
}

QString hostSliceName(int slice) {
    switch (slice) {
    case 0: return QObject::tr("Processes");
    case 1: return QObject::tr("Model copy");
    case 2: return QObject::tr("Parameters");
    case 3: return QObject::tr("Gradients");
    case 4: return QObject::tr("Optimizer states");
    case 5: return QObject::tr("Buffers");
    }
    return {};
}

// The GPU slices' colours where the host slice is the same kind of thing.
QColor hostSliceColor(int slice) {
    switch (slice) {
    case 0: return sliceColor(Slice::Overhead);
    case 1: return QColor(0xb0, 0x7a, 0xa1);
    case 2: return sliceColor(Slice::Params);
    case 3: return sliceColor(Slice::Gradients);
    case 4: return sliceColor(Slice::OptimizerStates);
    case 5: return sliceColor(Slice::Buffers);
    }
    return Qt::gray;
}

QString hostPhaseName(HostPhase p) {
    switch (p) {
    case HostPhase::Loading: return QObject::tr("Loading the model");
    case HostPhase::Initialize: return QObject::tr("deepspeed.initialize");
    case HostPhase::Training: return QObject::tr("Training");
    case HostPhase::CheckpointSave: return QObject::tr("Saving a checkpoint");
    }
    return {};
}

QString hostPhaseShortName(HostPhase p) {
    switch (p) {
    case HostPhase::Loading: return QObject::tr("loading");
    case HostPhase::Initialize: return QObject::tr("at init");
    case HostPhase::Training: return QObject::tr("training");
    case HostPhase::CheckpointSave: return QObject::tr("saving");
    }
    return {};
}

QColor pipelineStageColor(int stage, int stages, bool lighter) {
    const int hue = (210 + stage * 360 / std::max(stages, 1)) % 360;
    return lighter ? QColor::fromHsv(hue, 110, 240) : QColor::fromHsv(hue, 170, 200);
}

QString timePartName(TimePart p) {
    switch (p) {
    case TimePart::Compute: return QObject::tr("Compute");
    case TimePart::Communication: return QObject::tr("Exposed communication");
    case TimePart::Offload: return QObject::tr("Offload");
    case TimePart::DataWait: return QObject::tr("Waiting for data");
    }
    return {};
}

QColor timePartColor(TimePart p) {
    switch (p) {
    case TimePart::Compute: return QColor(0x4e, 0x79, 0xa7);
    case TimePart::Communication: return QColor(0xf2, 0x8e, 0x2b);
    case TimePart::Offload: return QColor(0xb0, 0x7a, 0xa1);
    case TimePart::DataWait: return QColor(0x9c, 0x9c, 0x9c);
    }
    return Qt::gray;
}

namespace {
double luminance(const QColor& c) {
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}
bool isDark(const QPalette& p) { return p.color(QPalette::Base).lightness() < 128; }
}  // namespace

double contrastRatio(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor capacityColor(const QPalette& p) { return isDark(p) ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x1c, 0x28); }
QColor warningColor(const QPalette& p) { return isDark(p) ? QColor(0xff, 0xa0, 0x40) : QColor(0xb3, 0x4d, 0x00); }
QColor highlightColor(const QPalette& p) { return p.color(QPalette::Highlight); }

QColor labelBackground(const QPalette& p) {
    QColor background = p.color(QPalette::Base);
    background.setAlpha(200);
    return background;
}

void embedPlot(QWidget* host, QCustomPlot* plot, int plainElements, LegendStrip* legend) {
    auto* layout = new QVBoxLayout(host);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    if (legend) layout->addWidget(legend);
    layout->addWidget(plot, 1);
    plot->legend->setVisible(false);
    plot->setAutoAddPlottableToLegend(false);
    // 200 high: the memory and time rows, with their legends, menus and status bar, fit 720
    // (tests/ui/tst_window_fits.cpp).
    plot->setMinimumSize(360, 200);
    plot->setAttribute(Qt::WA_OpaquePaintEvent);
    plot->setNotAntialiasedElements(static_cast<QCP::AntialiasedElements>(plainElements));
    // QCustomPlot buffers its "overlay" layer separately (for selection rectangles, which these
    // plots do not use); that costs a transparent buffer to clear and alpha-blend on every paint.
    plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmLogical);
}

void applyPalette(QCustomPlot* plot, const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    const QColor base = palette.color(QPalette::Base);
    QColor grid = text;
    grid.setAlpha(45);
    plot->setBackground(base);
    // The axis rect is not filled again: the plot background beneath it is already Base.
    plot->axisRect()->setBackground(Qt::NoBrush);
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        axis->grid()->setSubGridVisible(false);
    }
}

QString capacityText(double gib) {
    // A whole number of GiB without its ".0" (the label stays as short as it was: "GPU 80 GiB").
    if (gib < 1024 && std::abs(gib - std::round(gib)) < 0.05) return QString::fromStdString(format_fixed(std::round(gib), 0) + " GiB");
    return QString::fromStdString(format_bytes(gib_to_bytes(gib)));
}

}  // namespace zp::ui
