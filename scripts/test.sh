#!/usr/bin/env bash
# Set everything up, build, and run every test. Options are passed to build.sh (e.g. --werror).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/build.sh "$@"
ctest --test-dir build --output-on-failure --parallel "$(nproc)" --timeout 600
