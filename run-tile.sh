#!/usr/bin/env bash
# Temporary (not committed): the size and radius sweeps of the block tiles, for the figures.
set -u
s=$SECONDS
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null 2>&1
cmake --build build-gpu -j 16 --target 10_capstone > $OUT/build.log 2>&1 || { grep -E "error" $OUT/build.log | head -30; exit 1; }
echo "build $((SECONDS-s)) s"
./build-gpu/bin/10_capstone --variant size_sweep --csv $OUT/size_sweep.csv > $OUT/size_sweep.txt 2>&1; echo "size exit $?"
./build-gpu/bin/10_capstone --variant radius_sweep --csv $OUT/radius_sweep.csv > $OUT/radius_sweep.txt 2>&1; echo "radius exit $?"
sed -n '/=== size sweep/,$p' $OUT/size_sweep.txt | grep -vE "^---"
grep -E " 2 .*fused|radius" $OUT/radius_sweep.txt | head -12
ls $OUT
