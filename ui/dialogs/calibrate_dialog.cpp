#include "ui/dialogs/calibrate_dialog.h"

#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/calibration/run_log.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"

#include <QDate>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace zp::ui {

namespace {
const QString kNone = QStringLiteral("\u2014");  // an em dash: nothing to show in this cell

QLabel* plainLabel() {
    auto* l = new QLabel;
    l->setTextFormat(Qt::PlainText);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

// 0 is "not given": the typed numbers are optional, and the core refuses zero anyway.
QDoubleSpinBox* measurementBox(const QString& suffix, int decimals, double max, const QString& accessibleName) {
    auto* box = new QDoubleSpinBox;
    box->setRange(0, max);
    box->setDecimals(decimals);
    box->setSuffix(suffix);
    box->setSpecialValueText(QObject::tr("not given"));
    box->setAccessibleName(accessibleName);
    box->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);  // a small dialog shrinks the log box, not these
    return box;
}
}  // namespace

CalibrateDialog::CalibrateDialog(PlannerDocument* doc, QWidget* parent) : QDialog(parent), doc_(doc) {
    setWindowTitle(tr("Calibrate from a Run"));
    auto* layout = new QVBoxLayout(this);

    auto* intro =
        new QLabel(tr("Paste what your run printed (DeepSpeed, Megatron or Hugging Face Trainer lines), open its log, "
                      "or type what it measured. The planner fits its compute efficiency so that the predicted step "
                      "equals the measured one."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* log_label = new QLabel(tr("&Log:"));
    log_ = new QPlainTextEdit;
    log_->setTabChangesFocus(true);  // Tab leaves the box: the dialog stays keyboard-usable
    log_->setPlaceholderText(tr("[timer.py:154:stop] 0/1251, SamplesPerSec=11.66 ..."));
    log_->setAccessibleName(tr("Run log"));
    log_->setLineWrapMode(QPlainTextEdit::NoWrap);
    log_->setMinimumHeight(fontMetrics().lineSpacing() * 4);
    log_label->setBuddy(log_);
    open_ = new QPushButton(tr("&Open Log File..."));
    open_->setAccessibleName(tr("Open log file"));
    auto* log_row = new QHBoxLayout;
    log_row->addWidget(log_label);
    log_row->addStretch(1);
    log_row->addWidget(open_);
    layout->addLayout(log_row);
    layout->addWidget(log_, 1);

    step_s_ = measurementBox(tr(" s"), 3, 1e6, tr("Measured step time in seconds"));
    samples_s_ = measurementBox(tr(" samples/s"), 2, 1e9, tr("Measured throughput in samples per second"));
    allocated_gib_ = measurementBox(tr(" GiB"), 2, 1e5, tr("Measured max allocated GiB per GPU"));
    reserved_gib_ = measurementBox(tr(" GiB"), 2, 1e5, tr("Measured max reserved GiB per GPU"));
    step_s_->setObjectName(QStringLiteral("measuredStep"));
    samples_s_->setObjectName(QStringLiteral("measuredSamples"));
    int width = 0;  // one width for the four boxes, so they line up
    for (QDoubleSpinBox* box : {step_s_, samples_s_, allocated_gib_, reserved_gib_}) width = std::max(width, box->sizeHint().width());
    for (QDoubleSpinBox* box : {step_s_, samples_s_, allocated_gib_, reserved_gib_}) box->setMinimumWidth(width);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);  // numbers, not sentences
    // The unit in the label too: "not given" shows no suffix.
    form->addRow(tr("Measured &step time (s):"), step_s_);
    form->addRow(tr("or t&hroughput (samples/s):"), samples_s_);
    form->addRow(tr("Max allo&cated per GPU (GiB):"), allocated_gib_);
    form->addRow(tr("Max &reserved per GPU (GiB):"), reserved_gib_);
    layout->addLayout(form);

    read_ = plainLabel();
    read_->setWordWrap(true);
    read_->setAccessibleName(tr("What was read"));
    layout->addWidget(read_);
    problem_ = plainLabel();
    problem_->setWordWrap(true);
    problem_->setAccessibleName(tr("Why it cannot calibrate"));
    QPalette warn = problem_->palette();
    warn.setColor(QPalette::WindowText, QColor(0xb0, 0x20, 0x20));
    problem_->setPalette(warn);
    layout->addWidget(problem_);

    // predicted before / measured / predicted after, one row per measured quantity
    auto* grid = new QGridLayout;
    grid->setHorizontalSpacing(18);
    const QStringList heads{tr("Predicted before"), tr("Measured"), tr("Predicted after")};
    QFont bold = font();
    bold.setBold(true);
    for (int c = 0; c < heads.size(); ++c) {
        auto* head = new QLabel(heads[c]);
        head->setFont(bold);
        grid->addWidget(head, 0, c + 1);
    }
    const QStringList rows{tr("Step time"), tr("Max allocated per GPU"), tr("Max reserved per GPU")};
    for (int r = 0; r < rows.size(); ++r) {
        row_names_ << new QLabel(rows[r]);
        grid->addWidget(row_names_.back(), r + 1, 0);
        cells_ << QList<QLabel*>{};
        for (int c = 0; c < heads.size(); ++c) {
            QLabel* cell = plainLabel();
            cell->setAccessibleName(rows[r] + QStringLiteral(", ") + heads[c]);
            grid->addWidget(cell, r + 1, c + 1);
            cells_[r] << cell;
        }
    }
    grid->setColumnStretch(4, 1);
    layout->addSpacing(6);
    layout->addLayout(grid);
    moved_ = plainLabel();
    moved_->setWordWrap(true);
    moved_->setAccessibleName(tr("What moved"));
    layout->addWidget(moved_);

    buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    applyButton()->setText(tr("&Apply"));
    applyButton()->setAccessibleName(tr("Apply the calibrated scenario"));
    layout->addWidget(buttons_);

    setTabOrder(log_, open_);
    setTabOrder(open_, step_s_);
    setTabOrder(step_s_, samples_s_);
    setTabOrder(samples_s_, allocated_gib_);
    setTabOrder(allocated_gib_, reserved_gib_);
    setTabOrder(reserved_gib_, applyButton());
    setTabOrder(applyButton(), buttons_->button(QDialogButtonBox::Cancel));

    connect(buttons_, &QDialogButtonBox::accepted, this, &CalibrateDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &CalibrateDialog::reject);
    connect(open_, &QPushButton::clicked, this, &CalibrateDialog::browseLogFile);
    connect(log_, &QPlainTextEdit::textChanged, this, &CalibrateDialog::recalculate);
    for (QDoubleSpinBox* box : {step_s_, samples_s_, allocated_gib_, reserved_gib_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &CalibrateDialog::recalculate);
    log_->setFocus();
    recalculate();
}

QPushButton* CalibrateDialog::applyButton() const { return buttons_->button(QDialogButtonBox::Ok); }

QString CalibrateDialog::problem() const { return problem_->text(); }

QString CalibrateDialog::cell(const QString& row, int column) const {
    const QStringList names{QStringLiteral("step"), QStringLiteral("allocated"), QStringLiteral("reserved")};
    const qsizetype r = names.indexOf(row);
    return r < 0 || column < 0 || column > 2 ? QString() : cells_[r][column]->text();
}

QString CalibrateDialog::movedText() const { return moved_->text(); }

QString CalibrateDialog::logText() const { return log_->toPlainText(); }

QString CalibrateDialog::logName() const { return log_->toPlainText() == file_text_ ? file_name_ : QString(); }

QString CalibrateDialog::readText() const { return read_->text(); }

void CalibrateDialog::setLogText(const QString& text, const QString& name) {
    file_name_ = name;
    file_text_ = text;
    log_->setPlainText(text);  // textChanged recalculates
    recalculate();             // also when the text was already the same
}

bool CalibrateDialog::openLogFile(const QString& path, QString* error) {
    try {
        setLogText(fromCore(read_text_file(path.toStdString())), QFileInfo(path).fileName());
        return true;
    } catch (const std::exception& e) {
        *error = fromCore(e.what());
        return false;
    }
}

void CalibrateDialog::browseLogFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Run Log"), QString(), tr("Logs and text (*.log *.txt *.out);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!openLogFile(path, &error)) {
        result_.reset();
        problem_->setText(error);
        showResult();
    }
}

// What the calibration note cites: the file while its text is as opened, else where it came from.
QString CalibrateDialog::logSource() const {
    const QString text = log_->toPlainText();
    if (text.trimmed().isEmpty()) return tr("numbers typed in the window");
    if (!file_name_.isEmpty() && text == file_text_) return file_name_;
    return tr("a pasted log");
}

void CalibrateDialog::recalculate() {
    result_.reset();
    read_->clear();
    problem_->clear();
    const QString text = log_->toPlainText();
    const bool typed_time = step_s_->value() > 0 || samples_s_->value() > 0;
    if (text.trimmed().isEmpty() && !typed_time) {
        read_->setText(tr("Paste a log, open one, or type a measured step time or throughput."));  // a hint, not a refusal
        showResult();
        return;
    }
    const std::string source = logSource().toStdString();
    try {
        calibration::RunLog m;
        if (!text.trimmed().isEmpty()) m = calibration::read_run_log(text.toStdString(), source);
        // Typed numbers take precedence over the log's, as the CLI's --measured-* options do.
        QStringList read;
        for (const std::string& line : m.read) read << fromCore(line);
        if (step_s_->value() > 0) {
            m.step_seconds = step_s_->value();
            read << tr("typed step time");
        }
        if (samples_s_->value() > 0) {
            m.samples_per_second = samples_s_->value();
            read << tr("typed throughput");
        }
        if (allocated_gib_->value() > 0) {
            m.max_allocated_bytes = gib_to_bytes(allocated_gib_->value());
            read << tr("typed max allocated");
        }
        if (reserved_gib_->value() > 0) {
            m.max_reserved_bytes = gib_to_bytes(reserved_gib_->value());
            read << tr("typed max reserved");
        }
        read_->setText(tr("Read: %1").arg(read.join(QStringLiteral("; "))));
        const QString date = QDate::currentDate().toString(Qt::ISODate);
        result_ = calibration::calibrate(doc_->scenario(), m, source, date.toStdString());
    } catch (const std::exception& e) {  // the core's one-line reason (InputError); nothing changes
        result_.reset();
        problem_->setText(fromCore(e.what()));
    }
    showResult();
}

void CalibrateDialog::showResult() {
    problem_->setVisible(!problem_->text().isEmpty());  // no empty gap above the table
    for (auto& row : cells_)
        for (QLabel* cell : row) cell->setText(kNone);
    // What the plan predicts before anything is read (calibrate's "before"): the column is never empty.
    try {
        const calibration::PlanPrediction p = calibration::predicted(doc_->scenario());
        cells_[0][0]->setText(fromCore(format_seconds(p.step_seconds)));
        cells_[1][0]->setText(fromCore(format_bytes(p.max_allocated_bytes)));
        cells_[2][0]->setText(fromCore(format_bytes(p.max_reserved_bytes)));
    } catch (const std::exception&) {  // a scenario the core refuses: its reason shows once a run is read
    }
    applyButton()->setEnabled(result_.has_value());
    if (!result_) {
        moved_->clear();
        return;
    }
    const calibration::CalibrationResult& r = *result_;
    cells_[0][0]->setText(fromCore(format_seconds(r.step_before_seconds)));
    cells_[0][1]->setText(fromCore(format_seconds(r.step_measured_seconds)));
    cells_[0][2]->setText(fromCore(format_seconds(r.step_after_seconds)));
    // Memory is compared, not fitted (calibrate.h): the prediction is the same after as before.
    const auto memory = [this](int row, const std::optional<double>& measured, const std::optional<double>& predicted) {
        if (!measured || !predicted) return;
        cells_[row][1]->setText(fromCore(format_bytes(*measured)));
        cells_[row][2]->setText(fromCore(format_bytes(*predicted)));
    };
    memory(1, r.max_allocated_measured_bytes, r.max_allocated_predicted_bytes);
    memory(2, r.max_reserved_measured_bytes, r.max_reserved_predicted_bytes);
    QString moved = tr("What moved: the compute-efficiency scale x%1 -> x%2 (stored as MFU %3 -> %4).")
                        .arg(fromCore(format_fixed(r.scale_before, 2)), fromCore(format_fixed(r.scale_after, 2)),
                             fromCore(format_fixed(r.mfu_before, 3)), fromCore(format_fixed(r.mfu_after, 3)));
    if (r.max_allocated_measured_bytes || r.max_reserved_measured_bytes)
        moved += QLatin1Char(' ') + tr("Memory is compared, not fitted: the allocator's shares are the same for every run.");
    // The stored note carries today's date; the dialog names only the source, so its picture is the same every day.
    moved += QLatin1Char(' ') + tr("Apply keeps it in the session as calibrated from %1.").arg(logSource());
    moved_->setText(moved);
}

void CalibrateDialog::accept() {
    if (!result_) return;  // Apply is disabled then; Enter must not close the dialog either
    doc_->edit(result_->calibrated, tr("Calibrate from %1").arg(logSource()));
    QDialog::accept();
}

}  // namespace zp::ui
