#!/usr/bin/env bash
# README command 1: set up, build, and run the main job.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
exec "$root/scripts/main-job.sh"
