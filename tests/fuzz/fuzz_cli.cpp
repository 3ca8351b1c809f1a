// libFuzzer: the command-line parser, the commands and the start decision. The input is split
// into arguments at newlines. Options that write files (-o) are dropped so the fuzzer cannot
// write anywhere.
#include "app/cli/cli.h"
#include "app/cli/start.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
        const char c = static_cast<char>(data[i]);
        if (c == '\n') {
            args.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    args.push_back(current);
    std::vector<std::string> safe;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "-o" || args[i].rfind("-o", 0) == 0) {
            ++i;  // skip the file name too
            continue;
        }
        safe.push_back(args[i]);
    }
    std::ostringstream out, err;
    const int rc = zp::cli::run(safe, out, err);
    if (rc != 0 && rc != 1 && rc != 2) std::abort();
    if (rc == 2 && !out.str().empty()) std::abort();  // bad input prints nothing on stdout
    // What a start without a command decides: reads the files the options name, writes nothing.
    const zp::cli::Start start = zp::cli::decide_start(safe, {false, false, "offscreen"});
    if (start.kind == zp::cli::StartKind::Error && start.error.empty()) std::abort();
    if (start.kind == zp::cli::StartKind::Headless && !start.scenario) std::abort();
    return 0;
}
