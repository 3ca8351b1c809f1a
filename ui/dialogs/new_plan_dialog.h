#pragma once
// The start page of a new plan (File > New, and the first start): what the user is doing (a job),
// on what (a node preset, consumer GPUs included, or "my cluster") with how many GPUs, and which
// model. The plan it starts from is the core's: the default scenario on that node, with that model
// and the job's starting settings (core/presets/job_presets.h).
#include "core/model/scenario.h"

#include <QDialog>
#include <QList>

class QButtonGroup;
class QComboBox;
class QLabel;
class QSpinBox;

namespace zp::ui {

class NewPlanDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewPlanDialog(const Scenario& start, QWidget* parent = nullptr);

    Scenario chosenScenario() const;
    bool myCluster() const;  // "My cluster": the panel opens the node's fields

protected:
    void changeEvent(QEvent* e) override;

private:
    void restyle();  // the job hints' secondary colour, from the palette
    Scenario start_;
    QList<QLabel*> hints_;  // one line under each job
    QButtonGroup* jobs_;
    QComboBox* node_;
    QSpinBox* gpus_;
    QComboBox* model_;
};

}  // namespace zp::ui
