#pragma once
// Helpers shared by the test suites (tests/core, tests/app, and tests/ui when it adopts them):
//   - scenario builders: a preset model on a preset GPU, a model on N GPUs;
//   - FileSizeLimit, an RAII guard that makes the disk look full (RLIMIT_FSIZE) for this process;
//   - near(), a relative comparison for literal expectations written with a dozen digits.
// Qt-free on purpose, so any test can include it.
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/scenario_edits.h"

#include <sys/resource.h>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdint>

namespace zp::test {

// default_scenario() (Llama-2 7B on a DGX A100, ZeRO-2) with `model` on `gpus` GPUs in nodes of up
// to `node_size` (8, a DGX) and ZeRO `stage`. Everything else keeps the default scenario's value.
inline Scenario model_scenario(const ModelSpec& model, std::int64_t gpus, int stage = 2, std::int64_t node_size = 8) {
    Scenario s = default_scenario();
    s.model = model;
    s.zero.stage = stage;
    return with_gpu_count(s, gpus, node_size);
}

// A GPT layer stack as Korthikanti et al. count it (arXiv:2205.05198): a 4h MLP whose GeLU
// is one kernel keeping its input (Megatron's), multi-head attention, GPT-2's vocabulary.
inline ModelSpec korthikanti_gpt(std::int64_t h, std::int64_t a, std::int64_t layers = 1) {
    ModelSpec m = model_preset("gpt2").spec;
    m.activation = MlpActivation::Fused;
    m.hidden = h;
    m.heads = m.kv_heads = a;
    m.head_dim = h / a;
    m.ffn = 4 * h;
    m.layers = layers;
    return m;
}

// A preset model on `gpus` preset GPUs (nodes of up to 8), everything else as default_scenario().
inline Scenario preset_scenario(const char* model, const char* gpu, std::int64_t gpus) {
    Scenario s = model_scenario(model_preset(model).spec, gpus);
    s.cluster.use_gpu(gpu_preset(gpu));
    return s;
}

// While alive, writes past `bytes` fail with EFBIG instead of raising SIGXFSZ: a full disk, for
// this process only. Restores the previous limit and signal disposition when destroyed.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        if (getrlimit(RLIMIT_FSIZE, &previous_) != 0) return;
        rlimit limited = previous_;
        limited.rlim_cur = std::min<rlim_t>(bytes, previous_.rlim_max);
        active_ = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit() {
        if (active_) setrlimit(RLIMIT_FSIZE, &previous_);
        std::signal(SIGXFSZ, previous_handler_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

    // False when the limit could not be set (the test should fail rather than pass vacuously).
    bool active() const { return active_; }

private:
    rlimit previous_{};
    void (*previous_handler_)(int) = SIG_DFL;
    bool active_ = false;
};

// |actual - expected| <= rel x |expected|: for literals computed by hand and printed with about
// twelve significant digits (QCOMPARE's fuzzy compare wants agreement to ~1e-12).
inline bool near(double actual, double expected, double rel = 1e-9) {
    return std::isfinite(actual) && std::fabs(actual - expected) <= rel * std::fabs(expected);
}

}  // namespace zp::test

// QVERIFY2 with its message built only when the statement fails. Qt 6.4's QVERIFY2 evaluates the
// description on every pass too (qtestcase.h hands it to QTest::qVerify in both branches), and in
// the loops that check thousands of scenarios formatting messages nobody reads cost more than the
// checks (tst_robustness: a layout's words and seven QString::arg per bucket).
#define ZP_VERIFY2(statement, description)                                                                          \
    do {                                                                                                            \
        if (statement) {                                                                                            \
            if (!QTest::qVerify(true, #statement, "", __FILE__, __LINE__)) return;                                  \
        } else if (!QTest::qVerify(false, #statement, static_cast<const char*>(description), __FILE__, __LINE__)) { \
            return;                                                                                                 \
        }                                                                                                           \
    } while (false)

// In a Qt Test slot: near(actual, expected), printing both to 17 digits when they differ.
#define ZP_COMPARE_NEAR(actual, expected)              \
    ZP_VERIFY2(::zp::test::near((actual), (expected)), \
               qPrintable(QString::fromLatin1(#actual " = %1, expected %2").arg((actual), 0, 'g', 17).arg((expected), 0, 'g', 17)))
