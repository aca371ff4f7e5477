# add_tpx_plugin(name [SOURCES] src... [LINK_TPX] [OUTPUT_DIRECTORY dir])
#
# Sources are given after the SOURCES keyword or positionally (both may be
# mixed); at least one is required.
#
# Builds a tpx plugin: a MODULE library named `<name>.so` that links the
# same libMLIR.so as tpx (never a static MLIR); tpx looks up only its entry
# symbol, tpxGetPluginInfo. LINK_TPX also links libtpx.so, for plugins that
# use tpx's own C++ API (the tt dialect classes, ...).
#
# The same function serves the in-tree examples and out-of-tree plugins: the
# tpx build defines TPX_INCLUDE_DIRS and TPX_CORE_TARGET before including
# this file, the installed TpxConfig.cmake does the same for the SDK.
include_guard(GLOBAL)

function(add_tpx_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "LINK_TPX" "OUTPUT_DIRECTORY"
    "SOURCES")
  set(sources ${ARG_SOURCES} ${ARG_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "add_tpx_plugin(${name}): no sources (give them "
      "after SOURCES or directly after the name)")
  endif()
  if("OUTPUT_DIRECTORY" IN_LIST ARG_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "add_tpx_plugin(${name}): OUTPUT_DIRECTORY needs a "
      "directory")
  endif()
  add_library(${name} MODULE ${sources})
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    CXX_STANDARD 17
    CXX_STANDARD_REQUIRED ON
    # C++ symbols keep default visibility: MLIR's TypeIDs of traits and
    # other templates live in inline functions' statics, and a hidden,
    # private copy in the plugin gives its ops trait IDs that libMLIR does
    # not recognise (the verifier did not see a plugin op's Terminator or
    # NoTerminator trait). Plugins are loaded RTLD_LOCAL, so their symbols
    # still cannot clash with another plugin's.
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET default
    BUILD_RPATH "${LLVM_LIBRARY_DIR}"
    INSTALL_RPATH "${LLVM_LIBRARY_DIR}")
  if(ARG_OUTPUT_DIRECTORY)
    set_target_properties(${name} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIRECTORY})
  endif()
  target_include_directories(${name} SYSTEM PRIVATE ${TPX_INCLUDE_DIRS})
  separate_arguments(tpx_llvm_definitions UNIX_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_options(${name} PRIVATE ${tpx_llvm_definitions})
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-fno-rtti>)
  endif()
  target_link_libraries(${name} PRIVATE MLIR)
  if(ARG_LINK_TPX)
    target_link_libraries(${name} PRIVATE ${TPX_CORE_TARGET})
  endif()
endfunction()
