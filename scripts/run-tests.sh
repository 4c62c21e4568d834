#!/usr/bin/env bash
# Quick start, second command (and CI's): install what is missing, build, and
# run the whole test suite twice: once as built for use, once with the host
# code under AddressSanitizer and UndefinedBehaviorSanitizer.
#
# The exercises' self-checks (label selfcheck: every starter fails, every
# solution passes) run last, 8 at a time, GAUSS_SELFCHECK_REPEAT times over
# (default 1; CI asks for 3): a starter's and its solution's checks run side
# by side, so any file two tests share would show up as a flaky failure.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/install-deps.sh
. scripts/env.sh
repeat=${GAUSS_SELFCHECK_REPEAT:-1}
# Oclgrind is one of the packages installed above; where the packages come
# from elsewhere (GAUSS_NO_INSTALL=1), its tests run only if it is there.
require_oclgrind=ON
if [ "${GAUSS_NO_INSTALL:-0}" = 1 ]; then require_oclgrind=OFF; fi

echo "== build (the chapters and the tests; about 10 minutes on 2 cores)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_REQUIRE_OCLGRIND=$require_oclgrind -DGAUSS_WITH_CUDA=ON \
  -DGAUSS_BUILD_CUDA_STARTERS="$cuda_device"
cmake --build build -j "$jobs"
echo "== the test suite ($((SECONDS - start)) s so far)"
ctest --test-dir build -j "$jobs" --output-on-failure -LE "^exercise$|^selfcheck$"
echo "== the exercises' self-checks, 8 at a time, $repeat time(s) over ($((SECONDS - start)) s so far)"
ctest --test-dir build -j 8 --output-on-failure -L "^selfcheck$" --repeat until-fail:"$repeat"

# The sanitizers instrument host code only, so this build leaves CUDA out
# (its kernels are not host code) and skips the Oclgrind tests (Oclgrind's
# own OpenCL runtime is preloaded and cannot come after ASan's).
echo "== the host code under AddressSanitizer and UBSan ($((SECONDS - start)) s so far)"
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGAUSS_SANITIZE=ON -DGAUSS_WITH_CUDA=OFF
cmake --build build-sanitize -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-sanitize -j "$jobs" --output-on-failure -LE "oclgrind|docs|^exercise$"
echo "== every test passed ($((SECONDS - start)) s in all)"
