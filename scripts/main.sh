#!/usr/bin/env bash
# The main job: set everything up, build, and check every algorithm against its theorems
# (`dpbounds verify`, the quick suite unless told otherwise; arguments go to `dpbounds verify`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh
build/dpbounds verify "$@"
