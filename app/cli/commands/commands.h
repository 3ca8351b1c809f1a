#pragma once
// The handlers of the headless commands, one file each beside this one; cli.cpp's command table
// names them. Each writes its result to `out` (run() passes a buffer, so a failure never leaves
// half a document), warnings and nothing else to `err`, returns the exit code (cli.h) and throws
// InputError on bad input.
#include "app/cli/args.h"
#include "app/cli/cli.h"

#include <iosfwd>

namespace zp::cli {

int cmd_estimate(const Args& a, std::ostream& out, std::ostream& err);
int cmd_compare(const Args& a, std::ostream& out, std::ostream& err);
int cmd_recommend(const Args& a, std::ostream& out, std::ostream& err);
int cmd_ds_estimate(const Args& a, std::ostream& out, std::ostream& err);
int cmd_export(const Args& a, std::ostream& out, std::ostream& err);
int cmd_session(const Args& a, std::ostream& out, std::ostream& err);
int cmd_lint(const Args& a, std::ostream& out, std::ostream& err);
int cmd_validate(const Args& a, std::ostream& out, std::ostream& err);
int cmd_calibrate(const Args& a, std::ostream& out, std::ostream& err);
int cmd_diagnose(const Args& a, std::ostream& out, std::ostream& err);
int cmd_presets(const Args& a, std::ostream& out, std::ostream& err);

}  // namespace zp::cli
