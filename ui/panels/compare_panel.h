#pragma once
// The Compare panel (plans side by side, to choose between them): the pinned plans beside the live
// one. A row per pin (its colour, its name to edit, Remove), a table of the figures that matter
// (memory per GPU, the peak's phase, host RAM and NVMe per node, step time, tokens/s, GPU-hours for
// the token budget) with each pin's difference to the live plan, and the ds_config.json keys in
// which they differ. Every figure and difference is the core's (core/report/plan_compare.h); the
// panel lays them out and names the rows.
#include "core/report/plan_compare.h"
#include "ui/widgets/lazy_view.h"

#include <QList>

class QGridLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace zp::ui {

class PlannerDocument;

class ComparePanel : public LazyView {
    Q_OBJECT
public:
    // What the panel is, for screen readers: its own description and its side tab page's (LazyPage).
    static QString description();
    explicit ComparePanel(PlannerDocument* doc, QWidget* parent = nullptr);

    // What the tables show, for tests: the live plan's figures as the core gives them.
    const PlanFigures& liveFigures() const { return live_; }
    QTableWidget* figuresTable() const { return figures_; }
    QTableWidget* configTable() const { return config_; }
    QPushButton* pinButton() const { return pin_button_; }
    // Both tables as GitHub Markdown (Copy as Markdown).
    QString markdown() const;

signals:
    // The Pin button: the window pins and reports a refusal in its status bar.
    void pinRequested();

protected:
    void rebuild() override;
    void restyle() override;

private:
    void rebuildPinRows();

    PlannerDocument* doc_;
    PlanFigures live_;
    QPushButton* pin_button_;
    QPushButton* copy_button_;
    QLabel* empty_;
    QGridLayout* pin_rows_;
    QList<QWidget*> pin_row_widgets_;
    QTableWidget* figures_;
    QLabel* config_title_;
    QTableWidget* config_;
};

}  // namespace zp::ui
