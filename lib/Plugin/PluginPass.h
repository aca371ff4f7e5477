//===- PluginPass.h - A plugin's C pass as an mlir::Pass --------*- C++ -*-===//
//
// Internal to lib/Plugin. Each TpxPassInfo becomes a real mlir::Pass with a
// TypeID of its own and one mlir Pass::Option per declared option, so the
// pass works as `--name`, inside textual pipelines and with `{opt=value}`.
//
//===----------------------------------------------------------------------===//
#ifndef TPX_LIB_PLUGIN_PLUGINPASS_H
#define TPX_LIB_PLUGIN_PLUGINPASS_H

#include "tpx-c/Plugin.h"

#include <string>

namespace tpx {

/// Registers `pass` of plugin `pluginName` in MLIR's pass registry. The
/// caller has checked that the name is free.
void registerPluginPass(const std::string &pluginName, const TpxPassInfo &pass);

/// Collects messages from a plugin callback's TpxReporter.
class PluginReporter {
public:
  PluginReporter() {
    reporter.opaque = this;
    reporter.report = [](void *opaque, const char *message) {
      auto *self = static_cast<PluginReporter *>(opaque);
      if (!self->message.empty())
        self->message += "; ";
      self->message += message ? message : "(null message)";
    };
  }
  TpxReporter *get() { return &reporter; }
  /// What the plugin reported, or a stand-in when it reported nothing.
  std::string str() const {
    return message.empty() ? "the plugin reported no reason" : message;
  }

private:
  TpxReporter reporter;
  std::string message;
};

} // namespace tpx

#endif // TPX_LIB_PLUGIN_PLUGINPASS_H
