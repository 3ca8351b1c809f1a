#include "ui/controls/groups/parallelism_group.h"

#include "core/base/errors.h"
#include "core/model/enum_names.h"
#include "core/model/parallel_layout.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/widgets/edit_spin_box.h"
#include "ui/widgets/wrapped_text.h"

#include <QCheckBox>
#include <QFormLayout>

#include <algorithm>

namespace zp::ui {

ParallelismGroup::ParallelismGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Model parallelism"), parent) {
    // The sizes: under Advanced but for pre-training (tensor, pipeline) and long context
    // (Ulysses), so built when first shown (control_group.h). The layout line is always shown.
    buildRowsWhenShown(
        {"tensor_parallel", "pipeline_parallel", "virtual_stages", "sequence_parallel", "pipeline_send", "ulysses", "expert_parallel"},
        [this] {
            addSizeRows();
            connectEdits();
        });
    layout_info_ = new WrappedText;  // unnamed: a row without a name is never folded under Advanced
    layout_info_->setAccessibleDescription(tr("The layout in words: its data-parallel groups, or what the layout search chose"));
    form_->addRow(layout_info_);
    connect(doc_, &PlannerDocument::resultsChanged, this, &ParallelismGroup::showLayoutInfo);
}

void ParallelismGroup::addSizeRows() {
    tensor_parallel_ = named(tip(new QComboBox(this), tr("Tensor parallelism: each layer's matrices split over this many GPUs of a node "
                                                         "(Megatron). Off: 1. Auto: the recommender chooses.")),
                             "tensor_parallel");
    tensor_parallel_->setAccessibleName(tr("Tensor parallel size"));
    form_->addRow(tr("Tensor"), tensor_parallel_);
    pipeline_parallel_ = named(tip(new EditSpinBox, tr("Pipeline parallelism: the layers split into this many stages (1F1B). "
                                                       "DeepSpeed runs it with ZeRO stage 0 or 1 only. Auto: the recommender chooses.")),
                               "pipeline_parallel");
    pipeline_parallel_->setRange(0, static_cast<int>(limits::kLayers.max));  // 0 shows "auto" (Parallelism::auto_pipeline)
    pipeline_parallel_->setSpecialValueText(tr("auto"));
    pipeline_parallel_->setAccessibleName(tr("Pipeline parallel size"));
    form_->addRow(tr("Pipeline"), pipeline_parallel_);
    virtual_stages_ = named(tip(new EditSpinBox, tr("Interleaved 1F1B: model chunks per pipeline GPU; shrinks the bubble, adds "
                                                    "communication. 1: plain 1F1B.")),
                            "virtual_stages");
    virtual_stages_->setRange(1, static_cast<int>(limits::kLayers.max));
    virtual_stages_->setAccessibleName(tr("Virtual pipeline stages"));
    form_->addRow(tr("Virtual stages"), virtual_stages_);
    sequence_parallel_ = named(tip(new QCheckBox(tr("Sequence parallelism (Megatron)")),
                                   tr("Splits the layer norms' and dropouts' activations over the tensor-parallel GPUs too.")),
                               "sequence_parallel");
    sequence_parallel_->setAccessibleName(tr("Sequence parallelism (Megatron)"));
    form_->addRow(sequence_parallel_);
    pipeline_send_ =
        named(tip(new QComboBox(this), tr("What a pipeline stage sends its neighbour from each tensor-parallel GPU: a t-th of the "
                                          "activation, gathered at the receiver (DeepSpeed's PipelineEngine, Megatron-LM "
                                          "2021-2022's scatter/gather), or the whole activation (Megatron-Core).")),
              "pipeline_send");
    const auto sendLabel = [](PipelineSend p) {
        switch (p) {
        case PipelineSend::Whole: return tr("whole activation");
        case PipelineSend::ScatterGather: return tr("a t-th (scatter/gather)");
        }
        return QString();
    };
    addEnumItems<PipelineSend>(pipeline_send_, sendLabel);
    pipeline_send_->setAccessibleName(tr("Pipeline send"));
    form_->addRow(tr("Stage sends"), pipeline_send_);
    ulysses_ =
        named(tip(new QComboBox(this), tr("DeepSpeed-Ulysses (sequence_parallel_size): each sequence split over this many GPUs, "
                                          "all-to-alls around attention; divides the heads. Without tensor or pipeline parallelism.")),
              "ulysses");
    ulysses_->setAccessibleName(tr("Ulysses sequence parallel size"));
    form_->addRow(tr("Ulysses"), ulysses_);
    expert_parallel_ =
        named(tip(new QComboBox(this), tr("Expert parallelism (DeepSpeed-MoE ep_size): each GPU holds this share of the experts; "
                                          "divides the experts and the data-parallel GPUs. Models with experts only.")),
              "expert_parallel");
    expert_parallel_->setAccessibleName(tr("Expert parallel size"));
    form_->addRow(tr("Experts"), expert_parallel_);
}

void ParallelismGroup::connectEdits() {
    connect(tensor_parallel_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(tensor_parallel_->itemData(index).toLongLong());
        edit(EditTensorParallel, tr("Change tensor parallelism"), [&](Scenario& s) {
            s.parallel.auto_tensor = size == 0;
            if (size == 0) {  // the search chooses; the stored size starts at 1 so no model or cluster edit refuses it
                s.parallel.tensor = 1;
                s.parallel.sequence_parallel = false;
                return;
            }
            s.parallel.tensor = size;
            if (size < 2) s.parallel.sequence_parallel = false;
        });
    });
    connect(pipeline_parallel_, &EditSpinBox::valueEdited, this, [this](int v) {
        edit(EditPipelineParallel, tr("Change pipeline parallelism"), [&](Scenario& s) {
            s.parallel.auto_pipeline = v == 0;
            if (v == 0) {
                s.parallel.pipeline = 1;
                s.parallel.virtual_stages = 1;
                return;
            }
            s.parallel.pipeline = v;
            if (v < 2) s.parallel.virtual_stages = 1;
        });
    });
    connect(virtual_stages_, &EditSpinBox::valueEdited, this, [this](int v) {
        edit(EditVirtualStages, tr("Change virtual pipeline stages"), [&](Scenario& s) { s.parallel.virtual_stages = v; });
    });
    connect(ulysses_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(ulysses_->itemData(index).toLongLong());
        edit(EditUlysses, tr("Change Ulysses sequence parallelism"), [&](Scenario& s) {
            s.parallel.auto_ulysses = size == 0;
            s.parallel.ulysses = std::max<std::int64_t>(size, 1);
        });
    });
    connect(expert_parallel_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(expert_parallel_->itemData(index).toLongLong());
        edit(EditExpertParallel, tr("Change expert parallelism"), [&](Scenario& s) {
            s.parallel.auto_expert = size == 0;
            s.parallel.expert = std::max<std::int64_t>(size, 1);
        });
    });
    connect(sequence_parallel_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditSequenceParallel, tr("Toggle sequence parallelism"), [&](Scenario& s) { s.parallel.sequence_parallel = on; });
    });
    onActivated(pipeline_send_, EditPipelineSend, tr("Change what a pipeline stage sends"),
                [](Scenario& s, const std::string& v) { s.parallel.pipeline_send = parse_enum<PipelineSend>(v); });
}

// The data-parallel groups of the layout; with a size on auto, the layout the plan chose.
void ParallelismGroup::showLayoutInfo() {
    const Scenario& s = doc_->scenario();
    QString layout;
    try {
        validate_parallelism(s);
        if (s.parallel.searched()) {
            const Scenario& chosen = doc_->exportScenario();   // the recommended candidate's layout
            const Phrase& words = doc_->exportLayoutPhrase();  // the core's: "tensor 4 x pipeline 6 x data 16"
            // The search may choose no model parallelism: said as the fixed layout says it.
            layout = !words.text.empty() ? tr("Chosen: %1 (%2)").arg(translated(words), translated(data_parallel_phrase(chosen)))
                     : chosen.cluster.world_size() == 1
                         ? tr("Chosen: none, one GPU")
                         : tr("Chosen: none, data parallel over %1").arg(translated(data_parallel_phrase(chosen)));
        } else if (s.parallel.model_parallel() <= 1 && ulysses_size(s.parallel) <= 1 && s.parallel.expert <= 1) {
            // A bare "8 GPUs" read as a GPU count: say that nothing is split but the data.
            layout = s.cluster.world_size() == 1 ? tr("None: one GPU")
                                                 : tr("None: data parallel over %1").arg(translated(data_parallel_phrase(s)));
        } else {
            layout = translated(data_parallel_phrase(s));  // the core's words: "8 data-parallel groups of 48 GPUs"
        }
    } catch (const InputError& e) {
        layout = QString::fromStdString(e.what());
    }
    if (layout_info_->text() != layout) layout_info_->setText(layout);
}

void ParallelismGroup::sync(const Scenario&) { showLayoutInfo(); }

void ParallelismGroup::syncWaitingRows(const Scenario& s) {
    // The sizes core accepts (core/model/parallel_layout.h), "off" for 1, "auto" first.
    std::vector<std::int64_t> tensor_sizes = tensor_parallel_sizes(s);
    tensor_sizes.insert(tensor_sizes.begin(), 0);
    showGpuGroupSizes(tensor_parallel_, tensor_sizes, s.parallel.auto_tensor ? 0 : s.parallel.tensor);
    pipeline_parallel_->showValue(s.parallel.auto_pipeline ? 0 : static_cast<int>(s.parallel.pipeline));
    // With a size searched, the search also chooses the virtual stages and Megatron's sequence
    // parallelism (searched_layouts).
    virtual_stages_->showValue(static_cast<int>(s.parallel.virtual_stages));
    virtual_stages_->setEnabled(s.parallel.pipeline > 1 && !s.parallel.auto_pipeline);
    setCheckedIfChanged(sequence_parallel_, s.parallel.sequence_parallel);
    sequence_parallel_->setEnabled(s.parallel.tensor > 1 && !s.parallel.auto_tensor);
    setIndexIfChanged(pipeline_send_, pipeline_send_->findData(QString::fromLatin1(to_string(s.parallel.pipeline_send))));
    pipeline_send_->setEnabled(s.parallel.pipeline > 1 || s.parallel.auto_pipeline);
    // "auto" first, then the sizes core offers (the layout line says why one is refused).
    std::vector<std::int64_t> sizes = ulysses_degrees(s);
    sizes.insert(sizes.begin(), 0);
    showGpuGroupSizes(ulysses_, sizes, s.parallel.auto_ulysses ? 0 : s.parallel.ulysses);
    std::vector<std::int64_t> experts = expert_parallel_sizes(s.model);
    experts.insert(experts.begin(), 0);
    showGpuGroupSizes(expert_parallel_, experts, s.parallel.auto_expert ? 0 : s.parallel.expert);
    expert_parallel_->setEnabled(s.model.experts > 1 || s.parallel.expert > 1);  // a size a dense model refuses can be reset
}

}  // namespace zp::ui
