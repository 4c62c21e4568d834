#!/usr/bin/env bash
# Quick start, first command: install what is missing, build the chapters, and
# run every chapter in order on the bundled photo, printing each one's runs as
# they start and then its table.
# Arguments are passed to every chapter, e.g.  scripts/run-chapters.sh --api opencl
#
# Sized to the machine: where no GPU runs, the chapters blur a 1680x1120 image
# on the CPU (PoCL), a sixteenth of the benchmark's pixels, and the CUDA half is
# not built (nothing could run it); add --size 6720x4480 for the benchmark size.
# It builds in build/, which the second command (scripts/run-tests.sh) reuses.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
scripts/install-deps.sh
. scripts/env.sh

# CUDA where a CUDA device can run it (CI compiles it wherever nvcc is:
# scripts/ci-extra.sh); OpenCL always.
if [ "$cuda_device" = OFF ]; then
  echo "no NVIDIA GPU here: building the OpenCL half only; the chapters run on the CPU through PoCL"
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGAUSS_WITH_CUDA=$cuda_device
echo "building the chapters with $jobs jobs (a few minutes on 2 cores; the percentages are CMake's) ..."
cmake --build build -j "$jobs" --target chapters
echo "built in $((SECONDS - start)) s; running each chapter in turn (a line per run as it starts, then its table)"

failed=()
chapters=(build/bin/[0-9][0-9]_*)
for i in "${!chapters[@]}"; do
  chapter=${chapters[$i]}
  echo
  echo "=================================================================== $(basename "$chapter") ($((i + 1)) of ${#chapters[@]}, $((SECONDS - start)) s so far)"
  if ! "$chapter" "$@"; then
    failed+=("$(basename "$chapter")")
  fi
done
echo
echo "$((SECONDS - start)) s in all"
if [ ${#failed[@]} -gt 0 ]; then
  echo "chapters that reported a mismatch or an error: ${failed[*]}"
  exit 1
fi
echo "every chapter ran and every variant matched the CPU reference"
