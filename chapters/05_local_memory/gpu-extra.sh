#!/usr/bin/env bash
# Chapter 05's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/05_local_memory/gpu-extra.sh <build dir> <log folder>
# What the README quotes, and which file holds it (all at 6720x4480 unless named):
#   group_shapes.csv / .txt     the group-shape sweep, both APIs, radius 2 (and _r9 at radius 9)
#   ncu.<variant>.csv           Nsight Compute metrics of each CUDA kernel's third launch
#   ncu_summary.txt             one line per kernel: ms, instructions/pixel, DRAM/SM %, L1 hit,
#                               shared-memory wavefronts and bank conflicts, registers
#   broken_halo.txt             the seminar's size: broken_halo's mismatch count and first pixels
#   image_linear_r9.txt         image_linear at sigma 3, radius 9: its max diff (tolerance 2)
# Plots (on this machine or later): python3 chapters/05_local_memory/plot.py <log folder>/group_shapes.csv
# About a minute on an H200.
set -uo pipefail
source "$(dirname "$0")/gpu_extra_lib.sh"
extra_init 05_local_memory "$@"

# 1. The group-shape sweep at radius 2 (the seminar's blur) and 9 (a halo wider than a 32x8 group).
run_logged group_shapes --variant group_shapes --csv "$logs/group_shapes.csv"
run_logged group_shapes_r9 --variant group_shapes --radius 9 --sigma 3 --csv "$logs/group_shapes_r9.csv"
sed -n '/^kernel  *group/,/^$/p' "$logs/group_shapes.txt"

# 2. The seminar's kernel at its own size: how many pixels its halo bug gets wrong.
run_logged broken_halo --variant broken_halo --repeat 5 --warmup 1
grep -E "MISMATCH" -A3 "$logs/broken_halo.txt" | head -8

# 3. The linear-sampling trick's precision on the GPU: its max diff at radius 2 (above, in the
#    session's run1.txt) and 9 (here), against the tolerance of 2 levels.
run_logged image_linear_r9 --variant image_linear --sigma 3 --radius 9 --repeat 5 --warmup 1
grep -E "^image_linear " "$logs/image_linear_r9.txt"

# 4. Nsight Compute, one launch of each kernel: shared memory against L1.
for variant in naive_32x8 tiled separable_local image_nearest image_linear; do
  ncu_variant "$variant" "$variant"
done
NCU_REGEX=blur_tiled ncu_variant tiled_r9 tiled --radius 9 --sigma 3
NCU_REGEX=blur_naive ncu_variant naive_32x8_r9 naive_32x8 --radius 9 --sigma 3
ncu_summary $((6720 * 4480)) naive_32x8 tiled separable_local image_nearest image_linear naive_32x8_r9 tiled_r9

exit 0
