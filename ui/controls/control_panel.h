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
#include <QWidget>

class QComboBox;

namespace zp::ui {

class FinetuneGroup;
class GpuGroup;
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
    explicit ControlPanel(PlannerDocument* doc, QWidget* parent = nullptr);

    // Exposed for tests and the benchmark, which drive the real widgets. Every control also
    // has an objectName (its scenario field: "micro_batch", "precision", ...) for findChild.
    ScaledSlider* gpuCountSlider() const;
    ScaledSlider* modelSizeSlider() const;
    QComboBox* modelCombo() const;
    QComboBox* gpuCombo() const;
    QComboBox* nodeCombo() const;

signals:
    void importHfConfigRequested();

private:
    void syncFromDocument();

    PlannerDocument* doc_;
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
