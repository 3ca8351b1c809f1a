#include "ui/panels/recommendation_card.h"

#include "core/base/format.h"
#include "core/model/enum_names.h"
#include "core/model/parallel_layout.h"
#include "core/presets/cluster_presets.h"
#include "core/report/report.h"
#include "core/report/report_markdown.h"
#include "core/time/step_explain.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/i18n/translations.h"
#include "ui/widgets/flat_scroll_bar_style.h"
#include "ui/widgets/plain_text_update.h"
#include "ui/widgets/text_line.h"

#include <QApplication>
#include <QClipboard>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

namespace zp::ui {

namespace {
constexpr int kRows = 10;

QLabel* plainLabel(bool wrap = true) {
    auto* l = new QLabel;
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(wrap);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    l->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return l;
}
}  // namespace

RecommendationCard::RecommendationCard(PlannerDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    title_ = new TextLine;
    QFont big = title_->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.25);
    title_->setFont(big);
    layout->addWidget(title_);
    // Headroom first: "Fits with 17.0 GiB to spare at its peak (in the loss)".
    headroom_ = new TextLine;
    headroom_->setObjectName(QStringLiteral("headroom"));
    QFont headline = headroom_->font();
    headline.setBold(true);
    headroom_->setFont(headline);
    layout->addWidget(headroom_);
    auto* form = new QFormLayout;
    form->setHorizontalSpacing(10);
    form->setVerticalSpacing(1);  // ten rows and the headroom line: the window still fits 1280 x 720 (tst_window_fits)
    QFont bold = font();
    bold.setBold(true);
    for (int i = 0; i < kRows; ++i) {
        keys_ << plainLabel(false);
        values_ << new TextLine;  // new text must not re-lay out the window (see text_line.h)
        values_.back()->setFont(bold);
        form->addRow(keys_.back(), values_.back());
    }
    layout->addLayout(form);
    details_ = new QPlainTextEdit;
    details_->setReadOnly(true);
    details_->setFrameShape(QFrame::NoFrame);
    // A scroll bar that comes and goes with the text length would re-lay out the card each time.
    details_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn);
    makeFlat(details_->verticalScrollBar());
    layout->addWidget(details_, 1);
    connect(doc_, &PlannerDocument::resultsChanged, this, &RecommendationCard::rebuild);
    // Copy as Markdown, on the card and beside the text view's own Copy and Select All.
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) { showMenu(this, at); });
    details_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(details_, &QWidget::customContextMenuRequested, this, [this](const QPoint& at) { showMenu(details_, at); });
    rebuild();
}

void RecommendationCard::showMenu(QWidget* on, const QPoint& at) {
    QMenu* menu = on == details_ ? details_->createStandardContextMenu() : new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->addSeparator();
    menu->addAction(tr("Copy as Markdown"), this, [this] { QApplication::clipboard()->setText(markdown()); });
    menu->popup(on->mapToGlobal(at));
}

QString RecommendationCard::markdown() const {
    TextTable figures{{"", title_->text().toStdString()}, {false, false}, {}};
    if (!headroom_->text().isEmpty()) figures.rows.push_back({tr("Headroom per GPU").toStdString(), headroom_->text().toStdString()});
    for (int i = 0; i < kRows; ++i)
        if (!keys_[i]->text().isEmpty()) figures.rows.push_back({keys_[i]->text().toStdString(), values_[i]->text().toStdString()});
    std::string text = markdown_table(figures);
    const Overview& o = doc_->overview();
    if (o.plan_valid && !o.plan.rejected.empty()) {
        TextTable others{
            {tr("setup").toStdString(), (o.plan.feasible ? tr("why not") : tr("why it does not fit")).toStdString()}, {false, false}, {}};
        for (const auto& r : o.plan.rejected)
            others.rows.push_back({translated(r.setup_phrase).toStdString(), translated(r.reason_phrase).toStdString()});
        text += "\n" + markdown_table(others);
    }
    return QString::fromStdString(text);
}

QString RecommendationCard::plainText() const {
    QStringList parts{title_->text()};
    if (!headroom_->text().isEmpty()) parts << headroom_->text();
    for (int i = 0; i < kRows; ++i)
        if (!keys_[i]->text().isEmpty()) parts << keys_[i]->text() + QStringLiteral(": ") + values_[i]->text();
    parts << details_->toPlainText();
    return parts.join(QLatin1Char('\n'));
}

namespace {
// "12.56 s = compute 10.76 s + offload 1.80 s": the parts that are not zero (the details' line; the
// card's row has the total and the compute, which fit one line at 1280 x 720).
QString stepParts(const StepTime& t) {
    QString text =
        RecommendationCard::tr("%1 = compute %2").arg(fromCore(format_seconds(t.seconds)), fromCore(format_seconds(t.compute_seconds)));
    if (t.comm_seconds > 0) text += RecommendationCard::tr(" + comm. %1").arg(fromCore(format_seconds(t.comm_seconds)));
    if (t.offload_seconds > 0) text += RecommendationCard::tr(" + offload %1").arg(fromCore(format_seconds(t.offload_seconds)));
    if (t.data_wait_seconds > 0)
        text += RecommendationCard::tr(" + waiting for data %1").arg(fromCore(format_seconds(t.data_wait_seconds)));
    return text;
}

// Two sentences or paragraphs, one after the other: a space in English, none after a Chinese full stop.
QString joined(const QString& first, const QString& second) {
    return first.isEmpty() ? second : RecommendationCard::tr("%1 %2", "two sentences, one after the other").arg(first, second);
}
}  // namespace

// The rows of a plan that fits, headroom first: what its spare takes, what must fit, then the rest.
void RecommendationCard::figuresOf(const Overview& o, const Scenario& s, QStringList& keys, QStringList& values) const {
    const Candidate& b = o.plan.best;
    const QString none = QStringLiteral("\u2014");
    // "as set": each at the plan's other settings (its recompute; the sequence also at its micro
    // batch), as the CLI says; the Sequence tab re-plans both for each length.
    keys << tr("Largest micro batch as set") << tr("Longest sequence as set") << tr("Must fit per GPU") << tr("Peak reserved per GPU")
         << tr("Host RAM per node") << tr("NVMe per node") << tr("Batch") << tr("Recompute") << tr("Step time") << tr("Throughput");
    values
        << (o.best_micro.max_micro_batch > 0 ? translated(micro_batch_room_phrase(b, o.best_micro)) : none)
        << (o.best_longest.max_seq_len > 0 ? translated(sequence_room_phrase(o.best_longest)) : none)
        << tr("%1 of %2 usable").arg(fromCore(format_bytes(b.memory.peak_required_bytes)), fromCore(format_bytes(usable_gpu_bytes(s))))
        << tr("%1 (nvidia-smi); peak allocated %2")
               .arg(fromCore(format_bytes(b.memory.peak_reserved_bytes)), fromCore(format_bytes(b.memory.peak_allocated_bytes)))
        << tr("%1 of %2, peaks %3")
               .arg(fromCore(format_bytes(b.memory.cpu_bytes_per_node)), fromCore(format_bytes(s.cluster.cpu_ram_bytes_per_node)),
                    hostPhaseShortName(b.memory.host.peak_phase))
        << tr("%1 of %2").arg(fromCore(format_bytes(b.memory.nvme_bytes_per_node)), fromCore(format_bytes(s.cluster.nvme_bytes_per_node)))
        << translated(batch_phrase(s, b)) << translatedCore(to_string(b.checkpointing))
        << tr("%1 (compute %2)").arg(fromCore(format_seconds(b.step.seconds)), fromCore(format_seconds(b.step.compute_seconds)))
        << tr("%1 tokens/s, MFU %2%").arg(fromCore(format_count(b.step.tokens_per_second)), localeNumber(b.step.mfu * 100, 1));
}

// Below the rows, for a plan that fits: what the reserve is, the step's parts, where it peaks,
// what decides its step, then why it won.
QString RecommendationCard::detailsOf(const Overview& o) const {
    const Candidate& b = o.plan.best;
    // nvidia-smi's figure is not "full": the caching allocator keeps what it freed and gives it back
    // when an allocation needs it (core/report/report.h kReservedNote).
    QString text = tr("Peak reserved %1 is what nvidia-smi shows: %2.")
                       .arg(fromCore(format_bytes(b.memory.peak_reserved_bytes)), translatedCore(kReservedNote));
    text += QLatin1Char('\n') + tr("Step: %1.").arg(stepParts(b.step));
    // Where the step peaks and what is allocated then (core/memory/step_timeline.h).
    const StepMoment& peak = b.memory.peak;
    text += QLatin1Char('\n') +
            tr("Peaks in the %1: %2, %3 on top of what stays allocated all run.")
                .arg(translatedCore(to_string(peak.phase)), translatedCore(peak.cause), fromCore(format_bytes(peak.cycling_bytes())));
    if (b.memory.required_phase != peak.phase)
        text += QLatin1Char(' ') + tr("What must fit is largest in the %1.").arg(translatedCore(to_string(b.memory.required_phase)));
    // bitsandbytes' paged moments sit outside the allocator (core/memory/memory_breakdown.h).
    if (b.memory.paged_optimizer_bytes > 0)
        text += QLatin1Char('\n') + tr("Paged optimizer states: %1 in CUDA managed memory, outside what must fit: on the GPU while it "
                                       "has room, in host RAM when it has not.")
                                        .arg(fromCore(format_bytes(b.memory.paged_optimizer_bytes)));
    // What the ranking's step time rests on (core/time/step_explain.h), as `recommend` prints it.
    text += QLatin1Char('\n') + tr("What decides its step: %1.").arg(translated(explain_step_phrase(b.step)));
    QString why;
    for (const auto& w : o.plan.why_phrases) why = joined(why, translated(w));
    return text + QStringLiteral("\n\n") + why;
}

void RecommendationCard::rebuild() {
    const Overview& o = doc_->overview();
    const Scenario& s = doc_->scenario();
    QStringList keys, values;
    QString why, headroom;
    if (!o.plan_valid) {
        title_->setText(tr("No plan"));
        why = fromCore(o.plan_error);
    } else if (!o.plan.feasible) {
        title_->setText(tr("Nothing fits"));
        why = tr("No stage, offload or recompute setup fits this cluster. What would make it fit:");
        for (const auto& sg : o.plan.suggestion_phrases) why += QStringLiteral("\n\u2022 ") + translated(sg);
    } else {
        const Candidate& b = o.plan.best;
        title_->setText(tr("Recommended: %1").arg(translated(setup_phrase(setup_key(b.zero), b.engine, b.hybrid_shard))));
        headroom = translated(headroom_phrase(s, b));
        figuresOf(o, s, keys, values);
        why = detailsOf(o);
    }
    headroom_->setText(headroom);
    // Nothing fits: no headroom to state, and an empty bold band under the title read as a lost line.
    // Shown or hidden only when the plan turns feasible or not, as the rows below.
    if (headroom_->isVisibleTo(this) == headroom.isEmpty()) headroom_->setVisible(!headroom.isEmpty());
    for (int i = 0; i < kRows; ++i) {
        keys_[i]->setText(i < keys.size() ? keys[i] : QString());
        values_[i]->setText(i < values.size() ? values[i] : QString());
        // Rows show or hide only when the plan turns feasible or not, never on an ordinary move.
        if (keys_[i]->isVisibleTo(this) != (i < keys.size())) {
            keys_[i]->setVisible(i < keys.size());
            values_[i]->setVisible(i < keys.size());
        }
    }
    QString details = why;
    // A host carried over from another GPU's node (core's host_of_other_node): first, since the
    // plan's host RAM and NVMe, and so whether it fits, rest on it.
    if (const ClusterPreset* node = host_of_other_node(s.cluster))
        details = tr("Host: RAM, NVMe and network are the %1's, not a %2 machine's: set yours under Host (per node) and Network, "
                     "or choose its node.")
                      .arg(fromCore(node->display_name), fromCore(s.cluster.gpu.display_name)) +
                  QStringLiteral("\n\n") + details;
    if (o.plan_valid && !o.plan.rejected.empty()) {
        details += QStringLiteral("\n\n") + tr("Why not the others:");
        for (const auto& r : o.plan.rejected)
            details += QStringLiteral("\n\u2022 ") + translated(r.setup_phrase) + QStringLiteral(": ") + translated(r.reason_phrase);
    }
    QStringList warnings;
    if (!o.step_valid) warnings << fromCore(o.step_error);
    if (s.model.synthesized)
        warnings << tr(
            "The architecture was synthesized from the size (hidden = 128 x layers); import a config.json for exact activations.");
    if (s.assumptions.convention == Convention::Paper)
        warnings << tr("ZeRO paper convention (16 bytes/param at stage 0): DeepSpeed itself allocates more (20 bytes/param).");
    if (!warnings.isEmpty())
        details += QStringLiteral("\n\n") + tr("Warnings:") + QStringLiteral("\n\u2022 ") + warnings.join(QStringLiteral("\n\u2022 "));
    replacePlainText(details_, details);
}

}  // namespace zp::ui
