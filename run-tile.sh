#!/usr/bin/env bash
# Temporary (not committed): is OpenCL's lead at 6720x4480 the geometry or the buffers?
set -u
s=$SECONDS
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1
cmake --build build-gpu -j 16 --target 10_capstone > $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head -30; exit 1; }
echo "build $((SECONDS-s)) s"
for size in 6720x4480 6720x4481 6720x4400 6720x4560 6704x4480 6752x4480 7200x4480 6240x4480; do
  ./build-gpu/bin/10_capstone --variant fused --variant fused_rgba --repeat 30 --size $size > $OUT/t.txt 2>&1
  echo "$size $(grep -E '^(fused|fused_rgba) ' $OUT/t.txt | awk '{printf "%s %s %s %s | ", $1, $2, $4, $9}')"
done
./build-gpu/bin/10_capstone --variant fused --variant fused_rgba --repeat 30 --api cuda > $OUT/t.txt 2>&1
echo "cuda only $(grep -E '^(fused|fused_rgba) ' $OUT/t.txt | awk '{printf "%s %s %s %s | ", $1, $2, $4, $9}')"
./build-gpu/bin/10_capstone --variant fused --variant fused_rgba --repeat 30 --api opencl > $OUT/t.txt 2>&1
echo "opencl only $(grep -E '^(fused|fused_rgba) ' $OUT/t.txt | awk '{printf "%s %s %s %s | ", $1, $2, $4, $9}')"
rm -f $OUT/t.txt
