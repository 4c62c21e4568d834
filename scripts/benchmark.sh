#!/usr/bin/env bash
# The tutorial-wide benchmark: every chapter's variants at the benchmark size
# (6720x4480, the default) on the chosen device, collected into
# results/<device>.csv, plotted into results/<device>.png (the main line's
# climb as % of the copy bandwidth, both APIs), and the tables regenerated
# between their markers: the main line in README.md, two GPUs side by side in
# docs/benchmarks.md, every lesson's tables (scripts/readme_tables.py). Where
# Nsight Compute and a CUDA device are present it then profiles each
# main-line step (scripts/profile.sh): results/<device>-profile.csv and
# results/roofline.png. docs/benchmarks.md says how to read them.
#
#   scripts/benchmark.sh                 # device 0 of each API (a GPU first)
#   scripts/benchmark.sh --device 1      # any option every chapter takes
#
# Needs python3 with matplotlib (Debian: python3-matplotlib) for the plot and
# the table; the runs themselves need only the build.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh

start=$SECONDS
echo "== configure and build the chapters in build/ (the log: build/build.log; ptxas's report of every kernel:"
echo "   build/ptxas-report.txt)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
# The chapters alone: the benchmark runs nothing else (the tests build with
# scripts/run-tests.sh).
if ! cmake --build build -j "$jobs" --target chapters > build/build.log 2>&1; then
  grep -E "error|Error" build/build.log | head -40
  echo "the build failed: build/build.log has the whole log" >&2
  exit 1
fi
echo "   built in $((SECONDS - start)) s"

runs=$(mktemp -d)
trap 'rm -rf "$runs"' EXIT
chapters=(build/bin/[0-9][0-9]_*)
for i in "${!chapters[@]}"; do
  chapter=${chapters[$i]}
  name=$(basename "$chapter")
  echo "== $name ($((i + 1)) of ${#chapters[@]}, $((SECONDS - start)) s so far): its devices, its runs, each row's status"
  # A chapter that reports a mismatch still has timings worth keeping; the
  # report marks its rows.
  "$chapter" --json "$runs/$name.json" "$@" | grep -E "^(OpenCL|CUDA):|^  \[|ok|MISMATCH|ERROR|skipped" || true
done

# The commit measured: from git, or from GAUSS_COMMIT where the tree is a copy
# without its history (a GPU machine that was sent the files alone).
if [ -n "${GAUSS_COMMIT:-}" ]; then
  commit=$GAUSS_COMMIT
else
  commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)
  if [ -n "$(git status --porcelain 2> /dev/null)" ]; then commit="$commit-dirty"; fi
fi
echo "== the report: results/, README.md's main-line table, docs/benchmarks.md, the lessons' tables"
python3 scripts/benchmark_report.py --commit "$commit" --results results --readme README.md \
  --gpus-page docs/benchmarks.md "$runs"/*.json

if command -v ncu > /dev/null 2>&1 && [ "$cuda_device" = ON ]; then
  echo "== Nsight Compute: each main-line step's profile (scripts/profile.sh)"
  scripts/profile.sh build "$runs/profile"
else
  echo "no Nsight Compute or no CUDA device here: no profile (scripts/profile.sh)"
fi
