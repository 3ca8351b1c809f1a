// Robustness: a property test over 100,000 random valid scenarios (estimate_memory, estimate_step,
// recommend, the DeepSpeed export and lint; CTest runs it in two blocks side by side), and
// core/base/file_io.cpp's atomic writes, which leave an existing file byte-identical when the disk
// is "full" (RLIMIT_FSIZE).
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/units.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/lint.h"
#include "core/memory/memory_model.h"
#include "core/model/deepspeed_defaults.h"
#include "core/model/parallel_layout.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/recommender.h"
#include "core/search/scenario_edits.h"
#include "core/time/compute_time.h"
#include "core/time/step_time.h"
#include "same_plan.h"
#include "test_util.h"

#include <array>
#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include "test_main.h"

#include <filesystem>
#include <optional>
#include <random>

using namespace zp;

namespace {

Scenario random_scenario(std::mt19937_64& rng) {
    auto pick = [&](auto lo, auto hi) { return std::uniform_int_distribution<long long>(lo, hi)(rng); };
    auto log_uniform = [&](double lo, double hi) {
        return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng));
    };
    Scenario s = default_scenario();
    const auto& presets = model_presets();
    if (pick(0, 3) == 0) s.model = synthesize_model(static_cast<std::int64_t>(log_uniform(1e8, 2e12)));
    else s.model = presets[static_cast<std::size_t>(pick(0, static_cast<long long>(presets.size()) - 1))].spec;
    const auto& gpus = gpu_presets();
    s.cluster.use_gpu(gpus[static_cast<std::size_t>(pick(0, static_cast<long long>(gpus.size()) - 1))]);
    s.cluster.gpus_per_node = std::int64_t{1} << pick(0, 4);
    s.cluster.nodes = std::int64_t{1} << pick(0, 9);
    s.cluster.cpu_ram_bytes_per_node = gib_to_bytes(log_uniform(16, 8192));
    s.cluster.nvme_bytes_per_node = pick(0, 1) ? 0.0 : gib_to_bytes(log_uniform(100, 60000));
    s.cluster.inter_node_gbits_per_s = log_uniform(1, 6400);
    s.training.precision = static_cast<Precision>(pick(0, 2));
    s.training.optimizer = static_cast<Optimizer>(pick(0, 6));
    s.training.seq_len = std::int64_t{1} << pick(7, 20);
    s.training.micro_batch = std::int64_t{1} << pick(0, 4);
    s.training.global_batch = 0;
    s.training.checkpointing = static_cast<Checkpointing>(pick(0, 3));
    s.training.flash_attention = pick(0, 1) == 1;
    s.training.cpu_checkpointing = pick(0, 3) == 0;
    s.training.loss_fp32_upcast = pick(0, 1) == 1;
    // Full, chunked (Liger) or flash-attn's fused cross-entropy; shifted needs an old transformers.
    constexpr std::array<LossKernel, 3> kLossKernels{LossKernel::Full, LossKernel::Chunked, LossKernel::Xentropy};
    s.training.loss_kernel = kLossKernels[static_cast<std::size_t>(pick(0, 2))];
    s.training.fused_optimizer = pick(0, 1) == 1;
    s.zero.zero_init = pick(0, 3) != 0;
    const auto& setups = zero_setups();
    const ZeroSetup& z = setups[static_cast<std::size_t>(pick(0, static_cast<long long>(setups.size()) - 1))];
    s.zero.stage = z.stage;
    s.zero.offload_optimizer = s.training.precision == Precision::Fp32 ? OffloadDevice::None : z.offload_optimizer;
    s.zero.offload_param = s.zero.offload_optimizer == OffloadDevice::None ? OffloadDevice::None : z.offload_param;
    s.zero.overlap_comm = pick(0, 1) == 1;
    s.assumptions.convention = static_cast<Convention>(pick(0, 1));
    s.assumptions.headroom = std::uniform_real_distribution<double>(0, 0.3)(rng);
    s.zero.auto_zeropp = pick(0, 1) == 1;  // ZeRO++ on auto: the search's bound holds over its rows too
    // Op-level selective recompute is refused outside dense, flash-attention, data-parallel runs
    // (scenario.cpp validate_op_sac): such a draw recomputes whole layers instead.
    if (s.training.checkpointing == Checkpointing::SelectiveOp) {
        try {
            validate(s);
        } catch (const InputError&) {
            s.training.checkpointing = Checkpointing::Full;
        }
    }
    return s;
}

bool sane(double v) { return std::isfinite(v) && v >= 0; }

// The search's least-memory bucket (recommender.cpp kLeastMemoryBucket): the GPU's peak never
// falls as a bucket grows or overlap_comm comes on, and no bucket changes what refuses the setup;
// so when the smallest bucket without overlap_comm does not fit, no bucket of its line does.
void bucket_order_holds(Scenario x, int i) {
    MemoryMemo memo;
    const std::array<double, 3> sizes = {deepspeed::recommended::kSmallBucketElems, deepspeed::recommended::kBucketElems,
                                         deepspeed::defaults::kReduceBucketElems};
    std::array<std::array<double, 3>, 2> peak{};  // [overlap][size]
    std::optional<SetupRefusal> refusal;
    for (const bool overlap : {false, true})
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            x.zero.reduce_bucket_elems = x.zero.allgather_bucket_elems = sizes[k];
            x.zero.overlap_comm = overlap;
            const MemoryPeaks peaks = memory_peaks(x, memo);
            const double bytes = peak[overlap][k] = peaks.gpu_required_bytes;
            const double below = std::max(k > 0 ? peak[overlap][k - 1] : 0.0, overlap ? peak[false][k] : 0.0);
            ZP_VERIFY2(bytes >= below, qPrintable(QStringLiteral("scenario %1 (stage %2, %3): a %4-element bucket (overlap %5) peaks at "
                                                                 "%6 bytes, a smaller bucket or no overlap at %7")
                                                      .arg(i)
                                                      .arg(x.zero.stage)
                                                      .arg(QString::fromStdString(layout_words(x)))
                                                      .arg(sizes[k])
                                                      .arg(overlap)
                                                      .arg(bytes)
                                                      .arg(below)));
            const SetupRefusal now = check_fit(x, peaks).refusal;
            ZP_VERIFY2(!refusal || *refusal == now, qPrintable(QStringLiteral("scenario %1: a bucket changes the refusal").arg(i)));
            refusal = now;
        }
}

}  // namespace

class TestRobustness : public QObject {
    Q_OBJECT
private slots:
    // CTest runs the 100,000 scenarios as ZP_ROBUSTNESS_SHARDS runs side by side, run k
    // (ZP_ROBUSTNESS_SHARD) checking the k-th contiguous block of the one seeded sequence: the same
    // scenarios and checks as one run, on both cores (tests/core/CMakeLists.txt). Alone it checks all.
    void property_random_scenarios() {
        constexpr int kScenarios = 100000;
        const int shards = std::max(1, qEnvironmentVariableIntValue("ZP_ROBUSTNESS_SHARDS"));
        const int shard = qEnvironmentVariableIntValue("ZP_ROBUSTNESS_SHARD");
        ZP_VERIFY2(shard >= 0 && shard < shards, "ZP_ROBUSTNESS_SHARD must be 0 to ZP_ROBUSTNESS_SHARDS - 1");
        const int first = kScenarios / shards * shard, last = shard == shards - 1 ? kScenarios : first + kScenarios / shards;
        std::mt19937_64 rng(20261122);
        int checked = 0, plans = 0, compared = 0, layouts_compared = 0;
        for (int i = 0; i < last; ++i) {
            const Scenario s = random_scenario(rng);
            if (i < first) continue;  // drawn, so the block's scenarios are the sequence's
            validate(s);
            const MemoryBreakdown m = estimate_memory(s);
            for (double v : {m.params_bytes, m.gradients_bytes, m.optimizer_states_bytes, m.activations_bytes, m.buffers_bytes,
                             m.cuda_context_bytes, m.allocator_cache_bytes, m.cpu_bytes_per_node, m.nvme_bytes_per_node})
                ZP_VERIFY2(sane(v), qPrintable(QStringLiteral("scenario %1: a slice is %2").arg(i).arg(v)));
            ZP_VERIFY2(sane(m.total_bytes()), qPrintable(QStringLiteral("scenario %1: the total is %2").arg(i).arg(m.total_bytes())));
            // The step's peak: finite, ordered (allocated <= required; the reserve holds at least
            // what is allocated), and the fit decided on it.
            ZP_VERIFY2(sane(m.peak_allocated_bytes) && m.peak_allocated_bytes > 0, qPrintable(QStringLiteral("scenario %1").arg(i)));
            QVERIFY(m.peak_required_bytes >= m.peak_allocated_bytes + m.cuda_context_bytes);
            QVERIFY(m.peak_reserved_bytes >= m.peak_allocated_bytes + m.cuda_context_bytes);
            QCOMPARE(check_fit(s, m).gpu, m.peak_required_bytes <= usable_gpu_bytes(s));
            // What the search reads instead (memory_peaks): the same figures to the bit, the host's
            // for a candidate the card holds; a limit cuts nothing short without a pipeline (the
            // pipelined cut: tst_parallelism memory_peaks_of_a_pipeline).
            {
                Scenario x = s;
                MemoryMemo memo;
                const MemoryPeaks peaks = memory_peaks(x, memo);
                ZP_VERIFY2(peaks.gpu_required_bytes == m.peak_required_bytes, qPrintable(QStringLiteral("scenario %1").arg(i)));
                if (check_fit(s, m).gpu)
                    ZP_VERIFY2(
                        peaks.cpu_bytes_per_node == m.cpu_bytes_per_node && peaks.nvme_bytes_per_node == m.nvme_bytes_per_node,
                        qPrintable(
                            QStringLiteral("scenario %1: host %2 / %3").arg(i).arg(peaks.cpu_bytes_per_node).arg(m.cpu_bytes_per_node)));
                if (s.parallel.pipeline <= 1) {
                    const double cut = memory_peaks(x, memo, 0.0).gpu_required_bytes;
                    ZP_VERIFY2(cut == m.peak_required_bytes, qPrintable(QStringLiteral("scenario %1: %2").arg(i).arg(cut)));
                }
            }
            // The search's least-memory bucket (recommender.cpp kLeastMemoryBucket): on the
            // scenario, and every tenth on each setup, with ZeRO++ on, with DeepSpeed 0.12.3's
            // shard-by-shard gather and on one of its model-parallel layouts.
            bucket_order_holds(s, i);
            if (QTest::currentTestFailed()) return;
            if (i % 10 == 0) {
                Scenario x = s;
                const std::vector<Parallelism> layouts = searched_layouts(s, SearchSpace{true, true});
                if (!layouts.empty()) x.parallel = layouts[static_cast<std::size_t>(i / 10) % layouts.size()];
                x.deepspeed_release = (i / 10) % 2 ? "0.12.3" : "";
                for (const ZeroSetup& z : zero_setups())
                    for (const ZeroppChoice c : {ZeroppChoice::Off, ZeroppChoice::HpzQwzQgz}) {
                        apply_setup(x.zero, setup_key(z));
                        apply_zeropp_choice(x.zero, c, x.cluster.gpus_per_node);
                        bucket_order_holds(x, i);
                        if (QTest::currentTestFailed()) return;
                    }
            }
            const StepTime t = estimate_step(s);
            // MFU counts attention whole (Korthikanti Eq. 7, as published MFUs do) while flash attention
            // runs half of it under a causal mask (compute_time.cpp): at long sequences it can pass 1,
            // never 1 / kCausalAttentionShare.
            ZP_VERIFY2(std::isfinite(t.seconds) && t.seconds > 0 && std::isfinite(t.tokens_per_second) && t.mfu > 0 &&
                           t.mfu <= 1 / compute_model::kCausalAttentionShare,
                       qPrintable(QStringLiteral("scenario %1: %2 s, MFU %3 (%4, seq %5, flash %6)")
                                      .arg(i)
                                      .arg(t.seconds)
                                      .arg(t.mfu)
                                      .arg(QString::fromStdString(s.model.name))
                                      .arg(s.training.seq_len)
                                      .arg(s.training.flash_attention)));
            // The search's bound on a line of candidates: no setup, bucket or overlap runs faster.
            ZP_VERIFY2(step_seconds_lower_bound(s) <= t.seconds, qPrintable(QStringLiteral("scenario %1: bound %2 s above the step's %3 s")
                                                                                .arg(i)
                                                                                .arg(step_seconds_lower_bound(s))
                                                                                .arg(t.seconds)));
            // The search skips a bucket whose line has a bucket no smaller, under the same
            // overlap_comm, that could not win (recommender.cpp never_faster): more launches never
            // shorten a step.
            for (const bool overlap : {true, false}) {
                double larger_bucket_seconds = 0;
                for (const double elems : {deepspeed::defaults::kReduceBucketElems, deepspeed::recommended::kBucketElems,
                                           deepspeed::recommended::kSmallBucketElems}) {
                    Scenario b = s;
                    b.zero.reduce_bucket_elems = b.zero.allgather_bucket_elems = elems;
                    b.zero.overlap_comm = overlap;
                    const double seconds = estimate_step(b).seconds;
                    ZP_VERIFY2(
                        seconds >= larger_bucket_seconds,
                        qPrintable(QStringLiteral("scenario %1: a %2-element bucket (overlap %3) steps in %4 s, a larger one in %5 s")
                                       .arg(i)
                                       .arg(elems)
                                       .arg(overlap)
                                       .arg(seconds)
                                       .arg(larger_bucket_seconds)));
                    larger_bucket_seconds = seconds;
                }
            }
            // The recommender and the export round trip on every 50th scenario (a search is ~1,000 estimates).
            if (i % 50 == 0) {
                const Plan p = recommend(s);
                if (p.feasible) {
                    ++plans;
                    QVERIFY(p.best.fit.all());
                    const Scenario e = with_candidate(s, p.best);
                    const LintResult r = lint_ds_config(deepspeed_config_text(e), s.cluster.world_size());
                    ZP_VERIFY2(!r.has_errors(), qPrintable(QString::fromStdString(diagnostics_json(r).dump())));
                } else {
                    QVERIFY(!p.suggestions.empty());
                }
                // The search's bound (SearchPruning::Bounds) skips only what the exhaustive search
                // would also reject: the same plan, setup by setup.
                if (i % 100 == 0) {
                    const Plan all = recommend(s, SearchPruning::Exhaustive);
                    expect_same_plan(all, p, QStringLiteral("scenario %1").arg(i));
                    if (QTest::currentTestFailed()) return;
                    // Every 200th, the layout search (tensor and pipeline sizes on auto) where it has
                    // a few layouts: its threads share what each layout found (recommender.cpp
                    // FoundSoFar), and still give the exhaustive search's plan.
                    const SearchSpace layouts{.auto_tensor = true, .auto_pipeline = true};
                    if (const std::size_t n = searched_layouts(s, layouts).size(); i % 200 == 0 && n >= 3 && n <= 24) {
                        // Also with the layouts searched last first, on one thread: every bar a
                        // layout meets then comes from a layout merged after it.
                        std::optional<Plan> every;  // a batch no layout splits: every search refuses it
                        try {
                            every = recommend(s, layouts, SearchPruning::Exhaustive);
                        } catch (const InputError&) {
                        }
                        for (const SearchPruning pruning : {SearchPruning::Bounds, SearchPruning::BoundsLaterLayoutsFirst}) {
                            std::optional<Plan> bounded;
                            try {
                                bounded = recommend(s, layouts, pruning);
                            } catch (const InputError&) {
                            }
                            QCOMPARE(bounded.has_value(), every.has_value());
                            if (!bounded) continue;
                            expect_same_plan(*every, *bounded, QStringLiteral("scenario %1, %2 layouts").arg(i).arg(n));
                            if (QTest::currentTestFailed()) return;
                        }
                        if (every) ++layouts_compared;
                    }
                    ++compared;
                }
            }
            ++checked;
        }
        QCOMPARE(checked, last - first);
        QVERIFY(plans > 100 / shards);
        // Every 100th scenario of the block is also searched exhaustively.
        QCOMPARE(compared, (last + 99) / 100 - (first + 99) / 100);
        QVERIFY(layouts_compared >= 100);  // 217 and 221 in the two blocks
        qInfo(
            "property test: scenarios %d to %d of %d, %d recommended plans checked, %d searches bounded = exhaustive, %d of them "
            "layout searches too",
            first, last - 1, kScenarios, plans, compared, layouts_compared);
    }

    // A write that fails part-way (here: the file-size limit, as a full disk would) leaves the
    // existing file byte-identical and no temporary file behind.
    void atomic_write_survives_a_full_disk() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("ds_config.json")).toStdString();
        const std::string before = "{\"train_batch_size\": 64}\n";
        write_file_atomically(path, before);
        bool failed = false;
        std::string message;
        {
            const test::FileSizeLimit full_disk(16);
            QVERIFY(full_disk.active());
            try {
                write_file_atomically(path, std::string(4096, 'x'));
            } catch (const InputError& e) {
                failed = true;
                message = e.what();
            }
        }
        QVERIFY(failed);
        ZP_VERIFY2(QString::fromStdString(message).contains(QStringLiteral("cannot write")), message.c_str());
        QCOMPARE(QString::fromStdString(read_text_file(path)), QString::fromStdString(before));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), qsizetype(1));
    }

    // UTF-16 text (Windows PowerShell 5's > and Out-File): refused by read_text_file with what to do,
    // where it read as invalid JSON at column 1 or a binary log; UTF-8 with or without a BOM is read.
    void utf16_files_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("utf16");
        QTest::newRow("UTF-16LE with BOM") << QByteArray("\xFF\xFE{\0}\0", 6) << true;
        QTest::newRow("UTF-16BE with BOM") << QByteArray("\xFE\xFF\0{\0}", 6) << true;
        QTest::newRow("UTF-16LE, no BOM") << QByteArray("{\0\"\0a\0", 6) << true;
        QTest::newRow("UTF-16BE, no BOM") << QByteArray("\0{\0\"\0a", 6) << true;
        QTest::newRow("UTF-8") << QByteArray("{\"a\": 1}") << false;
        QTest::newRow("UTF-8 with BOM") << QByteArray("\xEF\xBB\xBF{}") << false;
        QTest::newRow("two bytes") << QByteArray("{}") << false;
    }
    void utf16_files() {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, utf16);
        QCOMPARE(is_utf16(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size()))), utf16);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("f.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
        f.close();
        bool refused = false;
        try {
            (void)read_text_file(path.toStdString());
        } catch (const InputError& e) {
            refused = QString::fromStdString(e.what()).contains(QStringLiteral("is UTF-16 text")) &&
                      QString::fromStdString(e.what()).contains(QStringLiteral("save it as UTF-8"));
        }
        QCOMPARE(refused, utf16);
    }

    void atomic_write_into_a_missing_directory() {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("no/such/dir/out.json")).toStdString();
        QVERIFY_THROWS_EXCEPTION(InputError, write_file_atomically(path, "x"));
        QVERIFY(!std::filesystem::exists(path));
    }
};

ZP_TEST_APPLESS_MAIN(TestRobustness)
#include "tst_robustness.moc"
