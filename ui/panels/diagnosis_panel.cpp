#include "ui/panels/diagnosis_panel.h"

#include "core/base/units.h"
#include "core/io/oom_log.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/i18n/translations.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>
#include <vector>

namespace zp::ui {

namespace {

QLabel* textLabel(const QString& text, bool wrap = true) {
    auto* l = new QLabel(text);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(wrap);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

QLabel* heading(const QString& text) {
    QLabel* l = textLabel(text);
    QFont f = l->font();
    f.setBold(true);
    l->setFont(f);
    return l;
}

// GiB with two decimals, as PyTorch prints them; a dash for nothing.
QString gibText(const std::optional<double>& bytes) {
    if (!bytes) return QStringLiteral("\u2014");
    return DiagnosisPanel::tr("%1 GiB").arg(localeNumber(bytes_to_gib(*bytes), 2));
}

QString bullets(const std::vector<std::string>& lines) {
    QStringList out;
    for (const std::string& line : lines) out << QStringLiteral("\u2022 ") + fromCore(line);
    return out.join(QLatin1Char('\n'));
}

}  // namespace

DiagnosisPanel::DiagnosisPanel(PlannerDocument* doc, QWidget* parent) : QScrollArea(parent), doc_(doc) {
    setObjectName(QStringLiteral("diagnosisPanel"));
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void DiagnosisPanel::showDiagnosis(const TrainingLogDiagnosis& d, const QString& logName) {
    diagnosis_ = d;
    figures_.clear();
    sources_.clear();
    apply_.clear();
    remedies_ = nullptr;
    auto* content = new QWidget;
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(buildHeader(logName));
    layout->addWidget(buildFigures());
    layout->addWidget(buildRun());
    layout->addWidget(buildFixes());
    layout->addStretch(1);
    delete takeWidget();
    setWidget(content);
}

QWidget* DiagnosisPanel::buildHeader(const QString& logName) {
    const OomDiagnosis& d = diagnosis_.diagnosis;
    const OomEvent& e = diagnosis_.log.events.front();
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    top->addWidget(heading(tr("Out of memory in %1").arg(logName)), 1);
    close_ = new QPushButton(tr("&Close Diagnosis"));
    close_->setObjectName(QStringLiteral("closeDiagnosis"));
    connect(close_, &QPushButton::clicked, this, &DiagnosisPanel::closeRequested);
    top->addWidget(close_, 0, Qt::AlignTop);
    layout->addLayout(top);
    if (e.figures_cut) layout->addWidget(textLabel(tr("PyTorch's out-of-memory message, cut before its figures (no sizes to read).")));
    else if (e.source == OomSource::CachingAllocator)
        layout->addWidget(textLabel(tr("GPU %1 tried to allocate %2 with %3 allocated and %4 reserved by PyTorch, %5 free of %6.")
                                        .arg(e.gpu_index ? QString::number(*e.gpu_index) : QStringLiteral("?"), gibText(e.tried_bytes),
                                             gibText(e.allocated_bytes), gibText(e.reserved_total_bytes()), gibText(e.free_bytes),
                                             gibText(e.total_bytes))));
    else if (e.source == OomSource::HostKill)
        layout->addWidget(textLabel(tr("A rank was killed (SIGKILL) and nothing failed on a GPU: %1").arg(fromCore(e.message))));
    else
        layout->addWidget(textLabel(tr("%1 ran out of memory outside PyTorch's caching allocator (the message gives no sizes): %2")
                                        .arg(fromCore(oom_source_words(e.source)), fromCore(e.message))));
    cause_ = textLabel(tr("What it is: %1").arg(translatedCore(oom_cause_words(d.cause))));
    cause_->setObjectName(QStringLiteral("diagnosisCause"));
    QFont bold = cause_->font();
    bold.setBold(true);
    cause_->setFont(bold);
    layout->addWidget(cause_);
    if (!d.evidence.empty()) layout->addWidget(textLabel(bullets(d.evidence)));
    if (!d.advice.empty()) {
        layout->addWidget(textLabel(tr("What to change instead:")));
        layout->addWidget(textLabel(bullets(d.advice)));
    }
    QString where = tr("Where: %1").arg(translatedCore(oom_where_words(d).c_str()));
    if (!d.moment_from.empty()) where += tr(" (from %1)").arg(fromCore(d.moment_from));
    where_ = textLabel(where);
    layout->addWidget(where_);
    QString term;
    if (d.term && d.term_error)
        term = tr("The request: %1 = %2: %3 = %4 (%5% from the request)")
                   .arg(gibText(e.tried_bytes), fromCore(d.term->name), fromCore(d.term->formula), gibText(d.term->bytes),
                        localeNumber(100.0 * *d.term_error, 1));
    else if (d.term && e.figures_cut)
        term = tr("The request: its size cut from the message, %1, as the failing line says; the planner has it at %2 = %3")
                   .arg(fromCore(d.term->name), fromCore(d.term->formula), gibText(d.term->bytes));
    else if (d.term)
        term = tr("The request: %1 of %2, as the failing line says; the planner has it at %3 = %4")
                   .arg(gibText(e.tried_bytes), fromCore(d.term->name), fromCore(d.term->formula), gibText(d.term->bytes));
    else if (d.planned_host_bytes && d.host_ram_bytes && d.host_phase_named)
        term = tr("On the host: the planner has %1 per node there, of the node's %2.")
                   .arg(gibText(d.planned_host_bytes), gibText(d.host_ram_bytes));
    else if (d.planned_host_bytes && d.host_ram_bytes && d.host_phase)
        term = tr("On the host: the planner has %1 per node at its peak, %2, of the node's %3.")
                   .arg(gibText(d.planned_host_bytes), translatedCore(host_phase_words(*d.host_phase)), gibText(d.host_ram_bytes));
    else if (e.source == OomSource::HostKill) term = tr("A kill gives no request size; the planner's host memory needs the run's model.");
    else if (e.source != OomSource::CachingAllocator || e.figures_cut)
        term = tr("The message gives no request size to match with a term of the step.");
    else term = tr("The request matches no term of the planner's step for this run.");
    term_ = textLabel(term);
    term_->setObjectName(QStringLiteral("diagnosisTerm"));
    layout->addWidget(term_);
    // The command line's list (diagnose: "What frees memory there, cheapest first"), for this run.
    if (!d.remedies.empty()) {
        layout->addWidget(textLabel(tr("What frees memory there, cheapest first:")));
        remedies_ = textLabel(bullets(d.remedies));
        remedies_->setObjectName(QStringLiteral("diagnosisRemedies"));
        layout->addWidget(remedies_);
    }
    return box;
}

QWidget* DiagnosisPanel::buildFigures() {
    const OomDiagnosis& d = diagnosis_.diagnosis;
    const OomEvent& e = diagnosis_.log.events.front();
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 6, 0, 0);
    grid->addWidget(heading(tr("At that moment")), 0, 0);
    grid->addWidget(heading(tr("The log")), 0, 1);
    grid->addWidget(heading(tr("The planner")), 0, 2);
    const std::optional<double> term_bytes = d.term ? std::optional<double>(d.term->bytes) : std::nullopt;
    struct Row {
        QString key, name;
        std::optional<double> log, planner;
    };
    std::vector<Row> rows{
        {QStringLiteral("requested"), tr("Requested"), e.requested_bytes(), term_bytes},
        {QStringLiteral("needed"), tr("Allocated + requested"), d.measured_bytes, d.planned_bytes},
        {QStringLiteral("reserved"), tr("Reserved by PyTorch"), e.reserved_total_bytes(), d.planned_reserved_bytes},
    };
    // A rank killed for host memory: the host's figures, the log's from see_memory_usage before the kill.
    if (e.source == OomSource::HostKill) {
        const auto& u = diagnosis_.log.memory_usage;
        const std::optional<double> used = u ? u->host_used_bytes : std::nullopt;
        const std::optional<double> host = u ? u->host_total_bytes() : std::nullopt;
        rows = {{QStringLiteral("host_used"), tr("Host memory in use"), used, d.planned_host_bytes},
                {QStringLiteral("host_ram"), tr("The host's memory"), host, d.host_ram_bytes}};
    }
    int r = 1;
    for (const auto& row : rows) {
        grid->addWidget(textLabel(row.name, false), r, 0);
        for (int c = 0; c < 2; ++c) {
            QLabel* l = textLabel(gibText(c == 0 ? row.log : row.planner), false);
            l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            figures_.insert(row.key + QLatin1Char('/') + QString::number(c), l);
            grid->addWidget(l, r, c + 1);
        }
        ++r;
    }
    if (const auto gap = planner_gap(d)) {
        const QString pct = localeNumber(std::abs(100.0 * *gap), 1);
        grid->addWidget(textLabel(*gap >= 0 ? tr("The planner's need is %1% above the log's.").arg(pct)
                                            : tr("The planner's need is %1% below the log's.").arg(pct)),
                        r, 0, 1, 3);
    }
    grid->setColumnStretch(0, 1);
    return box;
}

QWidget* DiagnosisPanel::buildRun() {
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 6, 0, 0);
    grid->addWidget(heading(tr("The run")), 0, 0);
    grid->addWidget(heading(tr("Value")), 0, 1);
    grid->addWidget(heading(tr("From")), 0, 2);
    int r = 1;
    for (const SetupValue& v : setup_values(diagnosis_.setup.scenario)) {
        QString source;
        switch (setup_value_source(diagnosis_.setup, v)) {
        case ValueSource::Log: source = tr("the log"); break;
        case ValueSource::Given: source = tr("the window"); break;
        case ValueSource::Assumed: source = tr("assumed"); break;
        }
        grid->addWidget(textLabel(translatedCore(v.label), false), r, 0);
        grid->addWidget(textLabel(fromCore(v.value)), r, 1);
        QLabel* from = textLabel(source, false);
        sources_.insert(QString::fromLatin1(v.field), from);
        grid->addWidget(from, r, 2);
        ++r;
    }
    if (!diagnosis_.not_runnable.empty())
        grid->addWidget(textLabel(tr("The planner cannot run this setup: %1").arg(fromCore(diagnosis_.not_runnable))), r, 0, 1, 3);
    grid->setColumnStretch(1, 1);
    return box;
}

QWidget* DiagnosisPanel::buildFixes() {
    const std::vector<OomFix>& fixes = diagnosis_.diagnosis.fixes;
    auto* box = new QWidget;
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 6, 0, 0);
    grid->addWidget(heading(tr("What would fit (peak of usable; the same GPUs unless a row says more)")), 0, 0, 1, 3);
    if (fixes.empty())
        grid->addWidget(textLabel(diagnosis_.diagnosis.cause == OomCause::Capacity
                                      ? tr("No change to try: the planner has no step for this moment.")
                                      : tr("No change to the setup: the cause is not capacity (see above).")),
                        1, 0, 1, 3);
    for (int i = 0; i < static_cast<int>(fixes.size()); ++i) {
        const OomFix& f = fixes[static_cast<std::size_t>(i)];
        grid->addWidget(textLabel(fromCore(f.change)), i + 1, 0);
        const QString peak = tr("%1 of %2").arg(gibText(f.peak_bytes), gibText(f.usable_bytes));
        // A fit by less than the planner is below the log at the failing moment says so (OomFix::spare_under_shortfall).
        const QString verdict =
            !f.fits ? tr("%1, does not fit").arg(peak)
            : f.spare_under_shortfall
                ? tr("%1, fits by %2, less than the planner misses at that moment").arg(peak, gibText(f.usable_bytes - f.peak_bytes))
                : tr("%1, fits").arg(peak);
        // Wrapped: unwrapped, "... fits by 12.3 GiB, less than the planner misses at that moment" set
        // the panel's least width past the window's side, and the figures above were cut off.
        grid->addWidget(textLabel(verdict), i + 1, 1);
        auto* apply = new QPushButton(tr("Apply"));
        apply->setObjectName(QStringLiteral("applyFix%1").arg(i));
        apply->setAccessibleName(tr("Apply: %1").arg(fromCore(f.change)));
        apply->setToolTip(apply->accessibleName());
        connect(apply, &QPushButton::clicked, this, [this, i] { applyFix(i); });
        apply_.append(apply);
        grid->addWidget(apply, i + 1, 2);
    }
    // The change and its verdict share the width (the verdict wraps, two or three words a line alone).
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    return box;
}

void DiagnosisPanel::applyFix(int index) {
    const std::vector<OomFix>& fixes = diagnosis_.diagnosis.fixes;
    if (index < 0 || index >= static_cast<int>(fixes.size())) return;
    const OomFix& f = fixes[static_cast<std::size_t>(index)];
    doc_->edit(f.scenario, tr("Apply %1").arg(fromCore(f.change)));
    // The step view shows the changed setup's step, not the recommended one's (as a clicked bar does).
    doc_->selectSetup(f.scenario.zero);
}

QString DiagnosisPanel::causeText() const { return cause_ ? cause_->text() : QString(); }
QString DiagnosisPanel::whereText() const { return where_ ? where_->text() : QString(); }
QString DiagnosisPanel::termText() const { return term_ ? term_->text() : QString(); }
QString DiagnosisPanel::remediesText() const { return remedies_ ? remedies_->text() : QString(); }

QString DiagnosisPanel::figure(const QString& row, int column) const {
    const QLabel* l = figures_.value(row + QLatin1Char('/') + QString::number(column));
    return l ? l->text() : QString();
}

QString DiagnosisPanel::sourceOf(const QString& field) const {
    const QLabel* l = sources_.value(field);
    return l ? l->text() : QString();
}

QPushButton* DiagnosisPanel::applyButton(int index) const { return index >= 0 && index < apply_.size() ? apply_[index] : nullptr; }

}  // namespace zp::ui
