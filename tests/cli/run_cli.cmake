cmake_minimum_required(VERSION 3.25)
# Runs one zero-planner invocation for a CTest case.
#   exit 0 or 1 (lint findings): stdout must equal the GOLDEN file (set ZP_UPDATE_GOLDEN=1 in the environment to rewrite);
#           otherwise a text the single stderr line must contain (error cases).
#   STDERR_NOTE: for exit 0, a text stderr must contain (a note the command prints beside its output);
#           without it stderr must be empty.
#   FROZEN: the GOLDEN file is an oracle recorded from an earlier release (tests/data/sessions) and
#           is never rewritten, ZP_UPDATE_GOLDEN or not; COMPARE (frozen_compare) holds the output
#           against it value by value, with the changes listed in CHANGES for SESSION.
# Data files are given relative to tests/data, so outputs that name them are the same on every clone.
include(${CMAKE_CURRENT_LIST_DIR}/expect_refusal.cmake)
string(REPLACE "@DATA@/" "" ARGS "${ARGS}")
string(REPLACE "@DATA@" "." ARGS "${ARGS}")
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${EXE} ${ARGS} WORKING_DIRECTORY ${DATA} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECTED_RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECTED_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT EXPECTED_RC EQUAL 2)
  if(DEFINED ENV{ZP_UPDATE_GOLDEN} AND NOT FROZEN)
    file(WRITE "${GOLDEN}" "${out}")
  endif()
  if(FROZEN)  # the .actual goes to the build tree: nothing is written beside a frozen oracle
    get_filename_component(golden_name "${GOLDEN}" NAME)
    file(WRITE "${ACTUAL_DIR}/${golden_name}.actual" "${out}")
    execute_process(COMMAND ${COMPARE} ${GOLDEN} ${ACTUAL_DIR}/${golden_name}.actual ${CHANGES} ${SESSION}
                    RESULT_VARIABLE compare_rc ERROR_VARIABLE compare_err)
    if(NOT compare_rc EQUAL 0)
      message(FATAL_ERROR "frozen_oracle_differs: the output differs from ${GOLDEN}, what an earlier release printed: fix the code, "
                          "never this file, or list the change with its issue in ${CHANGES}:\n${compare_err}")
    endif()
    if(NOT err STREQUAL "")
      message(FATAL_ERROR "unexpected stderr: ${err}")
    endif()
    return()
  endif()
  file(READ "${GOLDEN}" expected)
  if(NOT out STREQUAL expected)
    if(FROZEN)  # the .actual goes to the build tree: nothing is written beside a frozen oracle
      get_filename_component(golden_name "${GOLDEN}" NAME)
      file(WRITE "${ACTUAL_DIR}/${golden_name}.actual" "${out}")
      message(FATAL_ERROR "frozen_oracle_differs: stdout differs from ${GOLDEN}, what an earlier release printed: fix the code, never this file "
                          "(actual output in ${ACTUAL_DIR}/${golden_name}.actual)")
    endif()
    file(WRITE "${GOLDEN}.actual" "${out}")
    message(FATAL_ERROR "stdout differs from ${GOLDEN} (actual output in ${GOLDEN}.actual)")
  endif()
  if(DEFINED STDERR_NOTE)
    string(FIND "${err}" "${STDERR_NOTE}" note_at)
    if(note_at EQUAL -1)
      message(FATAL_ERROR "stderr lacks '${STDERR_NOTE}': ${err}")
    endif()
  elseif(NOT err STREQUAL "")
    message(FATAL_ERROR "unexpected stderr: ${err}")
  endif()
else()
  zp_expect_refusal("${out}" "${err}" "${GOLDEN}")
endif()

# An output file that a failed command must not have created.
if(DEFINED ENV{ZP_MUST_NOT_EXIST} AND EXISTS "$ENV{ZP_MUST_NOT_EXIST}")
  message(FATAL_ERROR "a failed command created $ENV{ZP_MUST_NOT_EXIST}")
endif()
