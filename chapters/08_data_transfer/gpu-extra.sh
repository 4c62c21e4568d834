#!/usr/bin/env bash
# Chapter 08's extra GPU evidence, run by scripts/gpu-session.sh as
#   chapters/08_data_transfer/gpu-extra.sh <build dir> <log folder>
# Prints a short summary (it lands in the session summary); leaves CSV and
# text in the log folder. About a minute on an H200.
set -uo pipefail
build=${1:?usage: gpu-extra.sh <build dir> <log folder>}
logs=${2:?usage: gpu-extra.sh <build dir> <log folder>}
mkdir -p "$logs"
exe="$build/bin/08_data_transfer"
echo "== 08_data_transfer: extra measurements"

# 1. The link the transfers cross: its generation and width set the ceiling
#    (PCIe 5.0 x16: 64 GB/s per direction before protocol overhead).
nvidia-smi --query-gpu=name,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max \
  --format=csv > "$logs/pcie.csv" 2>&1
cat "$logs/pcie.csv"
nvidia-smi topo -m > "$logs/topology.txt" 2>&1

# 2. The whole job and the overlap at 6720x4480, 50 runs each, both APIs (README tables).
"$exe" --variant transfers --variant overlap --repeat 50 --csv "$logs/transfers.csv" --json "$logs/transfers.json" \
  > "$logs/transfers.txt" 2>&1
echo "transfers + overlap, --repeat 50: exit $?"
grep -E "^(OpenCL|CUDA)|^(read_write|pinned|alloc_host_ptr|use_host_ptr|pageable|registered|mapped|mapped_out|managed|managed_prefetch|strips_[0-9]+) |skipped|ERROR|MISMATCH" \
  "$logs/transfers.txt"

# 3. The same at a small size: where fixed costs (launch, synchronisation) dominate.
"$exe" --variant transfers --variant overlap --size 640x480 --repeat 50 --csv "$logs/transfers_640x480.csv" \
  > "$logs/transfers_640x480.txt" 2>&1
echo "transfers + overlap at 640x480: exit $?"

# 4. No leaks: every pinned, registered, mapped and managed allocation freed.
compute-sanitizer --tool memcheck --leak-check full --error-exitcode 99 \
  "$exe" --api cuda --size 451x300 --repeat 2 --warmup 1 > "$logs/leakcheck.log" 2>&1
echo "compute-sanitizer --leak-check full: exit $?; $(grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$logs/leakcheck.log" | tail -1)"

# 5. The timeline of the CUDA overlap: copies and kernels of different strips at the same time.
if command -v nsys > /dev/null; then
  nsys profile --trace cuda --force-overwrite true -o "$logs/overlap" \
    "$exe" --api cuda --variant overlap --repeat 2 --warmup 0 > "$logs/nsys.log" 2>&1
  nsys stats --report cuda_gpu_trace --format csv --output "$logs/overlap" "$logs/overlap.nsys-rep" \
    >> "$logs/nsys.log" 2>&1
  rm -f "$logs/overlap.nsys-rep" "$logs/overlap.sqlite"  # keep the CSV only
  echo "nsys cuda_gpu_trace of the overlap: $(ls "$logs"/overlap*.csv 2> /dev/null | head -1)"
else
  echo "nsys not found: no overlap timeline"
fi
