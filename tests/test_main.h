#pragma once
// One executable per test folder (tests/CMakeLists.txt, zp_test_suite): each test file registers
// its Qt Test class under its file's name instead of defining main(), and tests/test_runner.cpp's
// main() runs the one its first argument names (`core_tests tst_session -v2`), so CTest keeps one
// test per file while a clean build compiles the files in a few units and links one executable per
// folder instead of 65 (the precompiled headers loaded once a unit, not once a file).
//
// ZP_TEST_APPLESS_MAIN / ZP_TEST_MAIN stand where QTEST_APPLESS_MAIN / QTEST_MAIN stood and do what
// Qt's do (qtest.h, QTEST_MAIN_WRAPPER): the class's static initMain() first, then the application
// object (QApplication with Qt::AA_Use96Dpi for ZP_TEST_MAIN), the test object, QFINDTESTDATA's
// source path and QTest::qExec.
#include <QtTest/QtTest>

namespace zp::test {

using TestMain = int (*)(int argc, char** argv);

// Adds `main` under the stem of `source_file` (the test's __FILE__); returns true so that a
// namespace-scope constant can call it. Two files with one stem are a build error at start-up.
bool register_test(const char* source_file, TestMain main);

}  // namespace zp::test

#define ZP_TEST_MAIN_WRAPPER(TestObject, ...)                                                                        \
    namespace {                                                                                                      \
    int zp_run_##TestObject(int argc, char* argv[]) {                                                                \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                           \
        __VA_ARGS__                                                                                                  \
        TestObject tc;                                                                                               \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                   \
        return QTest::qExec(&tc, argc, argv);                                                                        \
    }                                                                                                                \
    [[maybe_unused]] const bool zp_registered_##TestObject = zp::test::register_test(__FILE__, zp_run_##TestObject); \
    }

#define ZP_TEST_APPLESS_MAIN(TestObject) ZP_TEST_MAIN_WRAPPER(TestObject)

// As QTEST_MAIN: the application object of the widest Qt module the executable links.
#if defined(QT_WIDGETS_LIB)
#include <QApplication>
#define ZP_TEST_APPLICATION QApplication
#elif defined(QT_GUI_LIB)
#include <QGuiApplication>
#define ZP_TEST_APPLICATION QGuiApplication
#else
#define ZP_TEST_APPLICATION QCoreApplication
#endif
#define ZP_TEST_MAIN(TestObject) \
    ZP_TEST_MAIN_WRAPPER(TestObject, ZP_TEST_APPLICATION app(argc, argv); app.setAttribute(Qt::AA_Use96Dpi, true);)
