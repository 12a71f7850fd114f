#!/usr/bin/env bash
# Builds dpbounds and runs the benchmark suite of bench/ (`dpbounds bench`: time per trial against its
# floor, scaling exponents, runner and auditor throughput; bench/README.md). Extra arguments go to
# `dpbounds bench`, e.g. scripts/bench.sh --only throughput. Not part of the tests: timings never gate a build.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh
exec build/dpbounds bench "$@"
