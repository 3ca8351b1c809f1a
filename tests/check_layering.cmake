# The layering (docs/design.md §1), checked: core/ and app/cli/ include no Qt header and nothing
# from ui/ (the include root is the whole tree, so only this test would notice), and ui/ includes
# nothing from app/.
function(zp_forbid dir regex what)
  file(GLOB_RECURSE files "${SOURCE_DIR}/${dir}/*.cpp" "${SOURCE_DIR}/${dir}/*.h")
  foreach(f ${files})
    file(STRINGS "${f}" hits REGEX "${regex}")
    if(hits)
      list(GET hits 0 first)
      message(SEND_ERROR "${f} includes ${what}: ${first}")
    endif()
  endforeach()
endfunction()
zp_forbid(core "^#include +(<Q|<qcustomplot|\"ui/|\"app/)" "Qt, ui/ or app/ (core is Qt-free and knows no front end)")
zp_forbid(app/cli "^#include +(<Q|<qcustomplot|\"ui/)" "Qt or ui/ (the command line builds without Qt)")
zp_forbid(ui "^#include +\"app/" "app/ (the window knows nothing of the executable)")
