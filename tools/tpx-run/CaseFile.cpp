//===- CaseFile.cpp - a corpus case: case.json and its buffers ------------===//
#include "CaseFile.h"
#include "JSONChecks.h"

#include "../common/ToolOptions.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace tpx;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

unsigned tpx::getDTypeSize(llvm::StringRef dtype) {
  return llvm::StringSwitch<unsigned>(dtype)
      .Cases({"f64", "i64", "u64"}, 8)
      .Cases({"f32", "i32", "u32"}, 4)
      .Cases({"f16", "bf16", "i16", "u16"}, 2)
      .Cases({"i8", "u8", "i1", "bool"}, 1)
      .Cases({"f8e4m3fn", "f8e5m2", "fp8e4nv", "fp8e5"}, 1)
      .Default(0);
}

std::string CaseFile::pathOf(llvm::StringRef relative) const {
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, relative);
  return std::string(path);
}

namespace {
/// The keys each object of case.json may have. Unknown keys are errors: a
/// misspelt `expected` would otherwise silently skip the check.
const llvm::StringRef kCaseKeys[] = {
    "name",       "kernel", "grid",           "num_warps",   "num_stages",
    "constexprs", "args",   "ttir_arg_types", "produced_by", "triton_metadata"};
const llvm::StringRef kBufferKeys[] = {
    "kind", "python_name", "dtype", "shape", "input", "expected", "tolerance"};
const llvm::StringRef kScalarKeys[] = {"kind", "python_name", "type", "value"};
const llvm::StringRef kToleranceKeys[] = {"rtol", "atol"};

const char *const kDTypes = "f64, f32, f16, bf16, f8e4m3fn (fp8e4nv), f8e5m2 "
                            "(fp8e5), i64, i32, i16, i8, i1 (bool), u64, u32, "
                            "u16, u8";
const char *const kScalarTypes =
    "i1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64";

/// Collects the problems of one case file, each naming its field.
class CaseChecker {
public:
  explicit CaseChecker(CaseFile &file) : file(file) {}

  void check(const Object &root);
  llvm::Error takeError();

private:
  void error(const std::string &field, const llvm::Twine &message) {
    constexpr size_t kReported = 8;
    if (errors.size() < kReported)
      errors.push_back("case.json: " + field + ": " + message.str());
    else
      ++unreported;
  }
  void checkKeys(const Object &object, const std::string &where,
                 llvm::ArrayRef<llvm::StringRef> keys, llvm::StringRef what);
  std::optional<int64_t> getInteger(const Value &value,
                                    const std::string &field, int64_t min,
                                    int64_t max);
  std::optional<std::string> getString(const Object &object,
                                       llvm::StringRef key,
                                       const std::string &where, bool required);
  void checkGrid(const Object &root);
  void checkLaunchOption(const Object &root, llvm::StringRef key,
                         unsigned &result);
  void checkArgs(const Array &args);
  void checkBuffer(const Object &arg, const std::string &where,
                   CaseArgument &parsed);
  void checkScalar(const Object &arg, const std::string &where,
                   CaseArgument &parsed);
  void checkTolerance(const Value &value, const std::string &where,
                      CaseArgument &parsed);
  std::optional<std::string> checkPath(const Object &arg, llvm::StringRef key,
                                       const std::string &where,
                                       const CaseArgument &parsed);
  void checkArgTypes(const Value &value, const Array *args);

  CaseFile &file;
  std::vector<std::string> errors;
  size_t unreported = 0;
  uint64_t totalBytes = 0;
  bool totalReported = false;
};
} // namespace

static std::string field(const std::string &where, llvm::StringRef key) {
  return where.empty() ? key.str() : where + "." + key.str();
}

static std::string keyList(llvm::ArrayRef<llvm::StringRef> keys) {
  std::string list;
  for (llvm::StringRef key : keys)
    list += (list.empty() ? "" : ", ") + key.str();
  return list;
}

void CaseChecker::checkKeys(const Object &object, const std::string &where,
                            llvm::ArrayRef<llvm::StringRef> keys,
                            llvm::StringRef what) {
  // Sorted, so that the errors come in the same order on every run.
  std::vector<std::string> unknown;
  for (const auto &entry : object)
    if (!llvm::is_contained(keys, llvm::StringRef(entry.first)))
      unknown.push_back(entry.first.str());
  llvm::sort(unknown);
  for (const std::string &key : unknown)
    error(field(where, escapeForLine(key)),
          "not a field of " + what + " (its fields: " + keyList(keys) + ")");
}

std::optional<int64_t> CaseChecker::getInteger(const Value &value,
                                               const std::string &field,
                                               int64_t min, int64_t max) {
  std::optional<int64_t> i = value.getAsInteger();
  if (i && *i >= min && *i <= max)
    return i;
  error(field, llvm::formatv("must be an integer from {0} to {1}, got {2}", min,
                             max, describeJSON(value)));
  return std::nullopt;
}

std::optional<std::string> CaseChecker::getString(const Object &object,
                                                  llvm::StringRef key,
                                                  const std::string &where,
                                                  bool required) {
  const Value *value = object.get(key);
  if (!value) {
    if (required)
      error(field(where, key), "missing");
    return std::nullopt;
  }
  std::optional<llvm::StringRef> text = value->getAsString();
  if (!text) {
    error(field(where, key), "must be a string, got " + describeJSON(*value));
    return std::nullopt;
  }
  if (text->empty()) {
    error(field(where, key), "must not be empty");
    return std::nullopt;
  }
  return text->str();
}

void CaseChecker::checkGrid(const Object &root) {
  const Value *value = root.get("grid");
  if (!value) {
    error("grid", "missing (the number of programs along x, y and z, e.g. "
                  "[4, 1, 1])");
    return;
  }
  const Array *grid = value->getAsArray();
  if (!grid || grid->size() != 3) {
    error("grid", "must be an array of 3 integers, got " +
                      (grid ? std::to_string(grid->size()) + " entries"
                            : describeJSON(*value)));
    return;
  }
  bool valid = true;
  for (size_t i = 0; i < 3; ++i) {
    std::optional<int64_t> size =
        getInteger((*grid)[i], "grid[" + std::to_string(i) + "]", 1,
                   i == 0 ? kMaxGridX : kMaxGridYZ);
    if (size)
      file.grid[i] = static_cast<uint32_t>(*size);
    valid &= size.has_value();
  }
  uint64_t programs = uint64_t(file.grid[0]) * file.grid[1] * file.grid[2];
  if (valid && programs > kMaxPrograms)
    error("grid", llvm::formatv("{0} x {1} x {2} is {3} programs; tpx-run "
                                "launches at most {4}",
                                file.grid[0], file.grid[1], file.grid[2],
                                programs, kMaxPrograms));
}

void CaseChecker::checkLaunchOption(const Object &root, llvm::StringRef key,
                                    unsigned &result) {
  const Value *value = root.get(key);
  if (!value)
    return; // Triton's default, already in `result`.
  std::optional<int64_t> i = value->getAsInteger();
  if (!i) {
    error(key.str(), "must be an integer, got " + describeJSON(*value));
    return;
  }
  std::optional<std::string> problem =
      key == "num_warps" ? tools::checkNumWarps(*i) : tools::checkNumStages(*i);
  if (problem)
    error(key.str(), *problem);
  else
    result = static_cast<unsigned>(*i);
}

/// Why `path` may not name a file of the case, or nullopt when it may: it
/// must be relative and stay inside the case directory (checked on the
/// text: `..` may only go back down into directories it came from).
static std::optional<std::string> checkRelativePath(llvm::StringRef path) {
  if (llvm::any_of(path,
                   [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
    return std::string("must not contain control characters");
  if (llvm::sys::path::is_absolute(path) || path.starts_with("~"))
    return std::string("must be a path relative to the case directory, not "
                       "an absolute one");
  int depth = 0;
  for (llvm::StringRef part : llvm::make_range(llvm::sys::path::begin(path),
                                               llvm::sys::path::end(path))) {
    if (part == "..")
      --depth;
    else if (part != ".")
      ++depth;
    if (depth < 0)
      return std::string("must stay inside the case directory (it leaves it "
                         "through '..')");
  }
  if (depth == 0)
    return std::string("must name a file inside the case directory");
  return std::nullopt;
}

std::optional<std::string> CaseChecker::checkPath(const Object &arg,
                                                  llvm::StringRef key,
                                                  const std::string &where,
                                                  const CaseArgument &parsed) {
  std::optional<std::string> path =
      getString(arg, key, where, /*required=*/key == "input");
  if (!path)
    return std::nullopt;
  std::string name = field(where, key);
  if (auto problem = checkRelativePath(*path)) {
    error(name, "'" + escapeForLine(*path) + "' " + *problem);
    return std::nullopt;
  }
  // The size is only known when dtype and shape are valid.
  if (parsed.dtype.empty())
    return path;
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(file.pathOf(*path), status)) {
    error(name, "cannot read '" + escapeForLine(*path) + "': " + ec.message());
    return std::nullopt;
  }
  if (status.type() != llvm::sys::fs::file_type::regular_file) {
    error(name, "'" + escapeForLine(*path) + "' is not a regular file");
    return std::nullopt;
  }
  if (status.getSize() != parsed.byteSize) {
    error(name, llvm::formatv("{0} holds {1} bytes but buffer '{2}' ({3} x "
                              "{4}) needs {5}",
                              escapeForLine(*path), status.getSize(),
                              escapeForLine(parsed.name), parsed.elementCount,
                              parsed.dtype, parsed.byteSize));
    return std::nullopt;
  }
  return path;
}

void CaseChecker::checkTolerance(const Value &value, const std::string &where,
                                 CaseArgument &parsed) {
  std::string name = field(where, "tolerance");
  const Object *tolerance = value.getAsObject();
  if (!tolerance) {
    error(name, "must be an object {\"rtol\": R, \"atol\": A}, got " +
                    describeJSON(value));
    return;
  }
  checkKeys(*tolerance, name, kToleranceKeys, "a tolerance");
  for (llvm::StringRef key : kToleranceKeys) {
    const Value *bound = tolerance->get(key);
    if (!bound)
      continue; // 0: exact.
    std::optional<double> number = bound->getAsNumber();
    if (!number || !std::isfinite(*number) || *number < 0) {
      error(field(name, key),
            "must be a number >= 0, got " + describeJSON(*bound));
      continue;
    }
    (key == "rtol" ? parsed.rtol : parsed.atol) = *number;
  }
}

void CaseChecker::checkBuffer(const Object &arg, const std::string &where,
                              CaseArgument &parsed) {
  parsed.isBuffer = true;
  checkKeys(arg, where, kBufferKeys, "a buffer argument");
  if (auto dtype = getString(arg, "dtype", where, /*required=*/true)) {
    if (getDTypeSize(*dtype))
      parsed.dtype = *dtype;
    else
      error(field(where, "dtype"), "unknown dtype '" + escapeForLine(*dtype) +
                                       "' (known: " + kDTypes + ")");
  }
  const Value *shapeValue = arg.get("shape");
  const Array *shape = shapeValue ? shapeValue->getAsArray() : nullptr;
  bool shapeValid = shape != nullptr;
  if (!shapeValue)
    error(field(where, "shape"), "missing");
  else if (!shape)
    error(field(where, "shape"),
          "must be an array of integers, got " + describeJSON(*shapeValue));
  uint64_t count = 1;
  for (size_t i = 0; shape && i < shape->size(); ++i) {
    std::optional<int64_t> dim =
        getInteger((*shape)[i], where + ".shape[" + std::to_string(i) + "]", 0,
                   std::numeric_limits<int64_t>::max());
    if (!dim) {
      shapeValid = false;
      continue;
    }
    parsed.shape.push_back(static_cast<uint64_t>(*dim));
    if (shapeValid &&
        __builtin_mul_overflow(count, parsed.shape.back(), &count))
      count = std::numeric_limits<uint64_t>::max();
  }
  if (shapeValid && !parsed.dtype.empty()) {
    unsigned elementSize = getDTypeSize(parsed.dtype);
    uint64_t bytes = 0;
    bool tooLarge =
        count == std::numeric_limits<uint64_t>::max() ||
        __builtin_mul_overflow(count, uint64_t(elementSize), &bytes) ||
        bytes > kMaxBufferBytes;
    uint64_t total = 0;
    bool totalTooLarge =
        !tooLarge && (__builtin_add_overflow(totalBytes, bytes, &total) ||
                      total > kMaxBufferBytes);
    if (tooLarge || (totalTooLarge && !totalReported)) {
      std::string size = tooLarge ? "this buffer needs"
                                  : "with this buffer, the case's buffers "
                                    "need";
      error(field(where, "shape"),
            llvm::formatv("{0} more than {1} GiB, tpx-run's limit for all "
                          "buffers of a case",
                          size, kMaxBufferBytes >> 30));
      totalReported |= totalTooLarge;
    }
    if (tooLarge || totalTooLarge) {
      shapeValid = false;
    } else {
      totalBytes = total;
      parsed.elementCount = count;
      parsed.byteSize = bytes;
    }
  }
  if (!shapeValid)
    parsed.shape.clear();
  if (!shapeValid || parsed.dtype.empty())
    parsed.dtype.clear(); // The paths are then checked without their size.
  if (auto input = checkPath(arg, "input", where, parsed))
    parsed.inputFile = *input;
  if (auto expected = checkPath(arg, "expected", where, parsed))
    parsed.expectedFile = *expected;
  if (const Value *tolerance = arg.get("tolerance")) {
    if (!arg.get("expected"))
      error(field(where, "tolerance"),
            "given without 'expected' (there is nothing to compare)");
    else
      checkTolerance(*tolerance, where, parsed);
  }
}

/// The range of an integer scalar type of `width` bits.
static std::pair<int64_t, uint64_t> getIntegerRange(bool isSigned,
                                                    unsigned width) {
  if (width == 1)
    return {0, 1};
  if (!isSigned)
    return {0, std::numeric_limits<uint64_t>::max() >> (64 - width)};
  if (width == 64)
    return {std::numeric_limits<int64_t>::min(),
            uint64_t(std::numeric_limits<int64_t>::max())};
  return {-(int64_t(1) << (width - 1)), (uint64_t(1) << (width - 1)) - 1};
}

void CaseChecker::checkScalar(const Object &arg, const std::string &where,
                              CaseArgument &parsed) {
  checkKeys(arg, where, kScalarKeys, "a scalar argument");
  std::optional<std::string> type = getString(arg, "type", where, true);
  const Value *value = arg.get("value");
  if (!value)
    error(field(where, "value"), "missing");
  if (!type)
    return;
  llvm::StringRef name = *type;
  const llvm::fltSemantics *semantics =
      llvm::StringSwitch<const llvm::fltSemantics *>(name)
          .Case("f16", &llvm::APFloat::IEEEhalf())
          .Case("bf16", &llvm::APFloat::BFloat())
          .Case("f32", &llvm::APFloat::IEEEsingle())
          .Case("f64", &llvm::APFloat::IEEEdouble())
          .Default(nullptr);
  unsigned width = 0;
  bool isSigned = name.starts_with("i");
  bool isInteger = (name.starts_with("i") || name.starts_with("u")) &&
                   !name.drop_front().getAsInteger(10, width) &&
                   llvm::is_contained({1u, 8u, 16u, 32u, 64u}, width) &&
                   name != "u1";
  if (!semantics && !isInteger) {
    error(field(where, "type"), "unknown scalar type '" + escapeForLine(name) +
                                    "' (known: " + kScalarTypes + ")");
    return;
  }
  parsed.scalarType = name.str();
  parsed.scalarIsFloat = semantics != nullptr;
  if (!value)
    return;
  std::string valueField = field(where, "value");
  if (semantics) {
    std::optional<double> number = value->getAsNumber();
    if (!number || !std::isfinite(*number)) {
      error(valueField, "must be a number for type " + name + ", got " +
                            describeJSON(*value));
      return;
    }
    llvm::APFloat converted(*number);
    bool losesInfo;
    converted.convert(*semantics, llvm::APFloat::rmNearestTiesToEven,
                      &losesInfo);
    if (converted.isInfinity()) {
      error(valueField, llvm::formatv("{0} is out of range for {1}",
                                      describeJSON(*value), name));
      return;
    }
    parsed.floatValue = *number;
    return;
  }
  auto [min, max] = getIntegerRange(isSigned, width);
  std::string range =
      llvm::formatv("must be an integer from {0} to {1} for type {2}", min, max,
                    name)
          .str();
  if (width == 1) {
    range = "must be true, false, 0 or 1 for type " + name.str();
    if (std::optional<bool> b = value->getAsBoolean()) {
      parsed.intValue = *b;
      return;
    }
  }
  if (std::optional<int64_t> i = value->getAsInteger()) {
    if (*i >= min && (*i < 0 || uint64_t(*i) <= max)) {
      parsed.intValue = *i;
      return;
    }
  } else if (std::optional<uint64_t> u = value->getAsUINT64()) {
    if (!isSigned && width == 64) {
      parsed.intValue = static_cast<int64_t>(*u);
      return;
    }
  }
  error(valueField, range + ", got " + describeJSON(*value));
}

void CaseChecker::checkArgs(const Array &args) {
  for (auto [index, value] : llvm::enumerate(args)) {
    std::string where = "args[" + std::to_string(index) + "]";
    CaseArgument parsed;
    parsed.name = "arg" + std::to_string(index);
    const Object *arg = value.getAsObject();
    if (!arg) {
      error(where, "must be an object, got " + describeJSON(value));
      file.args.push_back(std::move(parsed));
      continue;
    }
    if (auto name = getString(*arg, "python_name", where, false))
      parsed.name = *name;
    std::optional<std::string> kind = getString(*arg, "kind", where, true);
    if (kind && *kind == "buffer")
      checkBuffer(*arg, where, parsed);
    else if (kind && *kind == "scalar")
      checkScalar(*arg, where, parsed);
    else if (kind)
      error(field(where, "kind"), "must be \"buffer\" or \"scalar\", got '" +
                                      escapeForLine(*kind) + "'");
    file.args.push_back(std::move(parsed));
  }
}

void CaseChecker::checkArgTypes(const Value &value, const Array *args) {
  const Array *types = value.getAsArray();
  if (!types) {
    error("ttir_arg_types",
          "must be an array of strings, got " + describeJSON(value));
    return;
  }
  if (args && types->size() != args->size()) {
    error("ttir_arg_types", llvm::formatv("has {0} entries but args has {1}",
                                          types->size(), args->size()));
    return;
  }
  for (auto [index, type] : llvm::enumerate(*types)) {
    std::string name = "ttir_arg_types[" + std::to_string(index) + "]";
    std::optional<llvm::StringRef> text = type.getAsString();
    if (!text) {
      error(name, "must be a string, got " + describeJSON(type));
      continue;
    }
    // A buffer is passed as a pointer, a scalar by value.
    if (!args || index >= file.args.size())
      continue;
    const Object *arg = (*args)[index].getAsObject();
    std::optional<llvm::StringRef> kind =
        arg ? arg->getString("kind") : std::nullopt;
    bool isPointer = text->starts_with("!tt.ptr<");
    if (kind &&
        ((*kind == "buffer" && !isPointer) || (*kind == "scalar" && isPointer)))
      error(name, "'" + escapeForLine(*text) + "' does not match args[" +
                      std::to_string(index) + "], a " + kind->str());
  }
}

void CaseChecker::check(const Object &root) {
  checkKeys(root, "", kCaseKeys, "a case");
  if (auto name = getString(root, "name", "", false))
    file.name = *name;
  if (auto kernel = getString(root, "kernel", "", false))
    file.kernel = *kernel;
  checkGrid(root);
  checkLaunchOption(root, "num_warps", file.numWarps);
  checkLaunchOption(root, "num_stages", file.numStages);
  for (llvm::StringRef key : {"constexprs", "triton_metadata"})
    if (const Value *value = root.get(key); value && !value->getAsObject())
      error(key.str(), "must be an object, got " + describeJSON(*value));
  (void)getString(root, "produced_by", "", false);
  const Value *argsValue = root.get("args");
  const Array *args = argsValue ? argsValue->getAsArray() : nullptr;
  if (!argsValue)
    error("args", "missing (one entry per argument of the kernel)");
  else if (!args)
    error("args", "must be an array, got " + describeJSON(*argsValue));
  else
    checkArgs(*args);
  if (const Value *types = root.get("ttir_arg_types"))
    checkArgTypes(*types, args);
}

llvm::Error CaseChecker::takeError() {
  if (errors.empty())
    return llvm::Error::success();
  std::string message = llvm::join(errors, "; ");
  if (unreported)
    message += llvm::formatv(" (and {0} more)", unreported).str();
  return makeError(message);
}

llvm::Expected<CaseFile> CaseFile::read(llvm::StringRef directory,
                                        std::string &name) {
  CaseFile file;
  file.directory = directory.str();
  file.name =
      llvm::sys::path::filename(llvm::StringRef(directory).rtrim("/")).str();
  name = file.name;
  std::string path = file.pathOf("case.json");
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return makeError(path + ": " + ec.message());
  if (status.type() != llvm::sys::fs::file_type::regular_file)
    return makeError(path + ": not a regular file");
  if (status.getSize() > kMaxCaseJSONBytes)
    return makeError(llvm::formatv("case.json: {0} bytes; a case file may "
                                   "hold at most {1}",
                                   status.getSize(), kMaxCaseJSONBytes));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return makeError(path + ": " + buffer.getError().message());
  llvm::StringRef text = (*buffer)->getBuffer();
  if (auto problem = checkJSONText(text, kMaxCaseJSONDepth))
    return makeError("case.json: " + *problem);
  auto json = llvm::json::parse(text);
  if (!json)
    return makeError("case.json: " + llvm::toString(json.takeError()));
  const Object *root = json->getAsObject();
  if (!root)
    return makeError("case.json: must be a JSON object, got " +
                     describeJSON(*json));
  CaseChecker checker(file);
  checker.check(*root);
  name = file.name;
  if (llvm::Error error = checker.takeError())
    return error;
  return file;
}
