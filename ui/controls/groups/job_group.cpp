#include "ui/controls/groups/job_group.h"

#include "core/presets/job_presets.h"
#include "ui/document/planner_document.h"

#include <QFormLayout>

namespace zp::ui {

QString JobGroup::jobLabel(Job j) {
    switch (j) {
    case Job::Custom: return tr("Custom (all controls)");
    case Job::PreTraining: return tr("Pre-training");
    case Job::FullFineTune: return tr("Full fine-tune");
    case Job::Lora: return tr("LoRA fine-tune");
    case Job::Qlora: return tr("QLoRA fine-tune");
    case Job::LongContext: return tr("Long context (ALST)");
    }
    return QString::fromLatin1(to_string(j));
}

JobGroup::JobGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Job"), parent) {
    job_ = named(tip(new QComboBox(this), tr("What the plan is for. Choosing a job sets its usual precision, optimizer, recompute, "
                                             "sequence and fine-tuning method, and shows the controls that matter for it first; "
                                             "the others stay under each box's Advanced.")),
                 "job");
    addEnumItems<Job>(job_, jobLabel);
    job_->setAccessibleName(tr("Job"));
    form_->addRow(tr("Planning"), job_);
    onActivated(job_, EditJob, tr("Choose job"), [](Scenario& s, const std::string& v) { s = with_job(s, parse_job(v)); });
}

// The job the settings are (job_shown): "QLoRA fine-tune" once --finetune qlora or the method box
// made a full fine-tune's plan a QLoRA one, not the job first chosen.
void JobGroup::sync(const Scenario& s) { setIndexIfChanged(job_, job_->findData(QString::fromLatin1(to_string(job_shown(s))))); }

}  // namespace zp::ui
