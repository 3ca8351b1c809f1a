#include "ui/controls/groups/finetune_group.h"

#include "core/model/trainable_params.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include <QFormLayout>

namespace zp::ui {

FinetuneGroup::FinetuneGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Fine-tuning"), parent) {
    buildRowsWhenShown({"finetune_method", "lora_rank", "lora_targets", "base_precision"}, [this] {
        addRows();
        connectEdits();
    });
}

void FinetuneGroup::addRows() {
    finetune_method_ = named(tip(new QComboBox(this), tr("Full: every weight trained. LoRA: adapters on a frozen 16-bit base (PEFT). "
                                                         "QLoRA: adapters on a base quantised to 4 or 8 bits (bitsandbytes).")),
                             "finetune_method");
    const auto methodLabel = [](FineTuneMethod m) {
        switch (m) {
        case FineTuneMethod::Full: return tr("full");
        case FineTuneMethod::Lora: return tr("LoRA");
        case FineTuneMethod::Qlora: return tr("QLoRA");
        }
        return QString::fromLatin1(to_string(m));
    };
    addEnumItems<FineTuneMethod>(finetune_method_, methodLabel);
    finetune_method_->setAccessibleName(tr("Fine-tuning method"));
    form_->addRow(tr("Method"), finetune_method_);
    lora_rank_ =
        named(tip(new EditSpinBox, tr("LoRA rank r: each adapted Linear(in, out) trains r x (in + out) parameters.")), "lora_rank");
    lora_rank_->setRange(1, 65536);
    lora_rank_->setAccessibleName(tr("LoRA rank"));
    form_->addRow(tr("LoRA rank"), lora_rank_);
    lora_targets_ =
        named(tip(new QComboBox(this), tr("Which Linear modules get adapters: PEFT's default for the model type, every attention "
                                          "projection, or every Linear but the output layer (all-linear).")),
              "lora_targets");
    for (const auto& n : enum_names<LoraTargets>())
        if (n.value != LoraTargets::Modules) lora_targets_->addItem(QString::fromLatin1(n.name), QString::fromLatin1(n.name));
    lora_targets_->setAccessibleName(tr("LoRA target modules"));
    form_->addRow(tr("Targets"), lora_targets_);
    base_precision_ = named(tip(new QComboBox(this), tr("How the frozen base is stored: auto (the training dtype; NF4 for QLoRA), 16-bit, "
                                                        "LLM.int8 or 4-bit NF4/FP4.")),
                            "base_precision");
    for (const auto& n : enum_names<BasePrecision>()) base_precision_->addItem(QString::fromLatin1(n.name), QString::fromLatin1(n.name));
    base_precision_->setAccessibleName(tr("Base precision"));
    form_->addRow(tr("Base"), base_precision_);
}

void FinetuneGroup::connectEdits() {
    onActivated(finetune_method_, EditFineTuneMethod, tr("Change fine-tuning method"), [](Scenario& s, const std::string& v) {
        FineTune& ft = s.finetune;
        ft.method = parse_enum<FineTuneMethod>(v);
        // A quantised base goes with QLoRA, a 16-bit one with LoRA: switching picks the method's own.
        const bool quantised = is_quantized_base(ft.base_precision);
        if (ft.method == FineTuneMethod::Qlora ? !quantised : quantised) ft.base_precision = BasePrecision::Auto;
    });
    onActivated(lora_targets_, EditLoraTargets, tr("Change LoRA targets"),
                [](Scenario& s, const std::string& v) { s.finetune.targets = parse_enum<LoraTargets>(v); });
    onActivated(base_precision_, EditBasePrecision, tr("Change base precision"), [](Scenario& s, const std::string& v) {
        FineTune& ft = s.finetune;
        ft.base_precision = parse_enum<BasePrecision>(v);
        const bool quantised = is_quantized_base(ft.base_precision);
        if (quantised) ft.method = FineTuneMethod::Qlora;
        else if (ft.method == FineTuneMethod::Qlora && ft.base_precision != BasePrecision::Auto) ft.method = FineTuneMethod::Lora;
    });
    connect(lora_rank_, &EditSpinBox::valueEdited, this,
            [this](int r) { edit(EditLoraRank, tr("Change LoRA rank"), [&](Scenario& s) { s.finetune.lora_rank = r; }); });
}

void FinetuneGroup::syncWaitingRows(const Scenario& s) {
    const FineTune& ft = s.finetune;
    setIndexIfChanged(finetune_method_, finetune_method_->findData(QString::fromLatin1(to_string(ft.method))));
    lora_rank_->showValue(static_cast<int>(ft.lora_rank));
    int targets_index = lora_targets_->findData(QString::fromLatin1(to_string(ft.targets)));
    if (ft.targets == LoraTargets::Modules) {
        // Named modules come from a session or the command line: shown as they are.
        const QString label = tr("modules: %1").arg(QString::fromStdString(ft.target_modules));
        targets_index = lora_targets_->findText(label);
        if (targets_index < 0) {
            lora_targets_->addItem(label, QStringLiteral("modules"));
            targets_index = lora_targets_->count() - 1;
        }
    }
    setIndexIfChanged(lora_targets_, targets_index);
    setIndexIfChanged(base_precision_, base_precision_->findData(QString::fromLatin1(to_string(ft.base_precision))));
    lora_rank_->setEnabled(ft.adapters());
    lora_targets_->setEnabled(ft.adapters());
}

}  // namespace zp::ui
