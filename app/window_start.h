#pragma once
// The window's start, once QApplication exists: hands a session file to a window already open
// (app/single_instance.h), offers back the work a crashed or killed window left (ui/document/autosave.h),
// opens the session or the scenario the command line names, and runs until the window closes.
//
// Test hooks, read from the environment (tests/ui/tst_keep_work.cpp drives a real window process
// with them; each is inert when unset):
//   ZP_FORCE_WINDOW=1        the window starts even with QT_QPA_PLATFORM=offscreen (app/cli/start.h)
//   ZP_RESTORE_AUTOSAVE=restore|discard  answers the restore offer without its dialog
//   ZP_OPTIONS_AS_EDIT=1     the scenario options arrive as one undoable edit (an unsaved edit,
//                            as if made in the controls) instead of an untitled start
//   ZP_PRINT_SESSION=1       prints the session as one JSON line on stdout when the window has
//                            started and after each file another start hands it:
//                            {"event":"start"|"open","modified":bool,"file":"...","session":{...}}
namespace zp::cli {
struct Start;
}

namespace zp::app {

int run_window(const cli::Start& start);

}  // namespace zp::app
