#include "ui/export/plot_export.h"

#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "ui/chart/legend_strip.h"
#include "ui/chart/replot_queue.h"
#include "ui/qcustomplot_include.h"

#include <QBuffer>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QSvgGenerator>

namespace zp::ui {

QList<PictureFormat> pictureFormats() { return {PictureFormat::Png, PictureFormat::Png2x, PictureFormat::Svg, PictureFormat::Pdf}; }

QString pictureFormatName(PictureFormat f) {
    switch (f) {
    case PictureFormat::Png: return QObject::tr("PNG");
    case PictureFormat::Png2x: return QObject::tr("PNG at 2x");
    case PictureFormat::Svg: return QObject::tr("SVG");
    case PictureFormat::Pdf: return QObject::tr("PDF");
    }
    return {};
}

QString pictureFormatSuffix(PictureFormat f) {
    switch (f) {
    case PictureFormat::Png: return QStringLiteral(".png");
    case PictureFormat::Png2x: return QStringLiteral("@2x.png");
    case PictureFormat::Svg: return QStringLiteral(".svg");
    case PictureFormat::Pdf: return QStringLiteral(".pdf");
    }
    return {};
}

QString pictureFormatFilter(PictureFormat f) {
    const QString suffix = f == PictureFormat::Png2x ? QStringLiteral(".png") : pictureFormatSuffix(f);
    return QStringLiteral("%1 (*%2)").arg(pictureFormatName(f), suffix);
}

PictureFormat pictureFormatForPath(const QString& path) {
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) return PictureFormat::Svg;
    if (path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) return PictureFormat::Pdf;
    if (path.endsWith(QLatin1String("@2x.png"), Qt::CaseInsensitive)) return PictureFormat::Png2x;
    return PictureFormat::Png;
}

QSize PlotPicture::sizeFor(int width, int plotHeight) const {
    const int legend_height = legend && !legend->entries().isEmpty() ? legend->heightForWidth(width, LegendStrip::Room::DrawnOnly) : 0;
    return {width, legend_height + plotHeight};
}

QSize PlotPicture::onScreenSize(const QSize& fallback) const {
    // A view in a tab never shown has not been laid out yet: its default size says nothing.
    if (plot->width() < 200 || plot->height() < 150) return sizeFor(fallback.width(), fallback.height());
    return sizeFor(plot->width(), plot->height());
}

void PlotPicture::paint(QCPPainter& painter, const QRect& target) const {
    const int legend_height = sizeFor(target.width(), 0).height();
    painter.save();
    painter.translate(target.topLeft());
    if (legend_height > 0) legend->paintEntries(painter, target.width(), LegendStrip::Room::DrawnOnly);
    painter.translate(0, legend_height);
    plot->toPainter(&painter, target.width(), target.height() - legend_height);
    painter.restore();
    // toPainter laid the plot out for the picture; lay it out for the screen again.
    queueReplot(plot);
}

namespace {
constexpr int kPngQuality = 80;
}  // namespace

QByteArray PlotPicture::encode(PictureFormat f, const QSize& size, const QString& title) const {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    const QRect target(QPoint(0, 0), size);
    if (f == PictureFormat::Png || f == PictureFormat::Png2x) {
        // As QCustomPlot::toPixmap scales: the painter, with non-cosmetic pens so lines scale too.
        const int scale = f == PictureFormat::Png2x ? 2 : 1;
        // Opaque (the plot's base colour under everything): RGB32 is written as 24-bit RGB, a
        // quarter fewer bytes to filter and deflate than RGBA, with nothing to unpremultiply.
        QImage image(size * scale, QImage::Format_RGB32);
        image.fill(plot->palette().color(QPalette::Base));
        {
            QCPPainter painter(&image);
            if (scale > 1) painter.setMode(QCPPainter::pmNonCosmetic);
            painter.scale(scale, scale);
            paint(painter, target);
        }
        // Qt's PNG writer maps quality q to zlib level (100 - q) x 9 / 91 (qpnghandler.cpp): 80 is
        // level 1. Flat colours deflate about as small at level 1 as at the default 6: a 960 x 560
        // crop of the window, 78 KB in 11 ms here against 88 KB in 20 ms as RGBA at level 6.
        image.save(&buffer, "PNG", kPngQuality);
    } else if (f == PictureFormat::Svg) {
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(size);
        svg.setViewBox(target);
        svg.setResolution(96);
        svg.setTitle(title);
        QCPPainter painter(&svg);
        painter.setMode(QCPPainter::pmVectorized);
        painter.fillRect(target, plot->palette().color(QPalette::Base));
        paint(painter, target);
    } else {
        // A page the picture's size: 96 logical pixels per inch, as on screen.
        QPdfWriter pdf(&buffer);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("ZeRO Planner"));
        pdf.setResolution(96);
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 72.0 / 96.0, size.height() * 72.0 / 96.0), QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QCPPainter painter(&pdf);
        painter.setMode(QCPPainter::pmVectorized);
        paint(painter, target);
    }
    return bytes;
}

bool exportPicture(const PlotPicture& picture, const QString& path, PictureFormat f, QString* error, const QString& title, QSize size) {
    if (size.isEmpty()) size = picture.onScreenSize();
    const QByteArray bytes = picture.encode(f, size, title);
    if (bytes.isEmpty()) {
        *error = QObject::tr("cannot draw the %1 for %2").arg(pictureFormatName(f), path);
        return false;
    }
    try {
        write_file_atomically(path.toStdString(), bytes.toStdString());
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace zp::ui
