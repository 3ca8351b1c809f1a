#include "ui/controls/groups/zeropp_group.h"

#include "core/model/deepspeed_defaults.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>

#include <cmath>
#include <vector>

namespace zp::ui {

namespace {
// A count of parameters as DeepSpeed's docs and configs write it: "1e9", "5e8"; any other in full
// (an imported config's 0 too: DeepSpeed takes any count from 0).
QString parameterCount(double n) {
    if (!(n >= 10)) return QLocale().toString(static_cast<qlonglong>(std::llround(n)));
    const int exponent = static_cast<int>(std::floor(std::log10(n)));
    const double mantissa = n / std::pow(10.0, exponent);
    if (std::abs(mantissa - std::round(mantissa)) < 1e-9) return QStringLiteral("%1e%2").arg(std::lround(mantissa)).arg(exponent);
    return QLocale().toString(static_cast<qlonglong>(std::llround(n)));
}
}  // namespace

ZeroppGroup::ZeroppGroup(PlannerDocument* doc, QWidget* parent) : ControlGroup(doc, tr("ZeRO++ (ZeRO-3 setups)"), parent) {
    hpz_ = named(tip(new QComboBox(this), tr("zero_hpz_partition_size: a second 16-bit partition over this many GPUs of a node, so the "
                                             "backward gathers over NVLink instead of the network. Costs 2P/size bytes per GPU. "
                                             "auto: the plan tries ZeRO++ off, hpZ over the node and hpZ with qwZ and qgZ across nodes, "
                                             "and keeps the fastest that fits.")),
                 "hpz_partition_size");
    hpz_->setAccessibleName(tr("hpZ partition size"));
    form_->addRow(tr("hpZ"), hpz_);
    quantized_weights_ = named(tip(new QCheckBox(tr("Quantized weights (qwZ)")),
                                   tr("zero_quantized_weights: parameter gathers move int8, half the 16-bit bytes.")),
                               "quantized_weights");
    quantized_weights_->setAccessibleName(tr("Quantized weights (qwZ)"));
    form_->addRow(quantized_weights_);
    quantized_gradients_ = named(tip(new QCheckBox(tr("Quantized gradients (qgZ)")),
                                     tr("zero_quantized_gradients: gradients reduce as int4, inside the node first, then across nodes.")),
                                 "quantized_gradients");
    quantized_gradients_->setAccessibleName(tr("Quantized gradients (qgZ)"));
    form_->addRow(quantized_gradients_);
    zeropp_info_ = named(new QLabel, "zeropp_info");
    zeropp_info_->setWordWrap(true);
    form_->addRow(zeropp_info_);
    // MiCS (core/model/mics.h): the primary partition over a shard group instead of every GPU.
    mics_shard_ =
        named(tip(new QComboBox(this), tr("mics_shard_size (MiCS): parameters, gradients and optimizer states are split over groups "
                                          "of this many GPUs and replicated across the groups, so the gathers stay inside a group. "
                                          "ZeRO-3 without offload or ZeRO++.")),
              "mics_shard_size");
    mics_shard_->setAccessibleName(tr("MiCS shard size"));
    form_->addRow(tr("MiCS"), mics_shard_);
    // stage3_max_live_parameters: what ZeRO-3's prefetch fills (core/model/layer_modules.h).
    max_live_ = named(tip(new QComboBox(this), tr("stage3_max_live_parameters: ZeRO-3 prefetches the next modules' parameters until "
                                                  "this many are gathered on each GPU, through the forward and the backward. "
                                                  "Lower it when a ZeRO-3 run is out of memory in its forward or backward.")),
                      "max_live_parameters");
    max_live_->setAccessibleName(tr("Live parameters"));
    form_->addRow(tr("Live parameters"), max_live_);
    connectEdits();
    connect(doc_, &PlannerDocument::resultsChanged, this, &ZeroppGroup::showZeroppInfo);
}

void ZeroppGroup::connectEdits() {
    connect(mics_shard_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(mics_shard_->itemData(index).toLongLong());
        edit(EditMicsShard, tr("Change MiCS shard size"), [&](Scenario& s) { s.zero.mics_shard_size = size; });
    });
    connect(max_live_, &QComboBox::activated, this, [this](int index) {
        const double elems = max_live_->itemData(index).toDouble();
        edit(EditMaxLiveParameters, tr("Change live parameters"), [&](Scenario& s) { s.zero.stage3_max_live_parameters = elems; });
    });
    connect(hpz_, &QComboBox::activated, this, [this](int index) {
        const auto size = static_cast<std::int64_t>(hpz_->itemData(index).toLongLong());
        edit(EditHpz, tr("Change hpZ partition size"), [&](Scenario& s) {
            s.zero.auto_zeropp = size == 0;
            if (size == 0) {  // the plan chooses all three switches (ZeroSetup::auto_zeropp)
                apply_zeropp_choice(s.zero, ZeroppChoice::Off, s.cluster.gpus_per_node);
                return;
            }
            s.zero.hpz_partition_size = size;
        });
    });
    connect(quantized_weights_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditQuantizedWeights, tr("Toggle quantized weights"), [&](Scenario& s) { s.zero.quantized_weights = on; });
    });
    connect(quantized_gradients_, &QCheckBox::clicked, this, [this](bool on) {
        edit(EditQuantizedGradients, tr("Toggle quantized gradients"), [&](Scenario& s) { s.zero.quantized_gradients = on; });
    });
}

// With ZeRO++ on auto, the switches the plan chose, or off and why (the core's words).
void ZeroppGroup::showZeroppInfo() {
    const Phrase outcome = auto_zeropp_outcome(doc_->exportScenario(), doc_->overview());
    const QString text = outcome.text.empty() ? QString() : tr("Chosen: %1").arg(translated(outcome));
    if (zeropp_info_->text() != text) zeropp_info_->setText(text);
    zeropp_info_->setVisible(!text.isEmpty());
}

void ZeroppGroup::sync(const Scenario& s) {
    std::vector<std::int64_t> sizes = node_group_sizes(s.cluster);
    sizes.insert(sizes.begin(), 0);  // "auto" first, as the layout sizes
    showGpuGroupSizes(hpz_, sizes, s.zero.auto_zeropp ? 0 : s.zero.hpz_partition_size);
    setCheckedIfChanged(quantized_weights_, s.zero.quantized_weights);
    setCheckedIfChanged(quantized_gradients_, s.zero.quantized_gradients);
    showGpuGroupSizes(mics_shard_, mics_shard_sizes(s.cluster), s.zero.mics_shard_size);
    showMaxLive(s.zero.stage3_max_live_parameters);
    quantized_weights_->setEnabled(!s.zero.auto_zeropp);
    quantized_gradients_->setEnabled(!s.zero.auto_zeropp);
    // ZeRO++, MiCS and the live-parameter budget are DeepSpeed's: under PyTorch FSDP nothing here
    // applies (validate_fsdp refuses them; engine auto plans DeepSpeed with them).
    setEnabled(!is_fsdp(s.fsdp) || s.fsdp.auto_engine);
    showZeroppInfo();
}

// DeepSpeed's default first, then the smaller choices; a value none of them is (an imported
// config's) is listed as it is, after them.
void ZeroppGroup::showMaxLive(double current) {
    QVariantList values;
    for (double v : deepspeed::recommended::kLiveParameterChoices) values.push_back(v);
    showChoices(max_live_, values, current, [](const QVariant& v) {
        const double n = v.toDouble();
        return n == deepspeed::defaults::kStage3MaxLiveParameters ? tr("%1 (DeepSpeed's default)").arg(parameterCount(n))
                                                                  : parameterCount(n);
    });
}

}  // namespace zp::ui
