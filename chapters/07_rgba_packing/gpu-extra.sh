#!/usr/bin/env bash
# Chapter 07's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/07_rgba_packing/gpu-extra.sh <build dir> <log folder>
# What the README quotes, and which file holds it (6720x4480):
#   ncu.<variant>.csv, ncu_summary.txt   Nsight Compute of each CUDA colour kernel: ms,
#                                        instructions per pixel, DRAM %, global-load sectors per
#                                        request (3-byte against 4-byte against 16-byte loads)
#   planes.txt                           the planar stages timed apart (split, blur, join), twice
#   radius9.txt / .csv                   every variant at radius 9 (sigma 3): more taps per byte
# About a minute on an H200.
set -uo pipefail
source "$(dirname "$0")/../05_local_memory/gpu_extra_lib.sh"
extra_init 07_rgba_packing "$@"

# 1. Nsight Compute, one launch of each colour kernel.
for variant in rgb24 rgba32 rgba32_x4; do
  NCU_REGEX=blur ncu_variant "$variant" "$variant"
done
# The planar variant's three kernels: split, the first plane's blur, join.
NCU_REGEX=deinterleave ncu_variant planar_split planar
NCU_REGEX=blur_naive ncu_variant planar_blur planar
# The join: not 'interleave', which deinterleave_rgb (launched first) matches too.
NCU_REGEX='(^|[^e])interleave_rgb' ncu_variant planar_join planar
ncu_summary $((6720 * 4480)) rgb24 rgba32 rgba32_x4 planar_split planar_blur planar_join

# 2. The planar stages timed apart, and every variant at radius 9.
run_logged planes --variant planar_split
sed -n '/^API  *split/,/^$/p' "$logs/planes.txt"
run_logged radius9 --radius 9 --sigma 3 --csv "$logs/radius9.csv"
grep -E "^(copy|copy_rgb|rgb24|planar|rgba32|rgba32_x4) " "$logs/radius9.txt"
exit 0
