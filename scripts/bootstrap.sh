#!/usr/bin/env bash
# Installs every Debian package dpbounds needs to build, test and run. Idempotent: quiet when
# everything is present. Only Debian's archive is used (apt-get); nothing else is downloaded.
set -euo pipefail

packages=(
  build-essential   # g++ (C++20, OpenMP via libgomp), make
  cmake             # >= 3.25 (Debian 12 ships 3.25)
  ninja-build       # fast builds; CMake falls back to make if absent
  pkg-config
  libeigen3-dev     # linear algebra
  libspectra-dev    # top-k symmetric eigensolver (Lanczos) on Eigen
  libboost-math-dev # special functions, quantiles, root finding (pulls the Boost headers: Random)
  librandom123-dev  # Philox4x32 counter-based RNG
  catch2            # tests (v2, with catch_discover_tests)
  libbenchmark-dev  # Google Benchmark: the benchmarks in bench/
  libfmt-dev        # output formatting
  libyaml-cpp-dev   # experiment configs
  libcli11-dev      # command-line parsing
  libsqlite3-dev    # results store
  nlohmann-json3-dev # machine-readable output
  gnuplot-nox       # report figures (PNG/SVG); reports skip them when it is absent
  libopenmpi-dev    # MPI: `mpirun -np N dpbounds run ...` over many machines (docs/cluster.md); optional
  openmpi-bin       # mpirun, for the MPI tests and for running on a cluster
  # The test that compiles every .tex the suite writes (tests/cli/latex_cli_test.cpp), and docs'
  # rendered pages; the main job needs none of them.
  texlive-latex-base texlive-latex-recommended texlive-latex-extra texlive-pictures texlive-science
  poppler-utils     # pdftoppm: docs' PNG pages of compiled tables and figures
  python3-numpy     # the Python package; bench_samplers runs the numpy code a researcher would write
  libopenblas0-pthread  # numpy's BLAS as numpy's own wheels ship it (Debian's default reference BLAS is ~20x
                        # slower), so the benches compare with the numpy a user runs
  python3-dev pybind11-dev python3-pybind11  # the Python package dpbounds (python/, docs/python.md)
  python3-pandas    # its results as DataFrames
  python3-pytest    # its tests (python/tests, run by ctest)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "bootstrap: missing packages (${missing[*]}) and not root; run as root or install sudo" >&2
    exit 1
  fi
else
  SUDO=
fi

echo "bootstrap: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! $SUDO apt-get update -q >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "bootstrap: apt-get update failed (is Debian's package archive reachable?)" >&2
  exit 1
fi
if ! $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
  # Find and name the package that cannot be installed.
  for p in "${missing[@]}"; do
    if ! $SUDO apt-get install -y -q --no-install-recommends "$p" >"$log" 2>&1; then
      tail -n 20 "$log" >&2
      echo "bootstrap: FAILED to install Debian package '$p'" >&2
      exit 1
    fi
  done
fi
echo "bootstrap: done" >&2
