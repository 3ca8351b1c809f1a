#pragma once
// The document: the current Scenario, its undo history, and the core's answers for it.
// Every edit goes through an undo command; consecutive edits of one control merge into one
// step. A change schedules one recompute on the next event-loop turn, however many edits
// arrive before it; views redraw on resultsChanged().
#include "core/search/overview.h"

#include <QObject>
#include <QString>
#include <QUndoStack>

namespace zp::ui {

class PlannerDocument : public QObject {
    Q_OBJECT
public:
    explicit PlannerDocument(QObject* parent = nullptr);

    const Scenario& scenario() const { return scenario_; }
    const Overview& overview() const { return overview_; }
    QUndoStack* undoStack() { return &undo_; }

    // Undoable edit. Edits with the same non-negative mergeId in a row become one undo step.
    void edit(const Scenario& next, const QString& description, int mergeId = -1);
    // Replaces the scenario and clears the history (New, Open).
    void reset(const Scenario& s);

    // The setup the config preview shows: the recommended one unless the user clicked a bar.
    const ZeroSetup& selectedSetup() const { return selected_; }
    bool selectionFollowsPlan() const { return follow_plan_; }
    void selectSetup(const ZeroSetup& z);
    void followPlan();
    // The scenario with the selected setup and, when following the plan, its micro batch and recompute.
    Scenario exportScenario() const;

    // Applies a scenario without touching the history (used by the undo command).
    void setScenarioFromUndo(const Scenario& s);
    // Runs the pending recompute now (tests, screenshots).
    void recomputeNow();

signals:
    void scenarioChanged();
    void resultsChanged();

private:
    void scheduleRecompute();
    void syncSelection();

    Scenario scenario_;
    Overview overview_;
    QUndoStack undo_;
    bool recompute_pending_ = false;
    ZeroSetup selected_;
    bool follow_plan_ = true;
};

// Merge ids, one per control, so one slider drag is one undo step.
enum EditId : int {
    EditModel = 1, EditModelSize, EditGpus, EditGpu, EditGpuMemory, EditInterBw, EditIntraBw, EditCpuRam, EditNvme,
    EditPrecision, EditOptimizer, EditSeq, EditGlobalBatch, EditMicroBatch, EditCheckpointing, EditFlash, EditHeadroom, EditConvention
};

}  // namespace zp::ui
