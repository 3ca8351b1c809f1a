# What makes a clean build fast without changing what it builds (the test command builds four
# trees on two cores):
# - ccache, when it is installed and no launcher was chosen: the ci and core presets compile the
#   Qt-free core, the command line and their tests with the same flags, so the second tree takes
#   them from the cache (scripts/quickstart exports CCACHE_BASEDIR and CCACHE_NOHASHDIR so that
#   two build folders of the same depth hash alike);
# - zp_precompile_qt(target): Qt's and the standard library's headers precompiled once per Qt
#   target instead of parsed in every unit (ZP_PCH, on by default).
# - ZP_UNITY_BUILD: each target's sources compiled a batch of 12 to a unit, so the standard, Qt
#   and JSON headers and their templates are parsed and instantiated once per batch, not per
#   file. A clean ci-preset build, 2 jobs, no ccache: 743 s -> 413 s (core 185 -> 79 CPU-s, the
#   window 247 -> 70, the command line 85 -> 29), with the -O0 test drivers and the core tests'
#   precompiled headers (tests/CMakeLists.txt) beside it. Functions in anonymous namespaces share a
#   batch, so two files cannot each define their own `median`: a helper used twice has one home.
if(ZP_UNITY_BUILD AND NOT DEFINED CMAKE_UNITY_BUILD)
  set(CMAKE_UNITY_BUILD ON)
  set(CMAKE_UNITY_BUILD_BATCH_SIZE 12)
endif()
find_program(ZP_CCACHE_PROGRAM ccache)
if(ZP_CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${ZP_CCACHE_PROGRAM}")
endif()

# The headers nearly every unit of a Qt target reads, with QCustomPlot's (17-20 s per unit that
# reads it, docs/design.md §11), through ui/qcustomplot_include.h, which QCustomPlot needs. The
# project's own headers stay out: a change to one of them must not rebuild the header set.
set(ZP_QT_PCH_HEADERS
  <QtCore/QObject> <QtCore/QString> <QtCore/QStringList> <QtCore/QList> <QtCore/QTimer>
  <QtGui/QPainter> <QtWidgets/QWidget> <QtWidgets/QLabel> <QtWidgets/QLayout> <QtWidgets/QComboBox>
  "${PROJECT_SOURCE_DIR}/ui/qcustomplot_include.h"
  <string> <vector> <memory> <optional> <functional> <algorithm>)

# zp_precompile_qt(target): the header set above for one Qt Widgets target.
function(zp_precompile_qt target)
  if(ZP_PCH)
    target_precompile_headers(${target} PRIVATE ${ZP_QT_PCH_HEADERS})
  endif()
endfunction()

# The headers every Qt-free core test reads: Qt Test (QtCore with it), nlohmann_json and the
# standard library. A core test's own code is a few seconds to compile; these headers were most
# of the rest (tst_session: 19.4 s with g++ -O2, 14.9 s with them precompiled).
set(ZP_CORE_TEST_PCH_HEADERS <QtTest/QtTest> <nlohmann/json.hpp>
  <string> <vector> <memory> <optional> <functional> <algorithm> <map> <set> <cmath> <cstdint>)

# zp_precompile_core_tests(target): the header set above for the core tests' executable.
function(zp_precompile_core_tests target)
  if(ZP_PCH)
    target_precompile_headers(${target} PRIVATE ${ZP_CORE_TEST_PCH_HEADERS})
  endif()
endfunction()
