// main() of a test folder's executable (tests/test_main.h): `<suite> TEST [Qt Test arguments]` runs
// the test file TEST (its stem: tst_session), `<suite>` alone lists them. CTest names each run
// `<folder>.<stem>` (tests/CMakeLists.txt, zp_test_suite).
#include "test_main.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

namespace zp::test {

namespace {

std::map<std::string, TestMain>& registry() {
    static std::map<std::string, TestMain> tests;  // filled during static initialisation
    return tests;
}

std::string stem_of(const char* path) {
    std::string name = path;
    if (const auto slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.erase(dot);
    return name;
}

void list_tests(std::FILE* out) {
    for (const auto& [name, main] : registry()) std::fprintf(out, "  %s\n", name.c_str());
}

}  // namespace

bool register_test(const char* source_file, TestMain main) {
    const auto [at, added] = registry().emplace(stem_of(source_file), main);
    if (!added) {
        std::fprintf(stderr, "two test files named %s in one executable\n", at->first.c_str());
        std::abort();
    }
    return true;
}

}  // namespace zp::test

int main(int argc, char* argv[]) {
    auto& tests = zp::test::registry();
    if (argc < 2 || std::strcmp(argv[1], "--list") == 0) {
        std::FILE* out = argc < 2 ? stderr : stdout;
        std::fprintf(out, "usage: %s TEST [Qt Test arguments]; the tests here:\n", argv[0]);
        zp::test::list_tests(out);
        return argc < 2 ? 2 : 0;
    }
    const auto test = tests.find(argv[1]);
    if (test == tests.end()) {
        std::fprintf(stderr, "%s: no test named \"%s\"; the tests here:\n", argv[0], argv[1]);
        zp::test::list_tests(stderr);
        return 2;
    }
    // The test sees the executable's name and its own arguments, as it did with its own main().
    argv[1] = argv[0];
    return test->second(argc - 1, argv + 1);
}
