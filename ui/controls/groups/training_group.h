#pragma once
// The Training box: the engine (DeepSpeed or PyTorch FSDP and FSDP's dtypes), precision and optimizer, sequence and batch, recompute, the kernels that
// set the activation and optimizer peaks, the headroom and the model-state convention.
#include "ui/controls/control_group.h"

#include <vector>

class QCheckBox;

namespace zp::ui {

class EditSpinBox;

class TrainingGroup : public ControlGroup {
    Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel)
public:
    explicit TrainingGroup(PlannerDocument* doc, QWidget* parent = nullptr);
    void sync(const Scenario& s) override;
    void syncWaitingRows(const Scenario& s) override;

private:
    void addStepRows();    // precision, optimizer, sequence, batches, recompute
    void addReleaseRow();  // the DeepSpeed and transformers releases, where their behaviour changes the plan
    void syncRelease(const Scenario& s);
    template <typename Eras, typename Text>
    static void addEraItems(QComboBox* combo, const Eras& eras, Text text);
    static void showEra(QComboBox* combo, int era, const std::vector<bool>& offered);
    void addMemoryRows();       // flash attention, the loss, the fused optimizer, headroom, convention
    void addSoftmaxRow();       // without flash attention, the scores' scale, masks and softmax
    void addLmHeadRow();        // where the logits' weight is read (ZeRO-3 gathers it accordingly)
    void addAccumulationRow();  // where the micro batches' gradients are summed
    void addFp8Rows();          // Transformer Engine's FP8 matmuls and their scaling recipe
    void addDataRows();         // the data pipeline's pace
    void addOutputRows();       // what the model's output holds: its KV cache, a loop that keeps it, the loop's metrics over it
    // A check box row: its text (also its accessible name), tooltip and object name.
    QCheckBox* addBox(const QString& text, const QString& tooltip, const char* name);
    void addLongContextRows();  // ALST's parts: tiled MLP, checkpoints in host RAM, expandable segments, 64-bit kernels
    void connectLongContextEdits();
    void connectOutputEdits();   // the KV cache, the kept output, the loop's metrics
    void connectReleaseEdits();  // the DeepSpeed and transformers releases
    void connectEdits();         // the rows built with the box
    void connectWaitingEdits();  // the rows built when shown

    QComboBox* engine_ = nullptr;
    QComboBox* fsdp_precision_ = nullptr;
    QCheckBox* hybrid_shard_ = nullptr;
    QComboBox* release_ = nullptr;               // kDeepSpeedReleaseEras' index, or -1: the release switches set one by one
    QComboBox* transformers_release_ = nullptr;  // kTransformersReleaseEras' index, or -1 as above
    QComboBox* precision_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    ScaledSlider* seq_ = nullptr;
    EditDoubleSpinBox* global_batch_ = nullptr;
    EditSpinBox* micro_batch_ = nullptr;
    QComboBox* checkpointing_ = nullptr;
    QCheckBox* flash_ = nullptr;
    QCheckBox* loss_upcast_ = nullptr;
    QComboBox* loss_kernel_ = nullptr;
    QComboBox* attention_softmax_ = nullptr;
    QComboBox* lm_head_ = nullptr;
    QComboBox* gradient_accumulation_ = nullptr;
    QCheckBox* fused_optimizer_ = nullptr;
    QCheckBox* bf16_master_ = nullptr;
    QCheckBox* fp8_ = nullptr;
    QComboBox* fp8_scaling_ = nullptr;
    QComboBox* optimizer_storage_ = nullptr;
    QCheckBox* kv_cache_ = nullptr;
    QCheckBox* outputs_kept_ = nullptr;
    EditSpinBox* logit_metrics_ = nullptr;  // Training::logit_metrics
    QCheckBox* tiled_mlp_ = nullptr;
    QCheckBox* reentrant_ = nullptr;
    QCheckBox* cpu_checkpointing_ = nullptr;
    QCheckBox* partition_activations_ = nullptr;
    QCheckBox* expandable_segments_ = nullptr;
    QCheckBox* int64_kernels_ = nullptr;
    EditDoubleSpinBox* headroom_ = nullptr;
    EditDoubleSpinBox* data_seconds_ = nullptr;  // Training::data_seconds_per_sample
    QComboBox* convention_ = nullptr;
};

}  // namespace zp::ui
