#include "ui/panels/gpu_layout_view.h"

#include "core/base/errors.h"
#include "core/model/experts.h"
#include "core/model/parallel_layout.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <vector>

namespace zp::ui {

// What the canvas draws: a stage and a replica parity per rank, in rank order (ranks fill the
// nodes in order), all from the core.
struct LayoutPicture {
    int nodes = 0, per_node = 0, tensor = 1, stages = 1;  // nodes: the boxes drawn
    std::vector<std::int64_t> node_ids;                   // the run's node of each box (all of them, or evenly spaced ones)
    std::vector<int> stage;                               // pipeline stage of each drawn rank (box by box)
    std::vector<bool> odd_replica;                        // data-parallel rank is odd: the lighter shade
    std::vector<RankCoordinates> coords;
    // All-to-all groups (DeepSpeed-Ulysses, expert parallel; core's ulysses_group_ranks and
    // expert_group_ranks), one bar row under the GPUs each: per rank its group's ordinal (by its
    // lowest rank) and whether the group spans more than one node.
    struct GroupRow {
        QString name;  // for the tooltip: "sequence-parallel group"
        std::vector<int> group;
        std::vector<bool> crosses;
    };
    std::vector<GroupRow> rows;
};

namespace {

// The group bars' colours, cycled by group ordinal so neighbouring groups differ: Okabe and Ito's
// colour-blind-safe set (its blue only in the lighter sky shade, the cells being blue), a grey
// and an olive; eight, so a cluster's first eight groups never share one (the tooltip numbers them).
QColor groupColor(int ordinal) {
    static const QColor colors[] = {QColor(0xe6, 0x9f, 0x00), QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7), QColor(0x8c, 0x6d, 0x31),
                                    QColor(0xd5, 0x5e, 0x00), QColor(0x7f, 0x7f, 0x7f), QColor(0x56, 0xb4, 0xe9), QColor(0x6b, 0x8e, 0x23)};
    return colors[ordinal % 8];
}

// Where the boxes go at a given size: cells of `unit` pixels per node box, in lines of `per_line`
// GPUs (an NVLink domain of more than 16 wraps, fitGrid), or (compact) node
// boxes `unit` pixels per GPU wide striped by stage.
struct Grid {
    bool cells = false;
    int unit = 0, pad = 0, spacing = 0, box_w = 0, box_h = 0, gap = 0, cols = 1, x0 = 0, y0 = 0;
    int bar = 0;       // height of a group bar row below the GPUs
    int per_line = 1;  // cells mode: GPUs per line of a node box
    int line_h = 0;    // cells mode: a line's height with its bar rows and the gap to the next
    QRect box(int node) const { return {x0 + (node % cols) * (box_w + gap), y0 + (node / cols) * (box_h + gap), box_w, box_h}; }
    QRect cell(int node, int gpu) const {
        const QRect b = box(node);
        const int line = gpu / per_line, col = gpu % per_line;
        return {b.x() + pad + col * (unit + spacing), b.y() + pad + line * line_h, unit, unit};
    }
    // Whether GPU `gpu` ends its line (cells mode): runs drawn as one rectangle stop there.
    bool endsLine(int gpu) const { return cells && (gpu + 1) % per_line == 0; }
    // The bar of group row `row` under GPUs first .. last of a node (both modes).
    QRect groupBar(int node, int first, int last, int row) const {
        const QRect b = box(node);
        if (cells) {
            const QRect a = cell(node, first), z = cell(node, last);
            return {a.x(), a.bottom() + 2 + row * (bar + 1), z.right() - a.x() + 1, bar};
        }
        return {b.x() + first * unit, b.bottom() - (row + 1) * (bar + 1), (last - first + 1) * unit, bar};
    }
};

// The bar rows' height for cells of `unit` pixels (or stripes of `unit` pixels per GPU).
int barHeight(int unit) { return std::clamp(unit / 4, 3, 8); }

// Fits `n` boxes of w x h (plus gap) in `area`; returns the columns, or 0 when they do not fit.
int fitColumns(int n, int w, int h, int gap, const QSize& area) {
    const int cols = std::min(n, (area.width() + gap) / (w + gap));
    if (cols < 1) return 0;
    const int rows = (n + cols - 1) / cols;
    return rows * (h + gap) - gap <= area.height() ? cols : 0;
}

// Cells of the largest size that fit with `per_line` GPUs a line; cols 0 when none does.
Grid fitCells(const LayoutPicture& p, const QSize& area, int per_line) {
    Grid g;
    g.cells = true;
    g.pad = 3;
    g.spacing = 1;
    g.gap = 6;
    g.per_line = per_line;
    const int lines = (p.per_node + per_line - 1) / per_line;
    const int line_gap = 3;
    for (int u = 48; u >= GpuLayoutView::kMinCellPixels; --u) {
        g.unit = u;
        g.box_w = per_line * u + (per_line - 1) * g.spacing + 2 * g.pad;
        g.bar = p.rows.empty() ? 0 : barHeight(u);
        g.line_h = u + static_cast<int>(p.rows.size()) * (g.bar + 1) + (p.rows.empty() ? 0 : 1) + line_gap;
        g.box_h = lines * g.line_h - line_gap + 2 * g.pad;
        g.cols = fitColumns(p.nodes, g.box_w, g.box_h, g.gap, area);
        if (g.cols > 0) break;
    }
    return g;
}

Grid fitGrid(const LayoutPicture& p, const QSize& area) {
    Grid g;
    if (p.nodes < 1 || p.per_node < 1) return g;
    const int world = p.nodes * p.per_node;
    if (world <= GpuLayoutView::kMaxCells) {
        g = fitCells(p, area, p.per_node);
        // A node of more than 16 GPUs (a rack's NVLink domain) may wrap into lines of a divisor
        // of its GPUs from 4 to 18, where that draws larger cells; at the same size, lines that
        // tensor groups fill whole (or that fill a group) first.
        const auto aligned = [&](int d) { return p.tensor > 1 && (d % p.tensor == 0 || p.tensor % d == 0); };
        if (p.per_node > 16)
            for (int d = 18; d >= 4; --d) {
                if (p.per_node % d != 0) continue;
                const Grid w = fitCells(p, area, d);
                if (w.cols > 0 && (g.cols == 0 || w.unit > g.unit || (w.unit == g.unit && aligned(d) && !aligned(g.per_line)))) g = w;
            }
    }
    if (g.cols < 1 || !g.cells) {
        // Stage-striped node boxes: unit pixels per GPU, at most 3 units high.
        g = Grid{};
        g.gap = 3;
        for (int u = 24; u >= 1; --u) {
            g.unit = u;
            g.box_w = p.per_node * u;
            g.bar = p.rows.empty() ? 0 : barHeight(u);
            g.box_h = std::min(p.per_node, 3) * u + 2 + static_cast<int>(p.rows.size()) * (g.bar + 1);
            g.cols = fitColumns(p.nodes, g.box_w, g.box_h, g.gap, area);
            if (g.cols > 0) break;
        }
        g.cols = std::max(g.cols, 1);
    }
    const int used_w = g.cols * (g.box_w + g.gap) - g.gap;
    g.x0 = std::max(0, (area.width() - used_w) / 2);
    const int rows = (p.nodes + g.cols - 1) / g.cols;
    g.y0 = std::max(0, (area.height() - (rows * (g.box_h + g.gap) - g.gap)) / 2);
    return g;
}

}  // namespace

// The drawing: node boxes and GPU cells, painted from a LayoutPicture.
class LayoutCanvas : public QWidget {
public:
    explicit LayoutCanvas(QWidget* parent) : QWidget(parent) {
        setMinimumSize(240, 120);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        setAttribute(Qt::WA_OpaquePaintEvent);
    }
    void setPicture(LayoutPicture p) {
        picture_ = std::move(p);
        update();
    }
    Grid grid() const { return fitGrid(picture_, contentsRect().size()); }
    const LayoutPicture& picture() const { return picture_; }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        const QPalette pal = palette();
        painter.fillRect(rect(), pal.color(QPalette::Base));
        if (picture_.stage.empty()) return;
        const Grid g = grid();
        QColor border = pal.color(QPalette::WindowText);
        border.setAlpha(110);
        const QPen outline(pal.color(QPalette::WindowText), 2);
        for (int n = 0; n < picture_.nodes; ++n) {
            const QRect box = g.box(n);
            const int first = n * picture_.per_node;
            if (g.cells) {
                painter.setPen(QPen(border, 1));
                painter.setBrush(pal.color(QPalette::AlternateBase));
                painter.drawRect(box.adjusted(0, 0, -1, -1));
                painter.setPen(Qt::NoPen);
                for (int i = 0; i < picture_.per_node; ++i) {
                    const std::size_t r = static_cast<std::size_t>(first + i);
                    painter.fillRect(g.cell(n, i), pipelineStageColor(picture_.stage[r], picture_.stages, picture_.odd_replica[r]));
                }
                if (picture_.tensor > 1 && g.unit >= 4) {
                    painter.setPen(outline);
                    painter.setBrush(Qt::NoBrush);
                    // One outline per tensor group and line it covers.
                    for (int i = 0; i < picture_.per_node; i += picture_.tensor) {
                        const int end = std::min(i + picture_.tensor, picture_.per_node);
                        for (int a = i, b = i; a < end; a = ++b) {
                            while (b + 1 < end && !g.endsLine(b)) ++b;
                            painter.drawRect(QRect(g.cell(n, a).topLeft(), g.cell(n, b).bottomRight()));
                        }
                    }
                }
            } else {
                // Runs of one stage inside the node, one rectangle each.
                int i = 0;
                while (i < picture_.per_node) {
                    int j = i;
                    const int stage = picture_.stage[static_cast<std::size_t>(first + i)];
                    while (j < picture_.per_node && picture_.stage[static_cast<std::size_t>(first + j)] == stage) ++j;
                    painter.fillRect(QRect(box.x() + i * g.unit, box.y(), (j - i) * g.unit, box.height()),
                                     pipelineStageColor(stage, picture_.stages, false));
                    i = j;
                }
                painter.setPen(QPen(border, 1));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(box.adjusted(0, 0, -1, -1));
            }
            paintGroupBars(painter, g, n);
        }
    }

    // Each all-to-all group's GPUs in this node: one bar per run of consecutive members, in the
    // group's colour; a group that spans nodes (its all-to-alls cross the network) is striped:
    // diagonal lines in its colour inside its outline.
    void paintGroupBars(QPainter& painter, const Grid& g, int node) {
        const int first = node * picture_.per_node;
        for (std::size_t row = 0; row < picture_.rows.size(); ++row) {
            const LayoutPicture::GroupRow& groups = picture_.rows[row];
            int i = 0;
            while (i < picture_.per_node) {
                const std::size_t r = static_cast<std::size_t>(first + i);
                int j = i;
                while (j + 1 < picture_.per_node && !g.endsLine(j) &&
                       groups.group[r + static_cast<std::size_t>(j + 1 - i)] == groups.group[r])
                    ++j;
                const QRect bar = g.groupBar(node, i, j, static_cast<int>(row));
                const QColor color = groupColor(groups.group[r]);
                if (groups.crosses[r]) {
                    painter.fillRect(bar, palette().color(QPalette::Base));
                    painter.setPen(QPen(color, 2));
                    painter.setClipRect(bar);
                    for (int x = bar.left() - bar.height(); x <= bar.right(); x += 4)
                        painter.drawLine(QPointF(x, bar.bottom() + 1), QPointF(x + bar.height(), bar.top()));
                    painter.setClipping(false);
                    painter.setPen(QPen(color, 1));
                    painter.setBrush(Qt::NoBrush);
                    painter.drawRect(bar.adjusted(0, 0, -1, -1));
                } else {
                    painter.fillRect(bar, color);
                }
                i = j + 1;
            }
        }
    }

    bool event(QEvent* e) override {
        if (e->type() != QEvent::ToolTip) return QWidget::event(e);
        const QPoint at = static_cast<QHelpEvent*>(e)->pos();
        const Grid g = grid();
        for (int n = 0; n < picture_.nodes; ++n) {
            if (!g.box(n).contains(at)) continue;
            int gpu = -1;
            if (g.cells) {
                for (int i = 0; i < picture_.per_node && gpu < 0; ++i)
                    if (g.cell(n, i).contains(at)) gpu = i;
            } else {
                gpu = std::clamp((at.x() - g.box(n).x()) / std::max(g.unit, 1), 0, picture_.per_node - 1);
            }
            if (gpu < 0) break;
            const std::size_t drawn = static_cast<std::size_t>(n * picture_.per_node + gpu);
            const std::int64_t node = picture_.node_ids[static_cast<std::size_t>(n)];
            const std::int64_t rank = node * picture_.per_node + gpu;
            const RankCoordinates& c = picture_.coords[drawn];
            QString tip = GpuLayoutView::tr("Node %1, GPU %2: rank %3\ntensor rank %4, data-parallel rank %5, pipeline stage %6")
                              .arg(node)
                              .arg(gpu)
                              .arg(rank)
                              .arg(c.tp)
                              .arg(c.dp)
                              .arg(c.pp + 1);
            for (const LayoutPicture::GroupRow& row : picture_.rows)
                tip += QStringLiteral("\n%1 %2").arg(row.name).arg(row.group[drawn] + 1);
            QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(), tip, this);
            return true;
        }
        QToolTip::hideText();
        e->ignore();
        return true;
    }

private:
    LayoutPicture picture_;
};

namespace {

QString linkWords(GroupLink l) {
    switch (l) {
    case GroupLink::None: return GpuLayoutView::tr("no traffic");
    case GroupLink::IntraNode: return GpuLayoutView::tr("inside a node (NVLink)");
    case GroupLink::InterNode: return GpuLayoutView::tr("crosses the network");
    }
    return {};
}

// One legend line: what the group sends and where, the network in the warning colour.
QString legendLine(const QString& what, GroupLink l, const QPalette& pal) {
    QString where = linkWords(l).toHtmlEscaped();
    if (l == GroupLink::InterNode) where = QStringLiteral("<b style=\"color:%1\">%2</b>").arg(warningColor(pal).name(), where);
    return what.toHtmlEscaped() + QStringLiteral(": ") + where;
}

}  // namespace

GpuLayoutView::GpuLayoutView(PlannerDocument* doc, QWidget* parent)
    : LazyView(parent), doc_(doc), summary_(new QLabel(this)), canvas_(new LayoutCanvas(this)), legend_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->addWidget(summary_);
    layout->addWidget(canvas_, 1);
    layout->addWidget(legend_);
    QFont bold = summary_->font();
    bold.setBold(true);
    summary_->setFont(bold);
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    // On the plots' background (Base), like the other views.
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setAccessibleName(tr("GPU layout"));
    canvas_->setAccessibleName(tr("GPU layout drawing: nodes and their GPUs by parallel group"));
    // The scenario's layout, or with a size on auto the one the plan chose (the overview's).
    connect(doc_, &PlannerDocument::scenarioChanged, this, &GpuLayoutView::documentChanged);
    connect(doc_, &PlannerDocument::resultsChanged, this, &GpuLayoutView::documentChanged);
    restyle();
}

// The canvas and the labels read the palette when they paint; the legend's network colour is
// set by rebuild, which a palette change triggers (ui/widgets/lazy_view.cpp).
void GpuLayoutView::restyle() { canvas_->update(); }

void GpuLayoutView::rebuild() {
    // The scenario's own layout; with a size on auto, the plan's (its layout and its ZeRO stage).
    const Scenario& s = doc_->scenario().parallel.searched() ? doc_->exportScenario() : doc_->scenario();
    const Parallelism& par = s.parallel;
    const QPalette pal = palette();
    try {
        validate_parallelism(s);
    } catch (const InputError& e) {
        summary_->setText(tr("No layout: %1").arg(QString::fromUtf8(e.what())));
        legend_->clear();
        canvas_->setPicture({});
        setAccessibleDescription(summary_->text());
        canvas_->setAccessibleDescription(summary_->text());
        return;
    }
    const std::int64_t world = s.cluster.world_size();
    const std::int64_t d = data_parallel_size(s);
    LayoutPicture p;
    const int boxes = static_cast<int>(std::min<std::int64_t>(s.cluster.nodes, kMaxNodeBoxes));
    p.nodes = boxes;
    p.per_node = static_cast<int>(s.cluster.gpus_per_node);
    p.tensor = static_cast<int>(par.tensor);
    p.stages = static_cast<int>(par.pipeline);
    const int stage_count = p.stages;
    // The ranks drawn, box by box (ranks fill the nodes in order).
    std::vector<std::int64_t> ranks;
    ranks.reserve(static_cast<std::size_t>(p.nodes * p.per_node));
    for (int k = 0; k < p.nodes; ++k) {
        const std::int64_t node = k * s.cluster.nodes / p.nodes;
        p.node_ids.push_back(node);
        for (int i = 0; i < p.per_node; ++i) ranks.push_back(node * p.per_node + i);
    }
    for (const std::int64_t r : ranks) {
        const RankCoordinates c = rank_coordinates(s, r);
        p.coords.push_back(c);
        p.stage.push_back(static_cast<int>(c.pp));
        p.odd_replica.push_back(c.dp % 2 == 1);
    }
    // The all-to-all groups from the core, a bar row each: Ulysses, then experts.
    const std::int64_t u = ulysses_size(par);
    const std::int64_t ep = uses_expert_parallelism(s) ? par.expert : 1;
    const auto addRow = [&](const QString& name, auto&& groupOf) {
        LayoutPicture::GroupRow row;
        row.name = name;
        std::map<std::int64_t, int> ordinal;  // by the group's lowest rank
        for (const std::int64_t r : ranks) {
            const std::vector<std::int64_t> members = groupOf(s, r);
            const int o = ordinal.try_emplace(members.front(), static_cast<int>(ordinal.size())).first->second;
            row.group.push_back(o);
            row.crosses.push_back(node_of_rank(s, members.front()) != node_of_rank(s, members.back()));
        }
        p.rows.push_back(std::move(row));
    };
    if (u > 1) addRow(tr("sequence-parallel group"), ulysses_group_ranks);
    if (ep > 1) addRow(tr("expert-parallel group"), expert_group_ranks);
    canvas_->setPicture(std::move(p));

    QString summary = u > 1 ? tr("SP %1 x DP %2 (DeepSpeed-Ulysses)").arg(u).arg(d)
                            : tr("TP %1 x PP %2 x DP %3").arg(par.tensor).arg(par.pipeline).arg(d);
    if (ep > 1) summary += tr(", EP %1").arg(ep);
    if (par.virtual_stages > 1) summary += tr(", %1 virtual stages").arg(par.virtual_stages);
    if (par.sequence_parallel) summary += tr(", sequence parallel");
    summary += s.cluster.gpus_per_node == 1
                   ? (s.cluster.nodes == 1 ? tr(" on 1 node x 1 GPU") : tr(" on %1 nodes x 1 GPU").arg(s.cluster.nodes))
                   : (s.cluster.nodes == 1 ? tr(" on 1 node x %2 GPUs") : tr(" on %1 nodes x %2 GPUs").arg(s.cluster.nodes))
                         .arg(s.cluster.gpus_per_node);
    if (boxes < s.cluster.nodes) summary += tr(" (%1 of them drawn, evenly spaced)").arg(boxes);
    summary_->setText(summary);

    const GroupLinks links = layout_links(s);
    const QString tensor = par.sequence_parallel ? tr("Tensor parallel %1 (outlined): all-gather and reduce-scatter every layer")
                                                 : tr("Tensor parallel %1 (outlined): all-reduce every layer");
    const QString pipeline = tr("Pipeline %1 (colour by stage): point-to-point sends between stages");
    const QString replicas = tr("Data parallel %1 (shade alternates by replica): %2");
    QStringList lines = {
        legendLine(tensor.arg(par.tensor), links.tensor, pal),
        legendLine(pipeline.arg(par.pipeline), links.pipeline, pal),
        legendLine(replicas.arg(d).arg(translatedCore(data_parallel_traffic(s))), links.data, pal),
    };
    // The bar rows' lines, each with a swatch of the bars; a group over two nodes is outlined.
    const QString swatch = QStringLiteral("<span style=\"color:%1\">\u25ac</span><span style=\"color:%2\">\u25ac</span> ")
                               .arg(groupColor(0).name(), groupColor(1).name());
    if (u > 1) {
        // The ZeRO group is data x sequence (engine.py seq_data_parallel_group): the line above says data parallel.
        lines[2] = legendLine(tr("ZeRO over data x sequence parallel %1 (shade alternates by replica): %2")
                                  .arg(d * u)
                                  .arg(translatedCore(data_parallel_traffic(s))),
                              links.data, pal);
        lines.append(swatch + legendLine(tr("Sequence parallel %1 (bar under its GPUs, one colour per group, striped when it spans "
                                            "nodes): four all-to-alls per attention layer")
                                             .arg(u),
                                         links.sequence, pal));
    }
    if (ep > 1)
        lines.append(swatch + legendLine(tr("Expert parallel %1 (bar under its GPUs, one colour per group, striped when it spans "
                                            "nodes): token dispatch and combine all-to-alls per MoE layer")
                                             .arg(ep),
                                         links.expert, pal));
    QString stages = tr("Stages:");
    const int shown = static_cast<int>(std::min<std::int64_t>(par.pipeline, 16));
    for (int i = 0; i < shown; ++i)
        stages +=
            QStringLiteral(" <span style=\"color:%1\">\u25a0</span>%2").arg(pipelineStageColor(i, stage_count, false).name()).arg(i + 1);
    if (par.pipeline > shown) stages += QStringLiteral(" \u2026 %1").arg(par.pipeline);
    legend_->setText(lines.join(QStringLiteral("<br>")) + QStringLiteral("<br>") + stages);

    // For screen readers: the same in words, with where the groups' members sit.
    const QString gpus = world == 1 ? tr("One GPU")
                         : s.cluster.nodes == 1
                             ? tr("%1 GPUs in one node").arg(world)
                             : tr("%1 GPUs in %2 nodes of %3").arg(world).arg(s.cluster.nodes).arg(s.cluster.gpus_per_node);
    QString description =
        tr("%1. %2. Tensor-parallel groups are %3 consecutive GPUs; pipeline stages are %4 ranks apart; "
           "data-parallel groups have %5 ranks, %3 apart. Tensor-parallel traffic: %6. Pipeline traffic: %7. Data-parallel traffic "
           "(%8): %9.")
            .arg(gpus, summary)
            .arg(par.tensor)
            .arg(par.tensor * d)
            .arg(d)
            .arg(linkWords(links.tensor), linkWords(links.pipeline), translatedCore(data_parallel_traffic(s)), linkWords(links.data));
    if (u > 1)
        description += QLatin1Char(' ') +
                       tr("Sequence-parallel groups are %1 consecutive GPUs; their all-to-alls: %2.").arg(u).arg(linkWords(links.sequence));
    if (ep > 1)
        description += QLatin1Char(' ') + tr("Expert-parallel groups are %1 data-parallel ranks, %2 apart; their all-to-alls: %3.")
                                              .arg(ep)
                                              .arg(par.tensor)
                                              .arg(linkWords(links.expert));
    setAccessibleDescription(description);
    canvas_->setAccessibleDescription(description);
}

QString GpuLayoutView::layoutText() const { return summary_->text(); }
QString GpuLayoutView::legendText() const { return legend_->text(); }
QWidget* GpuLayoutView::drawing() const { return canvas_; }

int GpuLayoutView::cellCount() const {
    const LayoutPicture& p = canvas_->picture();
    return canvas_->grid().cells ? static_cast<int>(p.stage.size()) : 0;
}

int GpuLayoutView::groupRowCount() const { return static_cast<int>(canvas_->picture().rows.size()); }

int GpuLayoutView::gpusPerLine() const {
    const Grid g = canvas_->grid();
    return g.cells ? g.per_line : 0;
}

int GpuLayoutView::nodeBoxCount() const { return canvas_->picture().stage.empty() ? 0 : canvas_->picture().nodes; }

}  // namespace zp::ui
