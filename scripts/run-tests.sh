#!/usr/bin/env bash
# Quick start, second command: install what is missing, build what this
# machine can run, and run the whole test suite, then the exercises'
# self-checks.
#
# It builds in build/, as the first command (scripts/run-chapters.sh) does and
# with the same settings, so that the chapters built there are reused: CUDA
# where a CUDA device can run it (an NVIDIA GPU answers nvidia-smi), the
# OpenCL half alone elsewhere. About 6 minutes on 2 cores without a GPU,
# after the first command (docs/testing.md says what was measured).
#
# The exercises' self-checks (label selfcheck: every starter fails, every
# solution passes) run last, 8 at a time, GAUSS_SELFCHECK_REPEAT times over
# (default 1; CI asks for 3): a starter's and its solution's checks run side
# by side, so any file two tests share would show up as a flaky failure.
#
# What CI adds after this (scripts/ci-extra.sh): every chapter compiled with
# nvcc where nvcc exists (a GPU or not), and the host code under
# AddressSanitizer and UBSan.
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

if [ "$cuda_device" = OFF ]; then
  echo "no NVIDIA GPU here: building and testing the OpenCL half (on the CPU, through PoCL); the CUDA tests report"
  echo "themselves skipped"
fi
echo "== configure build/ (CUDA $cuda_device)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_REQUIRE_OCLGRIND=$require_oclgrind \
  -DGAUSS_WITH_CUDA="$cuda_device" -DGAUSS_BUILD_CUDA_STARTERS="$cuda_device"
echo "== build the chapters, the tests and the exercises' starters with $jobs jobs (the percentages are CMake's)"
cmake --build build -j "$jobs"
echo "== the test suite, $jobs at a time ($((SECONDS - start)) s so far)"
ctest --test-dir build -j "$jobs" --output-on-failure -LE "^exercise$|^selfcheck$"
echo "== the exercises' self-checks, 8 at a time, $repeat time(s) over ($((SECONDS - start)) s so far)"
ctest --test-dir build -j 8 --output-on-failure -L "^selfcheck$" --repeat until-fail:"$repeat"
echo "== every test passed ($((SECONDS - start)) s in all)"
