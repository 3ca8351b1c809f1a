#include "ui/document/planner_document.h"

#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/io/scenario_json.h"
#include "core/memory/fit_stage.h"
#include "core/memory/memory_model.h"
#include "core/model/parallel_layout.h"
#include "core/presets/default_scenario.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QUndoCommand>
#include <QUndoStack>

#include <algorithm>

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

// The pins before and after a pin, rename or remove, with their computed figures (no recompute on undo).
class PlannerDocument::PinsCommand : public QUndoCommand {
public:
    PinsCommand(PlannerDocument* doc, std::vector<PinnedPlan> before, std::vector<PinnedPlan> after, const QString& text)
        : QUndoCommand(text), doc_(doc), before_(std::move(before)), after_(std::move(after)) {}
    void undo() override { doc_->setPins(before_); }
    void redo() override { doc_->setPins(after_); }

private:
    PlannerDocument* doc_;
    std::vector<PinnedPlan> before_, after_;
};

namespace {
PinnedPlan pinned(const PlanPin& pin) { return {pin, compute_overview(pin.scenario), plan_figures(pin.scenario)}; }
}  // namespace

PlannerDocument::PlannerDocument(QObject* parent) : QObject(parent), scenario_(default_plan_scenario()), undo_(new QUndoStack(this)) {
    connect(undo_, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
    recomputeNow();
}

PlannerDocument::~PlannerDocument() = default;

bool PlannerDocument::isModified() const { return !undo_->isClean(); }

void PlannerDocument::newDocument() { reset(default_plan_scenario()); }

bool PlannerDocument::open(const QString& path, QString* error) {
    SessionFile f;
    try {
        f = parse_session_file(read_text_file(path.toStdString()), QFileInfo(path).fileName().toStdString());
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    reset(f.scenario, f.pins);
    setFilePath(path);
    return true;
}

// Writes through the core's write-then-rename, which checks every write(2). QSaveFile is not
// used: under a full disk (RLIMIT_FSIZE) Qt 6.4's QSaveFile::commit() returned true after a
// short write and replaced the file with a truncated one (tests/ui failed_session_save_*).
bool PlannerDocument::save(const QString& path, QString* error) {
    try {
        write_file_atomically(path.toStdString(), sessionText());
    } catch (const InputError& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    setFilePath(path);
    undo_->setClean();
    return true;
}

std::string PlannerDocument::sessionText() const {
    SessionFile f{scenario_, {}};
    for (const PinnedPlan& p : pins_) f.pins.push_back(p.pin);
    return session_file_text(f);
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

void PlannerDocument::reset(const Scenario& s, const std::vector<PlanPin>& pins) {
    undo_->clear();
    follow_plan_ = true;
    pending_selection_.reset();
    setFilePath(QString());
    std::vector<PinnedPlan> computed;
    for (const PlanPin& p : pins) computed.push_back(pinned(p));
    setPins(computed);
    setScenario(s);
}

void PlannerDocument::setPins(const std::vector<PinnedPlan>& pins) {
    if (pins.empty() && pins_.empty()) return;
    pins_ = pins;
    emit pinsChanged();
}

void PlannerDocument::editPins(const std::vector<PinnedPlan>& next, const QString& description) {
    undo_->push(new PinsCommand(this, pins_, next, description));
}

bool PlannerDocument::pinPlan(QString* refusal) {
    if (pins_.size() >= kMaxPins) {
        *refusal = tr("Already %1 plans pinned: remove one in the Compare panel to pin another.").arg(static_cast<int>(kMaxPins));
        return false;
    }
    if (recompute_pending_) recomputeNow();  // the plan of the scenario as it is now
    const Scenario s = exportScenario();
    std::vector<PinnedPlan> next = pins_;
    next.push_back(pinned(PlanPin{default_pin_name(s), s}));
    editPins(next, tr("Pin %1").arg(QString::fromStdString(next.back().pin.name)));
    return true;
}

void PlannerDocument::renamePin(int index, const QString& name) {
    if (index < 0 || index >= static_cast<int>(pins_.size())) return;
    const std::string text = name.trimmed().toStdString();
    if (text.empty() || text == pins_[static_cast<std::size_t>(index)].pin.name) return;
    std::vector<PinnedPlan> next = pins_;
    next[static_cast<std::size_t>(index)].pin.name = text;
    editPins(next, tr("Rename pin to %1").arg(name.trimmed()));
}

void PlannerDocument::editSession(const Scenario& next, const std::vector<PlanPin>& pins, const QString& description) {
    std::vector<PinnedPlan> computed;
    for (const PlanPin& p : pins) computed.push_back(pinned(p));
    bool same_pins = computed.size() == pins_.size();
    for (std::size_t i = 0; same_pins && i < computed.size(); ++i) same_pins = computed[i].pin == pins_[i].pin;
    undo_->beginMacro(description);
    edit(next, description);
    if (!same_pins) editPins(computed, description);
    undo_->endMacro();
}

void PlannerDocument::removePin(int index) {
    if (index < 0 || index >= static_cast<int>(pins_.size())) return;
    std::vector<PinnedPlan> next = pins_;
    const QString name = QString::fromStdString(next[static_cast<std::size_t>(index)].pin.name);
    next.erase(next.begin() + index);
    editPins(next, tr("Remove pin %1").arg(name));
}

void PlannerDocument::setScenario(const Scenario& s) {
    scenario_ = s;
    forgetShown();
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
    forgetShown();
    if (pending_selection_) {
        applySelection(*pending_selection_);
        pending_selection_.reset();
    } else {
        syncSelection();
    }
    emit resultsChanged();
}

void PlannerDocument::syncSelection() {
    forgetShown();
    if (follow_plan_ && overview_.plan_valid && overview_.plan.feasible) selected_ = overview_.plan.best.zero;
    else if (follow_plan_) selected_ = scenario_.zero;
}

void PlannerDocument::applySelection(const ZeroSetup& z) {
    forgetShown();
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

void PlannerDocument::forgetShown() {
    export_.reset();
    shown_setup_.reset();
    shown_step_.reset();
    live_figures_.reset();
    export_layout_phrase_.reset();
}

const Scenario& PlannerDocument::exportScenario() const {
    if (!export_) {
        if (follow_plan_ && overview_.plan_valid && overview_.plan.feasible) {
            export_ = with_candidate(scenario_, overview_.plan.best);
        } else {
            // A clicked bar: the candidate it draws (its layout, micro batch and recompute: with a
            // size on auto the scenario's own layout is not the one the bar was measured at).
            const auto bar = std::find_if(overview_.bars.begin(), overview_.bars.end(),
                                          [&](const Candidate& c) { return same_setup(c.zero, selected_); });
            export_ = bar != overview_.bars.end() ? with_candidate(scenario_, *bar) : with_setup(scenario_, selected_);
        }
    }
    return *export_;
}

const ShownSetup& PlannerDocument::shownSetup() const {
    if (shown_setup_) return *shown_setup_;
    const Overview& o = overview_;
    if (follow_plan_ && o.plan_valid && o.plan.feasible) {
        shown_setup_ = ShownSetup{with_candidate(scenario_, o.plan.best), o.plan.best.memory, o.plan.best.fit.gpu};
        return *shown_setup_;
    }
    // A clicked bar: its candidate, figures included, is in the overview already.
    for (const Candidate& c : o.bars) {
        if (!same_setup(c.zero, selected_)) continue;
        shown_setup_ = ShownSetup{with_candidate(scenario_, c), c.memory, c.fit.gpu};
        return *shown_setup_;
    }
    const Scenario& e = exportScenario();
    const MemoryBreakdown m = estimate_memory(e);  // throws InputError: nothing is kept
    shown_setup_ = ShownSetup{e, m, check_fit(e, m).gpu};
    return *shown_setup_;
}

const ShownStep& PlannerDocument::shownStep() const {
    if (shown_step_) return *shown_step_;
    ShownStep step;
    try {
        step.setup = shownSetup();
        step.setup.scenario = at_fit_deciding_stage(step.setup.scenario);
        step.moments = step_timeline(step.setup.scenario, TimelineDetail::EveryLayer);
    } catch (const InputError& e) {
        step.moments.clear();
        step.error = e.what();
    }
    shown_step_ = std::move(step);
    return *shown_step_;
}

const PlanFigures& PlannerDocument::liveFigures() const {
    if (!live_figures_) live_figures_ = plan_figures(exportScenario());
    return *live_figures_;
}

const Phrase& PlannerDocument::exportLayoutPhrase() const {
    if (!export_layout_phrase_) export_layout_phrase_ = layout_phrase(exportScenario());
    return *export_layout_phrase_;
}

}  // namespace zp::ui
