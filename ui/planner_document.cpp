#include "ui/planner_document.h"

#include "core/model/default_scenario.h"

#include <QMetaObject>
#include <QUndoCommand>

namespace zp::ui {
namespace {

class ScenarioCommand : public QUndoCommand {
public:
    ScenarioCommand(PlannerDocument* doc, Scenario before, Scenario after, const QString& text, int mergeId)
        : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)), id_(mergeId) {}
    void undo() override { doc_->setScenarioFromUndo(before_); }
    void redo() override { doc_->setScenarioFromUndo(after_); }
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

}  // namespace

PlannerDocument::PlannerDocument(QObject* parent) : QObject(parent), scenario_(default_scenario()) {
    recomputeNow();
}

void PlannerDocument::edit(const Scenario& next, const QString& description, int mergeId) {
    if (next == scenario_) return;  // field by field (comparing JSON cost more than the rest of an edit)
    undo_.push(new ScenarioCommand(this, scenario_, next, description, mergeId));
}

void PlannerDocument::reset(const Scenario& s) {
    undo_.clear();
    follow_plan_ = true;
    setScenarioFromUndo(s);
}

void PlannerDocument::setScenarioFromUndo(const Scenario& s) {
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
    syncSelection();
    emit resultsChanged();
}

void PlannerDocument::syncSelection() {
    if (follow_plan_ && overview_.plan_valid && overview_.plan.feasible) selected_ = overview_.plan.best.zero;
    else if (follow_plan_) selected_ = scenario_.zero;
}

void PlannerDocument::selectSetup(const ZeroSetup& z) {
    const bool is_best = overview_.plan_valid && overview_.plan.feasible && same_setup(z, overview_.plan.best.zero);
    follow_plan_ = is_best;
    selected_ = is_best ? overview_.plan.best.zero : z;
    emit resultsChanged();
}

void PlannerDocument::followPlan() {
    follow_plan_ = true;
    syncSelection();
    emit resultsChanged();
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
