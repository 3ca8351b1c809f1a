// Comparing plans (issue 17): the ds_config diff key by key (core/deepspeed/config_diff.h), a
// plan's figures as evaluate() gives them, each pin's difference to the live plan and the
// config keys in which pins differ (core/report/plan_compare.h), and pins in the session file
// (core/report/plan_pins.h).
#include "core/base/errors.h"
#include "core/deepspeed/config_diff.h"
#include "core/deepspeed/config_export.h"
#include "core/io/scenario_json.h"
#include "core/model/enum_names.h"
#include "core/presets/default_scenario.h"
#include "core/report/plan_compare.h"
#include "core/report/plan_pins.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"

#include <nlohmann/json.hpp>

#include "test_main.h"

using namespace zp;
using nlohmann::ordered_json;

namespace {
// The recommended plan of `s`, fully specified, as the window pins it.
Scenario planned(const Scenario& s) { return with_candidate(s, recommend(s).best); }

Scenario on_gpus(std::int64_t gpus) {
    Scenario s = default_scenario();
    return with_gpu_count(s, gpus, 8);
}
}  // namespace

class TestPlanCompare : public QObject {
    Q_OBJECT
private slots:
    // clang-format off
    void config_diff_lists_exactly_the_differing_keys_data() {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QStringList>("keys");  // "key before after", absent as "-"
        QTest::newRow("same") << R"({"a": 1, "b": {"c": true}})" << R"({"b": {"c": true}, "a": 1})" << QStringList{};
        QTest::newRow("one value") << R"({"a": 1, "b": 2})" << R"({"a": 1, "b": 3})" << QStringList{QStringLiteral("b 2 3")};
        QTest::newRow("nested") << R"({"zero_optimization": {"stage": 2, "overlap_comm": true}})"
                                << R"({"zero_optimization": {"stage": 3, "overlap_comm": true}})"
                                << QStringList{QStringLiteral("zero_optimization.stage 2 3")};
        QTest::newRow("added block") << R"({"z": {"stage": 3}})" << R"({"z": {"stage": 3, "offload": {"device": "cpu", "pin": true}}})"
                                     << QStringList{QStringLiteral(R"(z.offload.device - "cpu")"), QStringLiteral("z.offload.pin - true")};
        QTest::newRow("removed key") << R"({"a": 1, "b": "x"})" << R"({"a": 1})" << QStringList{QStringLiteral(R"(b "x" -)")};
        QTest::newRow("type change") << R"({"a": {"b": 1}})" << R"({"a": 5})" << QStringList{QStringLiteral(R"(a {"b":1} 5)")};
        QTest::newRow("array whole") << R"({"betas": [0.9, 0.95]})" << R"({"betas": [0.9, 0.999]})"
                                     << QStringList{QStringLiteral("betas [0.9,0.95] [0.9,0.999]")};
        QTest::newRow("integer equals float") << R"({"a": 3})" << R"({"a": 3.0})" << QStringList{};
        QTest::newRow("order of first then second") << R"({"b": 1, "a": 1})" << R"({"c": 1, "a": 2})"
                                                    << QStringList{QStringLiteral("b 1 -"), QStringLiteral("a 1 2"), QStringLiteral("c - 1")};
    }
    // clang-format on
    void config_diff_lists_exactly_the_differing_keys() {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QStringList, keys);
        QStringList got;
        for (const ConfigDifference& d : config_diff(ordered_json::parse(before.toStdString()), ordered_json::parse(after.toStdString()))) {
            QCOMPARE(d.in_before, !d.before.empty());
            QCOMPARE(d.in_after, !d.after.empty());
            got << QString::fromStdString(d.key + " " + (d.in_before ? d.before : "-") + " " + (d.in_after ? d.after : "-"));
        }
        QCOMPARE(got, keys);
    }

    // Two real exports: ZeRO-2 against ZeRO-3 with CPU offload of the same scenario.
    void config_diff_of_two_exports() {
        Scenario a = default_scenario();
        a.zero.stage = 2;
        Scenario b = a;
        b.zero.stage = 3;
        b.zero.offload_optimizer = OffloadDevice::Cpu;
        const auto diff = config_diff(deepspeed_config(a), deepspeed_config(b));
        QVERIFY(!diff.empty());
        QStringList keys;
        for (const ConfigDifference& d : diff) keys << QString::fromStdString(d.key);
        QVERIFY(keys.contains(QStringLiteral("zero_optimization.stage")));
        QVERIFY(keys.contains(QStringLiteral("zero_optimization.offload_optimizer.device")));
        QVERIFY(!keys.contains(QStringLiteral("train_batch_size")));  // the same batch
        QVERIFY(config_diff(deepspeed_config(b), deepspeed_config(b)).empty());
    }

    // The figures are evaluate()'s for the plan as it stands.
    void figures_are_the_evaluation() {
        const Scenario s = planned(on_gpus(16));
        const Candidate c = evaluate(s);
        const PlanFigures f = plan_figures(s);
        QVERIFY(f.valid);
        QCOMPARE(f.peak_required_bytes, c.memory.total_bytes());  // one memory model: the bars' total is what must fit
        QCOMPARE(f.peak_reserved_bytes, c.memory.peak_reserved_bytes);
        QCOMPARE(f.peak_required_bytes, c.memory.peak_required_bytes);
        QCOMPARE(f.peak_phase, c.memory.peak.phase);
        QCOMPARE(f.host_bytes_per_node, c.memory.cpu_bytes_per_node);
        QCOMPARE(f.nvme_bytes_per_node, c.memory.nvme_bytes_per_node);
        QCOMPARE(f.step_seconds, c.step.seconds);
        QCOMPARE(f.tokens_per_second, c.step.tokens_per_second);
        QCOMPARE(f.gpu_hours, c.step.budget_gpu_hours);
        QCOMPARE(f.token_budget, s.assumptions.token_budget);
        QCOMPARE(f.micro_batch, c.micro_batch);
        QCOMPARE(f.gradient_accumulation_steps, c.gradient_accumulation_steps);
        QCOMPARE(f.checkpointing, c.checkpointing);
        QCOMPARE(QString::fromStdString(metric_text(f, CompareMetric::Batch)),
                 QStringLiteral("%1 x %2, %3 recompute")
                     .arg(c.micro_batch)
                     .arg(c.gradient_accumulation_steps)
                     .arg(c.checkpointing == Checkpointing::None ? QStringLiteral("no") : QString::fromLatin1(to_string(c.checkpointing))));
        QVERIFY(f.gpu_hours > 0);
        QVERIFY(f.ds_config && *f.ds_config == deepspeed_config(s));
    }

    void invalid_plan_is_not_a_number() {
        Scenario s = default_scenario();
        s.training.auto_micro_batch = false;
        s.training.micro_batch = 3;
        s.training.global_batch = 5;  // 3 x 8 GPUs does not divide 5
        const PlanFigures f = plan_figures(s);
        QVERIFY(!f.valid);
        QVERIFY(!f.error.empty());
        for (CompareMetric m : compare_metrics()) QCOMPARE(QString::fromStdString(metric_text(f, m)), QStringLiteral("n/a"));
        QVERIFY(metric_delta(f, plan_figures(planned(default_scenario())), CompareMetric::StepTime).empty());
    }

    // Doubling the GPUs: the pin of 8 GPUs against a live plan on 16; the differences are the core's.
    void deltas() {
        const PlanFigures pin = plan_figures(planned(on_gpus(8)));
        const PlanFigures live = plan_figures(planned(on_gpus(16)));
        QVERIFY(pin.valid && live.valid);
        QVERIFY(metric_differs(pin, live, CompareMetric::StepTime));
        const std::string step = metric_delta(pin, live, CompareMetric::StepTime);
        QVERIFY2(step.ends_with("%") && (step[0] == '+' || step[0] == '-'), step.c_str());
        const double percent = (pin.step_seconds / live.step_seconds - 1.0) * 100.0;
        QCOMPARE(QString::fromStdString(step), QString::asprintf("%+.1f%%", percent));
        const std::string needed = metric_delta(pin, live, CompareMetric::PeakRequired);
        if (metric_differs(pin, live, CompareMetric::PeakRequired))
            QCOMPARE(QString::fromStdString(needed),
                     QString::asprintf("%+.2f GiB", (pin.peak_required_bytes - live.peak_required_bytes) / (1 << 30)));
        QVERIFY(metric_delta(live, live, CompareMetric::StepTime).empty());
        QVERIFY(metric_delta(pin, live, CompareMetric::PeakPhase).empty());  // words have no difference
        QCOMPARE(QString::fromStdString(metric_text(pin, CompareMetric::Fits)), QStringLiteral("yes"));
    }

    // Keys from every pin, once each; a pin that agrees with the live plan at a key shows its value.
    void config_key_rows_over_pins() {
        Scenario base = default_scenario();
        base.zero.stage = 2;
        Scenario stage3 = base;
        stage3.zero.stage = 3;
        Scenario lr = base;
        lr.zero.overlap_comm = !base.zero.overlap_comm;
        const PlanFigures live = plan_figures(base);
        const std::vector<PlanFigures> pins{plan_figures(stage3), plan_figures(lr), plan_figures(base)};
        const std::vector<ConfigKeyRow> rows = config_key_rows(live, pins);
        QVERIFY(!rows.empty());
        QStringList keys;
        for (const ConfigKeyRow& r : rows) {
            QVERIFY2(!keys.contains(QString::fromStdString(r.key)), r.key.c_str());
            keys << QString::fromStdString(r.key);
            QCOMPARE(r.values.size(), std::size_t{4});
            QCOMPARE(r.values[3], r.values[0]);  // the third pin is the live plan
        }
        QVERIFY(keys.contains(QStringLiteral("zero_optimization.stage")));
        QVERIFY(keys.contains(QStringLiteral("zero_optimization.overlap_comm")));
        for (const ConfigKeyRow& r : rows) {
            if (r.key == "zero_optimization.stage") {
                QCOMPARE(r.values[0], std::string("2"));
                QCOMPARE(r.values[1], std::string("3"));
                QCOMPARE(r.values[2], std::string("2"));
            }
        }
    }

    void default_pin_names_data() {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("stage");
        QTest::addColumn<QString>("name");
        QTest::newRow("8 zero-3") << 8 << 3 << "8 x A100 80GB ZeRO-3";
        QTest::newRow("16 zero-2") << 16 << 2 << "16 x A100 80GB ZeRO-2";
    }
    void default_pin_names() {
        QFETCH(int, gpus);
        QFETCH(int, stage);
        QFETCH(QString, name);
        Scenario s = on_gpus(gpus);
        s.cluster.gpu.display_name = "A100 80GB (SXM)";
        s.zero.stage = stage;
        QCOMPARE(QString::fromStdString(default_pin_name(s)), name);
    }

    // Pins round-trip through the session text; without pins the text is session_text's.
    void pins_round_trip() {
        SessionFile f;
        f.scenario = default_scenario();
        f.pins.push_back({"first", planned(on_gpus(8))});
        f.pins.push_back({"second \"quoted\"", planned(on_gpus(16))});
        const std::string text = session_file_text(f);
        const SessionFile back = parse_session_file(text, "p.zplan");
        QVERIFY(back.scenario == f.scenario);
        QCOMPARE(back.pins.size(), std::size_t{2});
        QVERIFY(back.pins == f.pins);
        QCOMPARE(QString::fromStdString(session_file_text(back)), QString::fromStdString(text));
        QVERIFY(parse_session(text, "p.zplan") == f.scenario);  // a reader of the scenario alone skips the pins
        QCOMPARE(QString::fromStdString(session_file_text({f.scenario, {}})), QString::fromStdString(session_text(f.scenario)));
    }

    void malformed_pins_data() {
        QTest::addColumn<QString>("pins");
        QTest::addColumn<QString>("error");
        QTest::newRow("not a list") << R"({})"
                                    << "p.zplan: pins must be a list";
        QTest::newRow("not an object") << R"([1])"
                                       << "p.zplan: pins[0] must be an object";
        QTest::newRow("no name") << R"([{"session": {"version": 9}}])"
                                 << "p.zplan: pins[0].name must be a string";
        QTest::newRow("no session") << R"([{"name": "a"}])"
                                    << "p.zplan: pins[0].session is missing";
        QTest::newRow("bad field") << R"([{"name": "a", "session": {"version": 9, "cluster": {"nodes": 0}}}])"
                                   << "p.zplan: pins[0].session: cluster.nodes must be an integer >= 1";
        const QString pin = QStringLiteral(R"({"name": "a", "session": {"version": 9}})");
        QTest::newRow("five") << QLatin1Char('[') + QStringList(5, pin).join(QLatin1Char(',')) + QLatin1Char(']')
                              << "p.zplan: pins holds 5 plans; at most 4";
    }
    void malformed_pins() {
        QFETCH(QString, pins);
        QFETCH(QString, error);
        const std::string text = R"({"version": 9, "pins": )" + pins.toStdString() + "}";
        try {
            parse_session_file(text, "p.zplan");
            QFAIL("accepted malformed pins");
        } catch (const InputError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(error), e.what());
        }
    }
};

ZP_TEST_APPLESS_MAIN(TestPlanCompare)
#include "tst_plan_compare.moc"
