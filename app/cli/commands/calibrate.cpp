// `zero-planner calibrate`: the compute efficiency fitted to one measured run.
#include "app/cli/commands/commands.h"

#include "app/cli/number_parse.h"
#include "app/cli/options.h"
#include "app/cli/scenario_options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/calibration/calibrate.h"
#include "core/io/scenario_json.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <ctime>
#include <ostream>

namespace zp::cli {
namespace {

// Today as YYYY-MM-DD, or the day of SOURCE_DATE_EPOCH when it is set (reproducible output).
std::string today() {
    std::time_t t = std::time(nullptr);
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) t = static_cast<std::time_t>(std::strtoll(epoch, nullptr, 10));
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

}  // namespace

// Fit the scenario's compute efficiency to one measured run (core/calibration/calibrate.h):
// from a log (--log FILE) or typed numbers (--measured-*); prints before / measured / after and
// writes the calibrated session with -o. A refused measurement writes nothing.
int cmd_calibrate(const Args& a, std::ostream& out, std::ostream&) {
    const auto pad_right = [](std::string text, std::size_t width) {
        if (text.size() < width) text.append(width - text.size(), ' ');
        return text;
    };
    // One measured step: a log's and a typed one (or a typed time and a typed rate) would each be
    // a fit of its own, and the one not used would be reported as read.
    if (a.has(opt::measured_step_s) && a.has(opt::measured_samples_per_s))
        throw InputError("--measured-step-s and --measured-samples-per-s both give the step's time; give one of them");
    if (a.has(opt::log) && (a.has(opt::measured_step_s) || a.has(opt::measured_samples_per_s)))
        throw InputError(std::string("--log reads the step's time from the run's log; drop ") +
                         std::string(a.has(opt::measured_step_s) ? opt::measured_step_s.name : opt::measured_samples_per_s.name) +
                         ", or drop --log to calibrate from the typed number");
    const Scenario s = scenario_from_args(a);
    calibration::RunLog m;
    std::string source = "the command line";
    if (auto file = a.get(opt::log)) {
        m = calibration::read_run_log(read_text_file(*file), *file);
        source = *file;
    }
    if (auto v = a.get(opt::measured_step_s)) m.step_seconds = parse_number(*v, option_label(opt::measured_step_s, "seconds"), 1e-6, 1e9);
    if (auto v = a.get(opt::measured_samples_per_s))
        m.samples_per_second = parse_number(*v, option_text(opt::measured_samples_per_s), 1e-9, 1e12);
    if (auto v = a.get(opt::measured_max_allocated_gib))
        m.max_allocated_bytes = gib_to_bytes(parse_number(*v, option_text(opt::measured_max_allocated_gib), 1e-6, 1e6));
    if (auto v = a.get(opt::measured_reserved_gib))
        m.max_reserved_bytes = gib_to_bytes(parse_number(*v, option_text(opt::measured_reserved_gib), 1e-6, 1e6));
    if (!a.has(opt::log) && !m.step_seconds && !m.samples_per_second)
        throw InputError("calibrate needs a measured run: --log FILE, --measured-step-s S or --measured-samples-per-s X");
    const calibration::CalibrationResult r = calibration::calibrate(s, m, source, today());
    if (auto file = a.get(opt::output)) write_file_atomically(*file, session_text(r.calibrated));
    if (a.flag(opt::json)) {
        nlohmann::json j = {{"source", source},
                            {"read", m.read},
                            {"mfu_before", r.mfu_before},
                            {"mfu_after", r.mfu_after},
                            {"compute_scale_before", r.scale_before},
                            {"compute_scale_after", r.scale_after},
                            {"step_seconds",
                             {{"predicted_before", r.step_before_seconds},
                              {"measured", r.step_measured_seconds},
                              {"predicted_after", r.step_after_seconds}}},
                            {"calibration", r.calibrated.assumptions.calibration}};
        if (r.max_allocated_measured_bytes)
            j["max_allocated_bytes"] = {{"measured", *r.max_allocated_measured_bytes}, {"predicted", *r.max_allocated_predicted_bytes}};
        if (r.max_reserved_measured_bytes)
            j["max_reserved_bytes"] = {{"measured", *r.max_reserved_measured_bytes}, {"predicted", *r.max_reserved_predicted_bytes}};
        out << j.dump(2) << "\n";
        return kExitOk;
    }
    out << "Calibrated from " << source << "\n";
    for (const std::string& line : m.read) out << "  read " << line << "\n";
    out << "                  predicted before  measured    predicted after\n";
    out << "  step time       " << pad_right(format_seconds(r.step_before_seconds), 18)
        << pad_right(format_seconds(r.step_measured_seconds), 12) << format_seconds(r.step_after_seconds) << "\n";
    out << "  compute-efficiency scale x" << format_fixed(r.scale_before, 2) << " -> x" << format_fixed(r.scale_after, 2)
        << " (stored as mfu " << format_fixed(r.mfu_before, 3) << " -> " << format_fixed(r.mfu_after, 3) << ")\n";
    if (r.max_allocated_measured_bytes)
        out << "  max allocated   " << pad_right(format_bytes(*r.max_allocated_predicted_bytes), 18)
            << format_bytes(*r.max_allocated_measured_bytes) << "  (compared, not fitted)\n";
    if (r.max_reserved_measured_bytes)
        out << "  max reserved    " << pad_right(format_bytes(*r.max_reserved_predicted_bytes), 18)
            << format_bytes(*r.max_reserved_measured_bytes) << "  (compared, not fitted)\n";
    if (auto file = a.get(opt::output))
        out << "Session written to " << *file << "; estimates and recommendations from it use the fitted efficiency.\n";
    else out << "Add -o plan.zplan to keep the calibrated scenario as a session.\n";
    return kExitOk;
}

}  // namespace zp::cli
