#!/usr/bin/env bash
# The main job: set everything up, build, and check every algorithm against its theorems
# (`dpbounds verify`, the quick suite unless told otherwise; arguments go to `dpbounds verify`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh
# Re-running keeps the trials a previous run stored (the same content gives the same rows), unless told
# --fresh or --resume.
stored=--resume
for argument in "$@"; do
  case "$argument" in --fresh | --resume) stored= ;; esac
done
build/dpbounds verify ${stored:+"$stored"} "$@"
