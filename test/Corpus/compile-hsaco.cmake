# Compiles one corpus kernel for gfx950 to an hsaco and checks that
# llvm-objdump disassembles it: the kernel's symbol (the metadata's
# entry_point) is there, and its code ends in s_endpgm. Run as:
#   cmake -DTPX_COMPILE=... -DLLVM_OBJDUMP=... -DKERNEL=... -DOUT=...
#         -P compile-hsaco.cmake
execute_process(
  COMMAND ${TPX_COMPILE} ${KERNEL} --target gfx950 --no-cache -o ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tpx-compile --target gfx950 failed (${rc}):\n${out}${err}")
endif()
if(NOT EXISTS ${OUT}.json)
  message(FATAL_ERROR "tpx-compile wrote no metadata ${OUT}.json")
endif()
file(READ ${OUT}.json meta)
string(JSON entry ERROR_VARIABLE json_err GET "${meta}" entry_point)
if(json_err OR entry STREQUAL "")
  message(FATAL_ERROR "${OUT}.json has no entry_point: ${json_err}")
endif()
execute_process(
  COMMAND ${LLVM_OBJDUMP} -d --mcpu=gfx950 ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE dis ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "llvm-objdump -d --mcpu=gfx950 ${OUT} failed (${rc}):\n${err}")
endif()
if(NOT dis MATCHES "file format elf64-amdgpu")
  message(FATAL_ERROR "${OUT} is not an AMDGPU ELF file:\n${dis}${err}")
endif()
# The disassembler's "<unknown>" would mean bytes it could not decode.
if(dis MATCHES "<unknown>")
  message(FATAL_ERROR "llvm-objdump could not decode all of ${OUT}:\n${dis}")
endif()
string(FIND "${dis}" "<${entry}>:" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the disassembly of ${OUT} has no symbol <${entry}>:\n${dis}")
endif()
string(SUBSTRING "${dis}" ${at} -1 body)
if(NOT body MATCHES "s_endpgm")
  message(FATAL_ERROR "the disassembly of <${entry}> in ${OUT} has no s_endpgm:\n${body}")
endif()
message("PASS hsaco ${KERNEL} (${entry})")
