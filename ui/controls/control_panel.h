#pragma once
// The controls on the left. Each user edit becomes one undoable document edit; the panel
// re-reads the document after every change (undo included). The controls connect only
// signals that user edits fire (QComboBox::activated, QAbstractButton::clicked, the
// valueEdited of ScaledSlider and the Edit*SpinBox wrappers), so showing the document's
// values emits no edit and needs no QSignalBlocker. Their ranges and lists come from the core:
// core/model/limits.h, core/model/enum_names.h and the preset tables.
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;

namespace zp {
struct Scenario;
}

namespace zp::ui {

class EditDoubleSpinBox;
class EditSpinBox;
class PlannerDocument;
class ScaledSlider;

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(PlannerDocument* doc, QWidget* parent = nullptr);

    // Exposed for tests and the benchmark, which drive the real widgets. Every control also
    // has an objectName (its scenario field: "micro_batch", "precision", ...) for findChild.
    ScaledSlider* gpuCountSlider() const { return gpus_; }
    ScaledSlider* modelSizeSlider() const { return size_; }
    QComboBox* modelCombo() const { return model_; }
    QComboBox* gpuCombo() const { return gpu_; }
    QComboBox* nodeCombo() const { return node_; }

signals:
    void importHfConfigRequested();

private:
    // One undoable edit: the document's scenario changed by `mutate`, described as `text`;
    // consecutive edits with the same merge `id` (one per control) become one undo step.
    void edit(int id, const QString& text, const std::function<void(Scenario&)>& mutate);
    void editGpuCount(double gpus, int nodeSize);
    void syncFromDocument();
    void showLayoutInfo();
    void showZeroppInfo();

    PlannerDocument* doc_;
    QComboBox* model_;
    ScaledSlider* size_;
    QLabel* model_info_;
    QComboBox* node_;
    ScaledSlider* gpus_;
    EditSpinBox* node_size_;
    QLabel* gpu_error_;
    QComboBox* gpu_;
    ScaledSlider* gpu_mem_;
    ScaledSlider* inter_bw_;
    EditSpinBox* nics_;
    QComboBox* intra_bw_;
    EditDoubleSpinBox* cpu_ram_;
    EditDoubleSpinBox* nvme_;
    QCheckBox* pin_memory_;
    QComboBox* hpz_;
    QComboBox* tensor_parallel_;
    EditSpinBox* pipeline_parallel_;
    EditSpinBox* virtual_stages_;
    QCheckBox* sequence_parallel_;
    QComboBox* ulysses_;
    QComboBox* expert_parallel_;
    QLabel* layout_info_;
    QCheckBox* quantized_weights_;
    QCheckBox* quantized_gradients_;
    QComboBox* mics_shard_;
    QLabel* zeropp_info_;  // with hpZ on auto: what the plan chose
    QCheckBox* load_16bit_;
    QCheckBox* low_cpu_mem_;
    QComboBox* precision_;
    QComboBox* optimizer_;
    ScaledSlider* seq_;
    EditDoubleSpinBox* global_batch_;
    EditSpinBox* micro_batch_;
    QComboBox* checkpointing_;
    QCheckBox* flash_;
    QCheckBox* loss_upcast_;
    QComboBox* loss_kernel_;
    QCheckBox* fused_optimizer_;
    EditDoubleSpinBox* headroom_;
    QComboBox* convention_;
    QComboBox* finetune_method_;
    EditSpinBox* lora_rank_;
    QComboBox* lora_targets_;
    QComboBox* base_precision_;
};

}  // namespace zp::ui
