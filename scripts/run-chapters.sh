#!/usr/bin/env bash
# Quick start, first command: install what is missing, build everything, and
# run every chapter in order on the bundled photo, printing each one's table.
# Arguments are passed to every chapter, e.g.  scripts/run-chapters.sh --api opencl
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
. scripts/env.sh

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"

failed=()
for chapter in build/bin/[0-9][0-9]_*; do
  echo
  echo "=================================================================== $(basename "$chapter")"
  if ! "$chapter" "$@"; then
    failed+=("$(basename "$chapter")")
  fi
done
echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "chapters that reported a mismatch or an error: ${failed[*]}"
  exit 1
fi
echo "every chapter ran and every variant matched the CPU reference"
