// The control panel on its own, offscreen: it shows every valid value unclamped, its lists are
// the core's tables, a user edit is one undo step, and showing the document is none.
#include "core/base/units.h"
#include "core/model/deepspeed_release.h"
#include "core/model/enum_names.h"
#include "core/model/limits.h"
#include "core/model/model_spec.h"
#include "core/model/transformers_release.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/job_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"
#include "tests/ui/offscreen.h"
#include "ui/controls/control_group.h"
#include "ui/controls/control_panel.h"
#include "ui/document/planner_document.h"
#include "ui/widgets/edit_spin_box.h"
#include "ui/widgets/scaled_slider.h"
#include "ui/widgets/wrapped_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QSlider>
#include <QToolButton>
#include <QUndoStack>
#include "test_main.h"

#include <functional>

using namespace zp;
using namespace zp::ui;

namespace {

// The value a control shows, whatever its kind.
double shown(QWidget* control) {
    if (auto* s = qobject_cast<ScaledSlider*>(control)) return s->value();
    if (auto* s = qobject_cast<EditDoubleSpinBox*>(control)) return s->value();
    if (auto* s = qobject_cast<EditSpinBox*>(control)) return s->value();
    qFatal("no value to read on %s", qPrintable(control->objectName()));
}

QStringList itemData(const QComboBox* box) {
    QStringList data;
    for (int i = 0; i < box->count(); ++i) data << box->itemData(i).toString();
    return data;
}

template <class E>
QStringList enumNames() {
    QStringList names;
    for (const auto& n : enum_names<E>()) names << QString::fromLatin1(n.name);
    return names;
}

struct ShownRow {
    const char* name;
    const char* control;
    std::function<void(Scenario&)> set;
    double expected;
};

// Valid values beyond the ranges the window's controls used to have (micro batch 4096,
// sequence 1M, headroom 50%, GPUs per node 64, GPU count 4096, global batch 2^24).
const std::vector<ShownRow>& shownRows() {
    static const std::vector<ShownRow> rows = {
        {"micro batch 8192", "micro_batch",
         [](Scenario& s) {
             s.training.micro_batch = 8192;
             s.training.auto_micro_batch = false;
         },
         8192},
        {"micro batch at the limit", "micro_batch",
         [](Scenario& s) {
             s.training.micro_batch = limits::kMicroBatch.max;
             s.training.auto_micro_batch = false;
         },
         static_cast<double>(limits::kMicroBatch.max)},
        {"sequence of 16M tokens", "seq_len", [](Scenario& s) { s.training.seq_len = limits::kSeqLen.max; },
         static_cast<double>(limits::kSeqLen.max)},
        {"sequence of 64 tokens", "seq_len", [](Scenario& s) { s.training.seq_len = 64; }, 64},
        {"headroom 90%", "headroom", [](Scenario& s) { s.assumptions.headroom = 0.9; }, 90},
        {"72 GPUs per node", "gpus_per_node", [](Scenario& s) { s = with_gpu_count(s, 144, 72); }, 72},
        {"16384 GPUs", "gpu_count", [](Scenario& s) { s = with_gpu_count(s, 16384, 8); }, 16384},
        {"global batch 2^31", "global_batch", [](Scenario& s) { s.training.global_batch = std::int64_t{1} << 31; }, 2147483648.0},
        {"GPU memory 512 GiB", "gpu_memory", [](Scenario& s) { s.cluster.gpu = custom_gpu(s.cluster.gpu, 512); }, 512},
        {"inter-node 12800 Gbit/s", "inter_node_bandwidth", [](Scenario& s) { s.cluster.inter_node_gbits_per_s = 12800; }, 12800},
        {"one NIC per node", "nics_per_node", [](Scenario& s) { s.cluster.nics_per_node = 1; }, 1},
        {"CPU RAM 100000 GiB", "cpu_ram", [](Scenario& s) { s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(100000); }, 100000},
        {"NVMe 2000000 GiB", "nvme", [](Scenario& s) { s.cluster.nvme_bytes_per_node = gib_to_bytes(2e6); }, 2e6},
        {"1024 data loader workers", "dataloader_workers",
         [](Scenario& s) { s.training.dataloader_workers = limits::kDataloaderWorkers.max; },
         static_cast<double>(limits::kDataloaderWorkers.max)},
        {"16 train metrics", "logit_metrics", [](Scenario& s) { s.training.logit_metrics = limits::kLogitMetrics.max; },
         static_cast<double>(limits::kLogitMetrics.max)},
        {"the smallest synthesized model", "model_size",
         [](Scenario& s) { s.model = synthesize_model(static_cast<std::int64_t>(limits::kSynthesizedParams.min)); }, 0.0147},
    };
    return rows;
}

// What a person does to each control; each changes the default scenario.
struct EditRow {
    const char* control;
    std::function<void(QWidget*)> act;
};

void pressKey(QWidget* w, Qt::Key key) { QTest::keyClick(w, key); }

const std::vector<EditRow>& editRows() {
    const auto down = [](QWidget* w) { pressKey(w, Qt::Key_Down); };  // a closed combo: the next item, activated
    const auto up = [](QWidget* w) { pressKey(w, Qt::Key_Up); };      // a spin box: one step up
    const auto end = [](QWidget* w) { pressKey(qobject_cast<ScaledSlider*>(w)->slider(), Qt::Key_End); };
    static const std::vector<EditRow> rows = {
        {"model", down},
        {"model_size", end},
        {"node", down},
        {"gpu_count", end},
        {"gpu", down},
        {"gpu_memory", end},
        {"inter_node_bandwidth", end},
        {"nics_per_node", up},
        {"intra_node_bandwidth", down},
        {"cpu_ram", up},
        {"nvme", up},
        {"pin_memory", [](QWidget* w) { pressKey(w, Qt::Key_Space); }},
        {"load_in_16bit", [](QWidget* w) { pressKey(w, Qt::Key_Space); }},
        {"low_cpu_mem_usage", [](QWidget* w) { pressKey(w, Qt::Key_Space); }},
        {"dataloader_workers", up},
        {"precision", down},
        {"optimizer", down},
        {"seq_len", end},
        {"global_batch",
         [](QWidget* w) {
             auto* box = qobject_cast<QAbstractSpinBox*>(w);
             box->selectAll();
             QTest::keyClicks(box, QStringLiteral("128"));
             QTest::keyClick(box, Qt::Key_Return);
         }},
        {"micro_batch", up},
        {"checkpointing", down},
        {"flash_attention", [](QWidget* w) { pressKey(w, Qt::Key_Space); }},
        {"loss_fp32_upcast", [](QWidget* w) { pressKey(w, Qt::Key_Space); }},
        {"loss_kernel", down},
        {"fused_optimizer", [](QWidget* w) { pressKey(w, Qt::Key_Space); }},
        {"logit_metrics", up},
        {"headroom", up},
        {"convention", down},
    };
    return rows;
}

// The count controls, their limit, undo text and field.
struct CountRow {
    const char* control;
    limits::CountRange range;
    const char* undo_text;
    std::function<std::int64_t(const Scenario&)> field;
    std::function<void(Scenario&, std::int64_t)> set;
};
const std::vector<CountRow>& countRows() {
    static const std::vector<CountRow> rows = {
        {"logit_metrics", limits::kLogitMetrics, "Change train metrics", [](const Scenario& s) { return s.training.logit_metrics; },
         [](Scenario& s, std::int64_t n) { s.training.logit_metrics = n; }},
        {"dataloader_workers", limits::kDataloaderWorkers, "Change data loader workers",
         [](const Scenario& s) { return s.training.dataloader_workers; },
         [](Scenario& s, std::int64_t n) { s.training.dataloader_workers = n; }},
    };
    return rows;
}

// A combo box's items as shown, in order.
QStringList itemTexts(const QComboBox* box) {
    QStringList texts;
    for (int i = 0; i < box->count(); ++i) texts << box->itemText(i);
    return texts;
}

}  // namespace

class TestControlPanel : public QObject {
    Q_OBJECT
public:
    static void initMain() { zp::test::use_offscreen_platform(); }

private slots:
    void a_valid_session_shows_unclamped_data() {
        QTest::addColumn<int>("row");
        for (int i = 0; i < static_cast<int>(shownRows().size()); ++i) QTest::newRow(shownRows()[i].name) << i;
    }
    void a_valid_session_shows_unclamped() {
        QFETCH(int, row);
        const ShownRow& r = shownRows()[static_cast<std::size_t>(row)];
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        Scenario s = doc.scenario();
        r.set(s);
        validate(s);  // the value is valid, so the control must be able to show it
        doc.reset(s);
        auto* control = panel.findChild<QWidget*>(QLatin1String(r.control));
        QVERIFY2(control, r.control);
        QCOMPARE(shown(control), r.expected);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    // The size box in billions: three significant digits, at least two decimals (two decimals
    // showed a 14.7M model as "0.02 B" and set 20M on an edit of that text).
    void model_size_shows_three_significant_digits_data() {
        QTest::addColumn<qint64>("params");
        QTest::addColumn<QString>("text");
        QTest::newRow("14.7M") << qint64{14'682'624} << QStringLiteral("0.0147");
        QTest::newRow("124M") << qint64{124'000'000} << QStringLiteral("0.124");
        QTest::newRow("8.03B") << qint64{8'030'261'248} << QStringLiteral("8.03");
        QTest::newRow("175B") << qint64{175'000'000'000} << QStringLiteral("175.00");
    }
    void model_size_shows_three_significant_digits() {
        QFETCH(qint64, params);
        QFETCH(QString, text);
        PlannerDocument doc;
        ControlPanel panel(&doc);
        Scenario s = doc.scenario();
        s.model = synthesize_model(params);
        doc.reset(s);
        auto* size = panel.findChild<ScaledSlider*>(QStringLiteral("model_size"))->findChild<EditDoubleSpinBox*>();
        QCOMPARE(size->textFromValue(size->value()),
                 QLocale().toString(text.toDouble(), 'f', int(text.size() - text.indexOf(QLatin1Char('.')) - 1)));
    }

    // Return in the size box with its text untouched is no edit: the box holds the value its
    // text reads (a code review: behind "8.03" it held 8.0303, and Return replaced Llama-3.1 8B
    // with an 8.03B synthesized model, one undo step).
    void model_size_return_keeps_the_preset() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.show();
        Scenario s = doc.scenario();
        s.model = model_preset("llama-3.1-8b").spec;
        doc.reset(s);
        auto* size = panel.findChild<ScaledSlider*>(QStringLiteral("model_size"))->findChild<EditDoubleSpinBox*>();
        size->setFocus();
        QTest::keyClick(size, Qt::Key_Return);
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(doc.scenario().model.name, std::string("llama-3.1-8b"));
    }

    void control_ranges_are_the_core_limits() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        auto* micro = panel.findChild<EditSpinBox*>(QStringLiteral("micro_batch"));
        QCOMPARE(micro->maximum(), limits::kMicroBatch.max);
        QCOMPARE(micro->minimum(), 0);  // "auto"
        auto* node = panel.findChild<EditSpinBox*>(QStringLiteral("gpus_per_node"));
        QCOMPARE(node->minimum(), limits::kGpusPerNode.min);
        QCOMPARE(node->maximum(), limits::kGpusPerNode.max);
        auto* nics = panel.findChild<EditSpinBox*>(QStringLiteral("nics_per_node"));
        QCOMPARE(nics->minimum(), limits::kNicsPerNode.min);  // 0: "one per GPU"
        QCOMPARE(nics->maximum(), limits::kNicsPerNode.max);
        auto* global = panel.findChild<EditDoubleSpinBox*>(QStringLiteral("global_batch"));
        QCOMPARE(global->maximum(), static_cast<double>(limits::kGlobalBatch.max));
        auto* headroom = panel.findChild<EditDoubleSpinBox*>(QStringLiteral("headroom"));
        QCOMPARE(headroom->minimum(), 0.0);
        QCOMPARE(headroom->maximum(), 99.0);  // [0, 1) in whole percent
        auto* ram = panel.findChild<EditDoubleSpinBox*>(QStringLiteral("cpu_ram"));
        QCOMPARE(ram->maximum(), limits::kCpuRamGib.max);
    }

    void every_combo_lists_the_core_table() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        const auto combo = [&](const char* name) { return panel.findChild<QComboBox*>(QLatin1String(name)); };
        QCOMPARE(itemData(combo("precision")), enumNames<Precision>());
        QCOMPARE(itemData(combo("optimizer")), enumNames<Optimizer>());
        QCOMPARE(itemData(combo("convention")), enumNames<Convention>());
        QCOMPARE(itemData(combo("loss_kernel")), enumNames<LossKernel>());
        QCOMPARE(itemData(combo("checkpointing")), QStringList{QStringLiteral("auto")} + enumNames<Checkpointing>());
        QStringList models;
        for (const auto& p : model_presets()) models << QString::fromStdString(p.name);
        models << QStringLiteral("__custom__");
        QCOMPARE(itemData(combo("model")), models);
        // The GPU and node lists hold every preset once, grouped under a disabled header per
        // family (vendor and generation), headers first in gpu_families() order.
        QStringList gpus;
        for (const auto& g : gpu_presets()) gpus << QString::fromStdString(g.name);
        gpus << QLatin1String(kCustomGpuName);
        QStringList nodes;
        for (const auto& c : cluster_presets()) nodes << QString::fromStdString(c.name);
        nodes << QStringLiteral("__custom__");
        for (const auto& [name, presets] : {std::pair{"gpu", gpus}, std::pair{"node", nodes}}) {
            QComboBox* box = combo(name);
            QStringList listed = itemData(box);
            QStringList headers;
            for (int i = 0; i < box->count(); ++i)
                if (box->itemData(i).toString().isEmpty()) {
                    headers << box->itemText(i);
                    QVERIFY(!(box->model()->flags(box->model()->index(i, 0)) & Qt::ItemIsEnabled));  // never chosen
                }
            listed.removeAll(QString());
            QStringList expected = presets;
            listed.sort();
            expected.sort();
            QCOMPARE(listed, expected);
            QVERIFY2(headers.size() >= 4, qPrintable(headers.join(QStringLiteral(", "))));
            QCOMPARE(headers.first(), QStringLiteral("NVIDIA Blackwell"));
        }
        QComboBox* intra = combo("intra_node_bandwidth");
        QCOMPARE(intra->count(), static_cast<int>(intra_node_links().size()));
        for (int i = 0; i < intra->count(); ++i) {
            QCOMPARE(intra->itemText(i), QString::fromUtf8(intra_node_links()[static_cast<std::size_t>(i)].name));
            QCOMPARE(intra->itemData(i).toDouble(), intra_node_links()[static_cast<std::size_t>(i)].gbytes_per_s);
        }
    }

    void a_user_edit_pushes_one_undo_command_data() {
        QTest::addColumn<int>("row");
        for (int i = 0; i < static_cast<int>(editRows().size()); ++i) QTest::newRow(editRows()[i].control) << i;
    }
    void a_user_edit_pushes_one_undo_command() {
        QFETCH(int, row);
        const EditRow& r = editRows()[static_cast<std::size_t>(row)];
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        const Scenario before = doc.scenario();
        auto* control = panel.findChild<QWidget*>(QLatin1String(r.control));
        QVERIFY2(control, r.control);
        r.act(control);
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(!(doc.scenario() == before));
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
        QCOMPARE(doc.undoStack()->count(), 1);
    }

    // The loss and optimizer-kernel controls: each click or choice is one named undo step that
    // changes its training field, undo restores it and the control follows; each has an
    // accessible name.
    void loss_and_optimizer_kernel_controls_data() {
        QTest::addColumn<QString>("control");
        QTest::addColumn<QString>("undoText");
        QTest::newRow("fp32 loss up-cast") << QStringLiteral("loss_fp32_upcast") << QStringLiteral("Toggle fp32 loss up-cast");
        QTest::newRow("loss kernel") << QStringLiteral("loss_kernel") << QStringLiteral("Change loss kernel");
        QTest::newRow("fused optimizer") << QStringLiteral("fused_optimizer") << QStringLiteral("Toggle fused optimizer");
    }
    void loss_and_optimizer_kernel_controls() {
        QFETCH(QString, control);
        QFETCH(QString, undoText);
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        const Training before = doc.scenario().training;
        auto* w = panel.findChild<QWidget*>(control);
        QVERIFY2(w, qPrintable(control));
        QVERIFY(!w->accessibleName().isEmpty());
        if (auto* box = qobject_cast<QComboBox*>(w)) {
            const int chunked = box->findData(QStringLiteral("chunked"));
            QVERIFY(chunked >= 0);
            box->setCurrentIndex(chunked);
            emit box->activated(chunked);  // what choosing it does
        } else {
            qobject_cast<QCheckBox*>(w)->click();
        }
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), undoText);
        const Training& after = doc.scenario().training;
        if (control == QLatin1String("loss_fp32_upcast")) QCOMPARE(after.loss_fp32_upcast, !before.loss_fp32_upcast);
        if (control == QLatin1String("loss_kernel")) QVERIFY(after.loss_kernel == LossKernel::Chunked);
        if (control == QLatin1String("fused_optimizer")) QCOMPARE(after.fused_optimizer, !before.fused_optimizer);
        doc.undoStack()->undo();
        QVERIFY(doc.scenario().training == before);
        if (auto* box = qobject_cast<QComboBox*>(w)) QCOMPARE(box->currentData().toString(), QStringLiteral("full"));
        if (control == QLatin1String("loss_fp32_upcast")) QCOMPARE(qobject_cast<QCheckBox*>(w)->isChecked(), before.loss_fp32_upcast);
        if (control == QLatin1String("fused_optimizer")) QCOMPARE(qobject_cast<QCheckBox*>(w)->isChecked(), before.fused_optimizer);
    }

    // The whole-number controls over a count limit (ControlGroup::addCountRow): the limit's range, a
    // word for 0, and one step up is one named undo step that sets exactly its field to 1; undo
    // restores it and the box shows the word again.
    void count_controls_data() {
        QTest::addColumn<int>("row");
        for (int i = 0; i < static_cast<int>(countRows().size()); ++i) QTest::newRow(countRows()[i].control) << i;
    }
    void count_controls() {
        QFETCH(int, row);
        const CountRow& r = countRows()[static_cast<std::size_t>(row)];
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        const Scenario before = doc.scenario();
        QCOMPARE(r.field(before), std::int64_t{0});
        auto* box = panel.findChild<EditSpinBox*>(QLatin1String(r.control));
        QVERIFY2(box, r.control);
        QCOMPARE(box->minimum(), r.range.min);
        QCOMPARE(box->maximum(), r.range.max);
        QVERIFY(!box->specialValueText().isEmpty());
        QCOMPARE(box->text(), box->specialValueText());
        QVERIFY(!box->accessibleName().isEmpty());
        box->setFocus();
        QTest::keyClick(box, Qt::Key_Up);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), QLatin1String(r.undo_text));
        Scenario expected = before;
        r.set(expected, 1);
        QVERIFY(doc.scenario() == expected);  // that field, and nothing else
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
        QCOMPARE(box->text(), box->specialValueText());
    }

    // The loop's metrics read the logits a chunked loss never builds (core/model/logits.h
    // returns_logits): their box is off then, unless metrics are set, so they can be cleared.
    void train_metrics_need_the_logits() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        auto* box = panel.findChild<EditSpinBox*>(QStringLiteral("logit_metrics"));
        QVERIFY(box && box->isEnabled());
        Scenario s = doc.scenario();
        s.training.loss_kernel = LossKernel::Chunked;
        doc.reset(s);
        QVERIFY(!box->isEnabled());
        s.training.logit_metrics = 2;
        doc.reset(s);
        QVERIFY(box->isEnabled());
    }

    // The host controls: each click is one named undo step that changes its field, undo restores it
    // and the box follows; each has an accessible name.
    void host_controls_data() {
        QTest::addColumn<QString>("control");
        QTest::addColumn<QString>("undoText");
        QTest::newRow("pinned offload buffers") << QStringLiteral("pin_memory") << QStringLiteral("Toggle pinned offload buffers");
        QTest::newRow("16-bit loading") << QStringLiteral("load_in_16bit") << QStringLiteral("Toggle 16-bit model loading");
        QTest::newRow("low_cpu_mem_usage") << QStringLiteral("low_cpu_mem_usage") << QStringLiteral("Toggle low_cpu_mem_usage");
    }
    void host_controls() {
        QFETCH(QString, control);
        QFETCH(QString, undoText);
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        const Scenario before = doc.scenario();
        auto* box = panel.findChild<QCheckBox*>(control);
        QVERIFY2(box, qPrintable(control));
        QVERIFY(!box->accessibleName().isEmpty());
        box->click();
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), undoText);
        const Scenario& after = doc.scenario();
        if (control == QLatin1String("pin_memory")) QCOMPARE(after.zero.pin_memory, !before.zero.pin_memory);
        if (control == QLatin1String("load_in_16bit")) QCOMPARE(after.training.load_in_16bit, !before.training.load_in_16bit);
        if (control == QLatin1String("low_cpu_mem_usage")) QCOMPARE(after.training.low_cpu_mem_usage, !before.training.low_cpu_mem_usage);
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
        const bool was = control == QLatin1String("pin_memory")      ? before.zero.pin_memory
                         : control == QLatin1String("load_in_16bit") ? before.training.load_in_16bit
                                                                     : before.training.low_cpu_mem_usage;
        QCOMPARE(box->isChecked(), was);
    }

    // One GPU of the two-GPU workstation is also one of the one-GPU workstation (is_run_of): the
    // node chosen stays shown through later edits, and a fresh panel shows the first that holds it.
    // The Model parallelism box says when nothing is split but the data, fixed or chosen by the
    // layout search ("8 GPUs" alone read as a GPU count).
    void parallelism_line_says_none() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        const auto line = [&]() {
            for (const WrappedText* l : panel.findChildren<WrappedText*>())
                if (l->text().startsWith(QStringLiteral("None")) || l->text().startsWith(QStringLiteral("Chosen: none"))) return l->text();
            return QString();
        };
        QCOMPARE(line(), QStringLiteral("None: data parallel over 8 GPUs"));
        Scenario s = doc.scenario();
        s.parallel.auto_tensor = s.parallel.auto_pipeline = true;
        doc.edit(s, QStringLiteral("auto layout"));
        doc.recomputeNow();
        QCOMPARE(doc.exportScenario().parallel.model_parallel(), std::int64_t{1});  // Llama-2 7B on 8 A100s: data parallel
        QCOMPARE(line(), QStringLiteral("Chosen: none, data parallel over 8 GPUs"));
    }

    void node_chosen_stays_on_part_of_a_node() {
        PlannerDocument doc;
        doc.edit(with_node(doc.scenario(), cluster_preset("workstation").cluster, 1), QStringLiteral("workstation"));
        ControlPanel panel(&doc);
        QComboBox* node = panel.nodeCombo();
        QCOMPARE(node->currentData().toString(), QStringLiteral("workstation"));
        node->setCurrentIndex(node->findData(QStringLiteral("workstation-2x4090")));
        emit node->activated(node->currentIndex());
        QCOMPARE(doc.scenario().cluster.world_size(), std::int64_t{1});
        Scenario longer = doc.scenario();
        longer.training.seq_len = 2048;
        doc.edit(longer, QStringLiteral("sequence"));
        QCOMPARE(node->currentData().toString(), QStringLiteral("workstation-2x4090"));
        ControlPanel fresh(&doc);
        QCOMPARE(fresh.nodeCombo()->currentData().toString(), QStringLiteral("workstation"));
        // Two GPUs are the two-GPU workstation's alone.
        doc.edit(with_gpu_count(doc.scenario(), 2, 2), QStringLiteral("2 GPUs"), EditGpus);
        QCOMPARE(node->currentData().toString(), QStringLiteral("workstation-2x4090"));
        QCOMPARE(ControlPanel(&doc).nodeCombo()->currentData().toString(), QStringLiteral("workstation-2x4090"));
    }

    // The node picker: choosing a node sets its whole cluster and keeps the GPU count in whole
    // nodes (with_node), as one named undo step; editing a field of the node shows "Custom";
    // undo brings the preset back.
    void node_control() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        QComboBox* node = panel.nodeCombo();
        QVERIFY(!node->accessibleName().isEmpty());
        QCOMPARE(node->currentData().toString(), QStringLiteral("dgx-a100"));  // the default scenario's node
        doc.edit(with_gpu_count(doc.scenario(), 24, 8), QStringLiteral("24 GPUs"), EditGpus);
        node->setCurrentIndex(node->findData(QStringLiteral("dgx-2")));
        emit node->activated(node->currentIndex());
        const Cluster& c = doc.scenario().cluster;
        QCOMPARE(doc.undoStack()->text(doc.undoStack()->count() - 1), QStringLiteral("Choose node DGX-2 (16x V100 32GB)"));
        QCOMPARE(c.gpus_per_node, std::int64_t{16});
        QCOMPARE(c.nodes, std::int64_t{2});  // 24 GPUs: the nearest whole number of DGX-2s
        QCOMPARE(c.nics_per_node, std::int64_t{8});
        QCOMPARE(c.inter_node_gbits_per_s, 800.0);
        QCOMPARE(panel.gpuCombo()->currentData().toString(), QStringLiteral("v100-32gb"));
        QCOMPARE(shown(panel.findChild<QWidget*>(QStringLiteral("gpus_per_node"))), 16.0);
        QCOMPARE(shown(panel.gpuCountSlider()), 32.0);
        QCOMPARE(shown(panel.findChild<QWidget*>(QStringLiteral("nics_per_node"))), 8.0);
        auto* nics = panel.findChild<EditSpinBox*>(QStringLiteral("nics_per_node"));
        QTest::keyClick(nics, Qt::Key_Up);
        QCOMPARE(node->currentData().toString(), QStringLiteral("__custom__"));
        doc.undoStack()->undo();
        QCOMPARE(node->currentData().toString(), QStringLiteral("dgx-2"));
        doc.undoStack()->undo();
        QCOMPARE(node->currentData().toString(), QStringLiteral("dgx-a100"));
        QCOMPARE(doc.scenario().cluster.world_size(), std::int64_t{24});
        // "Custom" is what the list shows, not a node to apply: choosing it changes nothing and
        // the list goes back to the document's node; the same for the GPU list.
        for (QComboBox* box : {node, panel.gpuCombo()}) {
            const QString was = box->currentData().toString();
            const int undoIndex = doc.undoStack()->index();
            box->setCurrentIndex(box->count() - 1);
            emit box->activated(box->count() - 1);
            QCOMPARE(doc.undoStack()->index(), undoIndex);
            QCOMPARE(box->currentData().toString(), was);
        }
    }

    // ZeRO++: the hpZ list is off and the divisors of the node's GPU count; each switch is one
    // named undo step; moving to nodes of 4 keeps hpZ a divisor (with_gpu_count).
    void zeropp_controls() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        auto* hpz = panel.findChild<QComboBox*>(QStringLiteral("hpz_partition_size"));
        QVERIFY(hpz && !hpz->accessibleName().isEmpty());
        QCOMPARE(doc.scenario().cluster.gpus_per_node, std::int64_t{8});
        QStringList sizes;
        for (int i = 0; i < hpz->count(); ++i) sizes << hpz->itemData(i).toString();
        QCOMPARE(sizes,
                 (QStringList{QStringLiteral("0"), QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("8")}));
        QTest::keyClick(hpz, Qt::Key_End);  // the last size, as a user picks it from the keyboard
        QCOMPARE(doc.scenario().zero.hpz_partition_size, std::int64_t{8});
        QCOMPARE(doc.undoStack()->text(doc.undoStack()->count() - 1), QStringLiteral("Change hpZ partition size"));
        for (const char* name : {"quantized_weights", "quantized_gradients"}) {
            auto* box = panel.findChild<QCheckBox*>(QLatin1String(name));
            QVERIFY2(box && !box->accessibleName().isEmpty(), name);
            box->click();
        }
        QVERIFY(doc.scenario().zero.quantized_weights && doc.scenario().zero.quantized_gradients);
        doc.edit(with_gpu_count(doc.scenario(), 16, 4), QStringLiteral("nodes of 4"));
        QCOMPARE(doc.scenario().zero.hpz_partition_size, std::int64_t{4});
        QCOMPARE(hpz->currentData().toLongLong(), 4LL);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(!doc.scenario().zero.quantized_gradients);
    }

    // MiCS: off, then the divisors of the GPU count (mics_shard_sizes); a choice is one named undo
    // step; a GPU count the shard no longer divides keeps a divisor (with_gpu_count).
    void mics_control() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        auto* mics = panel.findChild<QComboBox*>(QStringLiteral("mics_shard_size"));
        QVERIFY(mics && !mics->accessibleName().isEmpty());
        QCOMPARE(doc.scenario().cluster.world_size(), std::int64_t{8});
        QStringList sizes;
        for (int i = 0; i < mics->count(); ++i) sizes << mics->itemData(i).toString();
        QCOMPARE(sizes, (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("4"), QStringLiteral("8")}));
        QCOMPARE(mics->currentData().toLongLong(), 1LL);
        QTest::keyClick(mics, Qt::Key_End);
        QCOMPARE(doc.scenario().zero.mics_shard_size, std::int64_t{8});
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), QStringLiteral("Change MiCS shard size"));
        doc.edit(with_gpu_count(doc.scenario(), 12, 4), QStringLiteral("12 GPUs"));
        QCOMPARE(doc.scenario().zero.mics_shard_size, std::int64_t{4});
        QCOMPARE(mics->currentData().toLongLong(), 4LL);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().zero.mics_shard_size, std::int64_t{1});
        QCOMPARE(mics->currentData().toLongLong(), 1LL);
    }

    // stage3_max_live_parameters: DeepSpeed's 1e9 first, then the smaller choices; a choice is one
    // named undo step and lowers a ZeRO-3 plan's gathered parameters; a value none of the choices is
    // (an imported config's) is listed as it is and shown.
    void max_live_parameters_control() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        auto* live = panel.findChild<QComboBox*>(QStringLiteral("max_live_parameters"));
        QVERIFY(live && !live->accessibleName().isEmpty());
        QCOMPARE(itemTexts(live), (QStringList{QStringLiteral("1e9 (DeepSpeed's default)"), QStringLiteral("5e8"), QStringLiteral("2e8"),
                                               QStringLiteral("1e8"), QStringLiteral("5e7")}));
        QCOMPARE(live->currentData().toDouble(), 1e9);
        // The ZeRO-3 bar without offload (Llama-2 7B on 8 A100s: the prefetch fills max_live).
        const auto zero3_required = [&doc] {
            doc.recomputeNow();
            for (const Candidate& c : doc.overview().bars)
                if (c.zero.stage == 3 && c.zero.offload_optimizer == OffloadDevice::None && c.zero.offload_param == OffloadDevice::None)
                    return c.memory.peak_required_bytes;
            return 0.0;
        };
        const double before = zero3_required();
        live->setCurrentIndex(live->findData(QVariant::fromValue(1e8)));
        emit live->activated(live->currentIndex());
        QCOMPARE(doc.scenario().zero.stage3_max_live_parameters, 1e8);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), QStringLiteral("Change live parameters"));
        const double after = zero3_required();
        QVERIFY2(after > 0 && after < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        Scenario s = doc.scenario();
        s.zero.stage3_max_live_parameters = 3e8 + 1;
        doc.edit(s, QStringLiteral("imported"));
        QCOMPARE(live->count(), 6);
        QCOMPARE(live->currentData().toDouble(), 3e8 + 1);
        QCOMPARE(live->currentText(), QLocale().toString(300000001LL));
        // DeepSpeed takes any count from 0 (an imported config's): shown as it is.
        s.zero.stage3_max_live_parameters = 0;
        doc.edit(s, QStringLiteral("imported 0"));
        QCOMPARE(live->currentText(), QLocale().toString(0LL));
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(live->currentData().toDouble(), 1e8);
    }

    // The DeepSpeed release (core/model/deepspeed_release.h): the four eras the core tells apart,
    // today's first; choosing one is one undo step that sets the four release switches as it
    // behaves; switches set one by one (a session, --hpz-recompute) show as such until an era is
    // chosen again.
    void deepspeed_release_control() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        auto* release = panel.findChild<QComboBox*>(QStringLiteral("deepspeed_release"));
        QVERIFY(release && !release->accessibleName().isEmpty());
        QCOMPARE(itemTexts(release), (QStringList{QStringLiteral("0.13.2 or later"), QStringLiteral("0.12.4 to 0.13.1"),
                                                  QStringLiteral("0.6.0 to 0.12.3"), QStringLiteral("before 0.6.0")}));
        QCOMPARE(release->currentData().toInt(), 0);
        release->setCurrentIndex(3);
        emit release->activated(3);
        const ZeroSetup& z = doc.scenario().zero;
        QVERIFY(!z.zero3_host_gradient_buffer && !z.multi_rank_bucket_allreduce && !z.zero3_prefetch_to_max_live && !z.hpz_in_recompute);
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), QStringLiteral("Change DeepSpeed release"));
        Scenario s = doc.scenario();
        apply_deepspeed_release(s.zero, DeepSpeedRelease{0, 13, 2});
        s.zero.multi_rank_bucket_allreduce = false;  // today's release with one switch of the older ones
        doc.edit(s, QStringLiteral("one switch"));
        QCOMPARE(release->count(), 5);
        QCOMPARE(release->currentData().toInt(), -1);
        QCOMPARE(release->currentText(), QStringLiteral("set switch by switch"));
        release->setCurrentIndex(1);
        emit release->activated(1);
        QVERIFY(follows_release(doc.scenario().zero, DeepSpeedRelease{0, 12, 4}));
        QCOMPARE(release->count(), 4);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(release->currentData().toInt(), 0);
        QVERIFY(follows_release(doc.scenario().zero, DeepSpeedRelease{0, 13, 2}));
    }

    // The transformers release (core/model/transformers_release.h): its four eras, today's first;
    // choosing one is one undo step that sets the Host box's 16-bit load and low_cpu_mem_usage, the
    // re-entrant recompute and the model's own loss as it behaves, and the Host box shows them; a
    // switch changed by hand shows "set switch by switch" until an era is chosen again.
    void transformers_release_control() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        auto* release = panel.findChild<QComboBox*>(QStringLiteral("transformers_release"));
        auto* load_16bit = panel.findChild<QCheckBox*>(QStringLiteral("load_in_16bit"));
        auto* low_cpu = panel.findChild<QCheckBox*>(QStringLiteral("low_cpu_mem_usage"));
        QVERIFY(release && load_16bit && low_cpu && !release->accessibleName().isEmpty());
        QCOMPARE(itemTexts(release), (QStringList{QStringLiteral("5.0 or later"), QStringLiteral("4.51 to 4.57"),
                                                  QStringLiteral("4.46 to 4.50"), QStringLiteral("before 4.46")}));
        QCOMPARE(release->currentData().toInt(), 0);
        QVERIFY(load_16bit->isChecked() && low_cpu->isChecked());
        release->setCurrentIndex(3);
        emit release->activated(3);
        const Training& t = doc.scenario().training;
        QVERIFY(!t.load_in_16bit && !t.low_cpu_mem_usage && t.reentrant_recompute);
        QCOMPARE(t.loss_kernel, LossKernel::Shifted);
        QVERIFY(!load_16bit->isChecked() && !low_cpu->isChecked());
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.undoStack()->text(0), QStringLiteral("Change transformers release"));
        low_cpu->click();  // low_cpu_mem_usage=True on a release before 4.51: no era's default
        QVERIFY(doc.scenario().training.low_cpu_mem_usage);
        QCOMPARE(release->count(), 5);
        QCOMPARE(release->currentData().toInt(), -1);
        QCOMPARE(release->currentText(), QStringLiteral("set switch by switch"));
        release->setCurrentIndex(1);
        emit release->activated(1);
        QVERIFY(follows_transformers_release(doc.scenario().training, TransformersRelease{4, 51, 0}));
        QCOMPARE(release->count(), 4);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QCOMPARE(release->currentData().toInt(), 0);
        QVERIFY(follows_transformers_release(doc.scenario().training, TransformersRelease{5, 0, 0}));
        QVERIFY(load_16bit->isChecked() && low_cpu->isChecked());
        // Liger's loss replaces the model's own: before 4.46 is then the plan of 4.46 to 4.50, and
        // is not offered (choosing it would show the newer era).
        const auto offered = [&](int era) {
            const QModelIndex i = release->model()->index(release->findData(era), 0);
            return (release->model()->flags(i) & Qt::ItemIsEnabled) != 0;
        };
        QVERIFY(offered(3));
        Scenario liger = doc.scenario();
        liger.training.loss_kernel = LossKernel::Chunked;
        doc.edit(liger, QStringLiteral("Liger"));
        QVERIFY(offered(0) && offered(1) && offered(2) && !offered(3));
    }

    // ZeRO++ on auto (ZeroSetup::auto_zeropp): "auto" heads the hpZ list; choosing it is one undo
    // step that clears the switches and disables qwZ/qgZ; the "Chosen:" line names what the plan
    // took (off inside one node; all three for Llama-2-13B on 4 nodes of 8); undo and redo
    // round-trip it and a size fixes ZeRO++ again.
    void zeropp_auto_round_trips() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        auto* hpz = panel.findChild<QComboBox*>(QStringLiteral("hpz_partition_size"));
        auto* qwz = panel.findChild<QCheckBox*>(QStringLiteral("quantized_weights"));
        auto* info = panel.findChild<QLabel*>(QStringLiteral("zeropp_info"));
        QVERIFY(hpz && qwz && info);
        QVERIFY(!doc.scenario().zero.auto_zeropp);  // a new plan on one node
        QCOMPARE(hpz->itemText(0), QStringLiteral("auto"));
        QTest::keyClick(hpz, Qt::Key_End);   // hpZ 8, fixed
        QTest::keyClick(hpz, Qt::Key_Home);  // auto
        QVERIFY(doc.scenario().zero.auto_zeropp);
        QCOMPARE(doc.scenario().zero.hpz_partition_size, std::int64_t{1});
        QCOMPARE(doc.undoStack()->text(doc.undoStack()->count() - 1), QStringLiteral("Change hpZ partition size"));
        QVERIFY(!qwz->isEnabled());
        doc.recomputeNow();
        QVERIFY2(info->text().startsWith(QStringLiteral("Chosen: off")), qPrintable(info->text()));
        Scenario across = with_gpu_count(doc.scenario(), 32, 8);
        across.model = model_preset("llama-2-13b").spec;
        across.parallel = Parallelism{};
        doc.edit(across, QStringLiteral("Llama-2-13B on 4 nodes"));
        doc.recomputeNow();
        QVERIFY2(info->text().startsWith(QStringLiteral("Chosen: hpZ over 8 GPUs")), qPrintable(info->text()));
        doc.undoStack()->undo();  // back to one node
        doc.undoStack()->undo();  // the hpZ list's edits (8, then auto) are one step: hpZ off, fixed
        QVERIFY(!doc.scenario().zero.auto_zeropp);
        QCOMPARE(doc.scenario().zero.hpz_partition_size, std::int64_t{1});
        QCOMPARE(hpz->currentData().toLongLong(), 1LL);
        QVERIFY(qwz->isEnabled());
        doc.recomputeNow();
        QVERIFY(info->text().isEmpty());
        doc.undoStack()->redo();
        QVERIFY(doc.scenario().zero.auto_zeropp);
        QCOMPARE(hpz->currentData().toLongLong(), 0LL);
    }

    // Model parallelism: tensor sizes are the node's divisors that divide the heads; sequence
    // parallelism needs a tensor size; a GPU count the layout no longer divides keeps a divisor.
    void model_parallel_controls() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        auto* tensor = panel.findChild<QComboBox*>(QStringLiteral("tensor_parallel"));
        auto* sp = panel.findChild<QCheckBox*>(QStringLiteral("sequence_parallel"));
        auto* pipeline = panel.findChild<EditSpinBox*>(QStringLiteral("pipeline_parallel"));
        QVERIFY(tensor && sp && pipeline && !tensor->accessibleName().isEmpty());
        QVERIFY(!sp->isEnabled());
        QTest::keyClick(tensor, Qt::Key_End);
        QCOMPARE(doc.scenario().parallel.tensor, std::int64_t{8});
        QVERIFY(sp->isEnabled());
        sp->click();
        QVERIFY(doc.scenario().parallel.sequence_parallel);
        doc.edit(with_gpu_count(doc.scenario(), 16, 4), QStringLiteral("nodes of 4"));
        QCOMPARE(doc.scenario().parallel.tensor, std::int64_t{4});
        QCOMPARE(tensor->currentData().toLongLong(), 4LL);
        pipeline->setFocus();
        pipeline->selectAll();
        QTest::keyClicks(pipeline, QStringLiteral("2"));
        QTest::keyClick(pipeline, Qt::Key_Return);
        QCOMPARE(doc.scenario().parallel.pipeline, std::int64_t{2});
        QCOMPARE(doc.undoStack()->text(doc.undoStack()->count() - 1), QStringLiteral("Change pipeline parallelism"));
    }

    void showing_the_document_pushes_none() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        panel.setAllAdvancedOpen(true);  // the rows a box builds when it is opened (control_group.h)
        // Every control changes at once: another model, GPU, links, host, training and assumptions.
        // Several values are finer than their control shows (headroom 12.3% in whole percent,
        // RAM in whole GiB, ...), so a control that echoed its shown value back as an edit
        // would push a command here, not just rewrite the same value.
        Scenario s = with_gpu_count(doc.scenario(), 64, 8);
        s.model = model_preset("mixtral-8x7b").spec;
        s.cluster.use_gpu(gpu_preset("h100-80gb"));
        s.cluster.gpu = custom_gpu(s.cluster.gpu, 95.55);
        s.cluster.inter_node_gbits_per_s = 3200.4;
        s.cluster.intra_node_gbytes_per_s = 123;  // not in the link table: the combo gains an item
        s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(4096.5);
        s.cluster.nvme_bytes_per_node = gib_to_bytes(100.25);
        s.training.precision = Precision::Fp16;
        s.training.optimizer = Optimizer::Lion;
        s.training.seq_len = 8192;
        s.training.global_batch = 512;
        s.training.micro_batch = 8192;
        s.training.auto_micro_batch = false;
        s.training.checkpointing = Checkpointing::Full;
        s.training.auto_checkpointing = false;
        s.training.flash_attention = false;
        s.training.loss_fp32_upcast = false;
        s.training.loss_kernel = LossKernel::Chunked;
        s.training.fused_optimizer = false;
        s.training.load_in_16bit = true;
        s.training.low_cpu_mem_usage = true;
        s.zero.pin_memory = false;
        s.assumptions.headroom = 0.123;
        s.assumptions.convention = Convention::Paper;
        validate(s);
        doc.edit(s, QStringLiteral("everything"));
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(doc.scenario() == s);
        QCOMPARE(shown(panel.findChild<QWidget*>(QStringLiteral("micro_batch"))), 8192.0);
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("convention"))->currentData().toString(), QStringLiteral("paper"));
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("loss_kernel"))->currentData().toString(), QStringLiteral("chunked"));
        QVERIFY(!panel.findChild<QCheckBox*>(QStringLiteral("loss_fp32_upcast"))->isChecked());
        QVERIFY(!panel.findChild<QCheckBox*>(QStringLiteral("fused_optimizer"))->isChecked());
        QVERIFY(!panel.findChild<QCheckBox*>(QStringLiteral("pin_memory"))->isChecked());
        QVERIFY(panel.findChild<QCheckBox*>(QStringLiteral("load_in_16bit"))->isChecked());
        QVERIFY(panel.findChild<QCheckBox*>(QStringLiteral("low_cpu_mem_usage"))->isChecked());
        doc.undoStack()->undo();
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(shown(panel.findChild<QWidget*>(QStringLiteral("micro_batch"))), 0.0);  // auto again
        doc.undoStack()->redo();
        QCOMPARE(doc.undoStack()->count(), 1);
        QVERIFY(doc.scenario() == s);
        doc.reset(s);
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    // Rows the job keeps under Advanced are built when first shown (control_group.h,
    // buildRowsWhenShown): until then the box's Advanced button counts them; built, they are the
    // rows the box named, together and in that order, among the rows it had, above the button,
    // showing the document, and an edit through them is one undo step.
    void a_box_builds_its_rows_when_opened_data() {
        QTest::addColumn<QString>("group");
        QTest::addColumn<QStringList>("rows");
        QTest::addColumn<int>("advanced");  // the rows under Advanced for the default job, built or not
        QTest::newRow("Network") << QStringLiteral("group_network")
                                 << QStringList{QStringLiteral("inter_node_bandwidth"), QStringLiteral("nics_per_node"),
                                                QStringLiteral("intra_node_bandwidth")}
                                 << 3;
        QTest::newRow("Host") << QStringLiteral("group_host")
                              << QStringList{QStringLiteral("cpu_ram"),           QStringLiteral("nvme"),
                                             QStringLiteral("pin_memory"),        QStringLiteral("load_in_16bit"),
                                             QStringLiteral("low_cpu_mem_usage"), QStringLiteral("dataloader_workers")}
                              << 6;
        QTest::newRow("Fine-tuning") << QStringLiteral("group_finetune")
                                     << QStringList{QStringLiteral("finetune_method"), QStringLiteral("lora_rank"),
                                                    QStringLiteral("lora_targets"), QStringLiteral("base_precision")}
                                     << 4;
        QTest::newRow("GPUs: the memory") << QStringLiteral("group_gpus") << QStringList{QStringLiteral("gpu_memory")}
                                          << 2;  // and the node's size
        QTest::newRow("Model parallelism: the sizes, above the layout line")
            << QStringLiteral("group_parallelism")
            << QStringList{QStringLiteral("tensor_parallel"),   QStringLiteral("pipeline_parallel"), QStringLiteral("virtual_stages"),
                           QStringLiteral("sequence_parallel"), QStringLiteral("pipeline_send"),     QStringLiteral("ulysses"),
                           QStringLiteral("expert_parallel")}
            << 7;
        QTest::newRow("Training: kernels, memory, outputs, long context") << QStringLiteral("group_training")
                                                                          << QStringList{QStringLiteral("flash_attention"),
                                                                                         QStringLiteral("attention_softmax"),
                                                                                         QStringLiteral("lm_head"),
                                                                                         QStringLiteral("loss_fp32_upcast"),
                                                                                         QStringLiteral("loss_kernel"),
                                                                                         QStringLiteral("gradient_accumulation"),
                                                                                         QStringLiteral("fused_optimizer"),
                                                                                         QStringLiteral("bf16_master_weights"),
                                                                                         QStringLiteral("fp8_gemms"),
                                                                                         QStringLiteral("fp8_scaling"),
                                                                                         QStringLiteral("data_seconds_per_sample"),
                                                                                         QStringLiteral("optimizer_storage"),
                                                                                         QStringLiteral("headroom"),
                                                                                         QStringLiteral("convention"),
                                                                                         QStringLiteral("kv_cache_in_training"),
                                                                                         QStringLiteral("outputs_kept"),
                                                                                         QStringLiteral("logit_metrics"),
                                                                                         QStringLiteral("tiled_mlp"),
                                                                                         QStringLiteral("reentrant_recompute"),
                                                                                         QStringLiteral("cpu_checkpointing"),
                                                                                         QStringLiteral("partition_activations"),
                                                                                         QStringLiteral("expandable_segments"),
                                                                                         QStringLiteral("int64_kernel_indexing")}
                                                                          << 27;  // and the engine's FSDP rows and the two releases
    }
    void a_box_builds_its_rows_when_opened() {
        QFETCH(QString, group);
        QFETCH(QStringList, rows);
        QFETCH(int, advanced);
        PlannerDocument doc;  // the default plan: a full fine-tune on a preset node
        ControlPanel panel(&doc);
        auto* box = dynamic_cast<ControlGroup*>(panel.findChild<QGroupBox*>(group));
        QVERIFY(box);
        QVERIFY(!box->rowsBuilt());
        for (const QString& row : rows) QVERIFY2(!panel.findChild<QWidget*>(row), qPrintable(row));
        auto* button = box->advancedButton();
        QCOMPARE(button->text(), QStringLiteral("Advanced (%1 more)").arg(advanced));
        QVERIFY(!button->isHidden());
        auto* form = qobject_cast<QFormLayout*>(box->layout());
        QVERIFY(form);
        const auto fields = [form, button] {
            QList<QWidget*> out;
            for (int row = 0; row < form->rowCount(); ++row) {
                QLayoutItem* item = form->itemAt(row, QFormLayout::FieldRole);
                if (!item) item = form->itemAt(row, QFormLayout::SpanningRole);
                if (QWidget* field = item ? item->widget() : nullptr; field && field != button) out << field;
            }
            return out;
        };
        const QList<QWidget*> before = fields();

        button->click();
        QVERIFY(box->rowsBuilt());
        QCOMPARE(button->text(), QStringLiteral("Advanced (%1 shown)").arg(advanced));
        const QList<QWidget*> after = fields();
        QCOMPARE(after.size(), before.size() + rows.size());
        const qsizetype at = after.indexOf(panel.findChild<QWidget*>(rows.front()));
        QVERIFY(at >= 0);
        for (qsizetype i = 0; i < rows.size(); ++i) {
            QCOMPARE(after[at + i]->objectName(), rows[i]);
            QVERIFY2(!after[at + i]->isHidden(), qPrintable(rows[i]));
        }
        QCOMPARE(after.mid(0, at) + after.mid(at + rows.size()), before);
        QCOMPARE(form->itemAt(form->rowCount() - 1, QFormLayout::SpanningRole)->widget(), button);
        QCOMPARE(doc.undoStack()->count(), 0);

        // Closed again, the rows are kept and hidden, and the button counts them again.
        button->click();
        QCOMPARE(button->text(), QStringLiteral("Advanced (%1 more)").arg(advanced));
        QVERIFY(panel.findChild<QWidget*>(rows.front())->isHidden());

        // Built on the document as it is, and edits from then on.
        button->click();
        QWidget* first = panel.findChild<QWidget*>(rows.front());
        const Scenario& s = doc.scenario();
        if (auto* slider = qobject_cast<ScaledSlider*>(first)) {
            QCOMPARE(slider->value(),
                     first->objectName() == QLatin1String("gpu_memory") ? s.cluster.gpu.memory_gib : s.cluster.inter_node_gbits_per_s);
            QTest::keyClick(slider->slider(), Qt::Key_Home);
        } else if (auto* ram = qobject_cast<EditDoubleSpinBox*>(first)) {
            QCOMPARE(ram->value(), bytes_to_gib(s.cluster.cpu_ram_bytes_per_node));
            QTest::keyClick(ram, Qt::Key_Up);
        } else if (auto* combo = qobject_cast<QComboBox*>(first)) {
            QTest::keyClick(combo, Qt::Key_Down);
        } else if (auto* check = qobject_cast<QCheckBox*>(first)) {
            QCOMPARE(check->isChecked(), s.training.flash_attention);
            check->click();
        }
        QCOMPARE(doc.undoStack()->count(), 1);
    }

    // A job or the node that shows one of a box's waiting rows first builds them, shows that one
    // and keeps the others of the job's Advanced hidden.
    void the_rows_shown_first_are_built_data() {
        QTest::addColumn<int>("job");
        QTest::addColumn<bool>("myCluster");  // a node no preset is: its own fields are shown first
        QTest::addColumn<QString>("group");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("hidden");  // one of the rows built with it that stays under Advanced, if any
        const auto j = [](Job job) { return static_cast<int>(job); };
        QTest::newRow("pre-training: tensor parallelism") << j(Job::PreTraining) << false << QStringLiteral("group_parallelism")
                                                          << QStringLiteral("tensor_parallel") << QStringLiteral("virtual_stages");
        QTest::newRow("long context: Ulysses") << j(Job::LongContext) << false << QStringLiteral("group_parallelism")
                                               << QStringLiteral("ulysses") << QStringLiteral("tensor_parallel");
        QTest::newRow("long context: tiled MLP") << j(Job::LongContext) << false << QStringLiteral("group_training")
                                                 << QStringLiteral("tiled_mlp") << QStringLiteral("flash_attention");
        QTest::newRow("LoRA: the rank") << j(Job::Lora) << false << QStringLiteral("group_finetune") << QStringLiteral("lora_rank")
                                        << QStringLiteral("base_precision");
        QTest::newRow("QLoRA: the base's precision")
            << j(Job::Qlora) << false << QStringLiteral("group_finetune") << QStringLiteral("base_precision") << QString();
        QTest::newRow("my cluster: the GPU's memory")
            << j(Job::FullFineTune) << true << QStringLiteral("group_gpus") << QStringLiteral("gpu_memory") << QString();
        QTest::newRow("my cluster: host RAM") << j(Job::FullFineTune) << true << QStringLiteral("group_host") << QStringLiteral("cpu_ram")
                                              << QStringLiteral("pin_memory");
    }
    void the_rows_shown_first_are_built() {
        QFETCH(int, job);
        QFETCH(bool, myCluster);
        QFETCH(QString, group);
        QFETCH(QString, shown);
        QFETCH(QString, hidden);
        PlannerDocument doc;  // a full fine-tune on a preset node
        ControlPanel panel(&doc);
        auto* box = dynamic_cast<ControlGroup*>(panel.findChild<QGroupBox*>(group));
        QVERIFY(box && !box->rowsBuilt());
        Scenario s = with_job(doc.scenario(), static_cast<Job>(job));
        if (myCluster) s.cluster.inter_node_gbits_per_s /= 2;  // no preset's network
        doc.edit(s, QStringLiteral("job"));
        QVERIFY(box->rowsBuilt());
        QWidget* first = panel.findChild<QWidget*>(shown);
        QVERIFY(first && !first->isHidden());
        if (!hidden.isEmpty()) QVERIFY(panel.findChild<QWidget*>(hidden)->isHidden());
        QCOMPARE(doc.undoStack()->count(), 1);
    }

    // A job that shows a waiting box's rows first builds them: LoRA the method, rank and targets
    // (the base's precision waits under Advanced), "My cluster" the network's and host's fields.
    void a_job_or_my_cluster_builds_the_rows_it_shows_first() {
        PlannerDocument doc;
        ControlPanel panel(&doc);
        const auto box = [&panel](const char* name) {
            return dynamic_cast<ControlGroup*>(panel.findChild<QGroupBox*>(QLatin1String(name)));
        };
        QVERIFY(!box("group_finetune")->rowsBuilt());
        doc.edit(with_job(doc.scenario(), Job::Lora), QStringLiteral("LoRA"));
        QVERIFY(box("group_finetune")->rowsBuilt());
        QVERIFY(!panel.findChild<QWidget*>(QStringLiteral("finetune_method"))->isHidden());
        QVERIFY(panel.findChild<QWidget*>(QStringLiteral("base_precision"))->isHidden());
        QCOMPARE(box("group_finetune")->advancedButton()->text(), QStringLiteral("Advanced (1 more)"));
        QCOMPARE(panel.findChild<QComboBox*>(QStringLiteral("finetune_method"))->currentData().toString(), QStringLiteral("lora"));

        QVERIFY(!box("group_network")->rowsBuilt());
        QVERIFY(!box("group_host")->rowsBuilt());
        QComboBox* node = panel.nodeCombo();
        node->setCurrentIndex(node->findData(kCustomEntry));
        emit node->activated(node->currentIndex());
        QVERIFY(box("group_network")->rowsBuilt());
        QVERIFY(box("group_host")->rowsBuilt());
        QVERIFY(!panel.findChild<QWidget*>(QStringLiteral("cpu_ram"))->isHidden());
    }
};

ZP_TEST_MAIN(TestControlPanel)
#include "tst_control_panel.moc"
