#include "ui/dialogs/new_plan_dialog.h"

#include "core/base/errors.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/job_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "ui/controls/control_group.h"
#include "ui/controls/groups/job_group.h"

#include <QButtonGroup>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace zp::ui {

namespace {
// One line on what each job sets, under its name.
QString jobHint(Job j) {
    switch (j) {
    case Job::PreTraining: return NewPlanDialog::tr("Train from scratch: 4096 tokens, 4M tokens a step (Llama 2's recipe)");
    case Job::FullFineTune: return NewPlanDialog::tr("Train every weight: batch 64 of 4096 tokens (Llama 2's SFT)");
    case Job::Lora: return NewPlanDialog::tr("Adapters on a frozen 16-bit model: r 64 on every linear layer");
    case Job::Qlora: return NewPlanDialog::tr("Adapters on a 4-bit (NF4) model: the least GPU memory");
    case Job::LongContext: return NewPlanDialog::tr("Sequences of 128K tokens and more: Ulysses and ALST's memory savers");
    case Job::Custom: break;
    }
    return {};
}
}  // namespace

NewPlanDialog::NewPlanDialog(const Scenario& start, QWidget* parent) : QDialog(parent), start_(start) {
    setObjectName(QStringLiteral("NewPlanDialog"));
    setWindowTitle(tr("New Plan"));
    auto* layout = new QVBoxLayout(this);
    auto* what = new QGroupBox(tr("What are you planning?"));
    auto* whatLayout = new QVBoxLayout(what);
    jobs_ = new QButtonGroup(this);
    for (const auto& n : enum_names<Job>()) {
        if (n.value == Job::Custom) continue;
        auto* button = new QRadioButton(JobGroup::jobLabel(n.value));
        button->setObjectName(QStringLiteral("job_") + QString::fromLatin1(n.name));
        button->setToolTip(jobHint(n.value));
        jobs_->addButton(button, static_cast<int>(n.value));
        whatLayout->addWidget(button);
        auto* hint = new QLabel(jobHint(n.value));
        hint->setObjectName(QStringLiteral("hint_") + QString::fromLatin1(n.name));
        hint->setIndent(24);
        // Secondary text, but enabled: a disabled label was drawn at about 2:1 contrast, looked
        // unavailable and was announced as disabled. A smaller font and a mid-tone colour (restyle).
        QFont small = hint->font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        hint->setFont(small);
        hints_.append(hint);
        whatLayout->addWidget(hint);
    }
    const Job current = job_shown(start) == Job::Custom ? Job::FullFineTune : job_shown(start);
    jobs_->button(static_cast<int>(current))->setChecked(true);
    layout->addWidget(what);

    auto* on = new QGroupBox(tr("On what, and which model?"));
    auto* form = new QFormLayout(on);
    node_ = named(new QComboBox, "new_plan_node");
    std::vector<FamilyEntry> nodes;
    for (const auto& c : cluster_presets())
        nodes.push_back({QString::fromStdString(c.display_name), QString::fromStdString(c.name), gpu_family(c.cluster.gpu.name)});
    addFamilyGroupedItems(node_, nodes);
    node_->addItem(tr("My cluster (set its fields in the panel)"), kCustomEntry);
    const ClusterPreset* preset = cluster_preset_of(start.cluster);
    node_->setCurrentIndex(std::max(0, node_->findData(preset ? QString::fromStdString(preset->name) : QString(kCustomEntry))));
    form->addRow(tr("Hardware"), node_);
    gpus_ = named(new QSpinBox, "new_plan_gpus");
    gpus_->setRange(1, 65536);
    gpus_->setValue(static_cast<int>(start.cluster.world_size()));
    // "1 GPU", not "1 GPUs": the suffix follows the count.
    const auto suffixFor = [this](int n) { gpus_->setSuffix(n == 1 ? tr(" GPU") : tr(" GPUs")); };
    suffixFor(gpus_->value());
    connect(gpus_, &QSpinBox::valueChanged, this, suffixFor);
    form->addRow(tr("GPU count"), gpus_);
    model_ = named(new QComboBox, "new_plan_model");
    for (const auto& m : model_presets()) model_->addItem(QString::fromStdString(m.display_name), QString::fromStdString(m.name));
    model_->setCurrentIndex(std::max(0, model_->findData(QString::fromStdString(start.model.name))));
    form->addRow(tr("Model"), model_);
    layout->addWidget(on);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start planning"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    restyle();
}

// The hints' colour: the text colour 60% of the way from the window's, about 5.5:1 on the light and
// the dark palette (WCAG asks 4.5:1), and lighter than the job names above them.
void NewPlanDialog::restyle() {
    const QColor text = palette().color(QPalette::WindowText), window = palette().color(QPalette::Window);
    const auto mix = [](int t, int w) { return (t * 6 + w * 4) / 10; };
    const QColor secondary(mix(text.red(), window.red()), mix(text.green(), window.green()), mix(text.blue(), window.blue()));
    for (QLabel* hint : hints_) {
        QPalette p = hint->palette();
        p.setColor(QPalette::WindowText, secondary);
        hint->setPalette(p);
    }
}

void NewPlanDialog::changeEvent(QEvent* e) {
    QDialog::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) restyle();
}

bool NewPlanDialog::myCluster() const { return node_->currentData().toString() == kCustomEntry; }

// The start, on the chosen node (with_node rounds a count the node cannot split to whole nodes),
// with the chosen model and the job's starting settings.
// On "my cluster" a count its nodes cannot hold keeps the start's count (the panel then edits it).
Scenario NewPlanDialog::chosenScenario() const {
    Scenario s = start_;
    if (!myCluster()) {
        s = with_node(s, cluster_preset(node_->currentData().toString().toStdString()).cluster, gpus_->value());
    } else {
        try {
            s = with_gpu_count(s, gpus_->value(), std::min<std::int64_t>(gpus_->value(), s.cluster.gpus_per_node));
        } catch (const InputError&) {
        }
    }
    s.model = model_preset(model_->currentData().toString().toStdString()).spec;
    return with_job(s, static_cast<Job>(jobs_->checkedId()));
}

}  // namespace zp::ui
