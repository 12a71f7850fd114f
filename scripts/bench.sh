#!/usr/bin/env bash
# Builds dpbounds and runs every benchmark in bench/ (ratios of algorithm time to data-generation
# time; see DESIGN.md §7). Not part of the tests: timings never gate a build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh
for b in build/bench/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b")"
  "$b"
done
