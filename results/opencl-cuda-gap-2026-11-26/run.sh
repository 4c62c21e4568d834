#!/usr/bin/env bash
# Why do chapter 10's OpenCL block tiles run faster than its CUDA ones? Every
# run of NOTES.md, on the GPU machine, from the repository's root, after
# building the chapter (cmake --build build --target 10_capstone):
#   results/opencl-cuda-gap-2026-11-26/run.sh [build dir] [work dir]
# Makes the kernels' modules (the PTX NVIDIA's OpenCL driver built, as the
# chapter dumps it; nvcc's PTX and cubin of blur_half2.cu), builds the two
# harnesses and runs them. Needs nvcc, ptxas and the chapter's OpenCL device.
set -euo pipefail
trap 'echo "run.sh: line $LINENO failed: $BASH_COMMAND" >&2' ERR
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
work=${2:-/tmp/opencl-cuda-gap}
mkdir -p "$work/cl"

# The OpenCL driver's programs (PTX on NVIDIA's): fused and fused_rgba, and the copy.
GAUSS_DUMP_CL_BINARIES="$work/cl" "$build/bin/10_capstone" --api opencl --variant fused --variant fused_rgba \
  --repeat 1 --warmup 0 > /dev/null
# The dumped PTX ends in NUL bytes, which ptxas refuses; and OpenCL adds the
# NDRange's group offset to %ctaid through %envreg0-2, registers its runtime
# sets and the CUDA driver does not: zero them (the chapter's offset is 0).
clean() { tr -d '\000' < "$1" | sed -E 's/%envreg[0-9]+;/0;/' > "$2"; }
clean "$work"/cl/blur_half2.*CHANNELS_1*TILE.bin "$work/cl_gray.ptx"
clean "$work"/cl/blur_half2.*CHANNELS_4*TILE.bin "$work/cl_rgba.ptx"
clean "$work/cl/copy.bin" "$work/cl_copy.ptx"
ptxas -arch=sm_90 "$work/cl_gray.ptx" -o "$work/cl_gray.cubin"
ptxas -arch=sm_90 "$work/cl_rgba.ptx" -o "$work/cl_rgba.cubin"
# The OpenCL kernel with the grid's axes swapped (bands before strips).
sed -e 's/%ctaid\.x/%CTAIDX/g; s/%ctaid\.y/%ctaid.x/g; s/%CTAIDX/%ctaid.y/g' "$work/cl_gray.ptx" > "$work/cl_gray_T.ptx"

# nvcc's PTX and cubin of the CUDA kernels, as the build compiles them.
flags=(-std=c++17 -O3 -DNDEBUG -Ichapters/10_capstone -Icommon/include)
nvcc "${flags[@]}" -arch=compute_90 -ptx chapters/10_capstone/blur_half2.cu -o "$work/cuda.ptx"
nvcc "${flags[@]}" -arch=sm_90 -cubin chapters/10_capstone/blur_half2.cu -o "$work/cuda.cubin"
entry() { grep -m 1 -oE "_ZN[A-Za-z0-9_]*blur_half2_tileI$1EE[A-Za-z0-9_]*HalfWeightsE" "$work/cuda.ptx"; }
gray6=$(entry Li1ELi16ELi4ELi6ELb0)    # fused (gray): 16-byte lanes, 4 rows, at least 6 blocks per SM
gray8=$(entry Li1ELi16ELi4ELi8ELb0)
gray4=$(entry Li1ELi16ELi4ELi4ELb0)
rgba16=$(entry Li4ELi16ELi8ELi6ELb0)   # RGBA in OpenCL's shape: 16-byte lanes, 8 rows
rgba8=$(entry Li4ELi8ELi8ELi8ELb0)     # fused_rgba (CUDA): 8-byte lanes, 8 rows, 8 blocks per SM

cat > "$work/gray.list" << EOF
copy $work/cl_copy.ptx copy_bytes copy 1 16 4
cl_ptx_jit $work/cl_gray.ptx blur_half2 cl 1 16 4
cl_ptxas $work/cl_gray.cubin blur_half2 cl 1 16 4
cu_ptx_jit $work/cuda.ptx $gray6 cu 1 16 4
cu_cubin_minb6 $work/cuda.cubin $gray6 cu 1 16 4
cu_cubin_minb8 $work/cuda.cubin $gray8 cu 1 16 4
cu_cubin_minb4 $work/cuda.cubin $gray4 cu 1 16 4
cl_ptx_jit_r80 $work/cl_gray.ptx blur_half2 cl 1 16 4 80
copy_again $work/cl_copy.ptx copy_bytes copy 1 16 4
EOF
cat > "$work/rgba.list" << EOF
copy $work/cl_copy.ptx copy_bytes copy 4 16 4
cl_ptx_jit_16x8 $work/cl_rgba.ptx blur_half2 cl 4 16 8
cl_ptxas_16x8 $work/cl_rgba.cubin blur_half2 cl 4 16 8
cu_cubin_16x8_m6 $work/cuda.cubin $rgba16 cu 4 16 8
cu_ptx_jit_16x8_m6 $work/cuda.ptx $rgba16 cu 4 16 8
cu_cubin_8x8_m8 $work/cuda.cubin $rgba8 cu 4 8 8
EOF
cat > "$work/place.list" << EOF
copy $work/cl_copy.ptx copy_bytes copy 1 16 4
cu_m6 $work/cuda.cubin $gray6 cu 1 16 4
cl_ptx $work/cl_gray.ptx blur_half2 cl 1 16 4
cl_ptx_T $work/cl_gray_T.ptx blur_half2 clT 1 16 4
EOF
head -3 "$work/place.list" > "$work/attrs.list"

for program in interleaved back_to_back; do
  nvcc -std=c++17 -O2 -Ichapters/10_capstone -Icommon/include "$here/$program.cpp" -o "$work/$program" -lcuda
done
cd "$work"
echo "== 1. the code: every kernel in turn, synchronised (interleaved)"
for size in "6720 4480" "6720 4480" "6736 4480"; do echo "-- gray $size"; ./interleaved $size gray.list 30; done
echo "-- RGBA 6720 4480"; ./interleaved 6720 4480 rgba.list 30
echo "== 2. timed as the chapter times (back_to_back): where the output lies, and the blocks' order"
./back_to_back 6720 4480 place.list 0 256 4096 16384 65536 262144 1048576 1572864 3145728 0 5000000
./back_to_back 6736 4480 place.list 0 65536 1048576 3145728
./back_to_back 7200 4480 place.list 0 0
echo "== 3. the shared-memory carveout (-1 the driver's choice, -2 prefer shared, -3 prefer L1, else %)"
CARVE=1 ./back_to_back 6720 4480 place.list -1 0 25 50 60 70 80 90 100 -2 -3 -1
echo "== 4. no events between the runs (/b)"
BATCH=1 ./back_to_back 6720 4480 place.list 0 0 0
echo "== 5. launch attributes"
for mode in none domain prio cluster2 pss none; do echo "-- $mode"; MODE=$mode ./back_to_back 6720 4480 attrs.list 0 0; done
