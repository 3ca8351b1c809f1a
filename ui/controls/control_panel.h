#pragma once
// The controls on the left: one box per group of settings (model_group.h, gpu_group.h,
// network_group.h, parallelism_group.h, zeropp_group.h, host_group.h, finetune_group.h,
// training_group.h), each owning its controls, their edits and showing the document. Each user
// edit becomes one undoable document edit; the panel re-reads the document after every change
// (undo included). The controls connect only signals that user edits fire
// (QComboBox::activated, QAbstractButton::clicked, the valueEdited of ScaledSlider and the
// Edit*SpinBox wrappers), so showing the document's values emits no edit and needs no
// QSignalBlocker. Their ranges and lists come from the core: core/model/limits.h,
// core/model/enum_names.h and the preset tables. The groups' strings are translated in this
// class's context (control_group.h).
#include "core/model/job.h"

#include <QList>
#include <QWidget>

#include <optional>
#include <utility>

class QComboBox;

namespace zp::ui {

class ControlGroup;
class FinetuneGroup;
class GpuGroup;
class JobGroup;
class HostGroup;
class ModelGroup;
class NetworkGroup;
class ParallelismGroup;
class PlannerDocument;
class ScaledSlider;
class TrainingGroup;
class ZeroppGroup;

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    // rememberAdvanced: each box's Advanced open or closed as the user left it (QSettings); off
    // for the windows of screenshots, tests and benchmarks, which start with every box closed.
    explicit ControlPanel(PlannerDocument* doc, QWidget* parent = nullptr, bool rememberAdvanced = false);

    // Exposed for tests and the benchmark, which drive the real widgets. Every control also
    // has an objectName (its scenario field: "micro_batch", "precision", ...) for findChild.
    ScaledSlider* gpuCountSlider() const;
    ScaledSlider* modelSizeSlider() const;
    QComboBox* modelCombo() const;
    QComboBox* gpuCombo() const;
    QComboBox* nodeCombo() const;
    QComboBox* jobCombo() const;
    // Every box's Advanced open (tests that drive every control) or closed.
    void setAllAdvancedOpen(bool open);
    // The node's own fields (GPUs, network, host) opened: "My cluster".
    void openClusterFields();

signals:
    void importHfConfigRequested();
    // A box built the rows it held back (control_group.h, buildRowsWhenShown), after the panel was made.
    void rowsBuilt(QWidget* group);

private:
    void syncFromDocument();

    PlannerDocument* doc_;
    bool remember_;
    QList<ControlGroup*> groups_;
    std::optional<std::pair<Job, bool>> shown_for_;  // the job and "my cluster" the shown rows follow
    JobGroup* job_;
    ModelGroup* model_;
    GpuGroup* gpus_;
    NetworkGroup* network_;
    ParallelismGroup* parallelism_;
    ZeroppGroup* zeropp_;
    HostGroup* host_;
    FinetuneGroup* finetune_;
    TrainingGroup* training_;
};

}  // namespace zp::ui
