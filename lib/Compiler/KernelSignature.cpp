//===- KernelSignature.cpp - the argument ABI of a compiled kernel --------===//
#include "tpx/Compiler/KernelSignature.h"
#include "tpx/Dialect/TT/IR/TTOps.h"

using namespace tpx;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

static std::string typeName(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

static unsigned byteSizeOf(mlir::Type type) {
  if (llvm::isa<tt::PointerType>(type))
    return 8;
  return std::max(1u, (type.getIntOrFloatBitWidth() + 7) / 8);
}


llvm::Expected<KernelSignature> tpx::getKernelSignature(mlir::ModuleOp module) {
  tt::FuncOp kernel;
  for (auto fn : module.getOps<tt::FuncOp>())
    if (fn.isPublic() && !fn.isExternal()) {
      kernel = fn;
      break;
    }
  if (!kernel)
    return makeError("the module has no kernel (a public tt.func with a body)");
  KernelSignature signature;
  signature.kernelName = kernel.getName().str();
  mlir::Block &entry = kernel.getBody().front();
  for (auto [index, type] : llvm::enumerate(kernel.getArgumentTypes())) {
    KernelArgInfo info;
    info.name = "arg" + std::to_string(index);
    if (index < entry.getNumArguments())
      if (auto nameLoc =
              llvm::dyn_cast<mlir::NameLoc>(entry.getArgument(index).getLoc()))
        info.name = nameLoc.getName().str();
    if (auto ptr = llvm::dyn_cast<tt::PointerType>(type)) {
      if (llvm::isa<mlir::RankedTensorType>(ptr.getPointeeType()))
        return makeError("kernel argument '" + info.name +
                         "' is a block pointer, which the host cannot pass");
      info.kind = KernelArgInfo::Kind::Pointer;
      info.type = typeName(ptr.getPointeeType());
      info.byteSize = byteSizeOf(ptr.getPointeeType());
    } else if (type.isIntOrFloat()) {
      info.kind = KernelArgInfo::Kind::Scalar;
      info.type = typeName(type);
      info.byteSize = byteSizeOf(type);
    } else {
      return makeError("kernel argument '" + info.name + "' has type " +
                       typeName(type) + ", which the launcher cannot pass");
    }
    signature.args.push_back(std::move(info));
  }
  return signature;
}

/// How the kernel parameter is passed: "pointer" (a device or host
/// address), "int" (iN, i1 included) or "float" (f16, bf16, f32, f64, f8
/// types), each as a value of `param_bytes` bytes.
static llvm::StringRef getParamKind(const KernelArgInfo &info) {
  if (info.kind == KernelArgInfo::Kind::Pointer)
    return "pointer";
  return llvm::StringRef(info.type).starts_with("i") ? "int" : "float";
}

llvm::json::Value KernelArgInfo::toJSON() const {
  return llvm::json::Object{
      {"kind", kind == Kind::Pointer ? "pointer" : "scalar"},
      {"name", name},
      {"type", type},
      {"bytes", byteSize},
      {"param_kind", getParamKind(*this)},
      {"param_bytes", kind == Kind::Pointer ? 8u : byteSize}};
}

llvm::Expected<KernelArgInfo>
KernelArgInfo::fromJSON(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return makeError("kernel argument metadata is not an object");
  auto kind = object->getString("kind");
  auto name = object->getString("name");
  auto type = object->getString("type");
  auto bytes = object->getInteger("bytes");
  if (!kind || !name || !type || !bytes ||
      (*kind != "pointer" && *kind != "scalar"))
    return makeError("malformed kernel argument metadata");
  KernelArgInfo info;
  info.kind = *kind == "pointer" ? Kind::Pointer : Kind::Scalar;
  info.name = name->str();
  info.type = type->str();
  info.byteSize = static_cast<unsigned>(*bytes);
  return info;
}

llvm::json::Value KernelSignature::toJSON() const {
  llvm::json::Array array;
  for (const KernelArgInfo &arg : args)
    array.push_back(arg.toJSON());
  return llvm::json::Object{{"kernel", kernelName}, {"args", std::move(array)}};
}

llvm::Expected<KernelSignature>
KernelSignature::fromJSON(const llvm::json::Value &value) {
  const llvm::json::Object *object = value.getAsObject();
  if (!object)
    return makeError("kernel signature metadata is not an object");
  auto name = object->getString("kernel");
  const llvm::json::Array *args = object->getArray("args");
  if (!name || !args)
    return makeError("malformed kernel signature metadata");
  KernelSignature signature;
  signature.kernelName = name->str();
  for (const llvm::json::Value &arg : *args) {
    auto info = KernelArgInfo::fromJSON(arg);
    if (!info)
      return info.takeError();
    signature.args.push_back(std::move(*info));
  }
  return signature;
}
