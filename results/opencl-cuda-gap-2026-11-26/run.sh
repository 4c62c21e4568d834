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
# The mangled name of blur_half2_<kind><template arguments> in a PTX or cubin file.
mangled() { grep -aoE "_ZN[A-Za-z0-9_]*blur_half2_$2I$3EE[A-Za-z0-9_]*HalfWeightsE" "$1" | awk 'NR == 1'; }
gray6=$(mangled "$work/cuda.ptx" tile Li1ELi16ELi4ELi6ELb0)    # fused (gray): 16-byte lanes, 4 rows, at least 6 blocks per SM
gray8=$(mangled "$work/cuda.ptx" tile Li1ELi16ELi4ELi8ELb0)
gray4=$(mangled "$work/cuda.ptx" tile Li1ELi16ELi4ELi4ELb0)
rgba16=$(mangled "$work/cuda.ptx" tile Li4ELi16ELi8ELi6ELb0)   # RGBA in OpenCL's shape: 16-byte lanes, 8 rows
rgba8=$(mangled "$work/cuda.ptx" tile Li4ELi8ELi8ELi8ELb0)     # fused_rgba (CUDA): 8-byte lanes, 8 rows, 8 blocks per SM

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
  nvcc -std=c++17 -O2 -Ichapters/10_capstone -Icommon/include "$here/$program.cpp" common/src/blur.cpp \
    -o "$work/$program" -lcuda
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
for mode in none domain prio cluster2 pss apw none; do echo "-- $mode"; MODE=$mode ./back_to_back 6720 4480 attrs.list 0 0; done
echo "== 6. DRAM out of the way: input and output in the L2 cache (one buffer pair, SETS=1), against five pairs"
# Every gray tile shape the chapter compiles (16 or 8 bytes a lane, rows per warp, blocks per SM floor).
{
  echo "copy $work/cl_copy.ptx copy_bytes copy 1 16 4"
  for shape in "16 4 6" "16 4 8" "16 4 4" "16 2 8" "16 8 6" "8 4 8" "8 8 8" "8 4 6"; do
    read -r nb rows minb <<< "$shape"
    echo "g${nb}x${rows}m$minb $work/cuda.cubin $(mangled "$work/cuda.ptx" tile "Li1ELi${nb}ELi${rows}ELi${minb}ELb0") cu 1 $nb $rows"
  done
  echo "cl_ptx $work/cl_gray.ptx blur_half2 cl 1 16 4"
} > "$work/shapes.list"
echo "-- gray 6720x4480, each kernel writing over its input (INPLACE): 30 MB, in L2"
INPLACE=1 SETS=1 ./back_to_back 6720 4480 shapes.list 0 0 0
echo "-- the same with rows 1680 bytes apart (they overlap): 7.5 MB"
INPLACE=1 SETS=1 PITCH=1680 ./back_to_back 6720 4480 shapes.list 0 0
echo "-- gray 6720x4480 as the chapter runs it (five pairs, DRAM)"
./back_to_back 6720 4480 shapes.list 0 0 0
echo "-- gray, in place in DRAM (five pairs): writing over the input costs nothing by itself"
INPLACE=1 ./back_to_back 6720 4480 attrs.list 0 0
echo "-- RGBA 6720x4480 in place, rows 6720 bytes apart: 30 MB, in L2"
INPLACE=1 SETS=1 PITCH=6720 ./back_to_back 6720 4480 rgba.list 0 0 0
echo "-- RGBA 6720x4480 as the chapter runs it (two pairs, DRAM)"
SETS=2 ./back_to_back 6720 4480 rgba.list 0 0
echo "-- smaller images, one pair in L2 against five in DRAM"
for sets in 1 5; do
  for h in 560 1120 1680 2240; do echo "gray 6720x$h SETS=$sets"; SETS=$sets ./back_to_back 6720 "$h" attrs.list 0 | tail -1; done
  for h in 140 280 420 560; do echo "RGBA 6720x$h SETS=$sets"; SETS=$sets ./back_to_back 6720 "$h" rgba.list 0 | tail -1; done
done
echo "== 7. where the floor goes: the gray tile with a stage left out, and persistent blocks with two tile buffers"
# stages-and-ring.patch: STAGE=1 fill only, 2 no fill (the tile's garbage), 3 no stores (kept alive by a test that
# never holds); STORE_CS: streaming stores (st.global.cs); and blur_half2_ring, persistent blocks that fill tile
# t + grid while they compute tile t.
cd "$here/../.."
cp chapters/10_capstone/blur_half2.cu "$work/stage.cu"
patch -s "$work/stage.cu" < "$here/stages-and-ring.patch"
for stage in 0 1 2 3; do
  nvcc "${flags[@]}" -DSTAGE=$stage -arch=sm_90 -cubin "$work/stage.cu" -o "$work/stage$stage.cubin"
done
nvcc "${flags[@]}" -DSTAGE=0 -DSTORE_CS -arch=sm_90 -cubin "$work/stage.cu" -o "$work/stage_cs.cubin"
cd "$work"
{
  echo "copy $work/cl_copy.ptx copy_bytes copy 1 16 4"
  for rows in 4 8; do
    for stage in 0 1 2 3; do
      echo "r${rows}_s$stage $work/stage$stage.cubin $(mangled stage0.cubin tile "Li1ELi16ELi${rows}ELi6ELb0") cu 1 16 $rows"
    done
  done
} > stages.list
{
  echo "copy $work/cl_copy.ptx copy_bytes copy 1 16 4"
  echo "tile_r4m6 $work/stage0.cubin $(mangled stage0.cubin tile Li1ELi16ELi4ELi6ELb0) cu 1 16 4"
  echo "tile_r8m6 $work/stage0.cubin $(mangled stage0.cubin tile Li1ELi16ELi8ELi6ELb0) cu 1 16 8"
  for shape in "4 6" "8 6" "4 4" "8 4"; do
    read -r rows minb <<< "$shape"
    echo "ring_r${rows}m$minb $work/stage0.cubin $(mangled stage0.cubin ring "Li1ELi16ELi${rows}ELi$minb") ring 1 16 $rows"
  done
} > ring_gray.list
{
  echo "copy $work/cl_copy.ptx copy_bytes copy 4 16 4"
  echo "tile_8x8m8 $work/stage0.cubin $(mangled stage0.cubin tile Li4ELi8ELi8ELi8ELb0) cu 4 8 8"
  echo "tile_16x8m6 $work/stage0.cubin $(mangled stage0.cubin tile Li4ELi16ELi8ELi6ELb0) cu 4 16 8"
  echo "ring_8x8m8 $work/stage0.cubin $(mangled stage0.cubin ring Li4ELi8ELi8ELi8) ring 4 8 8"
  echo "ring_16x8m4 $work/stage0.cubin $(mangled stage0.cubin ring Li4ELi16ELi8ELi4) ring 4 16 8"
} > ring_rgba.list
{
  echo "copy $work/cl_copy.ptx copy_bytes copy 1 16 4"
  echo "r4 $work/stage0.cubin $(mangled stage0.cubin tile Li1ELi16ELi4ELi6ELb0) cu 1 16 4"
  echo "r4_cs $work/stage_cs.cubin $(mangled stage0.cubin tile Li1ELi16ELi4ELi6ELb0) cu 1 16 4"
  echo "r8 $work/stage0.cubin $(mangled stage0.cubin tile Li1ELi16ELi8ELi6ELb0) cu 1 16 8"
  echo "r8_cs $work/stage_cs.cubin $(mangled stage0.cubin tile Li1ELi16ELi8ELi6ELb0) cu 1 16 8"
  echo "cl_ptx $work/cl_gray.ptx blur_half2 cl 1 16 4"
} > stores.list
echo "-- stages: 0 whole, 1 fill only, 2 no fill, 3 no stores"
echo "in L2, in place, 30 MB"; INPLACE=1 SETS=1 ./back_to_back 6720 4480 stages.list 0 0
echo "in L2, rows overlapped, 7.5 MB"; INPLACE=1 SETS=1 PITCH=1680 ./back_to_back 6720 4480 stages.list 0 0
echo "DRAM"; ./back_to_back 6720 4480 stages.list 0 0
echo "-- persistent blocks, two tile buffers (outputs compared with the tile's)"
./interleaved 6720 4480 ring_gray.list 20
./interleaved 6736 4481 ring_gray.list 5 | grep -i differ || echo "6736x4481: every output equal"
./interleaved 6720 4480 ring_rgba.list 20
./interleaved 1000 37 ring_rgba.list 5 | grep -i differ || echo "RGBA 1000x37: every output equal"
echo "in L2, in place, 30 MB"; INPLACE=1 SETS=1 ./back_to_back 6720 4480 ring_gray.list 0 0
echo "in L2, rows overlapped, 7.5 MB"; INPLACE=1 SETS=1 PITCH=1680 ./back_to_back 6720 4480 ring_gray.list 0 0
echo "DRAM"; ./back_to_back 6720 4480 ring_gray.list 0 0 0
echo "RGBA in L2, rows overlapped, 30 MB"; INPLACE=1 SETS=1 PITCH=6720 ./back_to_back 6720 4480 ring_rgba.list 0 0
echo "RGBA DRAM"; SETS=2 ./back_to_back 6720 4480 ring_rgba.list 0 0 0
echo "-- streaming stores (st.global.cs), and the output in a streaming access-policy window (apw)"
for mode in none apw; do echo "DRAM, MODE=$mode"; MODE=$mode ./back_to_back 6720 4480 stores.list 0 0 0; done
echo "6736, DRAM"; ./back_to_back 6736 4480 stores.list 0 0
echo "in L2, in place, 30 MB"; INPLACE=1 SETS=1 ./back_to_back 6720 4480 stores.list 0 0
