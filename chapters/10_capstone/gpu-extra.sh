#!/usr/bin/env bash
# Chapter 10's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/10_capstone/gpu-extra.sh <build dir> <log folder>
# What the README quotes, and which file holds it:
#   shapes.txt/.csv           the launch shapes compared at radius 2, both APIs
#   size_sweep.txt/.csv       0.25 to 100 megapixels, fused against the copy
#   radius_sweep.txt/.csv     radius 1 to 16, gray and RGBA
#   ncu_fused.txt, ncu_npp.txt  Nsight Compute on the fused kernels and NPP's
#   opencl_sass.txt           SASS instruction counts of the OpenCL kernels (PTX from the driver)
# About three minutes on an H200.
set -uo pipefail
build=${1:?usage: gpu-extra.sh <build dir> <log folder>}
logs=${2:?usage: gpu-extra.sh <build dir> <log folder>}
mkdir -p "$logs"
exe="$build/bin/10_capstone"
echo "== 10_capstone: extra measurements"

"$exe" --variant shapes --repeat 30 --csv "$logs/shapes.csv" > "$logs/shapes.txt" 2>&1
echo "shapes: exit $?"
sed -n '/=== launch shapes/,$p' "$logs/shapes.txt"

"$exe" --variant size_sweep --csv "$logs/size_sweep.csv" > "$logs/size_sweep.txt" 2>&1
echo "size sweep: exit $?"
sed -n '/=== size sweep/,$p' "$logs/size_sweep.txt"

"$exe" --variant radius_sweep --csv "$logs/radius_sweep.csv" > "$logs/radius_sweep.txt" 2>&1
echo "radius sweep: exit $?"

# Where the time goes in the fused kernels and in NPP's (clocks left alone).
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats
          --section ComputeWorkloadAnalysis --section Occupancy --section LaunchStats --section SchedulerStats
          --section InstructionStats)
for variant in fused fused_rgba; do
  ncu --clock-control none --kernel-name regex:blur_warp_strip --launch-skip 2 --launch-count 1 "${sections[@]}" \
    "$exe" --api cuda --variant "$variant" --repeat 3 --warmup 1 > "$logs/ncu_$variant.txt" 2>&1
  echo "ncu $variant: exit $?"
  grep -E "Duration|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Achieved Occupancy|Registers Per Thread|Executed Instructions  |No Eligible|L2 Hit Rate" \
    "$logs/ncu_$variant.txt"
done
# NPP's kernels have NPP's names: skip the 4 copy launches (1 warm-up + 3
# timed) and profile the next three launches, whatever they are called.
for variant in npp npp_rgba; do
  ncu --clock-control none --launch-skip 4 --launch-count 3 "${sections[@]}" \
    "$exe" --api cuda --variant "$variant" --repeat 3 --warmup 1 > "$logs/ncu_$variant.txt" 2>&1
  echo "ncu $variant: exit $?"
  grep -E "^  [A-Za-z_].*\(|Duration|DRAM Throughput|Compute \(SM\) Throughput|Issue Slots Busy|Executed Instructions  " \
    "$logs/ncu_$variant.txt" | cut -c1-160
done

# What NVIDIA's OpenCL compiler made of the strip kernel: its PTX, assembled
# here for the same GPU, instruction counts by kind.
mkdir -p "$logs/cl"
GAUSS_DUMP_CL_BINARIES="$logs/cl" "$exe" --api opencl --variant fused --variant fused_rgba --size 256x256 \
  --repeat 1 --warmup 0 > /dev/null 2>&1
for ptx in "$logs"/cl/blur_fused*.bin; do
  echo "--- $(basename "$ptx")"
  # The driver's PTX binary ends in NUL bytes, which ptxas refuses.
  tr -d '\000' < "$ptx" > "$logs/cl/kernel.ptx"
  ptxas -v -arch=sm_90 "$logs/cl/kernel.ptx" -o "$logs/cl/kernel.cubin" 2>&1 | grep -E "registers|spill" || continue
  cuobjdump --dump-sass "$logs/cl/kernel.cubin" | grep -oE '^\s+/\*[0-9a-f]+\*/\s+[A-Z0-9.]+' | awk '{print $2}' \
    | sed 's/\..*//' | sort | uniq -c | sort -rn | head -12
done > "$logs/opencl_sass.txt" 2>&1
rm -f "$logs/cl/kernel.cubin" "$logs/cl/kernel.ptx"
