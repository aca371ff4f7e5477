#!/usr/bin/env bash
# Packs what bench/run-on-h200.sh needs on the GPU machine into .device/
# (stripped tools, the core library, the example plugins, the corpus and the
# MLIR runtime unpacker) and fetches Debian's LLVM/MLIR runtime packages into
# .mlir-runtime/ once. Both are ignored by git; name them in the device
# tool's `carry`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TPX_BUILD_DIR:-$root/build}
shared=${TPX_SHARED_DIR:-$root/../shared}
dev=$root/.device
rm -rf "$dev"
mkdir -p "$dev/bin" "$dev/lib" "$dev/plugins"
for tool in tpx-run tpx-compile tpx-opt; do
  strip -o "$dev/bin/$tool" "$build/bin/$tool"
done
for lib in "$build"/lib/libtpx*.so*; do
  [ -L "$lib" ] && cp -P "$lib" "$dev/lib/" || strip -o "$dev/lib/$(basename "$lib")" "$lib"
done
for plugin in "$build"/plugins/*.so; do
  strip -o "$dev/plugins/$(basename "$plugin")" "$plugin"
done
# Bundled plugins (TLX): their folder, library and Python package.
for folder in "$build"/plugins/*/; do
  name=$(basename "$folder")
  [ -n "$(ls "$folder"/*.so 2>/dev/null)" ] || continue
  mkdir -p "$dev/plugins/$name"
  for plugin in "$folder"/*.so; do
    strip -o "$dev/plugins/$name/$(basename "$plugin")" "$plugin"
  done
  for package in "$folder"/*/__init__.py; do
    [ -f "$package" ] && cp -r "$(dirname "$package")" "$dev/plugins/$name/"
  done
done
cp -r "${TPX_CORPUS_DIR:-$shared/ttir-corpus}" "$dev/corpus"
cp "$shared/device/unpack-mlir-runtime.sh" "$dev/"
if [ ! -d "$root/.mlir-runtime" ] || [ -z "$(ls "$root/.mlir-runtime" 2>/dev/null)" ]; then
  (cd "$root" && bash "$shared/device/fetch-mlir-runtime.sh" .mlir-runtime >/dev/null)
fi
du -sh "$dev" "$root/.mlir-runtime"
