//===- RuntimeCalls.cpp - device implementations of the CPU runtime calls -===//
//
// convert-tt-to-cpu lowers tt.print / tt.assert to calls of the CPU runtime:
//   void tpx_cpu_print(ptr prefix, i32 pidX, i32 pidY, i32 pidZ, i64 index,
//                      i32 kind, i64 bits, f64 value)
//   void tpx_cpu_assert_fail(ptr message, i32 pidX, i32 pidY, i32 pidZ,
//                            i64 index)
// Rather than rewriting every call site, this pass turns the declarations
// into internal definitions built on the two device-side facilities the CUDA
// driver provides to PTX:
//   i32 vprintf(ptr format, ptr args)   args: each value at its natural
//                                       alignment, in format order
//   void __assertfail(ptr message, ptr file, i32 line, ptr function,
//                     i64 charSize)     prints and traps the kernel; the
//                                       launch fails with CUDA_ERROR_ASSERT
// Tensor buffers come from device-side malloc (finalize-memref-to-llvm);
// every call goes through `tpx_nv_malloc`, which turns an exhausted device
// heap (malloc returns null) into the same trap with a message naming
// TPX_CUDA_HEAP_MB, instead of an illegal-address fault later.
// The printed line matches the CPU runtime's: `pid (x, y, z) [idx (i) ]
// <prefix><value>`.
//
//===----------------------------------------------------------------------===//
#include "LLVMBuilderUtils.h"

#include "tpx/Target/NVIDIA/NVIDIATarget.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace tpx {
#define GEN_PASS_DEF_TPXNVIDIALOWERRUNTIMECALLS
#include "tpx/Target/NVIDIA/NVIDIAPasses.h.inc"
} // namespace tpx

using namespace mlir;
using namespace tpx::nvidia;

static constexpr const char *kPrintFn = "tpx_cpu_print";
static constexpr const char *kAssertFn = "tpx_cpu_assert_fail";
static constexpr const char *kCheckFn = "tpx_cpu_check_access";

namespace {
/// Print kinds of tpx_cpu_print (DebugPatterns.cpp in TTToCPU).
enum PrintKind : int64_t { Signed = 0, Unsigned = 1, Float = 2, Hex = 3 };

/// Packs `values` into a stack buffer laid out as vprintf expects (an LLVM
/// struct gives each field its natural alignment) and calls vprintf.
void callVprintf(OpBuilder &b, Location loc, ModuleOp module, Value format,
                 ValueRange values, Value bufferSlot) {
  MLIRContext *context = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> fields;
  for (Value v : values)
    fields.push_back(v.getType());
  auto layout = LLVM::LLVMStructType::getLiteral(context, fields);
  for (auto [i, v] : llvm::enumerate(values)) {
    Value field = LLVM::GEPOp::create(
        b, loc, ptr, layout, bufferSlot,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, v, field);
  }
  auto vprintf = getOrDeclareFunction(
      module, "vprintf",
      LLVM::LLVMFunctionType::get(b.getI32Type(), {ptr, ptr}));
  LLVM::CallOp::create(b, loc, vprintf, ValueRange{format, bufferSlot});
}

/// Chooses the format whose value conversion matches `kind`.
Value selectFormat(OpBuilder &b, Location loc, ModuleOp module, Value kind,
                   StringRef head) {
  Type i32 = b.getI32Type();
  auto format = [&](StringRef conversion) {
    return getStringAddress(b, loc, module, "tpx_nv_fmt_",
                            (head + "%s" + conversion + "\n").str());
  };
  Value result = format("%lld");
  std::pair<PrintKind, StringRef> others[] = {
      {Unsigned, "%llu"}, {Float, "%f"}, {Hex, "0x%llx"}};
  for (auto [k, conversion] : others) {
    Value is = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, kind,
                                    constantInt(b, loc, i32, k));
    result = LLVM::SelectOp::create(b, loc, is, format(conversion), result);
  }
  return result;
}

/// Defines tpx_cpu_print (see the file comment).
void definePrint(LLVM::LLVMFuncOp fn, ModuleOp module) {
  OpBuilder b(fn.getContext());
  Location loc = fn.getLoc();
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value prefix = entry->getArgument(0), x = entry->getArgument(1),
        y = entry->getArgument(2), z = entry->getArgument(3),
        index = entry->getArgument(4), kind = entry->getArgument(5),
        bits = entry->getArgument(6), value = entry->getArgument(7);
  // One buffer big enough for either layout: 3 x i32, i64, ptr, i64.
  auto widest = LLVM::LLVMStructType::getLiteral(
      b.getContext(), {i32, i32, i32, i64, ptr, i64});
  Value buffer = LLVM::AllocaOp::create(b, loc, ptr, widest,
                                        constantInt(b, loc, i32, 1));
  // Floats travel as the bits of their f64 value: vprintf reads 8 bytes
  // either way and %f takes a double.
  Value isFloat = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, kind,
                                       constantInt(b, loc, i32, Float));
  Value payload = LLVM::SelectOp::create(
      b, loc, isFloat, LLVM::BitcastOp::create(b, loc, i64, value), bits);

  Block *withIndex = fn.addBlock(), *scalar = fn.addBlock(),
        *done = fn.addBlock();
  Value hasIndex =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, index,
                           constantInt(b, loc, i64, 0));
  LLVM::CondBrOp::create(b, loc, hasIndex, withIndex, scalar);

  b.setInsertionPointToStart(withIndex);
  callVprintf(b, loc, module,
              selectFormat(b, loc, module, kind, "pid (%d, %d, %d) idx (%3lld) "),
              ValueRange{x, y, z, index, prefix, payload}, buffer);
  LLVM::BrOp::create(b, loc, done);

  b.setInsertionPointToStart(scalar);
  callVprintf(b, loc, module,
              selectFormat(b, loc, module, kind, "pid (%d, %d, %d) "),
              ValueRange{x, y, z, prefix, payload}, buffer);
  LLVM::BrOp::create(b, loc, done);

  b.setInsertionPointToStart(done);
  LLVM::ReturnOp::create(b, loc, ValueRange());
}

/// Defines tpx_cpu_assert_fail: report the program and element, then trap
/// through __assertfail so the launch fails instead of continuing.
void defineAssert(LLVM::LLVMFuncOp fn, ModuleOp module) {
  OpBuilder b(fn.getContext());
  Location loc = fn.getLoc();
  Block *entry = fn.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(b.getContext());
  Value message = entry->getArgument(0), x = entry->getArgument(1),
        y = entry->getArgument(2), z = entry->getArgument(3),
        index = entry->getArgument(4);
  auto layout = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                 {i32, i32, i32, i64, ptr});
  Value buffer = LLVM::AllocaOp::create(b, loc, ptr, layout,
                                        constantInt(b, loc, i32, 1));
  Value format = getStringAddress(
      b, loc, module, "tpx_nv_fmt_",
      "device-side assertion failed in program (%d, %d, %d), element %lld: "
      "%s\n");
  callVprintf(b, loc, module, format, ValueRange{x, y, z, index, message},
              buffer);
  auto assertFail = getOrDeclareFunction(
      module, "__assertfail",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(b.getContext()),
                                  {ptr, ptr, i32, ptr, i64}));
  Value file = getStringAddress(b, loc, module, "tpx_nv_str_", "kernel.ttir");
  Value function = getStringAddress(b, loc, module, "tpx_nv_str_", "tt.assert");
  LLVM::CallOp::create(b, loc, assertFail,
                       ValueRange{message, file, constantInt(b, loc, i32, 0),
                                  function, constantInt(b, loc, i64, 1)});
  LLVM::ReturnOp::create(b, loc, ValueRange());
}

/// Defines `tpx_nv_malloc(i64) -> ptr`: malloc, trapping on null.
LLVM::LLVMFuncOp defineCheckedMalloc(ModuleOp module, LLVM::LLVMFuncOp malloc) {
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Location loc = malloc.getLoc();
  MLIRContext *context = b.getContext();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto fn = LLVM::LLVMFuncOp::create(b, loc, "tpx_nv_malloc",
                                     malloc.getFunctionType(),
                                     LLVM::Linkage::Internal);
  Block *entry = fn.addEntryBlock(b);
  Block *fail = fn.addBlock(), *ok = fn.addBlock();
  b.setInsertionPointToStart(entry);
  Value size = entry->getArgument(0);
  Value buffer = LLVM::AllocaOp::create(
      b, loc, ptr, LLVM::LLVMStructType::getLiteral(context, {i64}),
      constantInt(b, loc, i32, 1));
  Value p = LLVM::CallOp::create(b, loc, malloc, ValueRange{size}).getResult();
  Value isNull = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, p,
                                      LLVM::ZeroOp::create(b, loc, ptr));
  Value nonEmpty = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, size,
                                        constantInt(b, loc, i64, 0));
  LLVM::CondBrOp::create(b, loc,
                         LLVM::AndOp::create(b, loc, isNull, nonEmpty), fail,
                         ok);
  b.setInsertionPointToStart(fail);
  Value format = getStringAddress(
      b, loc, module, "tpx_nv_fmt_",
      "device heap exhausted: malloc of %lld bytes for a tensor buffer "
      "failed (raise TPX_CUDA_HEAP_MB)\n");
  callVprintf(b, loc, module, format, ValueRange{size}, buffer);
  auto assertFail = getOrDeclareFunction(
      module, "__assertfail",
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                  {ptr, ptr, i32, ptr, i64}));
  LLVM::CallOp::create(
      b, loc, assertFail,
      ValueRange{getStringAddress(b, loc, module, "tpx_nv_str_",
                                  "device heap exhausted"),
                 getStringAddress(b, loc, module, "tpx_nv_str_", "kernel.ttir"),
                 constantInt(b, loc, i32, 0),
                 getStringAddress(b, loc, module, "tpx_nv_str_", "malloc"),
                 constantInt(b, loc, i64, 1)});
  LLVM::BrOp::create(b, loc, ok);
  b.setInsertionPointToStart(ok);
  LLVM::ReturnOp::create(b, loc, ValueRange{p});
  return fn;
}

/// Sends every call of malloc through tpx_nv_malloc.
void checkMallocs(ModuleOp module) {
  auto malloc = module.lookupSymbol<LLVM::LLVMFuncOp>("malloc");
  if (!malloc || !malloc.isExternal() ||
      module.lookupSymbol("tpx_nv_malloc"))
    return;
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    if (call.getCallee() == StringRef("malloc"))
      calls.push_back(call);
  });
  if (calls.empty())
    return;
  LLVM::LLVMFuncOp checked = defineCheckedMalloc(module, malloc);
  for (LLVM::CallOp call : calls)
    call.setCallee(checked.getName());
}

struct LowerRuntimeCallsPass
    : public tpx::impl::TPXNVIDIALowerRuntimeCallsBase<LowerRuntimeCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (auto check = module.lookupSymbol<LLVM::LLVMFuncOp>(kCheckFn)) {
      check.emitError("bounds checking (convert-tt-to-cpu{bounds-check=true}) "
                      "is a CPU runtime facility and is not available on "
                      "NVIDIA targets");
      return signalPassFailure();
    }
    auto define = [&](StringRef name, unsigned numParams,
                      void (*build)(LLVM::LLVMFuncOp, ModuleOp)) {
      auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!fn || !fn.isExternal())
        return true;
      if (fn.getFunctionType().getNumParams() != numParams) {
        fn.emitError("unexpected signature of runtime function '")
            << name << "' (was convert-tt-to-cpu changed?)";
        return false;
      }
      build(fn, module);
      fn.setLinkage(LLVM::Linkage::Internal);
      return true;
    };
    if (!define(kPrintFn, 8, definePrint) ||
        !define(kAssertFn, 5, defineAssert))
      return signalPassFailure();
    checkMallocs(module);
  }
};
} // namespace
