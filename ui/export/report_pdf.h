#pragma once
// The report (core/report/report.h) as a one-page PDF (QPdfWriter): the scenario, the recommendation
// and its reasons, the memory table, the plots drawn in (as vectors), and the recommended
// ds_config.json. Laid out on a 1400-pixel-wide canvas, measured first, then scaled to fit one A3
// portrait page: everything stays on one page however long the reasons are, and stays text, so
// pdftotext (and a reader's search) finds every figure.
#include "core/report/report.h"
#include "ui/export/plot_export.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace zp::ui {

struct ReportPlot {
    QString title;
    PlotPicture picture;
};

QByteArray reportPdf(const Report& report, const QList<ReportPlot>& plots);

}  // namespace zp::ui
