#pragma once
// What `zero-planner ARGS` starts: a command, the window (or, with no display to show it on, its
// plan as text and pictures), or a one-line error. Decided here, without Qt and without side
// effects beyond reading the files the options name, so tests can call it; app/main.cpp acts on
// the answer and app/gui_main.cpp does the Qt part.
#include "app/cli/scenario_options.h"
#include "core/model/scenario.h"
#include "core/report/plan_pins.h"

#include <optional>
#include <string>
#include <vector>

namespace zp::cli {

// The environment variables that decide whether a window can be seen.
struct DisplayEnvironment {
    bool x11 = false;         // DISPLAY is set
    bool wayland = false;     // WAYLAND_DISPLAY is set
    std::string qt_platform;  // QT_QPA_PLATFORM, "" when unset
    // ZP_FORCE_WINDOW=1: the window starts even offscreen, so tests can run, kill and restart a
    // real window process (tests/ui/tst_keep_work.cpp).
    bool force_window = false;

    static DisplayEnvironment from_process();
};

// Why a window could not be seen ("neither DISPLAY nor WAYLAND_DISPLAY is set",
// "QT_QPA_PLATFORM=offscreen"), or "" when it can. A platform the user forces (wayland, eglfs,
// vnc, ...) is trusted; offscreen and minimal show nothing.
std::string no_display_reason(const DisplayEnvironment& env);

// `zero-planner screenshot` after the command word.
struct ScreenshotRequest {
    Scenario scenario;
    std::string out;              // --out FILE.png
    std::string view = "window";  // --view; ui/export/screenshot.h checks the name
    int width = 1480, height = 920;
    int scale = 1;                   // --scale: device pixels per point (2: as on a 2x screen, width*2 x height*2 pixels)
    std::string lang;                // --lang: a translation's locale name ("en", "zh_CN"); "" the system's (LANG)
    std::string log_text, log_name;  // --log FILE for the calibrate view: its text and file name
    std::vector<PlanPin> pins;       // the --session file's pinned plans (the compare view)
};

// `zero-planner report` after the command word: the plan as one PDF page or Markdown with its
// pictures (docs/design.md §10), drawn offscreen.
struct ReportRequest {
    Scenario scenario;
    std::string out;        // -o FILE
    bool markdown = false;  // --format md; else pdf
};

enum class StartKind {
    Command,     // hand the arguments to run() (cli.h): a headless command, or --help/--version
    Screenshot,  // render `screenshot` offscreen
    Report,      // write `report` offscreen
    Window,      // show the window
    Headless,    // no display: print the window's plan, write its picture and config
    Error,       // print `error` and exit with kExitBadInput
};

struct Start {
    StartKind kind = StartKind::Window;
    std::string error;  // Error: the one line, without the "zero-planner: " prefix

    // Window and Headless. Window: no scenario means the window's own start (the last session,
    // or the default); a session file given alone is opened as the window's file. Headless:
    // always a scenario (the default one when nothing was given).
    std::optional<Scenario> scenario;
    ScenarioNotes notes;
    std::string session_path;
    std::string no_display_reason;  // Headless: why

    ScreenshotRequest screenshot;  // Screenshot
    ReportRequest report;          // Report
};

// `args`: argv without the program name. The rules:
//   - the command comes first; a first word that is neither a command, an option nor a .zplan
//     file is an unknown command (with the nearest command when one is close), and a .zplan
//     file that cannot be read is an error too;
//   - options without a command are parsed and checked like any command's, then describe the
//     scenario the window (or the headless plan) starts with;
//   - --help and --version anywhere print the help and the version.
Start decide_start(const std::vector<std::string>& args, const DisplayEnvironment& env);

// Throws InputError, naming the option.
ScreenshotRequest parse_screenshot(const Args& a);
// --format pdf|md (or the suffix of -o when --format is not given) and -o FILE; throws InputError.
ReportRequest parse_report(const Args& a);

}  // namespace zp::cli
