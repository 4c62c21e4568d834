#!/usr/bin/env bash
# Quick start, second command (and CI's): install what is missing, build, and
# run the whole test suite twice: once as built for use, once with the host
# code under AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
. scripts/env.sh

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_REQUIRE_OCLGRIND=ON
cmake --build build -j "$jobs"
ctest --test-dir build -j "$jobs" --output-on-failure -LE "^exercise$"

# The sanitizers instrument host code only, so this build leaves CUDA out
# (its kernels are not host code) and skips the Oclgrind tests (Oclgrind's
# own OpenCL runtime is preloaded and cannot come after ASan's).
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUSS_SANITIZE=ON -DGAUSS_WITH_CUDA=OFF
cmake --build build-sanitize -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-sanitize -j "$jobs" --output-on-failure -LE "oclgrind|docs|^exercise$"
