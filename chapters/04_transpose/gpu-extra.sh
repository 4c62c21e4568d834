#!/usr/bin/env bash
# Chapter 04's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/04_transpose/gpu-extra.sh <build dir> <log folder>
# What the README quotes, and which file holds it:
#   sigma5.csv, sigma5.estimates.csv, sigma5.transpose_float.csv   the table at Apple's sigma 5, radius 15
#   height_<h>.csv                                                  transposes and pipeline at 6720 x h
#   ncu_transposes.csv                                              bank conflicts, sectors per request
#   ncu_pipeline.csv                                                each kernel of rgv_t_rgv_t and rgv_rgh
# Takes about two minutes on an H200.
set -uo pipefail
tag=04
source "$(dirname "$0")/../02_work_size/gpu_extra_lib.sh"
extra_arguments "$@"
exe="$build/bin/04_transpose"

# 1. Apple's sigma 5 (31 taps): the estimate table with Apple's own counts.
run sigma5 --sigma 5 --radius 15
sed -n '/^OpenCL (copy/,$p' "$logs/sigma5.txt" | head -20

# 2. Apple: "the naive transpose slows as the image height grows". The
#    transposes and both recursive blurs at one width and four heights.
for height in 1120 2240 4480 8960; do
  run "height_$height" --size "6720x$height" --variant transpose_naive --variant transpose_16 \
    --variant transpose_16_skewed --variant transpose_32x8 --variant rgv_rgh --variant rgv_t_rgv_t
done
grep -hE "^transpose_naive|^rgv" "$logs"/height_*.txt | head -24

# 3. Nsight Compute on the transposes (8-bit variants, then the float section):
#    shared-memory bank conflicts and global sectors per request.
metrics=gpu__time_duration.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
transposes=(--variant transpose_naive --variant transpose_16 --variant transpose_16_padded --variant transpose_16_skewed
  --variant transpose_32x8 --variant transpose_float)
ncu_csv ncu_transposes transpose "$metrics" --api cuda "${transposes[@]}" --repeat 1 --warmup 0

# 4. Each kernel of the two recursive blurs, timed on its own.
ncu_csv ncu_pipeline "rg_rows|rg_columns|transpose" \
  gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active \
  --api cuda --variant rgv_rgh --variant rgv_t_rgv_t --repeat 1 --warmup 0
grep gpu__time_duration "$logs/ncu_pipeline.csv" | awk -F'","' '{print $5, $NF}' | sed 's/"//g'
exit 0
