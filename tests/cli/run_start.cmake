cmake_minimum_required(VERSION 3.25)
# Runs `zero-planner ARGS` the way a user starts it, in a scratch folder (the start without a
# display writes zero-planner-output/ there), with the display environment DISPLAY_ENV gives:
#   offscreen   QT_QPA_PLATFORM=offscreen (what CI has), no DISPLAY or WAYLAND_DISPLAY
#   none        none of the three set
# EXPECTED_RC 2: nothing on stdout and exactly one line on stderr, equal to EXPECTED_LINE (or
#   containing EXPECTED_TEXT).
# EXPECTED_RC 0: the headless plan. stderr must be empty (no Qt platform chatter); stdout is
#   FIRST_LINE, then exactly what `zero-planner recommend ARGS` prints for the same options,
#   then the lines naming the two files; ds_config.json is what `export ARGS` prints and
#   window.png is a PNG. A leading SESSION in ARGS is replaced by a .zplan written first with
#   `zero-planner session SESSION_ARGS`; `recommend` then gets --session FILE.
include(${CMAKE_CURRENT_LIST_DIR}/expect_refusal.cmake)
string(REPLACE "|" ";" ARGS "${ARGS}")
string(REPLACE "|" ";" SESSION_ARGS "${SESSION_ARGS}")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
# OUTPUT_IS_A_FILE: zero-planner-output is a file already; CONFIG_IS_A_FOLDER: its ds_config.json is
# a folder (the headless start must then fail and leave no window.png behind).
if(OUTPUT_IS_A_FILE)
  file(WRITE "${WORKDIR}/zero-planner-output" "a file in the way\n")
endif()
if(CONFIG_IS_A_FOLDER)
  file(MAKE_DIRECTORY "${WORKDIR}/zero-planner-output/ds_config.json")
endif()

if(DISPLAY_ENV STREQUAL "offscreen")
  set(env QT_QPA_PLATFORM=offscreen --unset=DISPLAY --unset=WAYLAND_DISPLAY)
elseif(DISPLAY_ENV STREQUAL "none")
  set(env --unset=QT_QPA_PLATFORM --unset=DISPLAY --unset=WAYLAND_DISPLAY)
else()
  message(FATAL_ERROR "DISPLAY_ENV must be offscreen or none, got '${DISPLAY_ENV}'")
endif()

set(same_options ${ARGS})
if(ARGS MATCHES "^SESSION(;|$)")
  execute_process(COMMAND ${EXE} session ${SESSION_ARGS} -o plan.zplan WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "could not write the session: exit ${rc}")
  endif()
  list(POP_FRONT ARGS)
  list(PREPEND ARGS plan.zplan)
  set(same_options ${ARGS})
  list(POP_FRONT same_options)
  list(PREPEND same_options --session plan.zplan)
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${EXE} ${ARGS} WORKING_DIRECTORY ${WORKDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL EXPECTED_RC)
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECTED_RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()

if(EXPECTED_RC EQUAL 2)
  if(OUTPUT_IS_A_FILE)
    file(READ "${WORKDIR}/zero-planner-output" kept)
    if(NOT kept STREQUAL "a file in the way\n")
      message(FATAL_ERROR "the file named zero-planner-output was changed")
    endif()
  elseif(CONFIG_IS_A_FOLDER)
    file(GLOB left RELATIVE "${WORKDIR}/zero-planner-output" "${WORKDIR}/zero-planner-output/*" "${WORKDIR}/zero-planner-output/.*")
    if(NOT left STREQUAL "ds_config.json")
      message(FATAL_ERROR "a failed headless start left files behind: ${left}")
    endif()
  elseif(EXISTS "${WORKDIR}/zero-planner-output")
    message(FATAL_ERROR "bad input started the headless plan anyway")
  endif()
  zp_expect_refusal("${out}" "${err}" "${EXPECTED_TEXT}")
  if(DEFINED EXPECTED_LINE AND NOT err STREQUAL "${EXPECTED_LINE}\n")
    message(FATAL_ERROR "stderr is\n  ${err}expected\n  ${EXPECTED_LINE}")
  endif()
  return()
endif()

if(NOT err STREQUAL "")
  message(FATAL_ERROR "the headless start printed on stderr (Qt platform chatter?):\n${err}")
endif()
execute_process(COMMAND ${EXE} recommend ${same_options} WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE plan)
execute_process(COMMAND ${EXE} export ${same_options} --format deepspeed WORKING_DIRECTORY ${WORKDIR} OUTPUT_VARIABLE config)
set(folder "${WORKDIR}/zero-planner-output")
string(CONCAT expected "${FIRST_LINE}\n" "${plan}" "\nWrote ${folder}/window.png and ${folder}/ds_config.json\n"
       "Run zero-planner under a display (or xvfb-run zero-planner) for the window.\n")
if(NOT out STREQUAL expected)
  file(WRITE "${WORKDIR}/expected.txt" "${expected}")
  file(WRITE "${WORKDIR}/actual.txt" "${out}")
  message(FATAL_ERROR "the headless plan differs from `recommend ${same_options}`: see ${WORKDIR}/expected.txt and actual.txt")
endif()
file(READ "${folder}/ds_config.json" written)
if(NOT written STREQUAL config)
  message(FATAL_ERROR "zero-planner-output/ds_config.json differs from `export ${same_options} --format deepspeed`")
endif()
file(READ "${folder}/window.png" signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "zero-planner-output/window.png is not a PNG (starts with ${signature})")
endif()
