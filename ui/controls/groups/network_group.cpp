#include "ui/controls/groups/network_group.h"

#include "core/presets/gpu_presets.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"

#include <QFormLayout>

namespace zp::ui {

using Scale = ScaledSlider::Scale;

NetworkGroup::NetworkGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("Network"), parent) {
    buildRowsWhenShown({"inter_node_bandwidth", "nics_per_node", "intra_node_bandwidth"}, [this] {
        addRows();
        connectEdits();
    });
}

void NetworkGroup::addRows() {
    inter_bw_ = named(new ScaledSlider(1, 6400, 0, tr(" Gbit/s"), Scale::Logarithmic), "inter_node_bandwidth");
    setValidRange(inter_bw_, limits::kInterNodeGbitsPerS, 0);
    inter_bw_->setToolTips(
        tr("Network bandwidth per node, all NICs together (a DGX A100 has 8 x 200 Gbit/s). "
           "Limits communication when there is more than one node."));
    form_->addRow(tr("Inter-node"), inter_bw_);
    nics_ = addCountRow("nics_per_node", tr("NICs per node"),
                        tr("Network cards that bandwidth runs over. A ring of a node's GPUs across nodes runs at "
                           "its share of them, at most one card's rate (one per GPU: each GPU its share)."),
                        limits::kNicsPerNode, tr("one per GPU"));
    intra_bw_ = named(tip(new QComboBox(this), tr("Link between GPUs in a node, one direction per GPU. Limits communication on one node.")),
                      "intra_node_bandwidth");
    // The link names are English only, like the preset names.
    for (const IntraNodeLink& l : intra_node_links()) intra_bw_->addItem(QString::fromUtf8(l.name), l.gbytes_per_s);
    form_->addRow(tr("Intra-node"), intra_bw_);
}

void NetworkGroup::connectEdits() {
    connect(inter_bw_, &ScaledSlider::valueEdited, this, [this](double v) {
        edit(EditInterBw, tr("Change inter-node bandwidth"), [&](Scenario& s) { s.cluster.inter_node_gbits_per_s = v; });
    });
    connect(nics_, &EditSpinBox::valueEdited, this,
            [this](int v) { edit(EditNics, tr("Change NICs per node"), [&](Scenario& s) { s.cluster.nics_per_node = v; }); });
    connect(intra_bw_, &QComboBox::activated, this, [this](int index) {
        edit(EditIntraBw, tr("Change intra-node link"),
             [&](Scenario& s) { s.cluster.intra_node_gbytes_per_s = intra_bw_->itemData(index).toDouble(); });
    });
}

void NetworkGroup::syncWaitingRows(const Scenario& s) {
    inter_bw_->setValue(s.cluster.inter_node_gbits_per_s);
    nics_->showValue(static_cast<int>(s.cluster.nics_per_node));
    int intra_index = intra_bw_->findData(s.cluster.intra_node_gbytes_per_s);
    if (intra_index < 0) {
        // A link speed that is not in the table (typed on the command line, or from a session).
        intra_bw_->addItem(tr("%1 GB/s").arg(s.cluster.intra_node_gbytes_per_s), s.cluster.intra_node_gbytes_per_s);
        intra_index = intra_bw_->count() - 1;
    }
    setIndexIfChanged(intra_bw_, intra_index);
}

}  // namespace zp::ui
