#pragma once
// The controls on the left. Each edit becomes one undoable document edit; the panel
// re-reads the document after every change (undo included) without emitting edits.
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace zp::ui {

class LogSlider;
class PlannerDocument;

class ControlPanel : public QWidget {
    Q_OBJECT
public:
    explicit ControlPanel(PlannerDocument* doc, QWidget* parent = nullptr);

    // Exposed for tests and the benchmark, which drive the real widgets.
    LogSlider* gpuCountSlider() const { return gpus_; }
    LogSlider* modelSizeSlider() const { return size_; }
    QComboBox* modelCombo() const { return model_; }
    QComboBox* gpuCombo() const { return gpu_; }

signals:
    void importHfConfigRequested();

private:
    void syncFromDocument();
    void editGpuCount(double gpus, int nodeSize);

    PlannerDocument* doc_;
    QComboBox* model_;
    LogSlider* size_;
    QLabel* model_info_;
    LogSlider* gpus_;
    QSpinBox* node_size_;
    QLabel* gpu_error_;
    QComboBox* gpu_;
    LogSlider* gpu_mem_;
    LogSlider* inter_bw_;
    QComboBox* intra_bw_;
    QDoubleSpinBox* cpu_ram_;
    QDoubleSpinBox* nvme_;
    QComboBox* precision_;
    QComboBox* optimizer_;
    LogSlider* seq_;
    QSpinBox* global_batch_;
    QSpinBox* micro_batch_;
    QComboBox* checkpointing_;
    QCheckBox* flash_;
    QDoubleSpinBox* headroom_;
    QComboBox* convention_;
};

}  // namespace zp::ui
