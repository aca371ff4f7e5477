//===- SIMTConversion.h - the conversion both SIMT passes run ---*- C++ -*-===//
//
// convert-tpxgpu-to-nvvm and convert-tpxgpu-to-rocdl are one dialect
// conversion over one set of patterns; this runs it for either vendor.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_CONVERSION_TPXGPUTOLLVM_SIMTCONVERSION_H
#define TPX_LIB_CONVERSION_TPXGPUTOLLVM_SIMTCONVERSION_H

#include "mlir/IR/BuiltinOps.h"

namespace tpx::gpu_lowering {

enum class GPUVendor { NVIDIA, AMD };

/// Lowers every tt/tpxgpu op and tensor of `module` to LLVM plus NVVM or
/// ROCDL, records the block size (tpxgpu.block-threads) and the shared
/// memory the code reaches (tpxgpu.shared-bytes). The module's
/// tpxgpu.target must already name a GPU of `vendor` (or be absent for
/// NVIDIA). Diagnostics at the ops on failure.
mlir::LogicalResult lowerSIMTModule(mlir::ModuleOp module, GPUVendor vendor);

} // namespace tpx::gpu_lowering

#endif // TPX_LIB_CONVERSION_TPXGPUTOLLVM_SIMTCONVERSION_H
