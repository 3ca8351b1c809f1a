#include "ui/controls/control_panel.h"

#include "ui/controls/finetune_group.h"
#include "ui/controls/gpu_group.h"
#include "ui/controls/host_group.h"
#include "ui/controls/model_group.h"
#include "ui/controls/network_group.h"
#include "ui/controls/parallelism_group.h"
#include "ui/controls/training_group.h"
#include "ui/controls/zeropp_group.h"
#include "ui/document/planner_document.h"

#include <QPushButton>
#include <QVBoxLayout>

namespace zp::ui {

ControlPanel::ControlPanel(PlannerDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* layout = new QVBoxLayout(this);
    // In this order on screen and in the tab order.
    layout->addWidget(model_ = new ModelGroup(doc));
    layout->addWidget(gpus_ = new GpuGroup(doc));
    layout->addWidget(network_ = new NetworkGroup(doc));
    layout->addWidget(parallelism_ = new ParallelismGroup(doc));
    layout->addWidget(zeropp_ = new ZeroppGroup(doc));
    layout->addWidget(host_ = new HostGroup(doc));
    layout->addWidget(finetune_ = new FinetuneGroup(doc));
    layout->addWidget(training_ = new TrainingGroup(doc));
    layout->addStretch(1);

    connect(model_->importButton(), &QPushButton::clicked, this, &ControlPanel::importHfConfigRequested);
    connect(doc_, &PlannerDocument::scenarioChanged, this, &ControlPanel::syncFromDocument);
    syncFromDocument();
}

ScaledSlider* ControlPanel::gpuCountSlider() const { return gpus_->gpuCountSlider(); }
ScaledSlider* ControlPanel::modelSizeSlider() const { return model_->modelSizeSlider(); }
QComboBox* ControlPanel::modelCombo() const { return model_->modelCombo(); }
QComboBox* ControlPanel::gpuCombo() const { return gpus_->gpuCombo(); }
QComboBox* ControlPanel::nodeCombo() const { return gpus_->nodeCombo(); }

// Shows the document. Nothing here emits an edit: the groups listen only to user signals.
void ControlPanel::syncFromDocument() {
    const Scenario& s = doc_->scenario();
    model_->sync(s);
    gpus_->sync(s);
    network_->sync(s);
    parallelism_->sync(s);
    zeropp_->sync(s);
    host_->sync(s);
    finetune_->sync(s);
    training_->sync(s);
}

}  // namespace zp::ui
