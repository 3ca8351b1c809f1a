#include "ui/export/report_pdf.h"

#include "ui/i18n/phrase_text.h"
#include "ui/qcustomplot_include.h"

#include <QBuffer>
#include <QFontDatabase>
#include <QPageSize>
#include <QPdfWriter>

#include <algorithm>

namespace zp::ui {
namespace {

constexpr double kCanvasWidth = 1400;  // logical pixels at 96 dpi
constexpr double kMargin = 40;
constexpr double kGap = 16;
constexpr double kCellPadding = 5;
constexpr int kPlotsPerRow = 3;
constexpr double kPlotHeight = 300;

QFont sized(int pixels, bool bold = false) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

// One pass over the report: measures (draw false) or draws, and returns the height used.
class Layout {
public:
    Layout(QCPPainter& painter, bool draw) : p_(painter), draw_(draw) {}

    // Wrapped text in a column; returns its height.
    double text(const QFont& font, double x, double y, double width, const QString& s, int flags = Qt::AlignLeft) {
        p_.setFont(font);
        const QRectF box = p_.boundingRect(QRectF(x, y, width, 1e6), flags | Qt::TextWordWrap | Qt::AlignTop, s);
        if (draw_) p_.drawText(QRectF(x, y, width, box.height()), flags | Qt::TextWordWrap | Qt::AlignTop, s);
        return box.height();
    }
    double naturalWidth(const QFont& font, const QString& s) {
        p_.setFont(font);
        return p_.boundingRect(QRectF(0, 0, 1e6, 1e6), Qt::AlignLeft | Qt::AlignTop, s).width();
    }

    // A grid of text: columns as wide as their widest cell (a heading wraps at its words); when
    // that is too wide, the widest left-aligned column wraps into the width left for it.
    double table(const TextTable& t, double x, double y, double width, int pixels) {
        const QFont body = sized(pixels), head = sized(pixels, true);
        const std::size_t n = t.header.size();
        std::vector<double> widths(n, 0);
        for (std::size_t c = 0; c < n; ++c) {
            for (const QString& word : fromCore(t.header[c]).split(QLatin1Char(' ')))
                widths[c] = std::max(widths[c], naturalWidth(head, word));
            for (const auto& row : t.rows) widths[c] = std::max(widths[c], naturalWidth(body, fromCore(row[c])));
            widths[c] += 2 * kCellPadding;
        }
        double total = 0;
        for (double w : widths) total += w;
        if (total > width) {
            std::size_t widest = 0;
            for (std::size_t c = 0; c < n; ++c)
                if (!(c < t.right_aligned.size() && t.right_aligned[c]) && widths[c] > widths[widest]) widest = c;
            widths[widest] = std::max(60.0, widths[widest] - (total - width));
        }
        const auto row = [&](const std::vector<std::string>& cells, const QFont& font, double top) {
            double height = 0;
            double left = x;
            for (std::size_t c = 0; c < n; ++c) {
                const int align = c < t.right_aligned.size() && t.right_aligned[c] ? Qt::AlignRight : Qt::AlignLeft;
                height =
                    std::max(height, text(font, left + kCellPadding, top + 2, widths[c] - 2 * kCellPadding, fromCore(cells[c]), align));
                left += widths[c];
            }
            return height + 4;
        };
        double at = y;
        at += row(t.header, head, at);
        line(x, at, x + std::min(total, width));
        for (const auto& cells : t.rows) {
            at += row(cells, body, at);
            line(x, at, x + std::min(total, width), QColor(210, 210, 210));
        }
        return at - y;
    }

    void line(double x1, double y, double x2, const QColor& color = Qt::black) {
        if (!draw_) return;
        p_.setPen(QPen(color, 1));
        p_.drawLine(QPointF(x1, y), QPointF(x2, y));
        p_.setPen(Qt::black);
    }

    double keyValues(const std::vector<std::pair<std::string, std::string>>& rows, double x, double y, double width) {
        double keys = 0;
        for (const auto& [k, v] : rows) keys = std::max(keys, naturalWidth(sized(13, true), fromCore(k)));
        double at = y;
        for (const auto& [k, v] : rows) {
            const double h = text(sized(13, true), x, at, keys, fromCore(k));
            at += std::max(h, text(sized(13), x + keys + kGap, at, width - keys - kGap, fromCore(v))) + 3;
        }
        return at - y;
    }

    double bullets(const std::vector<std::string>& lines, double x, double y, double width) {
        double at = y;
        for (const std::string& l : lines) {
            text(sized(13), x, at, 16, QStringLiteral("\u2022"));
            at += text(sized(13), x + 16, at, width - 16, fromCore(l)) + 3;
        }
        return at - y;
    }

    double plot(const ReportPlot& r, double x, double y, double width) {
        double at = y + text(sized(14, true), x, y, width, r.title) + 4;
        const QSize size = r.picture.sizeFor(static_cast<int>(width), static_cast<int>(kPlotHeight));
        if (draw_) r.picture.paint(p_, QRect(QPoint(static_cast<int>(x), static_cast<int>(at)), size));
        return at + size.height() - y;
    }

    // The whole report from the top; the height it takes.
    double report(const Report& r, const QList<ReportPlot>& plots) {
        const double x = kMargin, width = kCanvasWidth - 2 * kMargin;
        double y = kMargin;
        y += text(sized(24, true), x, y, width, QObject::tr("ZeRO Planner: %1").arg(fromCore(r.title))) + kGap;
        y += keyValues(r.scenario, x, y, width) + kGap;
        if (r.feasible) {
            y += text(sized(19, true), x, y, width, QObject::tr("Recommended: %1").arg(fromCore(r.recommended))) + 6;
            y += bullets(r.why, x, y, width) + 6;
            y += keyValues(r.key_figures, x, y, width) + kGap;
            if (!r.others.rows.empty()) {
                y += text(sized(15, true), x, y, width, QObject::tr("Why not the others")) + 4;
                y += table(r.others, x, y, width, 12) + kGap;
            }
        } else {
            y += text(sized(19, true), x, y, width, QObject::tr("Nothing fits")) + 6;
            y += table(r.others, x, y, width, 12) + 6;
            y += bullets(r.suggestions, x, y, width) + kGap;
        }
        y += text(sized(15, true), x, y, width, QObject::tr("Memory per setup")) + 4;
        y += table(r.memory, x, y, width, 12) + 4;
        y +=
            text(
                sized(11), x, y, width,
                QObject::tr(
                    "Each setup at the scenario's own micro batch and recompute, as zero-planner compare prints it (the "
                    "recommendation's own figures are above). Per GPU in GiB: the steady-state slices and their total; the step's peak reserved (nvidia-smi) and what "
                    "must fit of it, on which fits is decided. Host RAM and NVMe in GiB per node. %1 candidates evaluated.")
                    .arg(r.candidates_evaluated)) +
            kGap;
        const double cell = (width - (kPlotsPerRow - 1) * kGap) / kPlotsPerRow;
        for (int i = 0; i < plots.size(); i += kPlotsPerRow) {
            double row = 0;
            for (int j = i; j < std::min<int>(i + kPlotsPerRow, static_cast<int>(plots.size())); ++j)
                row = std::max(row, plot(plots[j], x + (j - i) * (cell + kGap), y, cell));
            y += row + kGap;
        }
        if (!r.config_text.empty()) {
            y += text(sized(15, true), x, y, width, QStringLiteral("%1 (%2)").arg(fromCore(r.config_file), fromCore(r.recommended))) + 4;
            // In three columns of lines, so a long config does not make the page tall.
            QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
            mono.setPixelSize(11);
            const QStringList lines = fromCore(r.config_text).trimmed().split(QLatin1Char('\n'));
            const qsizetype per_column = (lines.size() + 2) / 3;
            double tallest = 0;
            for (qsizetype c = 0; c < 3; ++c) {
                const QStringList part = lines.mid(c * per_column, per_column);
                if (part.isEmpty()) continue;
                tallest = std::max(tallest, text(mono, x + static_cast<double>(c) * (cell + kGap), y, cell, part.join(QLatin1Char('\n'))));
            }
            y += tallest;
        }
        return y + kMargin;
    }

private:
    QCPPainter& p_;
    bool draw_;
};

}  // namespace

QByteArray reportPdf(const Report& report, const QList<ReportPlot>& plots) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);
    pdf.setTitle(QObject::tr("ZeRO Planner: %1").arg(fromCore(report.title)));
    pdf.setCreator(QStringLiteral("ZeRO Planner"));
    pdf.setResolution(96);
    pdf.setPageSize(QPageSize(QPageSize::A3));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QCPPainter painter(&pdf);
    painter.setMode(QCPPainter::pmVectorized);
    const double height = Layout(painter, false).report(report, plots);
    const double scale = std::min(pdf.width() / kCanvasWidth, pdf.height() / height);
    painter.translate((pdf.width() - kCanvasWidth * scale) / 2, 0);
    painter.scale(scale, scale);
    Layout(painter, true).report(report, plots);
    painter.end();
    return bytes;
}

}  // namespace zp::ui
