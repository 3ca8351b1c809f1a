#include "ui/panels/compare_panel.h"

#include "core/base/format.h"
#include "core/report/report.h"
#include "core/report/report_markdown.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"

#include <algorithm>

#include <QApplication>
#include <QClipboard>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace zp::ui {

namespace {

QString metricName(CompareMetric m) {
    switch (m) {
    case CompareMetric::Setup: return ComparePanel::tr("Setup");
    case CompareMetric::Batch: return ComparePanel::tr("Micro batch x accumulation");
    case CompareMetric::Fits: return ComparePanel::tr("Fits");
    case CompareMetric::PeakReserved: return ComparePanel::tr("Peak reserved per GPU");
    case CompareMetric::PeakRequired: return ComparePanel::tr("Must fit per GPU");
    case CompareMetric::PeakPhase: return ComparePanel::tr("Peaks in");
    case CompareMetric::HostRam: return ComparePanel::tr("Host RAM per node");
    case CompareMetric::Nvme: return ComparePanel::tr("NVMe per node");
    case CompareMetric::StepTime: return ComparePanel::tr("Step time");
    case CompareMetric::TokensPerSecond: return ComparePanel::tr("Tokens/s");
    case CompareMetric::GpuHours: return ComparePanel::tr("GPU-hours (token budget)");
    }
    return {};
}

// A figure as the core writes it; whether it fits in the window's language.
QString valueText(const PlanFigures& f, CompareMetric m) {
    if (m == CompareMetric::Fits && f.valid) return f.fits ? ComparePanel::tr("yes") : ComparePanel::tr("no");
    return QString::fromStdString(metric_text(f, m));
}

// A pin's cell: its figure and, when it differs, its difference to the live plan.
QString pinCell(const PlanFigures& pin, const PlanFigures& live, CompareMetric m) {
    const QString value = valueText(pin, m);
    const std::string delta = metric_delta(pin, live, m);
    return delta.empty() ? value : QStringLiteral("%1 (%2)").arg(value, QString::fromStdString(delta));
}

QTableWidget* makeTable() {
    auto* t = new QTableWidget;
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionMode(QAbstractItemView::ContiguousSelection);
    t->verticalHeader()->setVisible(false);
    t->horizontalHeader()->setStretchLastSection(true);
    t->setWordWrap(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return t;
}

}  // namespace

ComparePanel::ComparePanel(PlannerDocument* doc, QWidget* parent)
    : LazyView(parent),
      doc_(doc),
      pin_button_(new QPushButton(tr("&Pin Current Plan"))),
      copy_button_(new QPushButton(tr("Copy as Markdown"))),
      empty_(new QLabel(tr("No plan is pinned. Pin the current plan (Ctrl+D), then change the controls: the pinned plan stays "
                           "in the views, ghosted, and its figures stay here beside the live plan's."))),
      pin_rows_(new QGridLayout),
      figures_(makeTable()),
      config_title_(new QLabel(tr("ds_config.json keys that differ"))),
      config_(makeTable()) {
    setObjectName(QStringLiteral("comparePanel"));
    setAccessibleDescription(description());
    pin_button_->setObjectName(QStringLiteral("pinButton"));
    pin_button_->setToolTip(tr("Pin the plan the views show now (Ctrl+D); up to four"));
    copy_button_->setObjectName(QStringLiteral("copyCompareMarkdown"));
    figures_->setObjectName(QStringLiteral("compareFigures"));
    config_->setObjectName(QStringLiteral("compareConfigKeys"));
    figures_->setAccessibleName(tr("Pinned and live plan figures"));
    config_->setAccessibleName(tr("ds_config.json keys that differ"));
    empty_->setWordWrap(true);
    empty_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(pin_button_);
    buttons->addWidget(copy_button_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(empty_);
    layout->addLayout(pin_rows_);
    // The figures first: up to every row before the config keys take what is left.
    layout->addWidget(figures_, 10);
    layout->addWidget(config_title_);
    layout->addWidget(config_, 1);
    connect(pin_button_, &QPushButton::clicked, this, &ComparePanel::pinRequested);
    connect(copy_button_, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(markdown()); });
    connect(doc_, &PlannerDocument::resultsChanged, this, &ComparePanel::documentChanged);
    connect(doc_, &PlannerDocument::selectionChanged, this, &ComparePanel::documentChanged);
    connect(doc_, &PlannerDocument::pinsChanged, this, [this] {
        rebuildPinRows();
        documentChanged();
    });
    rebuildPinRows();
}

QString ComparePanel::description() {
    return tr("The pinned plans beside the live one: their figures and the ds_config.json keys that differ");
}

void ComparePanel::restyle() { rebuildPinRows(); }

// One row per pin: its colour, its name (edited in place, renamed on Enter or leaving the field)
// and Remove. Rebuilt when the pins change, not on every recompute, so typing is never cut off.
void ComparePanel::rebuildPinRows() {
    // Later, not now: this may run inside a signal of one of them (a rename on Enter, Remove).
    for (QWidget* w : pin_row_widgets_) {
        w->hide();
        w->deleteLater();
    }
    pin_row_widgets_.clear();
    const std::vector<PinnedPlan>& pins = doc_->pins();
    for (std::size_t i = 0; i < pins.size(); ++i) {
        const int index = static_cast<int>(i);
        auto* swatch = new QLabel;
        swatch->setFixedSize(14, 14);
        swatch->setStyleSheet(QStringLiteral("background: %1; border: 1px solid %1;").arg(pinColor(index, palette()).name()));
        auto* name = new QLineEdit(QString::fromStdString(pins[i].pin.name));
        name->setObjectName(QStringLiteral("pinName%1").arg(index));
        name->setAccessibleName(tr("Name of pinned plan %1").arg(index + 1));
        connect(name, &QLineEdit::editingFinished, this, [this, index, name] { doc_->renamePin(index, name->text()); });
        auto* remove = new QToolButton;
        remove->setObjectName(QStringLiteral("removePin%1").arg(index));
        remove->setText(tr("Remove"));
        remove->setToolTip(tr("Remove this pinned plan"));
        connect(remove, &QToolButton::clicked, this, [this, index] { doc_->removePin(index); });
        pin_rows_->addWidget(swatch, index, 0);
        pin_rows_->addWidget(name, index, 1);
        pin_rows_->addWidget(remove, index, 2);
        pin_row_widgets_ << swatch << name << remove;
    }
    // Keyboard order as on screen: the buttons, each pin's name and Remove, then the tables.
    QWidget* previous = copy_button_;
    for (QWidget* w : std::as_const(pin_row_widgets_)) {
        if (w->focusPolicy() == Qt::NoFocus) continue;
        setTabOrder(previous, w);
        previous = w;
    }
    setTabOrder(previous, figures_);
    setTabOrder(figures_, config_);
    const bool any = !pins.empty();
    empty_->setVisible(!any);
    copy_button_->setEnabled(any);
    figures_->setVisible(any);
    config_title_->setVisible(any);
    config_->setVisible(any);
}

void ComparePanel::rebuild() {
    live_ = doc_->liveFigures();  // the document's, computed once per change
    const std::vector<PinnedPlan>& pins = doc_->pins();

    const auto metrics = compare_metrics();
    figures_->clear();
    figures_->setColumnCount(static_cast<int>(pins.size()) + 2);
    figures_->setRowCount(static_cast<int>(metrics.size()));
    QStringList header{QString(), tr("Live plan")};
    for (const PinnedPlan& p : pins) header << QString::fromStdString(p.pin.name);
    figures_->setHorizontalHeaderLabels(header);
    for (int c = 2; c < figures_->columnCount(); ++c) figures_->horizontalHeaderItem(c)->setForeground(pinColor(c - 2, palette()));
    for (std::size_t r = 0; r < metrics.size(); ++r) {
        const CompareMetric m = metrics[r];
        const int row = static_cast<int>(r);
        bool differs = false;
        auto* name = new QTableWidgetItem(metricName(m));
        if (m == CompareMetric::GpuHours) {
            // The budget is the live plan's; a pin keeps its own, said in the tooltip when it differs.
            name->setText(tr("GPU-hours for %1 tokens").arg(QString::fromStdString(format_compact(live_.token_budget))));
            QString tip = tr(
                "GPU-hours to train on each plan's token budget: 1T tokens for pre-training, 100M for a fine-tune, or the session's own (--tokens).");
            for (const PinnedPlan& p : pins)
                if (p.figures.token_budget != live_.token_budget)
                    tip += QLatin1Char('\n') +
                           tr("%1: %2 tokens")
                               .arg(QString::fromStdString(p.pin.name), QString::fromStdString(format_compact(p.figures.token_budget)));
            name->setToolTip(tip);
        }
        figures_->setItem(row, 0, name);
        figures_->setItem(row, 1, new QTableWidgetItem(valueText(live_, m)));
        for (std::size_t p = 0; p < pins.size(); ++p) {
            figures_->setItem(row, static_cast<int>(p) + 2, new QTableWidgetItem(pinCell(pins[p].figures, live_, m)));
            differs = differs || metric_differs(pins[p].figures, live_, m);
        }
        // The rows in which some pin differs, in bold: what the comparison is about.
        for (int c = 0; c < figures_->columnCount(); ++c) {
            QFont f = font();
            f.setBold(differs);
            figures_->item(row, c)->setFont(f);
            if (c > 0) figures_->item(row, c)->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }
    }

    // Every figure in sight where there is room: the table is as tall as its rows, and the config
    // keys scroll; on a short screen it gives way down to three rows and scrolls too (a fixed height
    // made the window taller than 720 pixels with two pins, a window review).
    const int chrome = figures_->horizontalHeader()->sizeHint().height() + 2 * figures_->frameWidth() +
                       figures_->horizontalScrollBar()->sizeHint().height();
    const int all_rows = figures_->verticalHeader()->length();
    constexpr int kRowsAtLeast = 3;
    const int some_rows = figures_->rowCount() > 0 ? kRowsAtLeast * all_rows / std::max(figures_->rowCount(), kRowsAtLeast) : 0;
    figures_->setMaximumHeight(all_rows + chrome);
    figures_->setMinimumHeight(std::min(all_rows, some_rows) + chrome);

    std::vector<PlanFigures> pinned;
    for (const PinnedPlan& p : pins) pinned.push_back(p.figures);
    const std::vector<ConfigKeyRow> keys = config_key_rows(live_, pinned);
    config_->clear();
    config_->setColumnCount(static_cast<int>(pins.size()) + 2);
    config_->setRowCount(static_cast<int>(keys.size()));
    QStringList config_header{tr("Key"), tr("Live plan")};
    for (const PinnedPlan& p : pins) config_header << QString::fromStdString(p.pin.name);
    config_->setHorizontalHeaderLabels(config_header);
    for (std::size_t r = 0; r < keys.size(); ++r) {
        config_->setItem(static_cast<int>(r), 0, new QTableWidgetItem(QString::fromStdString(keys[r].key)));
        for (std::size_t c = 0; c < keys[r].values.size(); ++c) {
            const std::string& v = keys[r].values[c];
            config_->setItem(static_cast<int>(r), static_cast<int>(c) + 1,
                             new QTableWidgetItem(v.empty() ? tr("not set") : QString::fromStdString(v)));
        }
    }
    config_title_->setText(keys.empty() ? tr("ds_config.json: the same keys and values in every plan")
                                        : tr("ds_config.json keys that differ (%n)", nullptr, static_cast<int>(keys.size())));
}

QString ComparePanel::markdown() const {
    const auto table = [](const QTableWidget* t, bool numbers) {
        TextTable out;
        for (int c = 0; c < t->columnCount(); ++c) {
            const QTableWidgetItem* h = t->horizontalHeaderItem(c);
            out.header.push_back(h ? h->text().toStdString() : std::string());
            out.right_aligned.push_back(numbers && c > 0);
        }
        for (int r = 0; r < t->rowCount(); ++r) {
            std::vector<std::string> row;
            for (int c = 0; c < t->columnCount(); ++c) row.push_back(t->item(r, c) ? t->item(r, c)->text().toStdString() : std::string());
            out.rows.push_back(std::move(row));
        }
        return QString::fromStdString(markdown_table(out));
    };
    if (doc_->pins().empty()) return {};
    return QStringLiteral("### %1\n\n%2\n### %3\n\n%4")
        .arg(tr("Compared plans"), table(figures_, true), config_title_->text(), table(config_, false));
}

}  // namespace zp::ui
