#include "ui/recommendation_card.h"

#include "core/format.h"
#include "ui/planner_document.h"

#include <QTextBrowser>
#include <QVBoxLayout>

namespace zp::ui {

namespace {
QString q(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
}  // namespace

RecommendationCard::RecommendationCard(PlannerDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc), text_(new QTextBrowser(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(text_);
    text_->setOpenLinks(false);
    connect(doc_, &PlannerDocument::resultsChanged, this, &RecommendationCard::rebuild);
    rebuild();
}

QString RecommendationCard::plainText() const { return text_->toPlainText(); }

void RecommendationCard::rebuild() {
    const Overview& o = doc_->overview();
    const Scenario& s = doc_->scenario();
    QString html;
    if (!o.plan_valid) {
        html += tr("<h3>No plan</h3><p>%1</p>").arg(q(o.plan_error));
    } else if (!o.plan.feasible) {
        html += tr("<h3>Nothing fits</h3><p>No stage, offload or recompute setup fits this cluster.</p><p><b>What would make it fit:</b></p><ul>");
        for (const auto& sg : o.plan.suggestions) html += QStringLiteral("<li>%1</li>").arg(q(sg));
        html += QStringLiteral("</ul>");
    } else {
        const Candidate& b = o.plan.best;
        html += tr("<h3>Recommended: %1</h3>").arg(q(setup_label(b.zero)));
        html += QStringLiteral("<table cellspacing=2>");
        const auto row = [&](const QString& k, const std::string& v) { html += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>").arg(k, q(v)); };
        row(tr("Memory per GPU"), format_bytes(b.memory.total_bytes()) + " of " + format_bytes(usable_gpu_bytes(s)) + " usable");
        row(tr("Host RAM per node"), format_bytes(b.memory.cpu_bytes_per_node) + " of " + format_bytes(s.cluster.cpu_ram_bytes_per_node));
        row(tr("NVMe per node"), format_bytes(b.memory.nvme_bytes_per_node) + " of " + format_bytes(s.cluster.nvme_bytes_per_node));
        row(tr("Batch"), "micro " + std::to_string(b.micro_batch) + " x " + std::to_string(b.gradient_accumulation_steps) +
                             " accumulation x " + std::to_string(s.cluster.world_size()) + " GPUs, recompute " + to_string(b.checkpointing));
        row(tr("Step time"), format_seconds(b.step.seconds) + " (compute " + format_seconds(b.step.compute_seconds) + ", communication " +
                                 format_seconds(b.step.comm_seconds) + ", offload " + format_seconds(b.step.offload_seconds) + ")");
        row(tr("Throughput"), format_count(b.step.tokens_per_second) + " tokens/s, MFU " + format_fixed(b.step.mfu * 100, 1) + "%");
        html += QStringLiteral("</table><p>");
        for (const auto& w : o.plan.why) html += q(w) + QStringLiteral(" ");
        html += QStringLiteral("</p>");
    }
    if (o.plan_valid && !o.plan.rejected.empty()) {
        html += tr("<p><b>Why not the others</b></p><ul>");
        for (const auto& r : o.plan.rejected) html += QStringLiteral("<li><b>%1</b>: %2</li>").arg(q(r.setup), q(r.reason));
        html += QStringLiteral("</ul>");
    }
    QStringList warnings;
    if (!o.step_valid) warnings << q(o.step_error);
    if (s.model.synthesized) warnings << tr("The architecture was synthesized from the size (hidden = 128 x layers); import a config.json for exact activations.");
    if (s.assumptions.convention == Convention::Paper)
        warnings << tr("ZeRO paper convention (16 bytes/param at stage 0): DeepSpeed itself allocates more (20 bytes/param).");
    if (!warnings.isEmpty()) html += tr("<p><b>Warnings</b></p><ul><li>") + warnings.join(QStringLiteral("</li><li>")) + QStringLiteral("</li></ul>");
    text_->setHtml(html);
}

}  // namespace zp::ui
