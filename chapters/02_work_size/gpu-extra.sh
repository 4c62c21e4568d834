#!/usr/bin/env bash
# Chapter 02's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/02_work_size/gpu-extra.sh <build dir> <log folder>
# Writes CSV and text files into the log folder and prints a short summary.
# What the README quotes, and which file holds it:
#   sweeps.compute_sweep.csv, sweeps.compute_sweep_reserved.csv   toropippi's sweep, both series, both APIs
#   rigaya_2048.rigaya_add.csv, rigaya_odd.rigaya_add.csv        {1,1} against {32,1} at 2048x2048 and 2047x1999
#   shapes_r9.csv / .txt                                          every shape at radius 9 (register limits)
#   ncu_shapes.csv, ncu_loop.csv                                  occupancy and active threads per warp
#   ptx/, loop_sass.txt, resource_usage.txt                       what each compiler made of the loop
# Takes about two minutes on an H200.
set -uo pipefail
tag=02
source "$(dirname "$0")/../02_work_size/gpu_extra_lib.sh"
extra_arguments "$@"
exe="$build/bin/02_work_size"

# 1. toropippi's compute-bound sweep, plain and residency-limited (the image is irrelevant: 64x64).
run sweeps --size 64x64 --variant compute_sweep --variant compute_sweep_reserved
sed -n '/^API  *group/,/^$/p' "$logs/sweeps.txt"

# 2. rigaya's add at the seed's 2048x2048 and at an odd size (the bounds guard at work).
run rigaya_2048 --size 2048x2048 --variant rigaya_add
run rigaya_odd --size 2047x1999 --variant rigaya_add
sed -n '/^local size/,/^The host clock/p' "$logs/rigaya_2048.txt"

# 3. Every shape at radius 9: the fully unrolled kernel needs ~130 registers
#    per thread, so the largest shapes exceed the kernel's limit and are
#    refused with the reason (their rows say skipped; the exit status stays 0).
run shapes_r9 --sigma 3 --radius 9
grep -E "cannot run|^OpenCL |^CUDA " "$logs/shapes_r9.txt" | head -12

# 4. Nsight Compute: achieved occupancy and active threads per warp of the
#    blur in each shape (one launch each), and of the loop at every group size.
metrics=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,smsp__thread_inst_executed_per_inst_executed.ratio,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__registers_per_thread,launch__block_size,sm__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
shapes=()
for s in 1x1 2x1 4x1 8x1 16x1 32x1 64x1 128x1 256x1 512x1 1024x1 1x32 8x8 16x16 32x8 64x4 32x32 auto; do
  shapes+=(--variant "naive_$s")
done
ncu_csv ncu_shapes blur_naive "$metrics" --api cuda "${shapes[@]}" --repeat 1 --warmup 0
ncu_csv ncu_loop sin_divide_loop "$metrics" --api cuda --size 64x64 --variant compute_sweep \
  --variant compute_sweep_reserved --repeat 1 --warmup 0

# 5. What the compilers made of the loop: OpenCL's PTX (NVIDIA's driver) and
#    CUDA's SASS; count the division and sine instructions.
mkdir -p "$logs/ptx"
GAUSS_DUMP_CL_BINARIES="$logs/ptx" "$exe" --api opencl --size 64x64 --variant rigaya_add --repeat 1 --warmup 0 > /dev/null 2>&1
for f in "$logs"/ptx/work_size*.bin; do
  [ -f "$f" ] || continue
  echo "02 extra: OpenCL PTX $(basename "$f"): div.rn $(grep -c 'div.rn.f32' "$f"), div.full $(grep -c 'div.full.f32' "$f"), div.approx $(grep -c 'div.approx' "$f"), sin.approx $(grep -c 'sin.approx' "$f")"
done
object=$(find "$build/chapters/02_work_size" -name 'work_size.cu.o' | head -1)
if [ -n "$object" ]; then
  cuobjdump --dump-resource-usage "$object" > "$logs/resource_usage.txt" 2>&1
  cuobjdump --dump-sass "$object" | awk '/Function : .*sin_divide_loop/ {f=1; next} /Function :/ {f=0} f' > "$logs/loop_sass.txt"
  echo "02 extra: CUDA SASS of the loop: $(grep -cE '^\s+/\*[0-9a-f]+\*/' "$logs/loop_sass.txt") instructions in all, MUFU $(grep -c MUFU "$logs/loop_sass.txt")"
  grep -E "sin_divide_loop|add_ints" -A1 "$logs/resource_usage.txt" | head -6
fi
exit 0
