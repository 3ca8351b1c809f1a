# zp_project_options: the warnings and Qt definitions every target of the project compiles with, so
# the levels cannot drift per target (qBittorrent's qbt_common_cfg pattern). It carries no code:
# every target links it PRIVATE, so nothing leaks to users of the libraries.
option(ZP_WERROR "Treat compiler warnings as errors (the ci preset turns this on)" OFF)

add_library(zp_project_options INTERFACE)

if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  target_compile_options(zp_project_options INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    $<$<BOOL:${ZP_WERROR}>:-Werror>)
endif()

# Harmless in the Qt-free targets; in the Qt ones they make implicit 8-bit string conversions,
# foreach, narrowing in connect() and API deprecated before Qt 6.4 (Debian 12's Qt) compile errors.
target_compile_definitions(zp_project_options INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_FOREACH
  QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
  QT_NO_URL_CAST_FROM_STRING
  QT_DISABLE_DEPRECATED_BEFORE=0x060400)
