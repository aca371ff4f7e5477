#!/usr/bin/env bash
# Installs what tpx needs on Debian 12, only what is missing (idempotent).
# The AMD target: lld-22 (ld.lld links the hsaco), rocm-device-libs (ocml,
# ockl), llvm-22 (llvm-objdump, llvm-readobj and llvm-mca for the gfx950
# tests and bench/amd_static_report.py).
set -euo pipefail
packages=(cmake ninja-build ccache g++ git libgtest-dev
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  llvm-22 lld-22 rocm-device-libs
  python3 python3-numpy python3-pytest python3-torch)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "tpx: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
