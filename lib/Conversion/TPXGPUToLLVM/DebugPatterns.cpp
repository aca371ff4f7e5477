//===- DebugPatterns.cpp - tt.print and tt.assert on the SIMT path --------===//
//
// Both go to what the CUDA driver gives PTX:
//   i32 vprintf(ptr format, ptr args)  args: a local buffer holding each
//                                      value at its natural alignment
//   void __assertfail(ptr message, ptr file, i32 line, ptr function,
//                     i64 charSize)    prints and traps the kernel; the
//                                      launch fails with CUDA_ERROR_ASSERT
// Every element is printed (or checked) once, by its unique owner: the
// canonical registers (isCanonicalRegister) of the threads that
// getOwnerPredicate selects; a scalar by thread 0. The lines are those of
// the CPU runtime and of the one-thread NVIDIA path (RuntimeCalls.cpp in
// lib/Target/NVIDIA, same format strings), so output compares across the
// three: `pid (x, y, z) idx (<row-major index>) <prefix><value>` for tensor
// elements, `pid (x, y, z) <prefix><value>` for scalars, one line per
// element of each operand in turn. Only the order of the lines differs:
// threads print concurrently.
//
// On AMD both go to the ROCm device library's printf over the HIP runtime's
// hostcall buffer (ockl):
//   i64 __ockl_printf_begin(i64 version)
//   i64 __ockl_printf_append_string_n(i64 desc, ptr s, i64 len, i32 last)
//   i64 __ockl_printf_append_args(i64 desc, i32 n, i64 x 7, i32 last)
// one call for the format, then the arguments in order: numbers as 64-bit
// words (floats as the bits of a double), strings (%s) by their contents,
// since the host cannot read device pointers. A failed assert prints its
// line and traps (s_trap), which fails the launch.
//
// The pass creates the declarations and strings before the conversion
// (declareDebugSymbols), since patterns add no module-level ops; the
// patterns look the strings up by content.
//
//===----------------------------------------------------------------------===//
#include "LoweringUtils.h"
#include "ROCDLPrimitives.h"

#include "tpx/Dialect/TPXGPU/IR/TPXGPUAttrs.h"

#include "tpx/Dialect/TT/IR/TTOps.h"
#include "tpx/Dialect/TT/IR/TTTypes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tpx;
using namespace tpx::gpu_lowering;

namespace {

constexpr llvm::StringLiteral kVprintf = "vprintf";
constexpr llvm::StringLiteral kOcklPrintfBegin = "__ockl_printf_begin";
constexpr llvm::StringLiteral kOcklAppendString =
    "__ockl_printf_append_string_n";
constexpr llvm::StringLiteral kOcklAppendArgs = "__ockl_printf_append_args";
/// Arguments __ockl_printf_append_args takes at a time.
constexpr unsigned kOcklArgsPerCall = 7;
constexpr llvm::StringLiteral kAssertFail = "__assertfail";
constexpr llvm::StringLiteral kStringPrefix = "tpx_simt_str_";
// What __assertfail reports as the place of the failure (as the one-thread
// path does: TTIR carries no source file the driver could show).
constexpr llvm::StringLiteral kAssertFile = "kernel.ttir";
constexpr llvm::StringLiteral kAssertFunction = "tt.assert";
constexpr llvm::StringLiteral kAssertFormat =
    "device-side assertion failed in program (%d, %d, %d), element %lld: "
    "%s\n";

/// How a value is printed; the conversions are those of the CPU runtime.
enum class PrintKind { Signed, Unsigned, Float, Hex };

StringRef getConversion(PrintKind kind) {
  switch (kind) {
  case PrintKind::Signed:
    return "%lld";
  case PrintKind::Unsigned:
    return "%llu";
  case PrintKind::Float:
    return "%f";
  case PrintKind::Hex:
    return "0x%llx";
  }
  llvm_unreachable("unknown print kind");
}

/// The format of one line: a tensor element carries its index.
std::string getPrintFormat(PrintKind kind, bool withIndex) {
  std::string format = "pid (%d, %d, %d) ";
  if (withIndex)
    format += "idx (%3lld) ";
  return format + "%s" + getConversion(kind).str() + "\n";
}

/// Floats wider than 8 bits print as numbers unless `hex`; everything
/// else (fp8 included) as the integer of its bits.
PrintKind getPrintKind(tt::PrintOp op, unsigned operand) {
  Type element = getElementTypeOrSelf(op.getArgs()[operand].getType());
  if (auto floatType = dyn_cast<FloatType>(element);
      floatType && floatType.getWidth() > 8 && !op.getHex())
    return PrintKind::Float;
  if (op.getHex())
    return PrintKind::Hex;
  return op.getIsSigned()[operand] != 0 ? PrintKind::Signed
                                        : PrintKind::Unsigned;
}

/// Every string `op` (a tt.print or tt.assert) refers to.
SmallVector<std::string> getStrings(Operation *op) {
  SmallVector<std::string> strings;
  if (auto print = dyn_cast<tt::PrintOp>(op)) {
    strings.push_back(print.getPrefix().str());
    if (print.getArgs().empty())
      strings.push_back(getPrintFormat(PrintKind::Signed, false));
    for (auto [i, arg] : llvm::enumerate(print.getArgs()))
      strings.push_back(getPrintFormat(getPrintKind(print, i),
                                       isa<RankedTensorType>(arg.getType())));
  } else if (auto assertOp = dyn_cast<tt::AssertOp>(op)) {
    strings.push_back(assertOp.getMessage().str());
    strings.push_back(kAssertFormat.str());
    strings.push_back(kAssertFile.str());
    strings.push_back(kAssertFunction.str());
  }
  return strings;
}

/// The global holding `text` NUL-terminated: named by a hash of the
/// contents, probing past other globals of that name. Created by `create`
/// when given; null when missing otherwise.
LLVM::GlobalOp findString(ModuleOp module, StringRef text,
                          OpBuilder *create = nullptr) {
  std::string data = text.str();
  data.push_back('\0');
  for (uint64_t hash = llvm::hash_value(data) & 0xffffffffu;; ++hash) {
    std::string name = (kStringPrefix + llvm::Twine(hash)).str();
    Operation *existing = module.lookupSymbol(name);
    if (auto global = dyn_cast_or_null<LLVM::GlobalOp>(existing)) {
      auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
      if (value && value.getValue() == data)
        return global;
      continue;
    }
    if (existing)
      continue;
    if (!create)
      return nullptr;
    auto type = LLVM::LLVMArrayType::get(create->getI8Type(), data.size());
    return LLVM::GlobalOp::create(*create, module.getLoc(), type,
                                  /*isConstant=*/true, LLVM::Linkage::Internal,
                                  name, create->getStringAttr(data));
  }
}

/// The address of the string `text` created by declareDebugSymbols.
Value getStringAddress(OpBuilder &b, Location loc, Operation *user,
                       StringRef text) {
  auto module = user->getParentOfType<ModuleOp>();
  LLVM::GlobalOp global = findString(module, text);
  if (!global) {
    user->emitError("internal error: string \"")
        << text << "\" was not created before the conversion";
    return nullptr;
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

LLVM::LLVMFunctionType getVprintfType(MLIRContext *context) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMFunctionType::get(IntegerType::get(context, 32), {ptr, ptr});
}

LLVM::LLVMFunctionType getAssertFailType(MLIRContext *context) {
  auto ptr = LLVM::LLVMPointerType::get(context);
  return LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                     {ptr, ptr, IntegerType::get(context, 32),
                                      ptr, IntegerType::get(context, 64)});
}

/// Declares `name` with `type` unless the module has it; fails when the
/// module uses the name for something else.
LogicalResult declareFunction(ModuleOp module, OpBuilder &b, StringRef name,
                              LLVM::LLVMFunctionType type) {
  Operation *existing = module.lookupSymbol(name);
  if (!existing) {
    LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
    return success();
  }
  auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
  if (fn && fn.getFunctionType() == type)
    return success();
  return existing->emitError("symbol '")
         << name << "' is reserved for the GPU device runtime (" << type << ")";
}

LLVM::LLVMFunctionType getOcklBeginType(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64);
  return LLVM::LLVMFunctionType::get(i64, {i64});
}

LLVM::LLVMFunctionType getOcklAppendStringType(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64), i32 = IntegerType::get(context, 32);
  return LLVM::LLVMFunctionType::get(
      i64, {i64, LLVM::LLVMPointerType::get(context), i64, i32});
}

LLVM::LLVMFunctionType getOcklAppendArgsType(MLIRContext *context) {
  Type i64 = IntegerType::get(context, 64), i32 = IntegerType::get(context, 32);
  SmallVector<Type> params = {i64, i32};
  params.append(kOcklArgsPerCall, i64);
  params.push_back(i32);
  return LLVM::LLVMFunctionType::get(i64, params);
}

/// The pid of this program along x, y and z.
SmallVector<Value> getProgramIds(OpBuilder &b, Location loc) {
  if (targetsAMD(b))
    return {rocdl::getBlockId(b, loc, 0), rocdl::getBlockId(b, loc, 1),
            rocdl::getBlockId(b, loc, 2)};
  Type i32 = b.getI32Type();
  return {NVVM::BlockIdXOp::create(b, loc, i32),
          NVVM::BlockIdYOp::create(b, loc, i32),
          NVVM::BlockIdZOp::create(b, loc, i32)};
}

/// A local buffer for vprintf's arguments, allocated once in the entry
/// block of the function (an alloca in a loop would grow the stack every
/// iteration); 40 bytes hold every line's arguments.
Value allocateArgumentBuffer(OpBuilder &b, Operation *user) {
  if (targetsAMD(b)) // ockl's printf takes its arguments by value
    return LLVM::ZeroOp::create(b, user->getLoc(),
                                LLVM::LLVMPointerType::get(b.getContext()));
  Operation *fn = user->getParentOfType<LLVM::LLVMFuncOp>();
  if (!fn)
    fn = user->getParentOfType<FunctionOpInterface>();
  if (!fn || fn->getNumRegions() == 0 || fn->getRegion(0).empty()) {
    user->emitError("cannot find the function to allocate vprintf's "
                    "argument buffer in");
    return nullptr;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&fn->getRegion(0).front());
  MLIRContext *context = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto widest =
      LLVM::LLVMStructType::getLiteral(context, {i32, i32, i32, i64, ptr, i64});
  return LLVM::AllocaOp::create(b, user->getLoc(), ptr, widest,
                                i32Constant(b, user->getLoc(), 1),
                                /*alignment=*/8);
}

/// The byte length (NUL included) of the string global `address` points
/// at (an llvm.mlir.addressof of one findString made).
static int64_t getStringLength(Value address) {
  auto addressOf = address.getDefiningOp<LLVM::AddressOfOp>();
  auto module = addressOf->getParentOfType<ModuleOp>();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(addressOf.getGlobalName());
  return cast<LLVM::LLVMArrayType>(global.getType()).getNumElements();
}

/// printf(format, values...) through ockl: pointers are strings (%s) and
/// go by their contents, everything else as 64-bit words.
static void callOcklPrintf(OpBuilder &b, Location loc, Value format,
                           ValueRange values) {
  MLIRContext *context = b.getContext();
  Type i64 = b.getI64Type();
  auto call = [&](StringRef callee, LLVM::LLVMFunctionType type,
                  ValueRange args) {
    return LLVM::CallOp::create(b, loc, type,
                                SymbolRefAttr::get(context, callee), args)
        .getResult();
  };
  auto appendString = [&](Value desc, Value string, bool last) {
    return call(kOcklAppendString, getOcklAppendStringType(context),
                {desc, string, i64Constant(b, loc, getStringLength(string)),
                 i32Constant(b, loc, last)});
  };
  Value desc = call(kOcklPrintfBegin, getOcklBeginType(context),
                    {i64Constant(b, loc, 0)});
  desc = appendString(desc, format, values.empty());
  SmallVector<Value> words;
  auto flush = [&](bool last) {
    SmallVector<Value> args = {desc, i32Constant(b, loc, words.size())};
    args.append(words);
    while (args.size() < 2 + kOcklArgsPerCall)
      args.push_back(i64Constant(b, loc, 0));
    args.push_back(i32Constant(b, loc, last));
    desc = call(kOcklAppendArgs, getOcklAppendArgsType(context), args);
    words.clear();
  };
  for (auto [i, value] : llvm::enumerate(values)) {
    bool last = i + 1 == values.size();
    if (isa<LLVM::LLVMPointerType>(value.getType())) {
      if (!words.empty())
        flush(/*last=*/false);
      desc = appendString(desc, value, last);
      continue;
    }
    Type type = value.getType();
    if (type.isF64())
      value = LLVM::BitcastOp::create(b, loc, i64, value);
    else if (type.getIntOrFloatBitWidth() < 64)
      value = LLVM::SExtOp::create(b, loc, i64, value);
    words.push_back(value);
    if (words.size() == kOcklArgsPerCall || last)
      flush(last);
  }
}

/// vprintf(format, buffer holding `values`); on AMD ockl's printf.
void callVprintf(OpBuilder &b, Location loc, Value format, ValueRange values,
                 Value buffer) {
  if (targetsAMD(b))
    return callOcklPrintf(b, loc, format, values);
  MLIRContext *context = b.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> fields;
  for (Value v : values)
    fields.push_back(v.getType());
  // An LLVM struct places each field at its natural alignment, as the
  // CUDA ABI of vprintf's argument buffer wants.
  auto layout = LLVM::LLVMStructType::getLiteral(context, fields);
  for (auto [i, v] : llvm::enumerate(values)) {
    Value field =
        LLVM::GEPOp::create(b, loc, ptr, layout, buffer,
                            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(b, loc, v, field);
  }
  LLVM::CallOp::create(b, loc, getVprintfType(context),
                       SymbolRefAttr::get(context, kVprintf),
                       ValueRange{format, buffer});
}

/// The value vprintf gets for a register: f64 for Float, otherwise the
/// bits as i64 (sign-extended for Signed, zero-extended otherwise).
Value toPrintValue(OpBuilder &b, Location loc, Value value, PrintKind kind) {
  Type i64 = b.getI64Type(), f64 = b.getF64Type();
  Type type = value.getType();
  if (kind == PrintKind::Float)
    return type == f64 ? value : LLVM::FPExtOp::create(b, loc, f64, value);
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::PtrToIntOp::create(b, loc, i64, value);
  if (isa<FloatType>(type))
    value = LLVM::BitcastOp::create(
        b, loc, b.getIntegerType(type.getIntOrFloatBitWidth()), value);
  if (value.getType().getIntOrFloatBitWidth() >= 64)
    return value;
  if (kind == PrintKind::Signed)
    return LLVM::SExtOp::create(b, loc, i64, value);
  return LLVM::ZExtOp::create(b, loc, i64, value);
}

/// Runs `body` where `predicate` holds (everywhere when it is null).
void emitPredicated(OpBuilder &b, Location loc, Value predicate,
                    function_ref<void(OpBuilder &)> body) {
  if (!predicate) {
    body(b);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, predicate, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  body(b);
}

/// The layout of a tensor-typed value, none for scalars; false on error.
bool getOptionalLayout(Operation *op, Type type,
                       std::optional<LinearLayout> &layout) {
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    layout = getLayout(op, tensor);
    return layout.has_value();
  }
  return true;
}

/// For each element `value` owns in this thread: its registers' values and
/// coordinates (empty for a scalar), inside the owner's predicate.
void forEachOwnedElement(
    OpBuilder &b, Location loc, Operation *op, Value lowered,
    const std::optional<LinearLayout> &layout,
    function_ref<void(OpBuilder &, Value, ArrayRef<Value>)> body) {
  SmallVector<Value> registers = unpack(b, loc, lowered);
  Value owner = getOwnerPredicate(b, loc, op, layout);
  emitPredicated(b, loc, owner, [&](OpBuilder &inner) {
    if (!layout) {
      body(inner, registers.front(), {});
      return;
    }
    SmallVector<Value> thread =
        getThreadCoordinate(inner, loc, *layout, getThreadIds(inner, loc));
    for (auto [r, value] : llvm::enumerate(registers)) {
      if (!isCanonicalRegister(*layout, r))
        continue;
      body(inner, value, getElementCoordinate(inner, loc, *layout, r, thread));
    }
  });
}

struct PrintLowering : public OpConversionPattern<tt::PrintOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value buffer = allocateArgumentBuffer(rewriter, op);
    Value prefix = getStringAddress(rewriter, loc, op, op.getPrefix());
    if (!buffer || !prefix)
      return failure();
    SmallVector<Value> pid = getProgramIds(rewriter, loc);
    if (op.getArgs().empty()) {
      // As the CPU runtime prints a print without values: a 0 after the
      // prefix, once per program.
      Value format = getStringAddress(rewriter, loc, op,
                                      getPrintFormat(PrintKind::Signed, false));
      if (!format)
        return failure();
      emitPredicated(rewriter, loc,
                     getOwnerPredicate(rewriter, loc, op, std::nullopt),
                     [&](OpBuilder &b) {
                       callVprintf(b, loc, format,
                                   {pid[0], pid[1], pid[2], prefix,
                                    i64Constant(b, loc, 0)},
                                   buffer);
                     });
    }
    for (auto [i, arg] : llvm::enumerate(adaptor.getArgs())) {
      Type type = op.getArgs()[i].getType();
      std::optional<LinearLayout> layout;
      if (!getOptionalLayout(op, type, layout))
        return failure();
      PrintKind kind = getPrintKind(op, i);
      Value format = getStringAddress(rewriter, loc, op,
                                      getPrintFormat(kind, layout.has_value()));
      if (!format)
        return failure();
      ArrayRef<int64_t> shape;
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        shape = tensor.getShape();
      forEachOwnedElement(
          rewriter, loc, op, arg, layout,
          [&](OpBuilder &b, Value value, ArrayRef<Value> coordinate) {
            SmallVector<Value> values(pid);
            if (!coordinate.empty())
              values.push_back(
                  LLVM::ZExtOp::create(b, loc, b.getI64Type(),
                                       linearize(b, loc, coordinate, shape)));
            values.push_back(prefix);
            values.push_back(toPrintValue(b, loc, value, kind));
            callVprintf(b, loc, format, values, buffer);
          });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each owned element that is false reports itself (program, element
/// index along the last dimension as the CPU lowering numbers it, message)
/// and calls __assertfail, which traps: the launch fails.
struct AssertLowering : public OpConversionPattern<tt::AssertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tt::AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *context = getContext();
    Type type = op.getCondition().getType();
    std::optional<LinearLayout> layout;
    if (!getOptionalLayout(op, type, layout))
      return failure();
    Value buffer = allocateArgumentBuffer(rewriter, op);
    Value message = getStringAddress(rewriter, loc, op, op.getMessage());
    Value format = getStringAddress(rewriter, loc, op, kAssertFormat);
    Value file = getStringAddress(rewriter, loc, op, kAssertFile);
    Value function = getStringAddress(rewriter, loc, op, kAssertFunction);
    if (!buffer || !message || !format || !file || !function)
      return failure();
    SmallVector<Value> pid = getProgramIds(rewriter, loc);
    forEachOwnedElement(
        rewriter, loc, op, adaptor.getCondition(), layout,
        [&](OpBuilder &b, Value ok, ArrayRef<Value> coordinate) {
          Value failed = LLVM::XOrOp::create(
              b, loc, ok,
              LLVM::ConstantOp::create(b, loc, b.getI1Type(),
                                       b.getBoolAttr(true)));
          Value index = coordinate.empty()
                            ? i64Constant(b, loc, -1)
                            : LLVM::ZExtOp::create(b, loc, b.getI64Type(),
                                                   coordinate.back())
                                  .getResult();
          emitPredicated(b, loc, failed, [&](OpBuilder &fb) {
            callVprintf(fb, loc, format,
                        {pid[0], pid[1], pid[2], index, message}, buffer);
            if (targetsAMD(fb)) {
              LLVM::Trap::create(fb, loc);
              return;
            }
            LLVM::CallOp::create(fb, loc, getAssertFailType(context),
                                 SymbolRefAttr::get(context, kAssertFail),
                                 ValueRange{message, file,
                                            i32Constant(fb, loc, 0), function,
                                            i64Constant(fb, loc, 1)});
          });
        });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

LogicalResult gpu_lowering::declareDebugSymbols(ModuleOp module) {
  bool prints = false, asserts = false;
  SmallVector<std::string> strings;
  module.walk([&](Operation *op) {
    if (!isa<tt::PrintOp, tt::AssertOp>(op))
      return;
    (isa<tt::PrintOp>(op) ? prints : asserts) = true;
    strings.append(getStrings(op));
  });
  if (!prints && !asserts)
    return success();
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  MLIRContext *context = module.getContext();
  if (tpxgpu::isAMDModule(module)) {
    if (failed(declareFunction(module, b, kOcklPrintfBegin,
                               getOcklBeginType(context))) ||
        failed(declareFunction(module, b, kOcklAppendString,
                               getOcklAppendStringType(context))) ||
        failed(declareFunction(module, b, kOcklAppendArgs,
                               getOcklAppendArgsType(context))))
      return failure();
    for (const std::string &text : strings)
      findString(module, text, &b);
    return success();
  }
  if (failed(declareFunction(module, b, kVprintf, getVprintfType(context))) ||
      (asserts && failed(declareFunction(module, b, kAssertFail,
                                         getAssertFailType(context)))))
    return failure();
  for (const std::string &text : strings)
    findString(module, text, &b);
  return success();
}

void gpu_lowering::populateDebugPatterns(TensorTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<PrintLowering, AssertLowering>(converter, patterns.getContext());
}
