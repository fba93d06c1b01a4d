#!/usr/bin/env bash
# Installs the Debian 12 packages ccrowd needs, only those missing. Sourced by
# .ci/main and .ci/run; safe to re-run.
set -euo pipefail

CCROWD_APT_PACKAGES=(
  build-essential cmake pkg-config
  libthrust-dev libcub-dev        # Thrust with its OpenMP backend (CPU builds)
  libgtest-dev libbenchmark-dev   # GoogleTest, Google Benchmark
  libcli11-dev libstb-dev         # command line, PNG writing
  nlohmann-json3-dev              # scene files
  libsqlite3-dev sqlite3          # trajectory databases (JuPedSim/PedPy format), CLI to inspect them
  libboost-dev                    # Boost.Geometry: exact sub-cell walls and doors, walkable-area WKT
  libgdal-dev                     # optional: building footprints from GIS files (scene key footprints)
)
# The optional viewer (ccrowd view / render; CMake's CCROWD_VIEWER=AUTO builds
# it when these are present, and everything else builds without them), and
# what its tests need to render headless: Mesa's llvmpipe through EGL (no X
# server) and through GLX under Xvfb.
# CCROWD_NO_VIEWER=1 leaves them out.
CCROWD_VIEWER_PACKAGES=(
  libgl-dev libglfw3-dev libglew-dev  # OpenGL 3.3 core context, window, loader
  libegl-dev libegl-mesa0             # EGL: ccrowd render without an X server (Mesa's EGL where there is no GPU)
  libimgui-dev                        # Dear ImGui panel of ccrowd view
  xvfb xauth libgl1-mesa-dri          # xvfb-run + llvmpipe for ccrowd render in tests
)
if [ "${CCROWD_NO_VIEWER:-0}" != 1 ]; then
  CCROWD_APT_PACKAGES+=("${CCROWD_VIEWER_PACKAGES[@]}")
fi
# The test command also fuzzes the scene loader with clang's libFuzzer.
CCROWD_FUZZ_PACKAGES=(clang libclang-rt-14-dev libomp-14-dev)
# ... and makes a Python environment with NumPy and PedPy for the tests that
# read files with them, in which the Python package is built (its headers),
# and compiles through ccache, so that its later builds reuse the objects of
# the earlier ones (same sources, same flags) and a re-run reuses all.
CCROWD_TEST_PACKAGES=(python3-venv python3-dev ccache)

ccrowd_install_deps() {
  local missing=()
  for p in "${CCROWD_APT_PACKAGES[@]}" "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    echo "deps: all Debian packages present"
    return 0
  fi
  echo "deps: installing ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "deps: need root or sudo to install: ${missing[*]}" >&2; return 1; }
    sudo=(sudo)
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# nvcc, if the CUDA toolkit is installed (on PATH or in its default place).
ccrowd_find_nvcc() {
  if command -v nvcc >/dev/null; then command -v nvcc; return 0; fi
  if [ -x /usr/local/cuda/bin/nvcc ]; then echo /usr/local/cuda/bin/nvcc; return 0; fi
  return 1
}

# A Python virtual environment at $1 with NumPy and PedPy (and shapely, which
# PedPy brings), for the tests that read ccrowd's files with them, JuPedSim
# for the test of bench/jupedsim_compare.py, and what the Python package
# builds and is tested with (nanobind, scikit-build-core, pytest, Dask,
# pandas, pyarrow); the product itself needs no Python. Reuses an existing
# one; returns 1 when it cannot be made (no venv module, no network).
ccrowd_python_env() {
  local dir=$1
  local modules='import numpy, pedpy, jupedsim, nanobind, scikit_build_core, pytest, distributed, pandas, pyarrow'
  if [ -x "$dir/bin/python3" ] && "$dir/bin/python3" -c "$modules" 2>/dev/null; then return 0; fi
  python3 -m venv "$dir" >/dev/null 2>&1 || return 1
  timeout 900 "$dir/bin/pip" install -q --disable-pip-version-check pedpy numpy jupedsim \
    nanobind scikit-build-core pytest "dask[distributed]" pandas pyarrow >/dev/null 2>&1 || return 1
  "$dir/bin/python3" -c "$modules" 2>/dev/null
}
