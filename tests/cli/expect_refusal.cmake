# What every refused invocation must look like (docs/design.md §8.2): nothing on stdout, exactly
# one line on stderr, and that line containing `expected_text` (skipped when it is empty).
# Included by run_cli.cmake, run_start.cmake and run_refused_unchanged.cmake.
function(zp_expect_refusal out err expected_text)
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "bad input must print nothing on stdout, got:\n${out}")
  endif()
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1)
    message(FATAL_ERROR "expected exactly one line on stderr, got ${lines}:\n${err}")
  endif()
  if(NOT expected_text STREQUAL "")
    string(FIND "${err}" "${expected_text}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "stderr does not mention '${expected_text}':\n${err}")
    endif()
  endif()
endfunction()
