#pragma once
// Deterministic renders of the window or one view, for `zero-planner screenshot`, the headless
// start and the tutorials: the same scenario gives the same pixels on the same machine.
#include "core/model/scenario.h"
#include "core/report/plan_pins.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include <vector>

class QApplication;

namespace zp::ui {

// window, memory, scaling, time, config, step (memory over one step), host, layout (GPU layout),
// calibrate, compare (the window with the Compare panel shown), diagnose (the window after File >
// Diagnose a Training Log...), diagnosis (its Diagnosis tab alone), diagnose-step (the step view
// with the failing moment marked)
QStringList screenshotViews();

// Fusion style, its standard palette, DejaVu Sans 9 pt: nothing from the desktop. Call before
// creating widgets.
void pinAppearance(QApplication& app);

// Renders `view` of a fresh, non-persistent window for `scenario`; the step view shows the
// scenario's own setup (as if its bar had been clicked), the others follow the plan. Throws nothing; returns a
// null image and sets *error on an unknown view.
// The calibrate view is the Calibrate from a Run dialog with `logText` pasted, cited as `logName`;
// the diagnose views diagnose `logText` (a log that ran out of memory) over `scenario`.
// `pins` are the session's pinned plans: the views ghost them and the compare view lists them.
QImage renderView(const Scenario& scenario, const QString& view, const QSize& size, QString* error, const QString& logText = QString(),
                  const QString& logName = QString(), const std::vector<PlanPin>& pins = {});
// Renders and writes a PNG atomically.
bool saveScreenshot(const Scenario& scenario, const QString& view, const QSize& size, const QString& path, QString* error,
                    const QString& logText = QString(), const QString& logName = QString(), const std::vector<PlanPin>& pins = {});

}  // namespace zp::ui
