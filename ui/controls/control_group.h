#pragma once
// What the control panel's groups share: the ControlGroup base (a titled box with a form and the
// document it edits) and the helpers that build and show their controls.
//
// The groups' strings stay in the translation context zp::ui::ControlPanel, where
// translations/zero-planner_zh_CN.ts has them: each group declares its tr() with
// Q_DECLARE_TR_FUNCTIONS(zp::ui::ControlPanel), which lupdate and QCoreApplication::translate
// both read as that context. The groups declare no signals and need no Q_OBJECT (a Q_OBJECT
// would give their tr() a context of their own, with no translation in it).
#include "core/model/enum_names.h"
#include "core/model/limits.h"
#include "ui/i18n/phrase_text.h"
#include "ui/widgets/scaled_slider.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QGroupBox>
#include <QLatin1String>
#include <QStringList>
#include <QVariant>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class QCheckBox;
class QFormLayout;
class QToolButton;

namespace zp {
struct Scenario;
}

namespace zp::ui {

class EditDoubleSpinBox;
class EditSpinBox;
class PlannerDocument;

// The model and node lists' entry for what is no preset (a model synthesized, imported or edited;
// a node with a field edited).
inline constexpr auto kCustomEntry = QLatin1String("__custom__");

// One box of the panel. Its controls connect only signals that user edits fire (see
// control_panel.h), each to one edit(); sync() in each group shows the document.
class ControlGroup : public QGroupBox {
public:
    // Built with its parent (the panel, itself in the window) and its combo boxes with it as theirs:
    // see ControlPanel's constructor.
    ControlGroup(PlannerDocument* doc, const QString& title, QWidget* parent = nullptr);

    // Shows the document in the box's controls: sync() in the rows built with the box,
    // syncWaitingRows() in those built when first shown (buildRowsWhenShown), once they are.
    void showDocument(const Scenario& s);

    // Whether every row exists (see buildRowsWhenShown); buildRows() builds those that wait now.
    bool rowsBuilt() const { return !build_rows_; }
    void buildRows();
    // Called once, right after rows that waited are built (the panel tells the window, which
    // names them and walks its Tab order again, as it does for a lazily built tab page).
    void setRowsBuiltCallback(std::function<void(ControlGroup*)> callback) { rows_built_ = std::move(callback); }

    // Progressive disclosure: rows whose control `essential` refuses are shown only while the
    // group's "Advanced" button is open. A row without a named control is always shown; a group
    // with nothing to hide shows no button. Re-run when the job or the hardware choice changes.
    void setEssentialRows(const std::function<bool(const QString& controlName)>& essential);
    void setAdvancedOpen(bool open);
    bool advancedOpen() const { return advanced_open_; }
    QToolButton* advancedButton() const { return advanced_; }

protected:
    // Each group's own: the document shown in the rows built with the box (none in a box whose
    // rows all wait) and in the rows that waited, once they are built.
    virtual void sync(const Scenario&) {}
    virtual void syncWaitingRows(const Scenario&) {}

    // Rows built the first time one of them is to be shown (as LazyPage builds a tab page): while
    // the job keeps all of them under Advanced, the window's start does not build their controls,
    // and the Advanced button counts them. `rows` names the controls `build` adds, in their order
    // (which of them the job shows first is asked of these names); they take the place of this
    // call among the box's rows. A row is to be shown when the job shows it first or when
    // Advanced is opened. For the default full fine-tune on a preset node, the rows that wait
    // (Network, Host, Fine-tuning, the parallel sizes, the GPU's memory and 23 of Training's)
    // were 7.6M of the 170.1M instructions to the first painted frame (the panel's constructor
    // 17.1M -> 10.4M; `valgrind --tool=callgrind bench_gui first-frame`).
    void buildRowsWhenShown(std::vector<const char*> rows, std::function<void()> build);

    // One undoable edit: the document's scenario changed by `mutate`, described as `text`;
    // consecutive edits with the same merge `id` (one per control) become one undo step.
    void edit(int id, const QString& text, const std::function<void(Scenario&)>& mutate);
    // An enum combo's edit: the item's data is the core's name for the value, given to `apply`.
    void onActivated(QComboBox* box, int id, const QString& text, std::function<void(Scenario&, const std::string&)> apply);
    // A form row of a combo box over an enum's values: named `name` (sessions, tests, the job's
    // essential rows), `label(value)` for each item, `text` as its row label and accessible name.
    template <class E, class Label>
    QComboBox* addEnumRow(const char* name, const QString& text, const QString& tooltip, const Label& label);
    // A form row of a whole-number spin box over a limit's range (core/model/limits.h), named
    // `name`, `text` its row label and accessible name, `zero` what 0 means in words.
    EditSpinBox* addCountRow(const char* name, const QString& text, const QString& tooltip, const limits::CountRange& range,
                             const QString& zero);

    PlannerDocument* doc_;
    QFormLayout* form_;

private:
    void addAdvancedButton();
    // The row's field if it is a named control (a row the disclosure may fold), else null.
    QWidget* namedField(int row) const;
    void classifyRows();
    void showRows();

    QToolButton* advanced_ = nullptr;        // the last row, added on the first setEssentialRows
    QStringList essential_;                  // the named controls the job shows first, built or waiting
    std::function<void()> build_rows_;       // set while rows wait
    std::vector<const char*> waiting_rows_;  // their controls' names, while they wait
    int waiting_at_ = 0;                     // the form row they go to
    std::function<void(ControlGroup*)> rows_built_;
    std::vector<bool> advanced_rows_;  // per form row: shown only while open
    std::vector<bool> hidden_rows_;    // per form row: hidden by this disclosure now
    bool advanced_open_ = false;
};

template <typename W>
W* tip(W* w, const QString& text) {
    w->setToolTip(text);
    return w;
}

template <typename W>
W* named(W* w, const char* objectName) {
    w->setObjectName(QLatin1String(objectName));
    return w;
}

// One item per name in the core's table (core/model/enum_names.h), the name as item data.
template <class E>
void addEnumItems(QComboBox* box) {
    // Shown in the window's language where core marks the name translatable (recompute: none, full, ...).
    for (const auto& n : enum_names<E>()) box->addItem(translatedCore(n.name), QString::fromLatin1(n.name));
}

// The same, each item labelled by `label(value)` (a QString): the window's own words for a value.
template <class E, class Label>
void addEnumItems(QComboBox* box, const Label& label) {
    for (const auto& n : enum_names<E>()) box->addItem(label(n.value), QString::fromLatin1(n.name));
}

template <class E, class Label>
QComboBox* ControlGroup::addEnumRow(const char* name, const QString& text, const QString& tooltip, const Label& label) {
    auto* box = named(tip(new QComboBox(this), tooltip), name);
    addEnumItems<E>(box, label);
    box->setAccessibleName(text);
    form_->addRow(text, box);
    return box;
}

// One preset of a list grouped by family (core/presets/gpu_presets.h gpu_family).
struct FamilyEntry {
    QString label;
    QString data;
    const char* family;
};
// Fills `box` with `entries` under one header per family, in gpu_families() order (the GPU and
// node lists read by vendor and generation). A header is a disabled entry with no data: it
// cannot be chosen, and Up and Down step over it.
void addFamilyGroupedItems(QComboBox* box, const std::vector<FamilyEntry>& entries);

void setIndexIfChanged(QComboBox* box, int index);
void setCheckedIfChanged(QCheckBox* box, bool on);

// Shows `values` in `box`, each labelled by `label`, with `current` selected and listed after them
// when it is none of them; the items are rebuilt only when the values differ, without the box's
// edit signals. Shows, never edits.
void showChoices(QComboBox* box, QVariantList values, const QVariant& current, const std::function<QString(const QVariant&)>& label);
// A combo of GPU group sizes ("off" for 1, "8 GPUs") through showChoices.
// `sizes` with 0 first shows an "auto" item for it (the recommender chooses).
void showGpuGroupSizes(QComboBox* box, const std::vector<std::int64_t>& sizes, std::int64_t current);

// The valid range of a limit as a spin box with `decimals` can offer it, times `factor`
// (100 for a fraction shown in percent).
void setValidRange(EditDoubleSpinBox* box, const limits::RealRange& r, double factor = 1);
void setValidRange(ScaledSlider* slider, const limits::RealRange& r, int decimals, double factor = 1);
// A count limit as a spin box holds it (an int).
void setValidRange(EditSpinBox* box, const limits::CountRange& r);

}  // namespace zp::ui
