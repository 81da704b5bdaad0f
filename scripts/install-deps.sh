#!/usr/bin/env bash
# Installs the Debian 12 packages twinvmaf needs to build and test.
#
# Idempotent: it asks dpkg which packages are missing and installs only those,
# so a second run (every `make build` calls it) is fast and needs no network.
#
# Usage: scripts/install-deps.sh [--hip] [--browser] [--fuzz] [--aarch64]
#   --hip       also install hipcc (for the HIP backend).
#   --aarch64   also install the aarch64 cross compiler, qemu-user-static and
#               the arm64 libraries (scripts/aarch64-test.sh); adds the
#               arm64 architecture to dpkg.
#   --browser   also install Chromium (the report's rendering test).
#   --fuzz      also install clang 15 and its libFuzzer (the fuzz preset);
#               hipcc brings them anyway.
#
# CUDA is deliberately not installed: nvcc is preinstalled where we have GPUs
# (/usr/local/cuda/bin/nvcc) and CMake finds it; without it the GPU backend is
# simply not built.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libgtest-dev googletest libgmock-dev
  nlohmann-json3-dev libbenchmark-dev
  libhwy-dev  # Highway: the CPU SIMD kernels
  time bc  # /usr/bin/time and bc, used by the benchmark scripts
  # The Python package (python/): pybind11 for Debian's python3, numpy for
  # frames, pandas for DataFrames, Dask's distributed for catalogues, tqdm
  # for progress bars, pytest for its tests (the report draws its own SVG).
  python3-dev python3-pybind11 python3-numpy python3-pandas python3-distributed
  python3-tqdm python3-pytest
  # Compressed input (src/io/av_reader.h): FFmpeg 5.1's headers (the
  # libraries are loaded at run time), and ffmpeg itself, with which the
  # tests make and decode their clips (tests/cli/test_decode.cpp).
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev ffmpeg
)

for arg in "$@"; do
  case "$arg" in
    --hip) packages+=(hipcc) ;;
    # About 400 MiB installed (chromium 283 MiB, chromium-common 65 MiB, GTK 3).
    --browser) packages+=(chromium fonts-dejavu-core) ;;
    --fuzz) packages+=(clang-15 libclang-common-15-dev llvm-15) ;;
    # About 190 MiB: gcc 12 for arm64 with its libc, qemu-aarch64-static,
    # and Highway and GoogleTest for arm64 (multiarch, beside the host's).
    --aarch64)
      packages+=(g++-aarch64-linux-gnu qemu-user-static libhwy-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64)
      aarch64=1
      ;;
    -h|--help)
      sed -n '2,19s/^# \{0,1\}//p' "$0"
      exit 0
      ;;
    *)
      echo "install-deps.sh: unknown argument '$arg' (expected --hip, --browser, --fuzz or --aarch64)" >&2
      exit 2
      ;;
  esac
done

# The arm64 packages need dpkg to know the architecture (once; apt-get
# update below then fetches its package lists).
if [[ -n ${aarch64:-} ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  if ((EUID != 0)); then
    echo "install-deps.sh: run as root to add dpkg's arm64 architecture (dpkg --add-architecture arm64)" >&2
    exit 1
  fi
  dpkg --add-architecture arm64
fi

# dpkg-query prints nothing useful (and fails) for packages it has never seen,
# so a failure counts as "missing" too.
missing=()
for pkg in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps.sh: all ${#packages[@]} required packages are already installed."
  exit 0
fi

if ((EUID != 0)); then
  echo "install-deps.sh: missing packages: ${missing[*]}" >&2
  echo "Run this script as root (e.g. sudo $0 $*), or install them yourself:" >&2
  echo "  apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

echo "install-deps.sh: installing ${missing[*]}"
# noninteractive: no debconf prompts on a CI machine without a terminal.
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends "${missing[@]}"
