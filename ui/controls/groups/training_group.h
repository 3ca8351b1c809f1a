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
    void connectEdits();

    QComboBox* engine_;
    QComboBox* fsdp_precision_;
    QCheckBox* hybrid_shard_;
    QComboBox* release_;               // kDeepSpeedReleaseEras' index, or -1: the release switches set one by one
    QComboBox* transformers_release_;  // kTransformersReleaseEras' index, or -1 as above
    QComboBox* precision_;
    QComboBox* optimizer_;
    ScaledSlider* seq_;
    EditDoubleSpinBox* global_batch_;
    EditSpinBox* micro_batch_;
    QComboBox* checkpointing_;
    QCheckBox* flash_;
    QCheckBox* loss_upcast_;
    QComboBox* loss_kernel_;
    QComboBox* attention_softmax_;
    QComboBox* lm_head_;
    QComboBox* gradient_accumulation_;
    QCheckBox* fused_optimizer_;
    QCheckBox* bf16_master_;
    QCheckBox* fp8_;
    QComboBox* fp8_scaling_;
    QComboBox* optimizer_storage_;
    QCheckBox* kv_cache_;
    QCheckBox* outputs_kept_;
    EditSpinBox* logit_metrics_;  // Training::logit_metrics
    QCheckBox* tiled_mlp_;
    QCheckBox* reentrant_;
    QCheckBox* cpu_checkpointing_;
    QCheckBox* partition_activations_;
    QCheckBox* expandable_segments_;
    QCheckBox* int64_kernels_;
    EditDoubleSpinBox* headroom_;
    EditDoubleSpinBox* data_seconds_;  // Training::data_seconds_per_sample
    QComboBox* convention_;
};

}  // namespace zp::ui
