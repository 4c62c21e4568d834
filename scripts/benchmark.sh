#!/usr/bin/env bash
# The tutorial-wide benchmark: every chapter's variants at the benchmark size
# (6720x4480, the default) on the chosen device, collected into
# results/<device>.csv, plotted into results/<device>.png (the main line's
# climb as % of the copy bandwidth, both APIs), and the tables in README.md
# regenerated between their markers (the main line; every GPU in results/ side
# by side). Where Nsight Compute and a CUDA device are present it then
# profiles each main-line step (scripts/profile.sh): results/<device>-profile.csv
# and results/roofline.png.
#
#   scripts/benchmark.sh                 # device 0 of each API (a GPU first)
#   scripts/benchmark.sh --device 1      # any option every chapter takes
#
# Needs python3 with matplotlib (Debian: python3-matplotlib) for the plot and
# the table; the runs themselves need only the build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
# The chapters alone: the benchmark runs nothing else (the tests build with
# scripts/run-tests.sh).
cmake --build build -j "$jobs" --target chapters > /dev/null

runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
for chapter in build/bin/[0-9][0-9]_*; do
  name=$(basename "$chapter")
  echo "=== $name"
  # A chapter that reports a mismatch still has timings worth keeping; the
  # report marks its rows.
  "$chapter" --json "$runs/$name.json" "$@" | grep -E "^(OpenCL|CUDA):|ok|MISMATCH|ERROR" || true
done

# The commit measured: from git, or from GAUSS_COMMIT where the tree is a copy
# without its history (a GPU machine that was sent the files alone).
if [ -n "${GAUSS_COMMIT:-}" ]; then
  commit=$GAUSS_COMMIT
else
  commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)
  if [ -n "$(git status --porcelain 2> /dev/null)" ]; then commit="$commit-dirty"; fi
fi
python3 scripts/benchmark_report.py --commit "$commit" --results results --readme README.md "$runs"/*.json

if command -v ncu > /dev/null 2>&1 && [ "$cuda_device" = ON ]; then
  scripts/profile.sh build "$runs/profile"
else
  echo "no Nsight Compute or no CUDA device here: no profile (scripts/profile.sh)"
fi
