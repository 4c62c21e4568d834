#!/bin/bash
# Build the second issue-14 bench: ./build.sh [output]  (ptxas report in ptxas.log beside the output)
set -e
cd "$(dirname "$0")"
out=${1:-./bench_async}
mkdir -p "$(dirname "$out")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
$NVCC -O3 -std=c++17 -arch=sm_90 -lineinfo -Xptxas -v -I ../capstone-exploration-2026-11-25 -o "$out" bench_async.cu \
  2> "$out.ptxas.log" || { cat "$out.ptxas.log"; exit 1; }
echo "built $out"
