# Compiles one corpus kernel for sm_90a (through ptxas) and checks that the
# output is an ELF file (a cubin). Run as:
#   cmake -DTPX_COMPILE=... -DKERNEL=... -DOUT=... -P compile-cubin.cmake
execute_process(
  COMMAND ${TPX_COMPILE} ${KERNEL} --target sm_90a --no-cache -o ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tpx-compile --target sm_90a failed (${rc}):\n${out}${err}")
endif()
file(READ ${OUT} magic LIMIT 4 HEX)
if(NOT magic STREQUAL "7f454c46")
  message(FATAL_ERROR "${OUT} is not an ELF cubin (starts with ${magic})")
endif()
message("PASS cubin ${KERNEL}")
