#pragma once
// Calibrate from a run... (fit the model to a measured run from the window, as `calibrate` does on
// the command line): the user pastes or opens what a training run printed, or types its step time
// or throughput (and optionally its peak memory); the dialog shows, live, what the core read and
// core calibrate()'s predicted-before / measured / predicted-after. Apply replaces the document's
// scenario with the calibrated one as one undo step; a log the core refuses shows the core's
// one-line reason and Apply stays disabled. Every number comes from core/calibration (run_log.h,
// calibrate.h); this file only lays them out.
#include "core/calibration/calibrate.h"

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace zp::ui {

class PlannerDocument;

class CalibrateDialog : public QDialog {
    Q_OBJECT
public:
    // Calibrates the document's scenario as it is when the dialog opens.
    explicit CalibrateDialog(PlannerDocument* doc, QWidget* parent = nullptr);

    // The log text as if pasted; `name` (a file name) is what the calibration note cites.
    void setLogText(const QString& text, const QString& name = QString());
    // Reads a log file into the text box; false and *error when it cannot be read.
    bool openLogFile(const QString& path, QString* error);

    // The current result; empty while the input is missing or refused.
    const std::optional<calibration::CalibrationResult>& result() const { return result_; }
    // The core's one-line reason for a refusal; empty otherwise (while nothing is given, readText() says what to give).
    QString problem() const;
    QPushButton* applyButton() const;

    // Table cells for tests: row "step" / "allocated" / "reserved", column 0 before, 1 measured, 2 after.
    QString cell(const QString& row, int column) const;
    QString movedText() const;
    QString readText() const;
    // The log box's text, and the file it was opened from while unchanged (else empty): what the
    // window keeps for the next opening (a log pasted and then Esc is not lost).
    QString logText() const;
    QString logName() const;

    // Apply: the calibrated scenario becomes the document's through its undo stack.
    void accept() override;

private:
    void browseLogFile();
    void recalculate();
    void showResult();
    QString logSource() const;

    PlannerDocument* doc_;
    QPlainTextEdit* log_;
    QPushButton* open_;
    QDoubleSpinBox* step_s_;
    QDoubleSpinBox* samples_s_;
    QDoubleSpinBox* allocated_gib_;
    QDoubleSpinBox* reserved_gib_;
    QLabel* read_;
    QLabel* problem_;
    QList<QList<QLabel*>> cells_;  // step, allocated, reserved x before, measured, after
    QList<QLabel*> row_names_;
    QLabel* moved_;
    QDialogButtonBox* buttons_;
    QString file_name_, file_text_;  // the opened file, cited while its text is unedited
    std::optional<calibration::CalibrationResult> result_;
};

}  // namespace zp::ui
