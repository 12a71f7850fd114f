#!/usr/bin/env bash
# Configures and builds dpbounds (Release) into build/. Options: --werror (warnings are errors, as CI
# builds). Used by main.sh and test.sh; safe to re-run (incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
werror=OFF
for arg in "$@"; do
  case "$arg" in
    --werror) werror=ON ;;
    *) echo "build.sh: unknown option '$arg' (allowed: --werror)" >&2; exit 2 ;;
  esac
done
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
if [ -f build/CMakeCache.txt ]; then
  cmake -S . -B build -DDPB_WERROR="$werror" >/dev/null
else
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DDPB_WERROR="$werror" >/dev/null
fi
cmake --build build --parallel "$(nproc)"
