/* A front end in plain C: it builds IR with MLIR's C API (re-exported by
   libtpx.so) and calls the example scaled_add DSL op through tpxBuildDslOp.
   Loads plugins from TRITON_PLUGIN_PATHS. Prints the module. */
#include "mlir-c/IR.h"
#include "tpx-c/Tpx.h"

#include <stdio.h>

static void print(MlirStringRef text, void *unused) {
  (void)unused;
  fwrite(text.data, 1, text.length, stdout);
}

int main(void) {
  char *error = NULL;
  if (tpxLoadPluginsFromEnv(&error) != TPX_SUCCESS) {
    fprintf(stderr, "error: %s\n", error);
    return 1;
  }
  MlirContext ctx = tpxContextCreate();
  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%x: f32, %y: f32) -> f32 {\n"
               "  return %x : f32\n"
               "}\n"));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "error: cannot parse\n");
    return 1;
  }
  MlirOperation fn = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirOperation ret = mlirBlockGetFirstOperation(entry);
  MlirValue operands[2] = {mlirBlockGetArgument(entry, 0),
                           mlirBlockGetArgument(entry, 1)};
  TpxBuildContext where = {ctx, mlirOperationGetLocation(ret), entry, ret};
  TpxKeywordArg alpha = {"alpha", {0}};
  alpha.value.kind = TPX_KIND_FLOAT;
  alpha.value.floatValue = 0.25;
  MlirValue result;
  size_t numResults = 0;
  if (tpxBuildDslOp("scaled_add", &where, operands, 2, &alpha, 1, &result, 1,
                    &numResults, &error) != TPX_SUCCESS) {
    fprintf(stderr, "error: %s\n", error);
    return 1;
  }
  mlirOperationSetOperand(ret, 0, result);
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  mlirModuleDestroy(module);
  tpxContextDestroy(ctx);
  return 0;
}
