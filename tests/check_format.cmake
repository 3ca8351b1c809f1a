# Fails, naming the files, when a C++ source under the project's code folders differs from what
# clang-format (.clang-format) makes of it. Reads only; fixes nothing.
set(files)
foreach(dir app core ui tests benchmarks)
  file(GLOB_RECURSE found "${SOURCE_DIR}/${dir}/*.cpp" "${SOURCE_DIR}/${dir}/*.h")
  list(APPEND files ${found})
endforeach()
# Frozen copies of 0.1.0's code stay as 0.1.0 wrote them (tests/data/sessions/README.md).
list(FILTER files EXCLUDE REGEX "/tests/data/")
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${files} RESULT_VARIABLE rc ERROR_VARIABLE diagnostics)
if(NOT rc EQUAL 0)
  string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: error: code should be clang-formatted" lines "${diagnostics}")
  set(offending)
  foreach(line ${lines})
    string(REGEX REPLACE ":[0-9]+:[0-9]+: error: .*" "" file "${line}")
    list(APPEND offending "${file}")
  endforeach()
  list(REMOVE_DUPLICATES offending)
  string(REPLACE ";" "\n" offending "${offending}")
  message(FATAL_ERROR "not formatted as .clang-format says:\n${offending}\n"
                      "fix: git ls-files '*.cpp' '*.h' | grep -v ^tests/data/ | xargs clang-format-14 -i")
endif()
list(LENGTH files n)
message(STATUS "${n} files formatted")
