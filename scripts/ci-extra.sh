#!/usr/bin/env bash
# What CI runs after the README's test command (scripts/run-tests.sh): the
# passes too heavy for a student's first hour.
#
#   1. The CUDA compile check: every chapter, its tests and its library
#      compiled with nvcc into build-cuda/, where nvcc exists and no CUDA
#      device does (on a GPU machine run-tests.sh has built and run the CUDA
#      half already). Nothing there can run it; it proves that it builds.
#      About 6 minutes of nvcc on 2 cores (docs/testing.md).
#   2. The host code under AddressSanitizer and UndefinedBehaviorSanitizer:
#      build-sanitize/, and the suite again there. About 8 minutes on 2 cores.
#
#   scripts/ci-extra.sh            # both
#   scripts/ci-extra.sh cuda       # one of them: cuda, sanitize
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
. scripts/env.sh
passes=("$@")
if [ ${#passes[@]} -eq 0 ]; then passes=(cuda sanitize); fi

for pass in "${passes[@]}"; do
  case "$pass" in
    cuda)
      if [ "$cuda_device" = ON ]; then
        echo "== the CUDA compile check: not needed, this machine has a CUDA device (run-tests.sh built and ran CUDA)"
      elif ! command -v nvcc > /dev/null 2>&1; then
        echo "== the CUDA compile check: skipped, no nvcc here (on the PATH or in /usr/local/cuda/bin)"
      else
        echo "== the CUDA compile check: every chapter and test built with nvcc in build-cuda/ ($((SECONDS - start)) s so far)"
        # The exercises' CUDA starters are left out (only a device runs
        # them); ptxas's report goes to build-cuda/ptxas-report.txt.
        cmake -S . -B build-cuda -DCMAKE_BUILD_TYPE=Release -DGAUSS_WITH_CUDA=ON -DGAUSS_BUILD_CUDA_STARTERS=OFF \
          -DGAUSS_BUILD_DOCS=OFF > /dev/null
        cmake --build build-cuda -j "$jobs"
      fi
      ;;
    sanitize)
      # The sanitizers instrument host code only, so this build leaves CUDA
      # out (its kernels are not host code) and skips the Oclgrind tests
      # (Oclgrind's own OpenCL runtime is preloaded and cannot come after
      # ASan's).
      echo "== the host code under AddressSanitizer and UBSan in build-sanitize/ ($((SECONDS - start)) s so far)"
      cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUSS_SANITIZE=ON -DGAUSS_WITH_CUDA=OFF \
        -DGAUSS_BUILD_DOCS=OFF > /dev/null
      cmake --build build-sanitize -j "$jobs"
      ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir build-sanitize -j "$jobs" --output-on-failure -LE "oclgrind|docs|^exercise$"
      ;;
    *)
      echo "scripts/ci-extra.sh: unknown pass '$pass' (cuda, sanitize)" >&2
      exit 2
      ;;
  esac
done
echo "== CI's extra passes passed ($((SECONDS - start)) s)"
