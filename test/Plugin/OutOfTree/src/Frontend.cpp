//===- Frontend.cpp - A tiny front end on the tpx C API -------------------===//
//
// What a DSL front end does with the C API (tpx-c/Tpx.h, tpx-c/Artifact.h):
// load the plugins of $TRITON_PLUGIN_PATHS, list their DSL ops, build a
// kernel that calls `axpy(x, y, alpha=2.5)` through tpxBuildDslOp, print
// it, select the `oot-lower` pipeline extension for a scope, compile the
// kernel for the CPU and launch it, and check the result.
//
// The C API hands out MLIR C-API handles (MlirContext, MlirValue, ...) but
// the MLIR C-API functions are not part of the SDK (Debian ships them only
// as static archives), so the IR around the DSL op is made with MLIR's C++
// API from libMLIR.so and converted with wrap()/unwrap() (mlir/CAPI/IR.h).
//
//===----------------------------------------------------------------------===//

#include "tpx-c/Artifact.h"
#include "tpx-c/Tpx.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

// The kernel skeleton: z = y for the first n elements. The front end
// replaces the stored value by axpy(x, y, alpha).
static const char *kSkeleton = R"mlir(
module {
  tt.func public @axpy_kernel(%x_ptr: !tt.ptr<f32>, %y_ptr: !tt.ptr<f32>,
                              %z_ptr: !tt.ptr<f32>, %n: i32) {
    %c256 = arith.constant 256 : i32
    %pid = tt.get_program_id x : i32
    %base = arith.muli %pid, %c256 : i32
    %range = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32>
    %bases = tt.splat %base : i32 -> tensor<256xi32>
    %offs = arith.addi %bases, %range : tensor<256xi32>
    %ns = tt.splat %n : i32 -> tensor<256xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<256xi32>
    %xs = tt.splat %x_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %xp = tt.addptr %xs, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %x = tt.load %xp, %mask : tensor<256x!tt.ptr<f32>>
    %ys = tt.splat %y_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %yp = tt.addptr %ys, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    %y = tt.load %yp, %mask : tensor<256x!tt.ptr<f32>>
    %zs = tt.splat %z_ptr : !tt.ptr<f32> -> tensor<256x!tt.ptr<f32>>
    %zp = tt.addptr %zs, %offs : tensor<256x!tt.ptr<f32>>, tensor<256xi32>
    tt.store %zp, %y, %mask : tensor<256x!tt.ptr<f32>>
    tt.return
  }
}
)mlir";

static int die(const char *what, char *error) {
  std::fprintf(stderr, "frontend: %s: %s\n", what, error ? error : "?");
  tpxStringFree(error);
  return 1;
}

static const char *kindName(TpxValueKind kind) {
  switch (kind) {
  case TPX_KIND_INT: return "int";
  case TPX_KIND_FLOAT: return "float";
  case TPX_KIND_BOOL: return "bool";
  case TPX_KIND_STRING: return "string";
  case TPX_KIND_TYPE: return "type";
  }
  return "?";
}

int main() {
  char *error = nullptr;
  if (tpxLoadPluginsFromEnv(&error) != TPX_SUCCESS)
    return die("loading plugins", error);

  // 1. What the plugins offer (a front end would generate bindings).
  for (size_t i = 0, e = tpxGetNumDslOps(); i < e; ++i) {
    const TpxDslOpInfo *op = tpxGetDslOp(i);
    std::printf("dsl op %s/%d:", op->name, op->numOperands);
    for (size_t k = 0; k < op->numKeywords; ++k)
      std::printf(" %s:%s", op->keywords[k].name,
                  kindName(op->keywords[k].defaultValue.kind));
    std::printf("\n");
  }
  if (!tpxLookupDslOp("axpy"))
    return die("lookup", nullptr);

  // 2. The kernel, and the values the DSL op takes.
  MlirContext context = tpxContextCreate();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kSkeleton, unwrap(context));
  if (!module)
    return die("parsing the skeleton", nullptr);
  std::vector<mlir::Operation *> loads;
  mlir::Operation *store = nullptr;
  module->walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() == "tt.load")
      loads.push_back(op);
    else if (op->getName().getStringRef() == "tt.store")
      store = op;
  });
  MlirValue operands[2] = {wrap(loads.at(0)->getResult(0)),
                           wrap(loads.at(1)->getResult(0))};
  TpxBuildContext where = {context, wrap(mlir::Location(store->getLoc())),
                           wrap(store->getBlock()), wrap(store)};

  // 3a. A call the host rejects before the plugin sees it.
  TpxKeywordArg bad[1] = {};
  bad[0].name = "beta";
  bad[0].value.kind = TPX_KIND_FLOAT;
  MlirValue result[1];
  size_t numResults = 0;
  if (tpxBuildDslOp("axpy", &where, operands, 2, bad, 1, result, 1,
                    &numResults, &error) == TPX_SUCCESS)
    return die("axpy(beta=...) was accepted", nullptr);
  std::printf("rejected: %s\n", error);
  tpxStringFree(error);
  error = nullptr;

  // 3b. axpy(x, y, alpha=2.5) before the store, which then stores it.
  TpxKeywordArg kwargs[1] = {};
  kwargs[0].name = "alpha";
  kwargs[0].value.kind = TPX_KIND_FLOAT;
  kwargs[0].value.floatValue = 2.5;
  if (tpxBuildDslOp("axpy", &where, operands, 2, kwargs, 1, result, 1,
                    &numResults, &error) != TPX_SUCCESS)
    return die("building axpy", error);
  if (numResults != 1)
    return die("axpy returned no result", nullptr);
  store->setOperand(1, unwrap(result[0]));
  if (mlir::failed(mlir::verify(*module)))
    return die("the built kernel does not verify", nullptr);

  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  std::printf("%s\n", text.c_str());

  // 4. Compile with the oot-lower extension selected for this scope, launch.
  const char *names[] = {"oot-lower"};
  if (tpxPushPipelineSelection(names, 1, &error) != TPX_SUCCESS)
    return die("selecting oot-lower", error);
  TpxKernelOptions options = {};
  options.structSize = sizeof(options);
  options.target = "cpu";
  options.noCache = 1;
  TpxArtifact *artifact = nullptr;
  if (tpxCompileKernel(text.c_str(), &options, &artifact, &error) !=
      TPX_SUCCESS)
    return die("compiling", error);
  if (tpxPopPipelineSelection(&error) != TPX_SUCCESS)
    return die("popping the selection", error);
  std::printf("compiled %s\n", tpxArtifactGetKernelName(artifact));

  const int n = 1000;
  std::vector<float> x(n), y(n), z(n, -1.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.25f * i;
    y[i] = 1.0f - i;
  }
  TpxLaunchArg args[4] = {};
  args[0] = {TPX_ARG_BUFFER, x.data(), x.size() * sizeof(float), 0, 0.0};
  args[1] = {TPX_ARG_BUFFER, y.data(), y.size() * sizeof(float), 0, 0.0};
  args[2] = {TPX_ARG_BUFFER, z.data(), z.size() * sizeof(float), 0, 0.0};
  args[3] = {TPX_ARG_INT, nullptr, 0, n, 0.0};
  const uint32_t grid[3] = {(n + 255) / 256, 1, 1};
  if (tpxLaunch(artifact, grid, args, 4, /*numThreads=*/0, &error) !=
      TPX_SUCCESS)
    return die("launching", error);
  int bad_count = 0;
  for (int i = 0; i < n; ++i)
    if (std::fabs(z[i] - (2.5f * x[i] + y[i])) > 1e-5f)
      ++bad_count;
  tpxArtifactDestroy(artifact);
  module = nullptr;
  tpxContextDestroy(context);
  std::printf("frontend: %s (%d of %d wrong)\n", bad_count ? "FAIL" : "PASS",
              bad_count, n);
  return bad_count ? 1 : 0;
}
