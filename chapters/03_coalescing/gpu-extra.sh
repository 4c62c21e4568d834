#!/usr/bin/env bash
# Chapter 03's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/03_coalescing/gpu-extra.sh <build dir> <log folder>
# What the README quotes, and which file holds it:
#   sigma5.csv / .txt               every variant at Apple's sigma 5 (FIR radius 15: 31 taps), both APIs
#   sweep.width_sweep.csv / .txt    MP/s of rgh, rgv and fir_h against width, height 4480, both APIs
#   ncu_passes.csv                  memory transactions: sectors per request, L1 hits, DRAM bytes, occupancy
#   ptx/                            the OpenCL kernels as NVIDIA's driver compiled them
# Takes about two minutes on an H200.
set -uo pipefail
tag=03
source "$(dirname "$0")/../02_work_size/gpu_extra_lib.sh"
extra_arguments "$@"
exe="$build/bin/03_coalescing"

# 1. The whole table at Apple's sigma (5; the FIR passes with radius 15, 31 taps).
run sigma5 --sigma 5 --radius 15
sed -n '/^variant /,/^$/p' "$logs/sigma5.txt"

# 2. Megapixels per second against width, at the benchmark's height (4480).
run sweep --variant width_sweep
sed -n '/^API  *width/,/^$/p' "$logs/sweep.txt"

# 3. Nsight Compute on one launch of each pass at 6720x4480: how many 32-byte
#    sectors each warp-wide load or store touches (1 for 32 bytes side by
#    side, 32 for 32 bytes a row apart), the L1 hit rate, DRAM and L2 bytes.
metrics=gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size
ncu_csv ncu_passes "rg_rows|rg_columns|fir_rows|fir_columns" "$metrics" \
  --api cuda --variant rgh --variant rgv --variant fir_h --variant fir_v --repeat 1 --warmup 0
grep -E "sectors_pipe_lsu_mem_global_op_(ld|st)|requests_pipe_lsu_mem_global_op_(ld|st)|gpu__time_duration" \
  "$logs/ncu_passes.csv" | awk -F'","' '{print $5, $(NF-2), $NF}' | sed 's/"//g' | head -24

# 4. The OpenCL kernels as NVIDIA's driver compiles them (PTX).
mkdir -p "$logs/ptx"
GAUSS_DUMP_CL_BINARIES="$logs/ptx" "$exe" --api opencl --size 64x64 --repeat 1 --warmup 0 > /dev/null 2>&1
echo "03 extra: OpenCL binaries: $(ls "$logs/ptx" | wc -l) files"
exit 0
