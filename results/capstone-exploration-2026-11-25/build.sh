#!/bin/bash
# Build the issue-14 bench: ./build.sh  (writes bench and ptxas.log)
set -e
cd "$(dirname "$0")"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
$NVCC -O3 -std=c++17 -arch=sm_90 -lineinfo -Xptxas -v -o bench bench.cu 2> ptxas.log || { cat ptxas.log; exit 1; }
grep -E "Compiling entry|Used [0-9]+ registers|spill" ptxas.log | paste - - - 2>/dev/null | sed -E 's/ptxas info *: //g' | awk '{print}' > regs.txt || true
echo "built bench"
