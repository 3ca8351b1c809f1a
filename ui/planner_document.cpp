#include "ui/planner_document.h"

#include "core/io/file_io.h"
#include "core/io/scenario_json.h"
#include "core/model/default_scenario.h"
#include "core/model/errors.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QUndoCommand>
#include <QUndoStack>

namespace zp::ui {

// Whole-Scenario snapshots: the type is small, so one command per edit is simpler than one per field.
class PlannerDocument::ScenarioCommand : public QUndoCommand {
public:
    ScenarioCommand(PlannerDocument* doc, Scenario before, Scenario after, const QString& text, int mergeId)
        : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)), id_(mergeId) {}
    void undo() override { doc_->setScenario(before_); }
    void redo() override { doc_->setScenario(after_); }
    int id() const override { return id_; }
    bool mergeWith(const QUndoCommand* other) override {
        if (other->id() != id_ || id_ < 0) return false;
        after_ = static_cast<const ScenarioCommand*>(other)->after_;
        if (before_ == after_) setObsolete(true);
        return true;
    }

private:
    PlannerDocument* doc_;
    Scenario before_, after_;
    int id_;
};

PlannerDocument::PlannerDocument(QObject* parent) : QObject(parent), scenario_(default_scenario()), undo_(new QUndoStack(this)) {
    connect(undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    recomputeNow();
}

PlannerDocument::~PlannerDocument() = default;

bool PlannerDocument::isModified() const { return !undo_->isClean(); }

void PlannerDocument::newDocument() { reset(default_scenario()); }

bool PlannerDocument::open(const QString& path, QString* error) {
    Scenario s;
    try {
        s = parse_session(read_text_file(path.toStdString()), QFileInfo(path).fileName().toStdString());
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    reset(s);
    setFilePath(path);
    return true;
}

// Writes through the core's write-then-rename, which checks every write(2). QSaveFile is not
// used: under a full disk (RLIMIT_FSIZE) Qt 6.4's QSaveFile::commit() returned true after a
// short write and replaced the file with a truncated one (tests/ui failed_session_save_*).
bool PlannerDocument::save(const QString& path, QString* error) {
    try {
        write_file_atomically(path.toStdString(), session_text(scenario_));
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    setFilePath(path);
    undo_->setClean();
    return true;
}

void PlannerDocument::setFilePath(const QString& path) {
    if (path == file_path_) return;
    file_path_ = path;
    emit filePathChanged(file_path_);
}

void PlannerDocument::edit(const Scenario& next, const QString& description, int mergeId) {
    if (next == scenario_) return;  // field by field (comparing JSON cost more than the rest of an edit)
    undo_->push(new ScenarioCommand(this, scenario_, next, description, mergeId));
}

void PlannerDocument::reset(const Scenario& s) {
    undo_->clear();
    follow_plan_ = true;
    pending_selection_.reset();
    setFilePath(QString());
    setScenario(s);
}

void PlannerDocument::setScenario(const Scenario& s) {
    scenario_ = s;
    emit scenarioChanged();
    scheduleRecompute();
}

void PlannerDocument::scheduleRecompute() {
    if (recompute_pending_) return;
    recompute_pending_ = true;
    QMetaObject::invokeMethod(this, &PlannerDocument::recomputeNow, Qt::QueuedConnection);
}

void PlannerDocument::recomputeNow() {
    recompute_pending_ = false;
    overview_ = compute_overview(scenario_);
    if (pending_selection_) {
        applySelection(*pending_selection_);
        pending_selection_.reset();
    } else {
        syncSelection();
    }
    emit resultsChanged();
}

void PlannerDocument::syncSelection() {
    if (follow_plan_ && overview_.plan_valid && overview_.plan.feasible) selected_ = overview_.plan.best.zero;
    else if (follow_plan_) selected_ = scenario_.zero;
}

void PlannerDocument::applySelection(const ZeroSetup& z) {
    const bool is_best = overview_.plan_valid && overview_.plan.feasible && same_setup(z, overview_.plan.best.zero);
    follow_plan_ = is_best;
    selected_ = is_best ? overview_.plan.best.zero : z;
}

void PlannerDocument::selectSetup(const ZeroSetup& z) {
    if (recompute_pending_) {
        pending_selection_ = z;  // applied, and announced with resultsChanged, after the recompute
        return;
    }
    applySelection(z);
    emit selectionChanged();
}

void PlannerDocument::followPlan() {
    follow_plan_ = true;
    pending_selection_.reset();
    syncSelection();
    emit selectionChanged();
}

Scenario PlannerDocument::exportScenario() const {
    Scenario s = scenario_;
    if (follow_plan_ && overview_.plan_valid && overview_.plan.feasible) {
        s = with_candidate(s, overview_.plan.best);
    } else {
        s = with_setup(s, selected_);
    }
    return s;
}

}  // namespace zp::ui
