#include "ui/controls/control_group.h"

#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QSignalBlocker>

#include <algorithm>
#include <cmath>

namespace zp::ui {

ControlGroup::ControlGroup(PlannerDocument* doc, const QString& title) : QGroupBox(title), doc_(doc), form_(new QFormLayout(this)) {
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void ControlGroup::edit(int id, const QString& text, const std::function<void(Scenario&)>& mutate) {
    Scenario s = doc_->scenario();
    mutate(s);
    doc_->edit(s, text, id);
}

void ControlGroup::onActivated(QComboBox* box, int id, const QString& text, std::function<void(Scenario&, const std::string&)> apply) {
    connect(box, &QComboBox::activated, this, [this, box, id, text, apply](int index) {
        const std::string name = box->itemData(index).toString().toStdString();
        edit(id, text, [&](Scenario& s) { apply(s, name); });
    });
}

void setIndexIfChanged(QComboBox* box, int index) {
    if (box->currentIndex() != index) box->setCurrentIndex(index);
}

void setCheckedIfChanged(QCheckBox* box, bool on) {
    if (box->isChecked() != on) box->setChecked(on);
}

void showGpuGroupSizes(QComboBox* box, std::vector<std::int64_t> sizes, std::int64_t current) {
    // A size the list does not offer (tensor 8 on nodes of 4) is shown as it is, not as the first item.
    if (std::find(sizes.begin(), sizes.end(), current) == sizes.end()) sizes.push_back(current);
    bool same = box->count() == static_cast<int>(sizes.size());
    for (int i = 0; same && i < box->count(); ++i) same = box->itemData(i).toLongLong() == sizes[static_cast<std::size_t>(i)];
    if (!same) {
        const QSignalBlocker block(box);
        box->clear();
        for (std::int64_t k : sizes)
            box->addItem(k == 0   ? ControlPanel::tr("auto")
                         : k == 1 ? ControlPanel::tr("off")
                                  : ControlPanel::tr("%1 GPUs").arg(k),
                         QVariant::fromValue<qlonglong>(k));
    }
    setIndexIfChanged(box, std::max(0, box->findData(QVariant::fromValue<qlonglong>(current))));
}

void setValidRange(EditDoubleSpinBox* box, const limits::RealRange& r, double factor) {
    const double step = std::pow(10.0, -box->decimals());
    const limits::RealRange shown = limits::scaled(r, factor);
    box->setRange(limits::lowest_on_grid(shown, step), limits::highest_on_grid(shown, step));
}

void setValidRange(ScaledSlider* slider, const limits::RealRange& r, int decimals, double factor) {
    const double step = std::pow(10.0, -decimals);
    const limits::RealRange shown = limits::scaled(r, factor);
    slider->setValidRange(limits::lowest_on_grid(shown, step), limits::highest_on_grid(shown, step));
}

}  // namespace zp::ui
