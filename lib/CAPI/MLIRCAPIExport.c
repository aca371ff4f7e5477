/* libtpx-mlir-c.so holds MLIR's IR C API (mlir-c/IR.h), linked in whole from
   Debian's static libMLIRCAPIIR.a; this file only gives the library a
   source. See lib/CMakeLists.txt for why it is a library of its own. */
