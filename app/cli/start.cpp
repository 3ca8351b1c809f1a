#include "app/cli/start.h"

#include "app/cli/cli.h"
#include "app/cli/number_parse.h"
#include "app/cli/options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/presets/default_scenario.h"
#include "core/search/recommender.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace zp::cli {

DisplayEnvironment DisplayEnvironment::from_process() {
    const auto set = [](const char* name) {
        const char* v = std::getenv(name);
        return v != nullptr && *v != '\0';
    };
    const char* platform = std::getenv("QT_QPA_PLATFORM");
    const char* force = std::getenv("ZP_FORCE_WINDOW");
    return {set("DISPLAY"), set("WAYLAND_DISPLAY"), platform ? platform : "", force != nullptr && std::string(force) == "1"};
}

std::string no_display_reason(const DisplayEnvironment& env) {
    if (env.force_window) return {};
    const std::string platform = env.qt_platform.substr(0, env.qt_platform.find(':'));  // "offscreen:fontengine=..."
    if (platform == "offscreen" || platform == "minimal") return "QT_QPA_PLATFORM=" + platform;
    if (!platform.empty() || env.x11 || env.wayland) return {};
    return "neither DISPLAY nor WAYLAND_DISPLAY is set";
}

namespace {

bool is_meta(const std::string& arg) { return arg == opt::help.name || arg == opt::help_short.name || arg == opt::version.name; }
bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

// A .zplan file, as the file manager passes it (packaging/*.desktop: Exec=zero-planner %f).
// One that cannot be read is named as such rather than as an unknown command.
bool is_session_file(const std::string& word) {
    if (!word.ends_with(".zplan")) return false;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(word, ec)) read_text_file(word);  // throws: no such file, a directory, ...
    return true;
}

std::pair<int, int> parse_size(const std::string& text) {
    const auto x = text.find('x');
    if (x == std::string::npos) throw InputError("--size must be WIDTHxHEIGHT, e.g. 1480x920, got '" + text + "'");
    const auto w = parse_positive_int(text.substr(0, x), "--size width", 8000);
    const auto h = parse_positive_int(text.substr(x + 1), "--size height", 8000);
    if (w < 200 || h < 150) throw InputError("--size must be at least 200x150, got '" + text + "'");
    return {static_cast<int>(w), static_cast<int>(h)};
}

// The scenario `options` describe, for the window or the headless plan; throws InputError.
Start window_with_options(const std::vector<std::string>& options, const std::string& session_file) {
    std::set<std::string> known = scenario_option_names();
    known.emplace(opt::output.name);  // accepted, to say which commands take it
    const Args a = parse_args(options, known, {});
    for (const std::string& word : a.positionals) {
        if (find_command(word)) throw InputError("the command comes first: zero-planner " + word + " [OPTIONS]");
        throw InputError("unexpected argument '" + word + "'; see zero-planner --help");
    }
    if (a.has(opt::output)) throw InputError("-o needs a command that writes a file: export or session");
    if (!session_file.empty() && a.has(opt::session)) throw InputError("give the session once: " + session_file + " or --session");
    Args with_session = a;
    if (!session_file.empty()) with_session.values.emplace(opt::session.name, session_file);
    Start start;
    start.scenario = plan_scenario_from_args(with_session, &start.notes);
    return start;
}

}  // namespace

ScreenshotRequest parse_screenshot(const Args& a) {
    if (!a.positionals.empty()) throw InputError("unexpected argument '" + a.positionals.front() + "'; see zero-planner --help");
    if (!a.has(opt::out)) throw InputError("screenshot needs --out FILE.png");
    ScreenshotRequest r;
    r.out = *a.get(opt::out);
    // The picture is a PNG whatever the name: a .jpg would hold PNG bytes.
    if (!r.out.ends_with(".png")) throw InputError("screenshot writes a PNG: name --out FILE.png, got '" + r.out + "'");
    r.view = a.get(opt::view).value_or("window");
    if (auto size = a.get(opt::size)) std::tie(r.width, r.height) = parse_size(*size);
    if (auto scale = a.get(opt::scale)) {
        r.scale = static_cast<int>(parse_positive_int(*scale, std::string(opt::scale.name), 2));
    }
    if (auto lang = a.get(opt::lang)) r.lang = *lang;  // checked against the window's translations where it is drawn
    const bool diagnose_view = r.view == "diagnose" || r.view == "diagnosis" || r.view == "diagnose-step";
    if (a.has(opt::log) && r.view != "calibrate" && !diagnose_view)
        throw InputError("--log is for --view calibrate (the run log its dialog shows) and the diagnose views (the log diagnosed)");
    if (diagnose_view && !a.has(opt::log)) throw InputError("--view " + r.view + " needs --log FILE (the log that ran out of memory)");
    if (auto log = a.get(opt::log)) {
        r.log_text = read_text_file(*log);
        r.log_name = std::filesystem::path(*log).filename().string();
    }
    r.scenario = plan_scenario_from_args(a);
    if (auto session = a.get(opt::session)) r.pins = parse_session_file(read_text_file(*session), *session).pins;
    return r;
}

ReportRequest parse_report(const Args& a) {
    if (!a.positionals.empty()) throw InputError("unexpected argument '" + a.positionals.front() + "'; see zero-planner --help");
    if (!a.has(opt::output)) throw InputError("report needs -o FILE (a .pdf or .md file)");
    ReportRequest r;
    r.out = *a.get(opt::output);
    if (r.out.empty()) throw InputError("report needs -o FILE (a .pdf or .md file), got an empty name");
    std::string format = a.get(opt::format).value_or("");
    if (format.empty()) {
        if (r.out.ends_with(".md")) format = "md";
        else if (r.out.ends_with(".pdf")) format = "pdf";
        else throw InputError("report needs --format pdf|md (or -o FILE ending in .pdf or .md), got -o '" + r.out + "'");
    }
    if (format != "pdf" && format != "md") throw InputError("--format must be pdf or md, got '" + format + "'");
    // A PDF in a .md file (or Markdown in a .pdf) opens as garbage in whatever the name promises.
    const bool md_name = r.out.ends_with(".md"), pdf_name = r.out.ends_with(".pdf");
    if ((format == "pdf" && md_name) || (format == "md" && pdf_name))
        throw InputError("--format " + format + " writes " + (format == "pdf" ? "a PDF" : "Markdown") + " but -o '" + r.out +
                         "' is named " + (md_name ? ".md" : ".pdf") + ": give --format " + (md_name ? "md" : "pdf") +
                         " or name the file ." + format);
    r.markdown = format == "md";
    r.scenario = plan_scenario_from_args(a);
    return r;
}

Start decide_start(const std::vector<std::string>& args, const DisplayEnvironment& env) {
    Start start;
    try {
        const std::string first = args.empty() ? std::string() : args.front();
        const Command* command = find_command(first);
        const bool meta = std::any_of(args.begin(), args.end(), is_meta);
        if (command && command->kind == CommandKind::Headless) {
            start.kind = StartKind::Command;
            return start;
        }
        if (command) {  // screenshot and report, the Window commands (another needs its own StartKind)
            refuse_output_option(*command, args);
            refuse_other_commands_options(*command, args);
            const Args a = parse_args({args.begin() + 1, args.end()}, command->options, command->flags);
            if (a.flag(opt::help) || a.flag(opt::help_short)) {
                start.kind = StartKind::Command;
                return start;
            }
            if (command->name == "report") {
                start.kind = StartKind::Report;
                start.report = parse_report(a);
            } else {
                start.kind = StartKind::Screenshot;
                start.screenshot = parse_screenshot(a);
            }
            return start;
        }
        if (!first.empty() && !is_option(first) && !is_session_file(first)) throw InputError(unknown_command_message(first));
        if (meta) {
            start.kind = StartKind::Command;
            return start;
        }
        const bool session_first = !first.empty() && !is_option(first);
        const std::string reason = no_display_reason(env);
        if (session_first && args.size() == 1 && reason.empty()) {
            start.session_path = first;  // the window opens it as its file, and says so if it cannot
        } else if (!args.empty()) {
            start = window_with_options({args.begin() + (session_first ? 1 : 0), args.end()}, session_first ? first : std::string());
        }
        if (reason.empty()) {
            start.kind = StartKind::Window;
        } else {
            start.kind = StartKind::Headless;
            start.no_display_reason = reason;
            if (!start.scenario) start.scenario = default_plan_scenario();
        }
        return start;
    } catch (const std::exception& e) {
        Start error;
        error.kind = StartKind::Error;
        error.error = dynamic_cast<const InputError*>(&e) ? std::string(e.what()) : std::string("internal error: ") + e.what();
        return error;
    }
}

}  // namespace zp::cli
