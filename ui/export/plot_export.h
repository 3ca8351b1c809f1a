#pragma once
// A plot view as a picture file (every plot can be saved as it is shown, legend included): its
// legend strip above its QCustomPlot, as PNG at 1x or 2x, SVG or PDF. The legend is a widget of its
// own (ui/chart/legend_strip.h), so QCustomPlot's savePng/savePdf alone would lose it; both are
// painted with one QCPPainter instead: the plot by QCustomPlot::toPainter, the legend by
// LegendStrip::paintEntries, so SVG and PDF stay vectors. Every file goes through the core's atomic
// write: a failed export leaves nothing behind.
#include <QByteArray>
#include <QList>
#include <QSize>
#include <QString>

class QCPPainter;
class QCustomPlot;
class QRect;

namespace zp::ui {

class LegendStrip;

enum class PictureFormat { Png, Png2x, Svg, Pdf };

QList<PictureFormat> pictureFormats();
QString pictureFormatName(PictureFormat f);    // "PNG", "PNG at 2x", "SVG", "PDF"
QString pictureFormatFilter(PictureFormat f);  // for file dialogs: "PNG at 2x (*.png)"
QString pictureFormatSuffix(PictureFormat f);  // what a file name ends in: ".png", "@2x.png", ".svg", ".pdf"
// By the file name: .svg, .pdf, "@2x.png" for PNG at 2x, any other name PNG.
PictureFormat pictureFormatForPath(const QString& path);

// One plot view: its plot and, above it, its legend (null for none).
struct PlotPicture {
    QCustomPlot* plot = nullptr;
    const LegendStrip* legend = nullptr;

    // The picture's size in logical pixels at a width: the legend's height for it plus `plotHeight`.
    QSize sizeFor(int width, int plotHeight) const;
    // The size the view has on screen (legend and plot); `fallback` for a view never laid out.
    QSize onScreenSize(const QSize& fallback = QSize(800, 500)) const;
    // Paints legend and plot into `target` (logical pixels of the painter's current transform).
    void paint(QCPPainter& painter, const QRect& target) const;
    // The file's bytes at `size` (logical pixels; PNG at 2x has twice as many device pixels).
    QByteArray encode(PictureFormat f, const QSize& size, const QString& title) const;
};

// Writes `picture` to `path` atomically at `size` (its size on screen when empty); false and
// *error with the reason when it cannot.
bool exportPicture(const PlotPicture& picture, const QString& path, PictureFormat f, QString* error, const QString& title,
                   QSize size = QSize());

}  // namespace zp::ui
