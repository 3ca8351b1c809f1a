#include "ui/controls/groups/model_group.h"

#include "core/base/format.h"
#include "core/model/trainable_params.h"
#include "core/presets/model_presets.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/wrapped_text.h"

#include <QFormLayout>
#include <QPushButton>

#include <cmath>

namespace zp::ui {

using Scale = ScaledSlider::Scale;

ModelGroup::ModelGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Model"), parent) {
    model_ = named(tip(new QComboBox(this),
                       tr("A model with its exact parameter count and architecture. Changes every memory slice and the step time.")),
                   "model");
    for (const auto& p : model_presets()) model_->addItem(QString::fromStdString(p.display_name), QString::fromStdString(p.name));
    model_->addItem(tr("Custom size (synthesized)"), kCustomEntry);
    form_->addRow(tr("Preset"), model_);
    import_ = tip(new QPushButton(tr("Import config.json...")), tr("Read a Hugging Face config.json for the exact architecture"));
    form_->addRow(QString(), import_);
    // The slider spans 100M to 2T parameters; the spin box takes any size the core accepts.
    // Four decimals kept, three significant digits shown (at least two decimals): "0.0147 B" for the
    // smallest synthesized model, which two decimals showed as "0.02 B" and refused below 0.02.
    size_ = named(new ScaledSlider(0.1, 2000, 4, tr(" B params"), Scale::Logarithmic), "model_size");
    size_->showSignificantDigits(3, 2);
    setValidRange(size_, limits::kSynthesizedParams, 4, 1e-9);
    size_->setToolTips(
        tr("Model size in billions of parameters (log scale, 100M to 2T). Moving it synthesizes an architecture "
           "of that size (hidden = 128 x layers)."));
    form_->addRow(tr("Size"), size_);
    model_info_ = new WrappedText;
    // Two lines reserved, so a new model never re-lays out the panel.
    model_info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    model_info_->setFixedHeight(2 * model_info_->fontMetrics().lineSpacing() + 4);
    model_info_->setAccessibleDescription(tr("The model in numbers: its parameters, layers and hidden size"));
    form_->addRow(model_info_);
    connectEdits();
}

void ModelGroup::connectEdits() {
    connect(model_, &QComboBox::activated, this, [this](int index) {
        const QString name = model_->itemData(index).toString();
        if (name == kCustomEntry) {  // the size slider below makes a custom model; the list shows the document's
            sync(doc_->scenario());
            return;
        }
        edit(EditModel, tr("Choose model %1").arg(model_->itemText(index)),
             [&](Scenario& s) { s.model = model_preset(name.toStdString()).spec; });
    });
    connect(size_, &ScaledSlider::valueEdited, this, [this](double billions) {
        edit(EditModelSize, tr("Change model size"),
             [&](Scenario& s) { s.model = synthesize_model(static_cast<std::int64_t>(std::llround(billions * 1e9))); });
    });
}

void ModelGroup::sync(const Scenario& s) {
    int model_index = model_->findData(QString::fromStdString(s.model.name));
    if (model_index < 0) model_index = model_->findData(kCustomEntry);
    setIndexIfChanged(model_, model_index);
    const double params = static_cast<double>(parameter_count(s.model));
    size_->setValue(params / 1e9);
    const QString info = (tr("%1 parameters, %2 layers, hidden %3%4")
                              .arg(QString::fromStdString(format_count(params)))
                              .arg(s.model.layers)
                              .arg(s.model.hidden)
                              .arg(s.model.synthesized                            ? tr(" (architecture synthesized from the size)")
                                   : s.model.activation == MlpActivation::GeluNew ? tr(", activation gelu_new")
                                                                                  : QString()));
    if (model_info_->text() != info) model_info_->setText(info);
}

}  // namespace zp::ui
