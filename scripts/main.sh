#!/usr/bin/env bash
# The main job: set everything up, build, and run the end-to-end demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh
build/dpbounds demo "$@"
