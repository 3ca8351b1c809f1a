# The layering (docs/design.md §1), checked: core/ and app/cli/ include no Qt header and nothing
# from ui/ (the include root is the whole tree, so only this test would notice), and ui/ includes
# nothing from app/. No header includes nlohmann/json.hpp.
cmake_policy(SET CMP0057 NEW)
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

# nlohmann/json.hpp stays out of headers (a header that names the type takes json_fwd.hpp): every
# unit that reached it through one parsed ~73,000 preprocessed lines more than json_fwd.hpp's
# (g++ 12 -E: 133,022 against 59,972), templates it did not use.
foreach(dir core ui app)
  file(GLOB_RECURSE headers "${SOURCE_DIR}/${dir}/*.h")
  foreach(f ${headers})
    file(STRINGS "${f}" hits REGEX "^#include +<nlohmann/json\\.hpp>")
    if(hits)
      message(SEND_ERROR "${f} includes <nlohmann/json.hpp>: include <nlohmann/json_fwd.hpp> here and json.hpp in the .cpp")
    endif()
  endforeach()
endforeach()

# Inside core/, the folders are floors (docs/design.md §1): a file includes its own folder and
# the floors below it, never a floor above and never another folder of its own floor. Ground
# first; folders on one line share a floor and do not know each other.
set(core_floors
  "base"
  "hardware"
  "model"
  "presets"
  "memory"
  "time"
  "search"
  "deepspeed;io"
  "report;validation;calibration;diagnose")
set(floor_of_folder "")
set(level 0)
foreach(floor ${core_floors})
  foreach(folder ${floor})
    set(floor_${folder} ${level})
    list(APPEND known_folders ${folder})
  endforeach()
  math(EXPR level "${level} + 1")
endforeach()
file(GLOB core_dirs LIST_DIRECTORIES true RELATIVE "${SOURCE_DIR}/core" "${SOURCE_DIR}/core/*")
foreach(d ${core_dirs})
  if(IS_DIRECTORY "${SOURCE_DIR}/core/${d}" AND NOT d IN_LIST known_folders)
    message(SEND_ERROR "core/${d}/ is on no floor: add it to core_floors in tests/check_layering.cmake")
  endif()
endforeach()
foreach(folder ${known_folders})
  file(GLOB files "${SOURCE_DIR}/core/${folder}/*.cpp" "${SOURCE_DIR}/core/${folder}/*.h")
  foreach(f ${files})
    file(STRINGS "${f}" includes REGEX "^#include +\"core/[a-z_]+/")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include +\"core/([a-z_]+)/.*" "\\1" target "${line}")
      if(target STREQUAL folder)
        continue()
      endif()
      if(NOT DEFINED floor_${target})
        message(SEND_ERROR "${f} includes core/${target}/, which is on no floor: ${line}")
      elseif(NOT floor_${target} LESS floor_${folder})
        message(SEND_ERROR "${f} (core/${folder}/, floor ${floor_${folder}}) includes core/${target}/ (floor ${floor_${target}}), "
                           "which is not below it: ${line}. Move the code to the floor that owns it.")
      endif()
    endforeach()
  endforeach()
endforeach()
