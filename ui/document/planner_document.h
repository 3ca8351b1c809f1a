#pragma once
// The document: the current Scenario, the session file it belongs to, its undo history, and
// the core's answers for it. Like Tiled's Document it keeps track of a file and its undo
// history: filePath(), open(), save(), and isModified()/modifiedChanged(), which follow the
// undo stack's clean state (undoing back to what was saved is unmodified again).
// Every edit goes through an undo command; consecutive edits of one control merge into one
// step. A change schedules one recompute on the next event-loop turn, however many edits
// arrive before it.
// Signals, so each view redraws only what changed:
//   scenarioChanged   the inputs changed (the controls follow them);
//   resultsChanged    the overview was recomputed; the selection may have moved with the plan;
//   selectionChanged  only the selection changed (a bar click): the overview is the same, so
//                     views that do not show the selection need not rebuild;
//   modifiedChanged, filePathChanged  the file state (the window title follows them);
//   pinsChanged       a plan was pinned, renamed or removed (the Compare panel, the ghosts).
// The document also owns what is shown: the exported scenario, the shown setup with its memory,
// its step timeline and its figures. Each is derived from the scenario, the overview and the
// selection on its first read after a change and kept until the next change, so the views read
// one answer instead of each running the core again (one recompute per edit, docs/design.md §2).
#include "core/memory/memory_breakdown.h"
#include "core/memory/step_timeline.h"
#include "core/report/plan_compare.h"
#include "core/report/plan_pins.h"
#include "core/search/overview.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

class QUndoStack;

namespace zp::ui {

// A pinned plan with what the views draw for it, computed once when it is pinned or read.
struct PinnedPlan {
    PlanPin pin;
    Overview overview;    // compute_overview(pin.scenario): the ghosted bars and lines
    PlanFigures figures;  // plan_figures(pin.scenario): the Compare panel's column
};

// The setup the views show (the config preview's): its scenario and the core's memory figures.
struct ShownSetup {
    Scenario scenario;
    MemoryBreakdown memory;
    bool fits = false;  // on the GPU
};

// The shown setup's training step, every layer (core/memory/step_timeline.h); with pipelining,
// on the stage whose peak decides the fit (core/memory/fit_stage.h).
struct ShownStep {
    ShownSetup setup;                 // setup.scenario is the fit-deciding stage's
    std::vector<StepMoment> moments;  // empty when the core refused the scenario
    std::string error;                // the core's reason when it refused, else empty
};

class PlannerDocument : public QObject {
    Q_OBJECT
public:
    explicit PlannerDocument(QObject* parent = nullptr);
    ~PlannerDocument() override;

    const Scenario& scenario() const { return scenario_; }
    const Overview& overview() const { return overview_; }
    QUndoStack* undoStack() const { return undo_; }

    // The session file: empty until the document is saved or opened from one.
    QString filePath() const { return file_path_; }
    // True when the scenario differs from the file (or, untitled, from how it was started).
    bool isModified() const;
    // The default scenario, untitled, with an empty history.
    void newDocument();
    // Reads a .zplan with the core's session reader. On success it becomes this document's file
    // with an empty history; on failure returns false, sets *error and changes nothing.
    bool open(const QString& path, QString* error);
    // Writes the scenario with the core's session writer, atomically. On success `path` is the
    // document's file and the document is unmodified; on failure the file on disk is untouched.
    bool save(const QString& path, QString* error);
    // What save() writes: the scenario and its pins as a session file.
    std::string sessionText() const;

    // Undoable edit. Edits with the same non-negative mergeId in a row become one undo step.
    void edit(const Scenario& next, const QString& description, int mergeId = -1);
    // Replaces the scenario (and the pins) and clears the history; untitled and unmodified
    // (screenshots, tests, the window's restored last session).
    void reset(const Scenario& s, const std::vector<PlanPin>& pins = {});

    // Pinned plans, oldest first; saved in the session and undoable like an edit.
    const std::vector<PinnedPlan>& pins() const { return pins_; }
    // Pins the plan the config preview shows (exportScenario()) under default_pin_name(). With
    // kMaxPins pinned already, pins nothing and returns false with the reason in *refusal.
    bool pinPlan(QString* refusal);
    void renamePin(int index, const QString& name);
    void removePin(int index);
    // The scenario and the pins together as one undo step (a restored autosave).
    void editSession(const Scenario& next, const std::vector<PlanPin>& pins, const QString& description);

    // The setup the config preview shows: the recommended one unless the user clicked a bar.
    const ZeroSetup& selectedSetup() const { return selected_; }
    bool selectionFollowsPlan() const { return follow_plan_; }
    // Selects a setup, judging "is it the recommended one" against the current overview: while
    // a recompute is pending (right after an edit) the selection waits for it.
    void selectSetup(const ZeroSetup& z);
    void followPlan();
    // The scenario with the selected setup and, when following the plan, its micro batch and recompute.
    const Scenario& exportScenario() const;
    // What the views show, each computed on its first read after a change (see the top):
    // the selected setup as the config preview shows it: the recommended candidate while
    // following the plan, else the clicked setup's bar, else the exported scenario as the core
    // estimates it. Throws InputError when the core refuses that scenario.
    const ShownSetup& shownSetup() const;
    // Its step timeline, or the core's reason for none.
    const ShownStep& shownStep() const;
    // The exported scenario's figures (the Compare panel's live column).
    const PlanFigures& liveFigures() const;
    // The exported scenario's layout in the core's words ("tensor 4 x pipeline 6 x data 16"), translatable.
    const Phrase& exportLayoutPhrase() const;

    // Runs the pending recompute now (tests, screenshots).
    void recomputeNow();

signals:
    void scenarioChanged();
    void resultsChanged();
    void selectionChanged();
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void pinsChanged();

private:
    class ScenarioCommand;  // the undo command; the only caller of setScenario besides reset
    class PinsCommand;      // pin, rename, remove: the only caller of setPins besides reset

    void setPins(const std::vector<PinnedPlan>& pins);
    void editPins(const std::vector<PinnedPlan>& next, const QString& description);

    void setScenario(const Scenario& s);
    void setFilePath(const QString& path);
    void scheduleRecompute();
    void syncSelection();
    void applySelection(const ZeroSetup& z);
    // Drops what is shown; called whenever the scenario, the overview or the selection change.
    void forgetShown();

    Scenario scenario_;
    Overview overview_;
    // A child, not a member: QObject cuts this document's connections before it deletes its
    // children, so the stack's last cleanChanged (sent while it is destroyed) reaches nobody.
    QUndoStack* undo_;
    QString file_path_;
    bool recompute_pending_ = false;
    ZeroSetup selected_;
    bool follow_plan_ = true;
    std::optional<ZeroSetup> pending_selection_;  // selectSetup() while a recompute was pending
    std::vector<PinnedPlan> pins_;
    // What is shown, computed on first read (mutable: a read of a const document fills them).
    mutable std::optional<Scenario> export_;
    mutable std::optional<ShownSetup> shown_setup_;
    mutable std::optional<ShownStep> shown_step_;
    mutable std::optional<PlanFigures> live_figures_;
    mutable std::optional<Phrase> export_layout_phrase_;
};

// Merge ids, one per control, so one slider drag is one undo step.
enum EditId : int {
    EditModel = 1,
    EditModelSize,
    EditGpus,
    EditGpu,
    EditGpuMemory,
    EditInterBw,
    EditNics,
    EditIntraBw,
    EditCpuRam,
    EditNvme,
    EditPrecision,
    EditOptimizer,
    EditSeq,
    EditGlobalBatch,
    EditMicroBatch,
    EditCheckpointing,
    EditFlash,
    EditHeadroom,
    EditConvention,
    EditLossUpcast,
    EditLossKernel,
    EditGradientAccumulation,
    EditAttentionSoftmax,
    EditLmHead,
    EditFusedOptimizer,
    EditBf16MasterWeights,
    EditOptimizerStorage,
    EditKvCache,
    EditOutputsKept,
    EditLogitMetrics,
    EditTiledMlp,
    EditReentrantRecompute,
    EditCpuCheckpointing,
    EditPartitionActivations,
    EditFp8,
    EditFp8Scaling,
    EditDataSecondsPerSample,
    EditExpandableSegments,
    EditKernelIndex,
    EditPinMemory,
    EditLoad16bit,
    EditLowCpuMemUsage,
    EditDataloaderWorkers,
    EditFineTuneMethod,
    EditLoraRank,
    EditLoraTargets,
    EditBasePrecision,
    EditHpz,
    EditQuantizedWeights,
    EditQuantizedGradients,
    EditTensorParallel,
    EditPipelineParallel,
    EditVirtualStages,
    EditSequenceParallel,
    EditPipelineSend,
    EditUlysses,
    EditExpertParallel,
    EditMicsShard,
    EditNode,
    EditEngine,
    EditFsdpPrecision,
    EditJob,
    EditMaxLiveParameters,
    EditDeepSpeedRelease,
    EditHybridShard,
    EditTransformersRelease
};

}  // namespace zp::ui
