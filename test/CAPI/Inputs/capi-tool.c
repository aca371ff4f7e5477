/* capi-tool: drives the tpx C API from lit tests, the way a front end that
   only has the C headers does. Plugins come from $TRITON_PLUGIN_PATHS.

     capi-tool compile FILE [--target T] [--pipeline FILE] [--cache]
                            [--stage-names] [--stage NAME] [--metadata]
       Compiles FILE with tpxCompileKernel (no cache unless --cache) and
       prints "ok" (and "cached" for a cache hit), the stage names, the
       text of stage NAME ("no stage NAME" if there is none) and the
       metadata JSON; or the error.

     capi-tool dsl-function OP FUNCTION LOCATION [TYPE...] [-k NAME=KIND:VALUE]
       Prints the function tpxBuildDslOpFunction builds (LOCATION "-" for
       none; KIND int, float, bool, string or type), or the error.

     capi-tool plugins
       Prints "<index> <name> <path>" for each loaded plugin.
*/
#include "tpx-c/Artifact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, NUL-terminated, or null. */
static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  size_t size = 0, capacity = 4096;
  char *data = malloc(capacity);
  size_t n;
  while (data && (n = fread(data + size, 1, capacity - size - 1, file)) > 0) {
    size += n;
    if (capacity - size < 2)
      data = realloc(data, capacity *= 2);
  }
  fclose(file);
  if (data)
    data[size] = '\0';
  return data;
}

static int failWith(char *error) {
  printf("error:\n%s\n", error ? error : "(no message)");
  tpxStringFree(error);
  return 1;
}

static int compile(int argc, char **argv) {
  if (argc < 1) {
    fprintf(stderr, "compile: missing FILE\n");
    return 2;
  }
  char *source = readFile(argv[0]);
  if (!source) {
    fprintf(stderr, "compile: cannot read %s\n", argv[0]);
    return 2;
  }
  TpxKernelOptions options;
  memset(&options, 0, sizeof(options));
  options.structSize = sizeof(options);
  options.noCache = 1;
  char *pipeline = NULL;
  int printMetadata = 0, printStageNames = 0;
  const char *stage = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--target") && i + 1 < argc) {
      options.target = argv[++i];
    } else if (!strcmp(argv[i], "--pipeline") && i + 1 < argc) {
      pipeline = readFile(argv[++i]);
      options.pipelineText = pipeline;
    } else if (!strcmp(argv[i], "--cache")) {
      options.noCache = 0;
    } else if (!strcmp(argv[i], "--stage-names")) {
      printStageNames = 1;
    } else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
      stage = argv[++i];
    } else if (!strcmp(argv[i], "--metadata")) {
      printMetadata = 1;
    } else {
      fprintf(stderr, "compile: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  TpxArtifact *artifact = NULL;
  char *error = NULL;
  TpxStatus status = tpxCompileKernel(source, &options, &artifact, &error);
  free(source);
  free(pipeline);
  if (status != TPX_SUCCESS)
    return failWith(error);
  printf("ok\n");
  if (tpxArtifactWasCached(artifact))
    printf("cached\n");
  if (printStageNames) {
    char *names = tpxArtifactGetStageNames(artifact);
    printf("stages: %s\n", names);
    tpxStringFree(names);
  }
  if (stage) {
    size_t size = 0;
    const char *text = tpxArtifactGetStage(artifact, stage, &size);
    if (!text)
      printf("no stage %s\n", stage);
    else if (strlen(text) != size)
      printf("stage %s: size %zu but %zu characters\n", stage, size,
             strlen(text));
    else
      fwrite(text, 1, size, stdout);
  }
  if (printMetadata) {
    char *metadata = tpxArtifactGetMetadata(artifact);
    printf("%s\n", metadata);
    tpxStringFree(metadata);
  }
  tpxArtifactDestroy(artifact);
  return 0;
}

/* NAME=KIND:VALUE into `arg`; the strings point into `text`. */
static int parseKeyword(char *text, TpxKeywordArg *arg) {
  char *equals = strchr(text, '=');
  char *colon = equals ? strchr(equals, ':') : NULL;
  if (!colon)
    return 0;
  *equals = *colon = '\0';
  memset(arg, 0, sizeof(*arg));
  arg->name = text;
  const char *kind = equals + 1, *value = colon + 1;
  if (!strcmp(kind, "int")) {
    arg->value.kind = TPX_KIND_INT;
    arg->value.intValue = strtoll(value, NULL, 10);
  } else if (!strcmp(kind, "float")) {
    arg->value.kind = TPX_KIND_FLOAT;
    arg->value.floatValue = strtod(value, NULL);
  } else if (!strcmp(kind, "bool")) {
    arg->value.kind = TPX_KIND_BOOL;
    arg->value.boolValue = !strcmp(value, "1") || !strcmp(value, "true");
  } else if (!strcmp(kind, "string")) {
    arg->value.kind = TPX_KIND_STRING;
    arg->value.stringValue = value;
  } else if (!strcmp(kind, "type")) {
    arg->value.kind = TPX_KIND_TYPE;
    arg->value.stringValue = value;
  } else {
    return 0;
  }
  return 1;
}

static int dslFunction(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "dsl-function: needs OP FUNCTION LOCATION\n");
    return 2;
  }
  const char *types[16];
  TpxKeywordArg kwargs[16];
  size_t numTypes = 0, numKwargs = 0;
  for (int i = 3; i < argc; ++i) {
    if (!strcmp(argv[i], "-k") && i + 1 < argc && numKwargs < 16) {
      if (!parseKeyword(argv[++i], &kwargs[numKwargs++])) {
        fprintf(stderr, "dsl-function: bad keyword %s\n", argv[i]);
        return 2;
      }
    } else if (numTypes < 16) {
      types[numTypes++] = argv[i];
    }
  }
  const char *location = strcmp(argv[2], "-") ? argv[2] : NULL;
  char *text = NULL, *error = NULL;
  if (tpxBuildDslOpFunction(argv[0], types, numTypes, kwargs, numKwargs,
                            argv[1], location, &text, &error) != TPX_SUCCESS)
    return failWith(error);
  printf("%s\n", text);
  tpxStringFree(text);
  return 0;
}

static int listPlugins(void) {
  size_t count = tpxGetNumPlugins();
  for (size_t i = 0; i < count; ++i)
    printf("%zu %s %s\n", i, tpxGetPlugin(i)->name, tpxGetPluginPath(i));
  /* Past the end: null, like tpxGetPlugin. */
  if (tpxGetPluginPath(count) != NULL) {
    printf("tpxGetPluginPath(%zu) is not null\n", count);
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  char *error = NULL;
  if (tpxLoadPluginsFromEnv(&error) != TPX_SUCCESS)
    return failWith(error);
  if (argc >= 2 && !strcmp(argv[1], "compile"))
    return compile(argc - 2, argv + 2);
  if (argc >= 2 && !strcmp(argv[1], "dsl-function"))
    return dslFunction(argc - 2, argv + 2);
  if (argc == 2 && !strcmp(argv[1], "plugins"))
    return listPlugins();
  fprintf(stderr, "usage: capi-tool compile FILE [options] | dsl-function OP "
                  "FUNCTION LOCATION [TYPE...] | plugins\n");
  return 2;
}
