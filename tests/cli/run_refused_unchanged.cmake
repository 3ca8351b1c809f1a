cmake_minimum_required(VERSION 3.25)
# A session zero-planner refuses (here: a newer format version) stays byte-identical even when the
# command would write back to it: runs `zero-planner ARGS` on a copy of SOURCE (COPY in ARGS
# stands for the copy's path), then checks exit 2, one line on stderr containing EXPECT, nothing on
# stdout, and the copy equal to SOURCE byte for byte.
include(${CMAKE_CURRENT_LIST_DIR}/expect_refusal.cmake)
get_filename_component(name "${SOURCE}" NAME)
set(copy "${WORK}/${name}")
file(MAKE_DIRECTORY "${WORK}")
file(COPY_FILE "${SOURCE}" "${copy}")
string(REPLACE "COPY" "${copy}" ARGS "${ARGS}")
string(REPLACE "|" ";" ARGS "${ARGS}")
execute_process(COMMAND ${EXE} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "exit code ${rc}, expected 2\nstdout:\n${out}\nstderr:\n${err}")
endif()
zp_expect_refusal("${out}" "${err}" "${EXPECT}")
file(SHA256 "${SOURCE}" before)
file(SHA256 "${copy}" after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "${copy} was changed by a command that refused it")
endif()
