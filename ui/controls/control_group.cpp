#include "ui/controls/control_group.h"

#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include "core/presets/gpu_presets.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QToolButton>

#include <algorithm>
#include <climits>
#include <cmath>
#include <utility>

namespace zp::ui {

ControlGroup::ControlGroup(PlannerDocument* doc, const QString& title, QWidget* parent)
    : QGroupBox(title, parent), doc_(doc), form_(new QFormLayout(this)) {
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
}

void ControlGroup::showDocument(const Scenario& s) {
    sync(s);
    if (rowsBuilt()) syncWaitingRows(s);
}

void ControlGroup::buildRowsWhenShown(std::vector<const char*> rows, std::function<void()> build) {
    waiting_rows_ = std::move(rows);
    waiting_at_ = form_->rowCount();
    build_rows_ = std::move(build);
}

namespace {
// A form row taken out to be added again: its label (none for a row across both columns), its
// field (a widget's item or a layout, which is its own item) and whether the disclosure hid it.
struct TakenRow {
    QWidget* label;
    QLayoutItem* field;
    bool hidden_by_disclosure;
};
}  // namespace

void ControlGroup::buildRows() {
    if (rowsBuilt()) return;
    const std::function<void()> build = std::exchange(build_rows_, nullptr);
    // The rows after their place (rows built with the box, the Advanced button) are taken out and
    // added again after them: a QFormLayout adds rows at its end.
    std::vector<TakenRow> after;
    for (int row = waiting_at_; form_->rowCount() > waiting_at_; ++row) {
        const bool hidden = static_cast<std::size_t>(row) < hidden_rows_.size() && hidden_rows_[static_cast<std::size_t>(row)];
        const QFormLayout::TakeRowResult taken = form_->takeRow(waiting_at_);
        after.push_back({taken.labelItem ? taken.labelItem->widget() : nullptr, taken.fieldItem, hidden});
        delete taken.labelItem;  // the layout's item, not the label
    }
    hidden_rows_.resize(static_cast<std::size_t>(waiting_at_));
    build();
    hidden_rows_.resize(static_cast<std::size_t>(form_->rowCount()), false);
    for (const TakenRow& r : after) {
        if (!r.field) continue;
        if (QWidget* w = r.field->widget()) {
            r.label ? form_->addRow(r.label, w) : form_->addRow(w);
            delete r.field;  // the layout's item, not the widget
        } else if (QLayout* l = r.field->layout()) {
            r.label ? form_->addRow(r.label, l) : form_->addRow(l);
        }
        hidden_rows_.push_back(r.hidden_by_disclosure);
    }
    waiting_rows_.clear();
    if (advanced_) classifyRows();
    syncWaitingRows(doc_->scenario());
    if (rows_built_) rows_built_(this);
}

void ControlGroup::setEssentialRows(const std::function<bool(const QString& controlName)>& essential) {
    addAdvancedButton();
    essential_.clear();
    bool waitingShown = false;
    for (int row = 0; row < form_->rowCount(); ++row)
        if (const QWidget* field = namedField(row); field && essential(field->objectName())) essential_ << field->objectName();
    for (const char* row : waiting_rows_)
        if (essential(QLatin1String(row))) {
            essential_ << QLatin1String(row);
            waitingShown = true;
        }
    if (waitingShown) buildRows();  // classifies the rows it built with the rest
    else classifyRows();
}

void ControlGroup::addAdvancedButton() {
    if (advanced_) return;
    advanced_ = new QToolButton;
    advanced_->setObjectName(objectName() + QLatin1String("_advanced"));
    advanced_->setCheckable(true);
    advanced_->setAutoRaise(true);
    advanced_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    advanced_->setFocusPolicy(Qt::StrongFocus);  // reachable with Tab, opened with Space
    advanced_->setAccessibleName(ControlPanel::tr("Advanced settings: %1").arg(title()));
    advanced_->setToolTip(ControlPanel::tr("Show or hide this box's less used settings. They keep their values while hidden."));
    form_->addRow(advanced_);
    connect(advanced_, &QToolButton::toggled, this, [this](bool open) { setAdvancedOpen(open); });
}

QWidget* ControlGroup::namedField(int row) const {
    QLayoutItem* item = form_->itemAt(row, QFormLayout::FieldRole);
    if (!item) item = form_->itemAt(row, QFormLayout::SpanningRole);
    QWidget* field = item ? item->widget() : nullptr;
    return field && field != advanced_ && !field->objectName().isEmpty() ? field : nullptr;
}

void ControlGroup::classifyRows() {
    advanced_rows_.assign(static_cast<std::size_t>(form_->rowCount()), false);
    for (int row = 0; row < form_->rowCount(); ++row)
        if (const QWidget* field = namedField(row))
            advanced_rows_[static_cast<std::size_t>(row)] = !essential_.contains(field->objectName());
    showRows();
}

void ControlGroup::setAdvancedOpen(bool open) {
    if (open) buildRows();
    advanced_open_ = open;
    if (advanced_ && advanced_->isChecked() != open) advanced_->setChecked(open);
    showRows();
}

void ControlGroup::showRows() {
    if (!advanced_) return;
    // Rows that wait are all advanced: one the job shows first would have been built.
    const auto hidden = static_cast<int>(std::count(advanced_rows_.begin(), advanced_rows_.end(), true) + waiting_rows_.size());
    // Only rows this disclosure hid are shown again: a row that hides itself (an error line, a
    // note with nothing to say) keeps its own visibility.
    hidden_rows_.resize(advanced_rows_.size(), false);
    for (std::size_t row = 0; row < advanced_rows_.size(); ++row) {
        const bool hide = advanced_rows_[row] && !advanced_open_;
        if (hide == hidden_rows_[row]) continue;
        form_->setRowVisible(static_cast<int>(row), !hide);
        hidden_rows_[row] = hide;
    }
    form_->setRowVisible(advanced_, hidden > 0);
    advanced_->setArrowType(advanced_open_ ? Qt::DownArrow : Qt::RightArrow);
    advanced_->setText(advanced_open_ ? ControlPanel::tr("Advanced (%n shown)", nullptr, hidden)
                                      : ControlPanel::tr("Advanced (%n more)", nullptr, hidden));
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

EditSpinBox* ControlGroup::addCountRow(const char* name, const QString& text, const QString& tooltip, const limits::CountRange& range,
                                       const QString& zero) {
    auto* box = named(tip(new EditSpinBox, tooltip), name);
    setValidRange(box, range);
    box->setSpecialValueText(zero);  // shown at the minimum, 0
    box->setAccessibleName(text);
    form_->addRow(text, box);
    return box;
}

void addFamilyGroupedItems(QComboBox* box, const std::vector<FamilyEntry>& entries) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    for (const char* family : gpu_families()) {
        bool header = false;
        for (const FamilyEntry& e : entries) {
            if (std::string_view(e.family) != family) continue;
            if (!header) {
                box->addItem(translatedCore(family));
                if (QStandardItem* item = model ? model->item(box->count() - 1) : nullptr) {
                    item->setFlags(item->flags() & ~(Qt::ItemIsEnabled | Qt::ItemIsSelectable));
                    QFont f = item->font();
                    f.setBold(true);
                    item->setFont(f);
                }
                header = true;
            }
            box->addItem(e.label, e.data);
        }
    }
    for (const FamilyEntry& e : entries)
        if (*e.family == '\0') box->addItem(e.label, e.data);
}

void setIndexIfChanged(QComboBox* box, int index) {
    if (box->currentIndex() != index) box->setCurrentIndex(index);
}

void setCheckedIfChanged(QCheckBox* box, bool on) {
    if (box->isChecked() != on) box->setChecked(on);
}

void showChoices(QComboBox* box, QVariantList values, const QVariant& current, const std::function<QString(const QVariant&)>& label) {
    // A value the list does not offer (tensor 8 on nodes of 4, an imported config's) is shown as
    // it is, not as the first item.
    if (!values.contains(current)) values.push_back(current);
    bool same = box->count() == values.size();
    for (int i = 0; same && i < box->count(); ++i) same = box->itemData(i) == values[i];
    if (!same) {
        const QSignalBlocker block(box);
        box->clear();
        for (const QVariant& v : values) box->addItem(label(v), v);
    }
    setIndexIfChanged(box, std::max(0, box->findData(current)));
}

void showGpuGroupSizes(QComboBox* box, const std::vector<std::int64_t>& sizes, std::int64_t current) {
    QVariantList values;
    for (std::int64_t k : sizes) values.push_back(QVariant::fromValue<qlonglong>(k));
    showChoices(box, values, QVariant::fromValue<qlonglong>(current), [](const QVariant& v) {
        const qlonglong k = v.toLongLong();
        return k == 0 ? ControlPanel::tr("auto") : k == 1 ? ControlPanel::tr("off") : ControlPanel::tr("%1 GPUs").arg(k);
    });
}

void setValidRange(EditDoubleSpinBox* box, const limits::RealRange& r, double factor) {
    const double step = std::pow(10.0, -box->decimals());
    const limits::RealRange shown = limits::scaled(r, factor);
    box->setRange(limits::lowest_on_grid(shown, step), limits::highest_on_grid(shown, step));
}

void setValidRange(EditSpinBox* box, const limits::CountRange& r) {
    box->setRange(static_cast<int>(std::clamp<std::int64_t>(r.min, INT_MIN, INT_MAX)),
                  static_cast<int>(std::clamp<std::int64_t>(r.max, INT_MIN, INT_MAX)));
}

void setValidRange(ScaledSlider* slider, const limits::RealRange& r, int decimals, double factor) {
    const double step = std::pow(10.0, -decimals);
    const limits::RealRange shown = limits::scaled(r, factor);
    slider->setValidRange(limits::lowest_on_grid(shown, step), limits::highest_on_grid(shown, step));
}

}  // namespace zp::ui
