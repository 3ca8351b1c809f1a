#pragma once
// The Diagnosis tab (File > Diagnose a Training Log..., or a .log/.txt dropped on the window):
// what core/diagnose/log_diagnosis.h made of a log that ran out of memory. The cause, the
// moment and the step's term the failing request is, the log's figures beside the planner's for
// that moment, each value of the run with where it came from (the log, the window's controls,
// or assumed), and the changes that fit, each with its new peak and an Apply button: Apply makes
// that change's scenario the document's as one undo step. Every figure and sentence is the core's;
// this file only lays them out.
#include "core/diagnose/log_diagnosis.h"

#include <QMap>
#include <QScrollArea>
#include <QString>

class QLabel;
class QPushButton;

namespace zp::ui {

class PlannerDocument;

class DiagnosisPanel : public QScrollArea {
    Q_OBJECT
public:
    explicit DiagnosisPanel(PlannerDocument* doc, QWidget* parent = nullptr);

    // Shows `d` for the log `logName`.
    void showDiagnosis(const TrainingLogDiagnosis& d, const QString& logName);
    const TrainingLogDiagnosis& diagnosis() const { return diagnosis_; }

    // Apply on fix `index`: its scenario becomes the document's, one undo step.
    void applyFix(int index);

    // For tests and screen readers: the texts as shown.
    QString causeText() const;
    QString whereText() const;
    QString termText() const;
    QString remediesText() const;  // the remedies, one bullet a line ("" when there are none)
    // Row "requested", "needed" or "reserved"; column 0 the log, 1 the planner.
    QString figure(const QString& row, int column) const;
    // The source shown for a value of the run ("model", "gpus", ... as setup_values names them).
    QString sourceOf(const QString& field) const;
    int fixCount() const { return static_cast<int>(diagnosis_.diagnosis.fixes.size()); }
    QPushButton* applyButton(int index) const;
    QPushButton* closeButton() const { return close_; }

signals:
    // Close: the window removes the tab and the step view's marker.
    void closeRequested();

private:
    QWidget* buildHeader(const QString& logName);
    QWidget* buildFigures();
    QWidget* buildRun();
    QWidget* buildFixes();

    PlannerDocument* doc_;
    TrainingLogDiagnosis diagnosis_;
    QLabel* cause_ = nullptr;
    QLabel* where_ = nullptr;
    QLabel* term_ = nullptr;
    QLabel* remedies_ = nullptr;
    QMap<QString, QLabel*> figures_;  // "requested/0", ...
    QMap<QString, QLabel*> sources_;
    QList<QPushButton*> apply_;
    QPushButton* close_ = nullptr;
};

}  // namespace zp::ui
