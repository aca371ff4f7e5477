/* A stand-in for libamdhip64 for test_runtime_hip_driver.py: the handful
 * of HIP entry points tpx/runtime/hip_api.py calls, with their C ABI
 * (hipError_t is an int, handles are pointers), no GPU behind them.
 * hipModuleLaunchKernel writes what it was asked to launch to the file
 * $FAKE_HIP_LOG, so a test can check exactly what the HIP driver would
 * launch on a real AMD GPU; nothing runs.
 *
 * Environment: FAKE_HIP_DEVICES (device count, default 1; 0: no device),
 * FAKE_HIP_ARCH (gcnArchName, default "gfx950:sramecc+:xnack-"),
 * FAKE_HIP_LDS (LDS per workgroup, default 163840), FAKE_HIP_NPARAMS (how
 * many kernelParams to record), FAKE_HIP_LAUNCH_RESULT (what
 * hipModuleLaunchKernel returns, default 0). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int env_int(const char *name, int fallback) {
  const char *text = getenv(name);
  return text && *text ? atoi(text) : fallback;
}

__attribute__((format(printf, 1, 2))) static void
log_line(const char *format, ...) {
  const char *path = getenv("FAKE_HIP_LOG");
  if (!path)
    return;
  FILE *file = fopen(path, "a");
  if (!file)
    return;
  va_list args;
  va_start(args, format);
  vfprintf(file, format, args);
  va_end(args);
  fclose(file);
}

const char *hipGetErrorName(int error) {
  switch (error) {
  case 0: return "hipSuccess";
  case 1: return "hipErrorInvalidValue";
  case 100: return "hipErrorNoDevice";
  case 101: return "hipErrorInvalidDevice";
  case 200: return "hipErrorInvalidImage";
  case 701: return "hipErrorLaunchOutOfResources";
  default: return "hipErrorUnknown";
  }
}

const char *hipGetErrorString(int error) {
  switch (error) {
  case 0: return "no error";
  case 1: return "invalid argument";
  case 100: return "no ROCm-capable device is detected";
  case 101: return "invalid device ordinal";
  case 200: return "device kernel image is invalid";
  case 701: return "too many resources requested for launch";
  default: return "unknown error";
  }
}

int hipInit(unsigned flags) { return flags == 0 ? 0 : 1; }

int hipGetDeviceCount(int *count) {
  *count = env_int("FAKE_HIP_DEVICES", 1);
  return *count > 0 ? 0 : 100;
}

static __thread int current_device;

int hipGetDevice(int *device) {
  *device = current_device;
  return 0;
}

int hipSetDevice(int device) {
  if (device < 0 || device >= env_int("FAKE_HIP_DEVICES", 1))
    return 101;
  current_device = device;
  return 0;
}

int hipDeviceGetAttribute(int *value, int attribute, int device) {
  if (device < 0 || device >= env_int("FAKE_HIP_DEVICES", 1))
    return 101;
  switch (attribute) { /* hipDeviceAttribute_t, ROCm >= 5 */
  case 5: *value = 2400000; return 0;                          /* clock kHz */
  case 56: *value = 1024; return 0;                 /* max threads per block */
  case 59: *value = 8192; return 0;                        /* bus width bits */
  case 60: *value = 8000000; return 0;                 /* memory clock kHz */
  case 63: *value = 256; return 0;                        /* compute units */
  case 71: *value = 131072; return 0;                 /* registers per block */
  case 74: *value = env_int("FAKE_HIP_LDS", 163840); return 0; /* LDS */
  case 87: *value = 64; return 0;                              /* warp size */
  default: return 1;
  }
}

/* Only `name` (first) and gcnArchName (somewhere later) matter to tpx; the
 * offset here is arbitrary, as tpx does not assume one. */
int hipGetDevicePropertiesR0600(void *properties, int device) {
  if (device < 0 || device >= env_int("FAKE_HIP_DEVICES", 1))
    return 101;
  const char *arch = getenv("FAKE_HIP_ARCH");
  strcpy((char *)properties, "AMD Instinct MI355X (fake)");
  strcpy((char *)properties + 1160,
         arch && *arch ? arch : "gfx950:sramecc+:xnack-");
  return 0;
}

static int module_storage, function_storage;

int hipModuleLoadData(void **module, const void *image) {
  if (memcmp(image, "\177ELF", 4) != 0)
    return 200;
  *module = &module_storage;
  log_line("load\n");
  return 0;
}

int hipModuleUnload(void *module) { return module == &module_storage ? 0 : 1; }

int hipModuleGetFunction(void **function, void *module, const char *name) {
  if (module != &module_storage)
    return 1;
  *function = &function_storage;
  log_line("function %s\n", name);
  return 0;
}

int hipModuleLaunchKernel(void *function, unsigned gx, unsigned gy,
                          unsigned gz, unsigned bx, unsigned by, unsigned bz,
                          unsigned shared, void *stream, void **params,
                          void **extra) {
  if (function != &function_storage || extra)
    return 1;
  log_line("launch device=%d grid=%u,%u,%u block=%u,%u,%u shared=%u "
           "stream=%#lx params=", current_device, gx, gy, gz, bx, by, bz,
           shared, (unsigned long)(uintptr_t)stream);
  int count = env_int("FAKE_HIP_NPARAMS", 0);
  for (int i = 0; i < count; ++i) {
    uint64_t slot;
    memcpy(&slot, params[i], sizeof slot);
    log_line("%s%016llx", i ? "," : "", (unsigned long long)slot);
  }
  log_line("\n");
  return env_int("FAKE_HIP_LAUNCH_RESULT", 0);
}

int hipDeviceSynchronize(void) { return 0; }

int hipMalloc(void **pointer, size_t bytes) {
  *pointer = malloc(bytes ? bytes : 1);
  return *pointer ? 0 : 2;
}

int hipFree(void *pointer) {
  free(pointer);
  return 0;
}

int hipMemsetAsync(void *pointer, int value, size_t bytes, void *stream) {
  (void)stream;
  memset(pointer, value, bytes);
  return 0;
}

int hipEventCreateWithFlags(void **event, unsigned flags) {
  (void)flags;
  *event = calloc(1, sizeof(double));
  return *event ? 0 : 2;
}

int hipEventRecord(void *event, void *stream) {
  (void)stream;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  *(double *)event = now.tv_sec * 1e3 + now.tv_nsec / 1e6;
  return 0;
}

int hipEventSynchronize(void *event) { return event ? 0 : 1; }

int hipEventElapsedTime(float *ms, void *start, void *stop) {
  *ms = (float)(*(double *)stop - *(double *)start);
  return 0;
}

int hipEventDestroy(void *event) {
  free(event);
  return 0;
}
