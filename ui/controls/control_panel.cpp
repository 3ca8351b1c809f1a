#include "ui/controls/control_panel.h"

#include "core/presets/cluster_presets.h"
#include "core/presets/job_presets.h"
#include "ui/controls/groups/finetune_group.h"
#include "ui/controls/groups/gpu_group.h"
#include "ui/controls/groups/host_group.h"
#include "ui/controls/groups/job_group.h"
#include "ui/controls/groups/model_group.h"
#include "ui/controls/groups/network_group.h"
#include "ui/controls/groups/parallelism_group.h"
#include "ui/controls/groups/training_group.h"
#include "ui/controls/groups/zeropp_group.h"
#include "ui/document/planner_document.h"

#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <iterator>

namespace zp::ui {

namespace {

// Which controls each job shows first (the ones that matter for that job); the
// rest wait under their box's Advanced. Custom (no job chosen: every session saved before format
// 16) shows them all. A control not listed is advanced for every job.
constexpr unsigned bit(Job j) { return 1u << static_cast<unsigned>(j); }
constexpr unsigned kPre = bit(Job::PreTraining), kFull = bit(Job::FullFineTune), kLora = bit(Job::Lora), kQlora = bit(Job::Qlora),
                   kLong = bit(Job::LongContext), kEvery = kPre | kFull | kLora | kQlora | kLong;
struct FirstControl {
    const char* name;
    unsigned jobs;
};
constexpr std::array<FirstControl, 26> kFirstControls{{
    {"job", kEvery},
    {"model", kEvery},
    {"model_size", kEvery},
    {"node", kEvery},
    {"gpu_count", kEvery},
    {"gpu_count_error", kEvery},
    {"gpu", kEvery},
    {"zeropp_info", kEvery},
    {"tensor_parallel", kPre},
    {"pipeline_parallel", kPre},
    {"ulysses", kLong},
    {"finetune_method", kLora | kQlora},
    {"lora_rank", kLora | kQlora},
    {"lora_targets", kLora | kQlora},
    {"base_precision", kQlora},
    {"engine", kEvery},
    {"precision", kPre | kFull},
    {"optimizer", kPre | kFull},
    {"seq_len", kEvery},
    {"global_batch", kEvery},
    {"micro_batch", kEvery},
    {"checkpointing", kEvery},
    {"tiled_mlp", kLong},
    {"cpu_checkpointing", kLong},
    {"expandable_segments", kLong},
    {"loss_kernel", kLong},
}};
// On "My cluster" (a node no preset is), the node's own fields come first too.
constexpr std::array<const char*, 7> kClusterControls{
    {"gpus_per_node", "gpu_memory", "inter_node_bandwidth", "nics_per_node", "intra_node_bandwidth", "cpu_ram", "nvme"}};

bool shownFirst(const QString& control, Job job, bool myCluster) {
    if (job == Job::Custom) return true;
    const QByteArray name = control.toLatin1();
    const auto listed = std::find_if(kFirstControls.begin(), kFirstControls.end(), [&](const FirstControl& c) { return name == c.name; });
    if (listed != kFirstControls.end() && (listed->jobs & bit(job))) return true;
    return myCluster && std::any_of(kClusterControls.begin(), kClusterControls.end(), [&](const char* c) { return name == c; });
}

QString advancedKey(const QWidget* group) { return QStringLiteral("controls/advanced/") + group->objectName(); }

}  // namespace

ControlPanel::ControlPanel(PlannerDocument* doc, QWidget* parent, bool rememberAdvanced)
    : QWidget(parent), doc_(doc), remember_(rememberAdvanced) {
    auto* layout = new QVBoxLayout(this);
    // In this order on screen and in the tab order: what the plan is for and on what first.
    layout->addWidget(job_ = new JobGroup(doc, this));
    layout->addWidget(gpus_ = new GpuGroup(doc, this));
    layout->addWidget(model_ = new ModelGroup(doc, this));
    layout->addWidget(network_ = new NetworkGroup(doc, this));
    layout->addWidget(parallelism_ = new ParallelismGroup(doc, this));
    layout->addWidget(zeropp_ = new ZeroppGroup(doc, this));
    layout->addWidget(host_ = new HostGroup(doc, this));
    layout->addWidget(finetune_ = new FinetuneGroup(doc, this));
    layout->addWidget(training_ = new TrainingGroup(doc, this));
    layout->addStretch(1);
    const std::array<std::pair<ControlGroup*, const char*>, 9> names{{{job_, "group_job"},
                                                                      {gpus_, "group_gpus"},
                                                                      {model_, "group_model"},
                                                                      {network_, "group_network"},
                                                                      {parallelism_, "group_parallelism"},
                                                                      {zeropp_, "group_zeropp"},
                                                                      {host_, "group_host"},
                                                                      {finetune_, "group_finetune"},
                                                                      {training_, "group_training"}}};
    for (const auto& [group, name] : names) {
        group->setObjectName(QLatin1String(name));
        group->setRowsBuiltCallback([this](ControlGroup* g) { emit rowsBuilt(g); });
        groups_ << group;
    }

    connect(model_->importButton(), &QPushButton::clicked, this, &ControlPanel::importHfConfigRequested);
    // "My cluster" opens the fields that describe the node: GPUs, network, host.
    connect(gpus_->nodeCombo(), &QComboBox::activated, this, [this](int index) {
        if (gpus_->nodeCombo()->itemData(index).toString() == kCustomEntry) openClusterFields();
    });
    connect(doc_, &PlannerDocument::scenarioChanged, this, &ControlPanel::syncFromDocument);
    syncFromDocument();
    for (ControlGroup* g : std::as_const(groups_)) {
        if (remember_) g->setAdvancedOpen(QSettings().value(advancedKey(g), false).toBool());
        connect(g->advancedButton(), &QToolButton::toggled, this, [this, g](bool open) {
            if (remember_) QSettings().setValue(advancedKey(g), open);
        });
    }
}

ScaledSlider* ControlPanel::gpuCountSlider() const { return gpus_->gpuCountSlider(); }
ScaledSlider* ControlPanel::modelSizeSlider() const { return model_->modelSizeSlider(); }
QComboBox* ControlPanel::modelCombo() const { return model_->modelCombo(); }
QComboBox* ControlPanel::gpuCombo() const { return gpus_->gpuCombo(); }
QComboBox* ControlPanel::nodeCombo() const { return gpus_->nodeCombo(); }
QComboBox* ControlPanel::jobCombo() const { return job_->jobCombo(); }

void ControlPanel::openClusterFields() {
    for (ControlGroup* g : {static_cast<ControlGroup*>(gpus_), static_cast<ControlGroup*>(network_), static_cast<ControlGroup*>(host_)})
        g->setAdvancedOpen(true);
}

void ControlPanel::setAllAdvancedOpen(bool open) {
    for (ControlGroup* g : std::as_const(groups_)) g->setAdvancedOpen(open);
}

// Shows the document. Nothing here emits an edit: the groups listen only to user signals.
void ControlPanel::syncFromDocument() {
    const Scenario& s = doc_->scenario();
    for (ControlGroup* g : std::as_const(groups_)) g->showDocument(s);
    // The rows shown first follow the job shown (a QLoRA method on a full fine-tune's job is a
    // QLoRA job) and whether the node is one of the presets.
    const bool myCluster = cluster_preset_of(s.cluster) == nullptr;
    const Job job = job_shown(s);
    if (!shown_for_ || shown_for_->first != job || shown_for_->second != myCluster) {
        shown_for_ = std::make_pair(job, myCluster);
        for (ControlGroup* g : std::as_const(groups_))
            g->setEssentialRows([&](const QString& control) { return shownFirst(control, job, myCluster); });
    }
}

}  // namespace zp::ui
