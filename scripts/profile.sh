#!/usr/bin/env bash
# A profile row per main-line step: Nsight Compute on the CUDA kernel of each
# chapter's main-line variant (the one registered with line "main"), at the
# benchmark size, clocks left alone. Writes results/<device>-profile.csv and
# results/<device>-roofline.png through scripts/profile_report.py, and the
# raw ncu CSVs under <log folder>.
#
#   scripts/profile.sh [build dir] [log folder]     # defaults: build, /tmp/gauss-profile
#
# Needs ncu (Nsight Compute) and a CUDA device; about 10 s a step on an H200 (17 steps).
# Run it on the GPU machine after the build (scripts/gpu-session.sh does, in
# phase extra).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
logs=${2:-/tmp/gauss-profile}
mkdir -p "$logs"

# The main line: <chapter> <variant> per step, in the order of the climb
# (the variants each chapter registers with line "main"). Chapter 01's naive
# kernel is the start; 07's main is RGBA; from 10 on each chapter has a gray
# main and a main_rgba; 08 and 09 are interludes with metrics of their own
# (transfers, a reduction) and 15 (every radius) a sweep: none has a step.
steps=(
  "01_naive naive"
  "02_work_size main"
  "03_coalescing main"
  "04_transpose main"
  "05_local_memory main"
  "06_constant_memory main"
  "07_rgba_packing main"
  "10_registers main"
  "10_registers main_rgba"
  "11_packed_halves main"
  "11_packed_halves main_rgba"
  "12_async_copies main"
  "12_async_copies main_rgba"
  "13_block_tiles main"
  "13_block_tiles main_rgba"
  "14_capstone main"
  "14_capstone main_rgba"
)

# What each row needs: time, thread and warp instructions, issue slots,
# achieved occupancy, registers, DRAM traffic and throughput, L2 hits, and the
# device's SM count and clock for the issue roof.
metrics=gpu__time_duration.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum
metrics+=,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,launch__registers_per_thread,launch__occupancy_limit_registers,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
metrics+=,device__attribute_multiprocessor_count,sm__cycles_elapsed.avg.per_second
metrics+=,launch__grid_size,launch__block_size

files=()
for step in "${steps[@]}"; do
  read -r chapter variant <<< "$step"
  exe="$build/bin/$chapter"
  [ -x "$exe" ] || { echo "profile: $exe not built, skipped"; continue; }
  csv="$logs/$chapter.$variant.csv"
  # Every kernel of the tutorial's blurs has "blur" in its name (the copy
  # does not); the third launch is after the warm-up, in the timed loop.
  ncu --clock-control none --kernel-name regex:blur --launch-skip 2 --launch-count 1 --csv --page raw \
    --metrics "$metrics" "$exe" --api cuda --variant "$variant" --repeat 2 --warmup 1 > "$csv" 2> "$csv.err"
  echo "profile: $chapter $variant: exit $?"
  files+=("$chapter:$variant:$csv")
done

device=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
python3 scripts/profile_report.py --device "$device" --results results "${files[@]}"

# OpenCL: the counters cannot attribute NVIDIA's OpenCL kernels as they do
# CUDA's, so its side of the row is what its compiler made of each
# main-line kernel: the PTX the driver built (GAUSS_DUMP_CL_BINARIES),
# assembled by ptxas for this GPU, its registers and its SASS length.
opencl_out="results/$(echo "$device" | sed 's/[^A-Za-z0-9]\{1,\}/_/g; s/^_//; s/_$//')-opencl.txt"
echo "# $device: NVIDIA's OpenCL kernels of the main line, PTX from the driver, ptxas -arch=sm_90" > "$opencl_out"
for step in "${steps[@]}"; do
  read -r chapter variant <<< "$step"
  [ -x "$build/bin/$chapter" ] || continue
  mkdir -p "$logs/cl/$chapter.$variant"
  GAUSS_DUMP_CL_BINARIES="$logs/cl/$chapter.$variant" "$build/bin/$chapter" --api opencl --variant "$variant" \
    --size 256x256 --repeat 1 --warmup 0 > /dev/null 2>&1
  for binary in "$logs/cl/$chapter.$variant"/*.bin; do
    [ -f "$binary" ] || continue
    # The driver's PTX ends in NUL bytes, which ptxas refuses.
    tr -d '\000' < "$binary" > "$logs/kernel.ptx"
    # A program can hold several kernels (chapter 10's holds two): one line
    # per kernel, its registers and its SASS length.
    ptxas -v -arch=sm_90 "$logs/kernel.ptx" -o "$logs/kernel.cubin" > "$logs/ptxas.txt" 2>&1
    cuobjdump --dump-sass "$logs/kernel.cubin" > "$logs/kernel.sass" 2> /dev/null
    python3 - "$logs/ptxas.txt" "$logs/kernel.sass" "$chapter $variant $(basename "$binary" .bin)" >> "$opencl_out" <<'PY'
import re, sys
registers, kernel = {}, None
for line in open(sys.argv[1]):
    m = re.search(r"Compiling entry function '(\w+)'", line)
    if m:
        kernel = m.group(1)
    m = re.search(r"Used (\d+) registers", line)
    if m and kernel:
        registers[kernel], kernel = int(m.group(1)), None
sass, kernel = {}, None
for line in open(sys.argv[2]):
    m = re.match(r"\s+Function : (\w+)", line)
    if m:
        kernel = m.group(1)
        sass[kernel] = 0
    elif kernel and re.match(r"\s+/\*[0-9a-f]+\*/", line):
        sass[kernel] += 1
for name in sorted(registers):
    print(f"{sys.argv[3]} {name}: Used {registers[name]} registers, {sass.get(name, 0)} SASS instructions")
PY
  done
done
echo "wrote $opencl_out"
