// bench_core: ns per estimate (memory + step time: evaluate, the one estimate of a plan that the
// window, `estimate` and the recommender's shown setups run) and us per full recommend search, for a
// representative scenario: Llama-2 7B on one DGX A100 (8 x A100 80GB), bf16 AdamW, 4096 tokens,
// global batch 512 sequences; and the layout search of GPT-3 175B on 1,024 GPUs. Run pinned to one core:
//   taskset -c 1 build/ci/benchmarks/bench_core
// For instruction counts, one workload a fixed number of times and no timing:
//   valgrind --tool=callgrind build/ci/benchmarks/bench_core estimate|recommend|layout|overview [RUNS]
// (`overview`: what the window computes on a change of bench_gui's searched plan, BLOOM-176B on 384
// A100s with tensor and pipeline sizes on auto.)
#include "core/memory/memory_model.h"
#include "core/presets/default_scenario.h"
#include "core/presets/model_presets.h"
#include "core/search/overview.h"
#include "core/search/recommender.h"
#include "core/time/step_time.h"

#include "benchmarks/searched_plan.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace zp;
using Clock = std::chrono::steady_clock;

namespace {
volatile double g_sink = 0;

template <typename F>
double median_ns_per_call(F&& f, int calls_per_round, int rounds) {
    std::vector<double> samples;
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = Clock::now();
        for (int i = 0; i < calls_per_round; ++i) f(i);
        const auto t1 = Clock::now();
        samples.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / calls_per_round);
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

// GPT-3 175B on 1,024 A100s (128 nodes of 8), sequence 2048, global batch 1536, every tensor x
// pipeline x Ulysses x data layout (--tp auto --pp auto --sp auto).
Scenario big_scenario() {
    Scenario big = default_scenario();
    big.model = model_preset("gpt3-175b").spec;
    big.cluster.gpus_per_node = 8;
    big.cluster.nodes = 128;
    big.training.seq_len = 2048;
    big.training.global_batch = 1536;
    return big;
}
const SearchSpace kBigSpace{.auto_tensor = true, .auto_pipeline = true, .auto_ulysses = true};

// One workload `runs` times, untimed: what callgrind counts.
int profile(const char* what, int runs) {
    Scenario s = default_scenario();
    s.training.global_batch = 512;
    if (std::strcmp(what, "estimate") == 0) {
        for (int i = 0; i < runs; ++i) {
            s.training.micro_batch = std::int64_t{1} << (i & 3);
            const Candidate c = evaluate(s);
            g_sink = g_sink + c.memory.total_bytes() + c.step.seconds;
        }
    } else if (std::strcmp(what, "recommend") == 0) {
        for (int i = 0; i < runs; ++i) g_sink = g_sink + recommend(s).best.step.seconds;
    } else if (std::strcmp(what, "layout") == 0) {
        const Scenario big = big_scenario();
        for (int i = 0; i < runs; ++i) g_sink = g_sink + recommend(big, kBigSpace).best.step.seconds;
    } else if (std::strcmp(what, "overview") == 0) {
        Scenario bloom = bench::bloom_searched_plan();
        for (int i = 0; i < runs; ++i) {
            bloom.training.seq_len = i % 2 ? 4096 : 2048;
            g_sink = g_sink + compute_overview(bloom).plan.best.step.seconds;
        }
    } else {
        std::fprintf(stderr, "usage: bench_core [estimate|recommend|layout|overview [RUNS]]\n");
        return 2;
    }
    return 0;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc > 1) return profile(argv[1], argc > 2 ? std::atoi(argv[2]) : 1);
    Scenario s = default_scenario();
    s.training.global_batch = 512;
    // Vary the micro batch so the compiler cannot hoist the work out of the loop.
    const double estimate_ns = median_ns_per_call(
        [&](int i) {
            s.training.micro_batch = std::int64_t{1} << (i & 3);
            const Candidate c = evaluate(s);
            g_sink = g_sink + c.memory.total_bytes() + c.step.seconds;
        },
        100000, 21);
    s.training.micro_batch = 1;
    std::int64_t candidates = 0, estimated = 0;
    const double search_ns = median_ns_per_call(
        [&](int) {
            const Plan p = recommend(s);
            candidates = p.candidates_evaluated;
            estimated = p.candidates_estimated;
            g_sink = g_sink + p.best.step.seconds;
        },
        200, 21);
    const Scenario big = big_scenario();
    std::int64_t big_candidates = 0, big_estimated = 0, big_layouts = 0;
    const double big_ns = median_ns_per_call(
        [&](int) {
            const Plan p = recommend(big, kBigSpace);
            big_candidates = p.candidates_evaluated;
            big_estimated = p.candidates_estimated;
            g_sink = g_sink + p.best.step.seconds;
        },
        3, 7);
    big_layouts = static_cast<std::int64_t>(searched_layouts(big, kBigSpace).size());
    std::printf("scenario: llama-2-7b, 8 x A100 80GB, bf16 AdamW, seq 4096, global batch 512\n");
    std::printf("estimate (memory + step time): %.0f ns per call\n", estimate_ns);
    std::printf("recommend (full search):       %.1f us per search, %lld candidates, %lld of them estimated (%.0f ns per candidate)\n",
                search_ns / 1000.0, static_cast<long long>(candidates), static_cast<long long>(estimated),
                search_ns / static_cast<double>(candidates));
    std::printf(
        "layout search (gpt3-175b, 1,024 x A100 80GB, --tp auto --pp auto --sp auto): %.2f ms, %lld layouts, %lld candidates, %lld of them estimated\n",
        big_ns / 1e6, static_cast<long long>(big_layouts), static_cast<long long>(big_candidates), static_cast<long long>(big_estimated));
    return 0;
}
