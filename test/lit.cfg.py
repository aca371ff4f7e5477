# lit configuration for tpx: every .mlir/.test file under test/ is a test.
import os
import lit.formats

config.name = "tpx"
config.test_format = lit.formats.ShTest(not lit_config.isWindows)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tpx_obj_root, "test")

config.environment["PATH"] = os.pathsep.join(
    [config.tpx_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Compiles of the tests go to a cache inside the build tree.
config.environment["TPX_CACHE_DIR"] = os.path.join(config.tpx_obj_root, "test-cache")
# Reproducers of failing plugin stages go there too, not to /tmp.
config.environment["TPX_REPRODUCER_DIR"] = os.path.join(config.tpx_obj_root, "test-reproducers")
# Plugins found through the environment would change what tests see.
config.environment.pop("TRITON_PLUGIN_PATHS", None)

config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%tpx_src", config.tpx_src_root))
config.substitutions.append(("%tpx_lib", config.tpx_lib_dir))
config.substitutions.append(("%corpus", config.corpus_dir))
# Test plugins (test/Plugin/Inputs) and the in-tree example plugins.
config.substitutions.append(
    ("%test_plugins", os.path.join(config.tpx_obj_root, "test", "Plugin", "Inputs")))
config.substitutions.append(
    ("%example_plugins", os.path.join(config.tpx_obj_root, "plugins")))
config.substitutions.append(("%tpx_build", config.tpx_obj_root))

# ptxas and libdevice: tests of the sm_90a ptx/cubin stages need them.
if config.have_cuda_toolkit:
    config.available_features.add("cuda-toolkit")
    # The toolkit's own tools, for tests that look at what ptxas made:
    # %ptxas always, cuobjdump (SASS) where the toolkit has it.
    import shutil
    cuda_bin = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin")
    search = os.pathsep.join([cuda_bin, os.environ.get("PATH", "")])
    ptxas = shutil.which("ptxas", path=search)
    if ptxas:
        config.substitutions.append(("%ptxas", ptxas))
    cuobjdump = shutil.which("cuobjdump", path=search)
    if cuobjdump:
        config.available_features.add("cuobjdump")
        config.substitutions.append(("%cuobjdump", cuobjdump))

# The HIP runtime where ROCm is installed: tests of the no-runtime error
# with the default library names do not apply there.
import ctypes.util
if ctypes.util.find_library("amdhip64"):
    config.available_features.add("hip-runtime")
