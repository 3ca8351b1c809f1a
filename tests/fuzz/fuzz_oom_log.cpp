// libFuzzer: a training log read for its out-of-memory messages (core/io/oom_log.h), the run it
// states (core/diagnose/log_setup.h) and the diagnosis against it (core/diagnose/oom_diagnosis.h),
// as `zero-planner diagnose LOG` does. Anything but an InputError is a failure; so is a size that is
// negative or not finite.
#include "core/base/errors.h"
#include "core/diagnose/log_setup.h"
#include "core/diagnose/oom_diagnosis.h"
#include "core/io/oom_log.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {
void check_size(const std::optional<double>& bytes) {
    if (bytes && (!std::isfinite(*bytes) || *bytes < 0)) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const zp::OomLog log = zp::read_oom_log(text, "fuzz.log");
        if (log.events.empty()) std::abort();  // it throws instead
        for (const zp::OomEvent& e : log.events) {
            check_size(e.tried_bytes);
            check_size(e.total_bytes);
            check_size(e.allocated_bytes);
            check_size(e.reserved_total_bytes());
        }
        (void)zp::oom_remedies(log.moment, log.phase);
        const zp::LogSetup setup = zp::setup_from_log(text, log, "fuzz.log");
        zp::Scenario s = setup.scenario;
        zp::validate(s);
        // The diagnosis without the recommender's search (that is the planner's, fuzzed elsewhere):
        // the cause, the terms and the match.
        std::vector<std::string> evidence, advice;
        (void)zp::oom_cause(log, &evidence, &advice);
        double error = 0;
        (void)zp::match_request(log.events.front().tried_bytes, zp::oom_request_terms(s), &error);
    } catch (const zp::InputError&) {
    }
    return 0;
}
