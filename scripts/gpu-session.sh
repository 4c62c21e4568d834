#!/usr/bin/env bash
# A full run on a GPU machine (CUDA, NVIDIA's OpenCL driver, compute-sanitizer
# and Nsight Compute installed): build, test, sanitize, profile and time every
# chapter in one go, and leave the logs under $OUT. From the repository root:
#   scripts/gpu-session.sh [--phase all|check|sanitize|time|extra] [chapter ...]
# (default: every phase, every chapter). Where a command's time is limited,
# run the phases as separate commands, back to back: each reuses the build.
#   check: build, the test suite (the CUDA tests run here)
#   sanitize: compute-sanitizer on every chapter's CUDA kernels
#   time:  each chapter twice at 6720x4480 (JSON/CSV), and on PoCL if there
#   extra: Nsight Compute, SASS and OpenCL PTX, scripts/gpu-extra.sh with chapters/*/gpu-extra.conf
# What comes back: $OUT/summary.txt (the tables), $OUT/results.tar.gz (every
# log, JSON and CSV), and nothing else: two files to copy back.
set -uo pipefail
phase=all
if [ "${1:-}" = "--phase" ]; then phase=$2; shift 2; fi
want() { [ "$phase" = all ] || [ "$phase" = "$1" ]; }
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT/logs"
logs="$OUT/logs"
summary="$OUT/summary.txt"
: > "$summary"
jobs=$(nproc)
note() { echo "== $*" | tee -a "$summary"; }

note "environment ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem,clocks.max.sm,power.limit --format=csv
  nvcc --version | tail -2
  cmake --version | head -1
  c++ --version | head -1
  uname -r
} 2>&1 | tee -a "$summary"
nvidia-smi -q > "$logs/nvidia-smi.txt" 2>&1
clinfo > "$logs/clinfo.txt" 2>&1

note "configure and build"
build_start=$SECONDS
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release > "$logs/configure.log" 2>&1 || { tail -30 "$logs/configure.log" | tee -a "$summary"; }
cmake --build build-gpu -j "$jobs" > "$logs/build.log" 2>&1 || { grep -E "error" "$logs/build.log" | head -40 | tee -a "$summary"; }
echo "configure and build: $((SECONDS - build_start)) s with $jobs jobs" | tee -a "$summary"
# The slowest compilations (seconds, output), from Ninja's log.
[ -f build-gpu/.ninja_log ] && awk 'NR > 1 { printf "%8.1f s  %s\n", ($2 - $1) / 1000, $4 }' build-gpu/.ninja_log |
  sort -rn | head -8 | tee -a "$summary"
# The compiler's resource report for every kernel (registers, spills, shared memory).
# (scripts/ptxas-report.sh, the CUDA compiler launcher, files it in the build folder.)
grep -E "Compiling entry|Function properties|bytes stack frame|Used [0-9]+ registers" build-gpu/ptxas-report.txt > "$logs/ptxas.txt"

chapters=("$@")
if [ ${#chapters[@]} -eq 0 ]; then
  for exe in build-gpu/bin/[0-9][0-9]_*; do chapters+=("$(basename "$exe")"); done
fi

if want check; then
note "tests"
# The whole suite but the students' own exercises (label exercise), 8 at a
# time; the CUDA tests share the one GPU.
tests_start=$SECONDS
ctest --test-dir build-gpu -j 8 --output-on-failure -LE "^exercise$" > "$logs/ctest.log" 2>&1
echo "the test suite: $((SECONDS - tests_start)) s with 8 at a time" | tee -a "$summary"
tail -25 "$logs/ctest.log" | tee -a "$summary"
fi

if want sanitize; then
note "compute-sanitizer on every CUDA kernel (awkward sizes)"
for chapter in "${chapters[@]}"; do
  for tool in memcheck racecheck initcheck synccheck; do
    for args in "--size 451x300" "--size 37x23 --radius 9 --sigma 3"; do
      # initcheck and synccheck on one size: they are the slow ones.
      if [ "$tool" = initcheck ] || [ "$tool" = synccheck ]; then [ "$args" = "--size 451x300" ] || continue; fi
      log="$logs/sanitizer.$chapter.$tool.$(echo "$args" | tr -c 'a-z0-9' '_').log"
      compute-sanitizer --tool "$tool" --error-exitcode 99 \
        "build-gpu/bin/$chapter" --api cuda $args --repeat 2 --warmup 1 > "$log" 2>&1
      status=$?
      echo "$chapter $tool ($args): exit $status; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)" | tee -a "$summary"
    done
  done
done
if [ -x build-gpu/tests/test_01_naive ]; then
  for chapter in "${chapters[@]}"; do
    [ -x "build-gpu/tests/test_$chapter" ] || continue
    compute-sanitizer --tool memcheck --error-exitcode 99 "build-gpu/tests/test_$chapter" "[cuda]" \
      > "$logs/sanitizer.test_$chapter.log" 2>&1
    echo "test_$chapter [cuda] memcheck: exit $?; $(grep 'ERROR SUMMARY' "$logs/sanitizer.test_$chapter.log" | tail -1)" | tee -a "$summary"
  done
fi

fi

if want time; then
note "timings at the benchmark size (6720x4480), both APIs, twice to show the spread"
for chapter in "${chapters[@]}"; do
  for run in 1 2; do
    "build-gpu/bin/$chapter" --json "$logs/$chapter.run$run.json" --csv "$logs/$chapter.run$run.csv" \
      > "$logs/$chapter.run$run.txt" 2>&1
    echo "--- $chapter, run $run (exit $?)" >> "$summary"
    cat "$logs/$chapter.run$run.txt" >> "$summary"
  done
done

note "the same on the host CPU through PoCL, where the GPU machine has it (for contrast)"
if "build-gpu/bin/${chapters[0]}" --list-devices 2>/dev/null | grep -q "^  1: .*Portable Computing Language"; then
  for chapter in "${chapters[@]}"; do
    "build-gpu/bin/$chapter" --api opencl --device 1 --json "$logs/$chapter.pocl.json" > "$logs/$chapter.pocl.txt" 2>&1
    echo "--- $chapter on PoCL (exit $?)" >> "$summary"
    cat "$logs/$chapter.pocl.txt" >> "$summary"
  done
else
  echo "no PoCL device on this machine" | tee -a "$summary"
fi

fi

if want extra; then
note "Nsight Compute on the CUDA kernels of chapters without their own gpu-extra.conf (clocks left alone)"
for chapter in "${chapters[@]}"; do
  [ -f "chapters/$chapter/gpu-extra.conf" ] && continue
  ncu --clock-control none --kernel-name regex:"${NCU_KERNELS:-blur}" --launch-skip 1 --launch-count 3 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --section ComputeWorkloadAnalysis --section InstructionStats \
    "build-gpu/bin/$chapter" --api cuda --repeat 2 --warmup 1 > "$logs/ncu.$chapter.txt" 2>&1
  echo "ncu $chapter: exit $?" | tee -a "$summary"
  grep -E "^  [a-z_]+.*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Compute \(SM\) Throughput|Registers Per Thread" \
    "$logs/ncu.$chapter.txt" | head -60 >> "$summary"
done

note "chapter-specific measurements (scripts/gpu-extra.sh with chapters/*/gpu-extra.conf)"
for chapter in "${chapters[@]}"; do
  [ -f "chapters/$chapter/gpu-extra.conf" ] || continue
  mkdir -p "$logs/$chapter.extra"
  # The runner takes <chapter> <build dir> <folder for its logs>; what it prints goes to the summary.
  scripts/gpu-extra.sh "$chapter" build-gpu "$logs/$chapter.extra" >> "$summary" 2>&1
  echo "scripts/gpu-extra.sh $chapter: exit $?" | tee -a "$summary"
done

note "SASS and OpenCL binaries"
find build-gpu/chapters -name '*.cu.o' | while read -r object; do
  cuobjdump --dump-sass "$object" > "$logs/sass.$(basename "$object").txt" 2>&1
done
mkdir -p "$logs/cl_binaries"
for chapter in "${chapters[@]}"; do
  GAUSS_DUMP_CL_BINARIES="$logs/cl_binaries" "build-gpu/bin/$chapter" --api opencl --size 64x64 --repeat 1 \
    --warmup 0 > /dev/null 2>&1
done
fi
cp "$logs/ptxas.txt" "$OUT/" 2>/dev/null

tar -czf "$OUT/results.tar.gz" -C "$OUT" logs
rm -rf "$logs"
note "done"
