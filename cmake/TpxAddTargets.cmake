# Thin wrappers that keep tpx's build shape in one place.
#
# Every component of the core is an OBJECT library made with
# add_tpx_component(); all of them are linked into the single shared library
# libtpx.so (target `tpx`), which links Debian's libMLIR.so and libLLVM.so and
# nothing static from MLIR or LLVM.

set_property(GLOBAL PROPERTY TPX_COMPONENTS "")

# add_tpx_component(name SRCS... [DEPENDS tablegen-targets...])
function(add_tpx_component name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  add_library(${name} OBJECT ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  target_compile_definitions(${name} PRIVATE TPX_BUILDING_CORE=1)
  set_property(GLOBAL APPEND PROPERTY TPX_COMPONENTS ${name})
endfunction()

# add_tpx_tool(name SRCS...): an executable linked to libtpx.so only.
function(add_tpx_tool name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE tpx)
  set_target_properties(${name} PROPERTIES
    BUILD_RPATH "${CMAKE_BINARY_DIR}/lib;${LLVM_LIBRARY_DIR}"
    INSTALL_RPATH "$ORIGIN/../lib;${LLVM_LIBRARY_DIR}")
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()

# tpx_tablegen_dialect(TdFile prefix): ops, types, attrs, enums and docs.
