#!/usr/bin/env bash
# Chapter 06's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/06_constant_memory/gpu-extra.sh <build dir> <log folder>
# What the README quotes, and which file holds it:
#   compiler_report.txt     per kernel: ptxas registers / stack / spills, PTX ld.local / ld.const /
#                           ld.param / ld.global, SASS LDL / STL / LDC / LDG (nvcc, sm_90), and the
#                           same PTX counts in the OpenCL programs NVIDIA's driver returned
#   cl_ptx/*.bin            those OpenCL programs (PTX text), radius 2
#   radius_sweep.csv / .txt R = 1..16 (sigma R/3), every variant, both APIs, 6720x4480
#   ncu.<variant>.csv, ncu_summary.txt   Nsight Compute at radius 2 (and array_runtime_r9)
# Plot: python3 chapters/06_constant_memory/plot.py <log folder>/radius_sweep.csv
# About two minutes on an H200 (the sweep dominates).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../05_local_memory/gpu_extra_lib.sh"
extra_init 06_constant_memory "$@"

# 1. What the compilers made of each kernel: nvcc (PTX, SASS, ptxas -v) and
#    NVIDIA's OpenCL driver (the PTX it returns as the program binary).
mkdir -p "$logs/cl_ptx"
GAUSS_DUMP_CL_BINARIES="$logs/cl_ptx" "$exe" --api opencl --size 64x64 --repeat 1 --warmup 0 > /dev/null 2>&1
rm -f "$logs"/cl_ptx/copy*.bin
python3 "$here/compiler_report.py" --out "$(mktemp -d)" --cl-ptx "$logs/cl_ptx" > "$logs/compiler_report.txt" 2>&1
cat "$logs/compiler_report.txt"

# 2. Nsight Compute at radius 2: where the weight loads go (local memory sectors, L1 hit rate).
for variant in array_fixed array_runtime constant_runtime constant_fixed global_runtime; do
  ncu_variant "$variant" "$variant"
done
ncu_variant array_runtime_r9 array_runtime --radius 9 --sigma 3
ncu_variant constant_runtime_r9 constant_runtime --radius 9 --sigma 3
ncu_variant constant_fixed_r9 constant_fixed --radius 9 --sigma 3
ncu_summary $((6720 * 4480)) array_fixed array_runtime constant_runtime constant_fixed global_runtime \
  array_runtime_r9 constant_runtime_r9 constant_fixed_r9

# 3. The radius sweep, both APIs (fewer runs: 160 points).
run_logged radius_sweep --variant radius_sweep --repeat 10 --warmup 2 --csv "$logs/radius_sweep.csv"
sed -n '/sigma = R\/3:/,/^$/p' "$logs/radius_sweep.txt" | head -40
exit 0
