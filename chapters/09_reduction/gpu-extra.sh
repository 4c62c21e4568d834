#!/usr/bin/env bash
# Chapter 09's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/09_reduction/gpu-extra.sh <build dir> <log folder>
# Prints a short summary (it lands in the session summary); leaves CSV and
# text in the log folder. About two minutes on an H200.
set -uo pipefail
build=${1:?usage: gpu-extra.sh <build dir> <log folder>}
logs=${2:?usage: gpu-extra.sh <build dir> <log folder>}
mkdir -p "$logs"
exe="$build/bin/09_reduction"
echo "== 09_reduction: extra measurements"

# 1. The ladder at 6720x4480 with 50 runs per method (README table), both APIs.
"$exe" --variant reduction --variant brightness --repeat 50 --csv "$logs/reduction.csv" --json "$logs/reduction.json" \
  > "$logs/reduction.txt" 2>&1
echo "reduction + brightness, --repeat 50: exit $?"
sed -n '/^method /,/^$/p' "$logs/reduction.txt"
grep -E "^the input|^the blur|^  the borders|^  rounding|blurred and summed" "$logs/reduction.txt"

# 2. GB/s against the number of bytes, 1 KiB to 256 MiB (README plot: plot.py).
"$exe" --variant sweep --csv "$logs/sweep.csv" > "$logs/sweep.txt" 2>&1
echo "sweep: exit $?"
grep -E "^ *(1048576|16777216|268435456) " "$logs/sweep.txt"

# 3. Nsight Compute on every sum kernel of one ladder run (CUDA, the photo's 30 MB).
ncu --clock-control none --kernel-name regex:"sum_" --launch-count 12 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
  --section WarpStateStats --section SchedulerStats \
  "$exe" --api cuda --variant reduction --repeat 1 --warmup 0 > "$logs/ncu.sum.txt" 2>&1
echo "ncu on the sum kernels: exit $?"
grep -E "^  [a-zA-Z_:<>(), ]*sum_|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per Thread" \
  "$logs/ncu.sum.txt" | head -80

# 4. The machine code: does the compiler turn 30 million atomicAdds on one
#    address into one per warp? (Look for REDUX/VOTE before the ATOMG/RED.)
object=$(find "$build/chapters/09_reduction" -name 'reduce.cu.o' | head -1)
if [ -n "$object" ] && command -v cuobjdump > /dev/null; then
  cuobjdump --dump-sass "$object" > "$logs/reduce.sass.txt" 2>&1
  for kernel in sum_racy sum_atomic sum_atomic_group sum_tree_atomic; do
    echo "-- SASS of $kernel: memory and warp-wide instructions"
    awk -v k="$kernel" '/Function :/ { p = ($0 ~ k "EPKhjPy") } p' "$logs/reduce.sass.txt" |
      grep -oE "(ATOMG|ATOMS|RED|REDUX|VOTE|POPC|FLO|SHFL|LDG|STG|BAR)[.A-Z0-9_]*" | sort | uniq -c
  done
fi

# 5. The same kernels compiled by NVIDIA's OpenCL driver (PTX): atom.add per item or not.
mkdir -p "$logs/cl"
GAUSS_DUMP_CL_BINARIES="$logs/cl" "$exe" --api opencl --variant reduction --size 64x64 --repeat 1 --warmup 0 \
  > /dev/null 2>&1
for ptx in "$logs"/cl/*reduce*; do
  [ -f "$ptx" ] || continue
  # Whole words only: 'red\.' alone also matches ld.shared./st.shared.
  echo "-- $(basename "$ptx"): $(grep -cE '(^|[[:space:]])(atom|red)\.' "$ptx") atom/red instructions, $(grep -c 'bar\.sync' "$ptx") barriers"
done
