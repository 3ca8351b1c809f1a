# Renders every image listed in docs/screenshots.txt from its session (target docs-screenshots).
cmake_minimum_required(VERSION 3.25)
file(STRINGS "${DOCS}/screenshots.txt" lines REGEX "^[^#]")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(GET fields 0 image)
  list(GET fields 1 session)
  list(GET fields 2 view)
  list(GET fields 3 size)
  # An optional fifth field: the run log the calibrate view shows, or the log the diagnose views diagnose.
  set(log_args "")
  list(LENGTH fields field_count)
  if(field_count GREATER 4)
    list(GET fields 4 log)
    set(log_args --log ${DOCS}/${log})
  endif()
  # The window's language from the image's name: NAME-zh_CN.png in Simplified Chinese, every other
  # image in English, whatever the locale of the shell that runs this.
  set(lang C.UTF-8)
  if(image MATCHES "-(zh_CN)\\.png$")
    set(lang ${CMAKE_MATCH_1}.UTF-8)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=LC_ALL --unset=LC_MESSAGES --unset=LANGUAGE LANG=${lang}
                          ${EXE} screenshot --session ${DOCS}/${session} --view ${view} --size ${size} ${log_args} --out ${DOCS}/${image}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rendering ${image} failed: ${err}")
  endif()
  message(STATUS "rendered ${image}")
endforeach()
