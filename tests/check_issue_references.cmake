# Comments in the code say what a requirement is, not which issue asked for it: "issue N" means
# nothing to a reader of a clone without the tracker. (Another project's issue cited as a source, "Liger-Kernel
# issue #803", is a citation and stays.) Run as:
#   cmake -DSOURCE_DIR=<checkout> -P check_issue_references.cmake
set(found 0)
foreach(folder core ui app)
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cpp")
  foreach(f ${sources})
    file(STRINGS "${f}" hits REGEX "[Ii]ssues? [0-9]+")
    foreach(line ${hits})
      file(RELATIVE_PATH rel "${SOURCE_DIR}" "${f}")
      string(STRIP "${line}" line)
      message(SEND_ERROR "${rel}: \"${line}\": say what the requirement is instead of its issue number")
      math(EXPR found "${found} + 1")
    endforeach()
  endforeach()
endforeach()
if(found EQUAL 0)
  message(STATUS "no issue numbers in the comments of core/, ui/ and app/")
endif()
