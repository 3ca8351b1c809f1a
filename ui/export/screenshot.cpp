#include "ui/export/screenshot.h"

#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "ui/dialogs/calibrate_dialog.h"
#include "ui/dialogs/new_plan_dialog.h"
#include "ui/document/planner_document.h"
#include "ui/main_window.h"
#include "ui/panels/compare_panel.h"
#include "ui/panels/config_preview.h"
#include "ui/panels/diagnosis_panel.h"
#include "ui/panels/gpu_layout_view.h"
#include "ui/plots/host_view.h"
#include "ui/plots/memory_view.h"
#include "ui/plots/scaling_view.h"
#include "ui/plots/sequence_view.h"
#include "ui/plots/step_view.h"
#include "ui/plots/time_view.h"

#include <QApplication>
#include <QBuffer>
#include <QFont>
#include <QSplitter>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>

#include <algorithm>

namespace zp::ui {

QStringList screenshotViews() {
    return {QStringLiteral("window"),        QStringLiteral("memory"),   QStringLiteral("scaling"),
            QStringLiteral("time"),          QStringLiteral("config"),   QStringLiteral("step"),
            QStringLiteral("host"),          QStringLiteral("layout"),   QStringLiteral("calibrate"),
            QStringLiteral("compare"),       QStringLiteral("diagnose"), QStringLiteral("diagnosis"),
            QStringLiteral("diagnose-step"), QStringLiteral("sequence"), QStringLiteral("window-sequence"),
            QStringLiteral("start")};
}

void pinAppearance(QApplication& app) {
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    app.setPalette(app.style()->standardPalette());
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9);
    font.setStyleHint(QFont::SansSerif);
    app.setFont(font);
}

namespace {
QImage renderDialog(QDialog& dialog, const QSize& size) {
    // As a window manager would: never below what its layout needs, wrapped text included.
    QSize fitted = size.expandedTo(dialog.minimumSizeHint());
    if (dialog.hasHeightForWidth()) fitted.setHeight(std::max(fitted.height(), dialog.heightForWidth(fitted.width())));
    dialog.resize(fitted);
    dialog.setAttribute(Qt::WA_DontShowOnScreen, true);
    dialog.show();
    QCoreApplication::processEvents();
    QImage image = dialog.grab().toImage();
    dialog.hide();
    return image;
}

// The dialog over the scenario's document, with the log pasted as the user would.
QImage renderCalibrateDialog(const Scenario& scenario, const QSize& size, const QString& logText, const QString& logName) {
    PlannerDocument doc;
    doc.reset(scenario);
    CalibrateDialog dialog(&doc);
    dialog.setLogText(logText, logName);
    return renderDialog(dialog, size);
}

// The start page of a new plan (File > New), its choices preset from the scenario.
QImage renderStartPage(const Scenario& scenario, const QSize& size) {
    NewPlanDialog dialog(scenario);
    return renderDialog(dialog, size);
}
}  // namespace

QImage renderView(const Scenario& scenario, const QString& view, const QSize& size, QString* error, const QString& logText,
                  const QString& logName, const std::vector<PlanPin>& pins) {
    if (!screenshotViews().contains(view)) {
        *error = QObject::tr("unknown view '%1'; views: %2").arg(view, screenshotViews().join(QStringLiteral(", ")));
        return {};
    }
    if (view == QLatin1String("calibrate")) return renderCalibrateDialog(scenario, size, logText, logName);
    if (view == QLatin1String("start")) return renderStartPage(scenario, size);
    MainWindow window(MainWindow::Ephemeral);
    window.document()->reset(scenario, pins);
    if (view == QLatin1String("compare")) window.showSideTab(window.comparePanel());
    if (view == QLatin1String("config")) window.showSideTab(window.configPreview());
    if (view == QLatin1String("host")) window.plotTabs()->setCurrentWidget(window.hostView());
    if (view == QLatin1String("layout")) window.plotTabs()->setCurrentWidget(window.layoutView());
    if (view == QLatin1String("sequence") || view == QLatin1String("window-sequence")) {
        // The scenario's own setup, as the step view shows it.
        window.document()->recomputeNow();
        window.document()->selectSetup(scenario.zero);
        window.showSideTab(window.sequenceView());
    }
    if (view.startsWith(QLatin1String("diagnos")) && !window.diagnoseLogText(logText, logName, error)) return {};
    if (view == QLatin1String("step")) {
        // The step of the scenario's own setup, not of the recommended one.
        window.document()->recomputeNow();
        window.document()->selectSetup(scenario.zero);
        window.plotTabs()->setCurrentWidget(window.stepView());
    }
    QWidget* target = &window;
    if (view == QLatin1String("memory")) target = window.memoryView();
    else if (view == QLatin1String("scaling")) target = window.scalingView();
    else if (view == QLatin1String("time")) target = window.timeView();
    else if (view == QLatin1String("config")) target = window.configPreview();
    else if (view == QLatin1String("step")) target = window.stepView();
    else if (view == QLatin1String("host")) target = window.hostView();
    else if (view == QLatin1String("layout")) target = window.layoutView();
    else if (view == QLatin1String("sequence")) target = window.sequenceView();
    else if (view == QLatin1String("diagnose-step")) target = window.stepView();
    else if (view == QLatin1String("diagnosis")) target = window.diagnosisPanel();
    if (target == &window) {
        window.resize(size);
    } else {
        // One view alone: detach it into its own top-level widget of the requested size.
        target->setParent(nullptr);
        target->resize(size);
    }
    target->setAttribute(Qt::WA_DontShowOnScreen, true);
    target->show();
    QCoreApplication::processEvents();
    if (view == QLatin1String("compare")) {
        // The Compare panel's tables are wide: give its side of the bottom row three fifths of the width.
        if (auto* row = qobject_cast<QSplitter*>(window.sideTabs()->parentWidget())) {
            row->setSizes({row->width() * 2 / 5, row->width() * 3 / 5});
            if (auto* rows = qobject_cast<QSplitter*>(row->parentWidget())) rows->setSizes({rows->height() / 2, rows->height() / 2});
        }
    }
    window.flushPending();
    QCoreApplication::processEvents();
    window.flushPending();
    QImage image = target->grab().toImage();
    if (target != &window) {
        target->hide();
        delete target;
    }
    return image;
}

bool saveScreenshot(const Scenario& scenario, const QString& view, const QSize& size, const QString& path, QString* error,
                    const QString& logText, const QString& logName, const std::vector<PlanPin>& pins) {
    const QImage image = renderView(scenario, view, size, error, logText, logName, pins);
    if (image.isNull()) return false;
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG")) {
        *error = QObject::tr("cannot encode the PNG for %1").arg(path);
        return false;
    }
    // The core's checked write-then-rename (see main_window.cpp for why not QSaveFile).
    try {
        write_file_atomically(path.toStdString(), png.toStdString());
        return true;
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
}

}  // namespace zp::ui
