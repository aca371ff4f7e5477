//===- LLVMBuilderUtils.cpp - small LLVM-dialect helpers ------------------===//
#include "LLVMBuilderUtils.h"

using namespace mlir;

LLVM::LLVMFuncOp tpx::nvidia::getOrDeclareFunction(ModuleOp module,
                                                   StringRef name,
                                                   LLVM::LLVMFunctionType type) {
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
}

Value tpx::nvidia::getStringAddress(OpBuilder &b, Location loc,
                                    ModuleOp module, StringRef prefix,
                                    StringRef text) {
  std::string data = text.str();
  data.push_back('\0');
  // Name by content so that equal strings share one global; probe past
  // (unlikely) hash collisions with different contents.
  uint64_t hash = llvm::hash_value(data) & 0xffffffffu;
  std::string name;
  for (;; ++hash) {
    name = (prefix + llvm::Twine(hash)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (value && value.getValue() == data)
      break;
  }
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(data));
  }
  return LLVM::AddressOfOp::create(b, loc,
                                   LLVM::LLVMPointerType::get(b.getContext()),
                                   name);
}

Value tpx::nvidia::constantInt(OpBuilder &b, Location loc, Type type,
                               int64_t value) {
  return LLVM::ConstantOp::create(b, loc, type,
                                  b.getIntegerAttr(type, value));
}
