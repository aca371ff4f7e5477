//===- PluginCommandLine.cpp - --load-plugin for every tool ---------------===//
#include "tpx/Plugin/PluginCommandLine.h"
#include "tpx/Plugin/PluginRegistry.h"

#include "llvm/Support/raw_ostream.h"

using namespace tpx;

bool tpx::loadPluginsForTool(int argc, char **argv,
                             std::vector<char *> &remaining) {
  auto fail = [](llvm::Error error) {
    llvm::errs() << "error: " << llvm::toString(std::move(error)) << "\n";
    return false;
  };
  if (llvm::Error error = loadPluginsFromEnvironment())
    return fail(std::move(error));
  remaining.clear();
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (i == 0 || !arg.starts_with("-")) {
      remaining.push_back(argv[i]);
      continue;
    }
    if (arg == "--") {
      // Everything after `--` is positional.
      remaining.insert(remaining.end(), argv + i, argv + argc);
      break;
    }
    llvm::StringRef flag = arg.ltrim('-');
    std::string path;
    if (flag == "load-plugin") {
      if (i + 1 >= argc)
        return fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                            "--load-plugin needs a path"));
      path = argv[++i];
    } else if (flag.consume_front("load-plugin=")) {
      path = flag.str();
    } else {
      remaining.push_back(argv[i]);
      continue;
    }
    // The value is a list like $TRITON_PLUGIN_PATHS: split on ':', empty
    // entries ignored; a value with no entry at all is a mistake.
    if (llvm::StringRef(path).trim(':').empty())
      return fail(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                          "--load-plugin needs a path (got '" +
                                              path + "')"));
    if (llvm::Error error = loadPluginPaths(path))
      return fail(std::move(error));
  }
  return true;
}
