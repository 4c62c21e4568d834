#!/usr/bin/env bash
# Temporary (not committed): two tiles per block; the edge fill at 6736.
set -u
L=$OUT/logs; mkdir -p $L
nvidia-smi --query-gpu=name --format=csv,noheader
s=$SECONDS
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release > $L/configure.log 2>&1
cmake --build build-gpu -j 16 --target 10_capstone test_10_capstone > $L/build.log 2>&1 || { grep -E "error" $L/build.log | head -30; exit 1; }
echo "build $((SECONDS-s)) s"
grep -E "Compiling entry|Used [0-9]+ registers" $L/build.log | grep -A1 "ELi2EEEv" | grep Used
B=./build-gpu/bin/10_capstone
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 9 $B --api cuda --variant tile_shapes --size 1000x37 --repeat 1 --warmup 0 > $L/san.$tool.log 2>&1
  echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san.$tool.log | tr '\n' ' ') $(grep -c ' ok' $L/san.$tool.log) ok"
done
$B --variant tile_shapes --repeat 30 > $L/ts6720.txt 2>&1; sed -n '/=== block-tile/,$p' $L/ts6720.txt | grep -vE "^---|^shape"
$B --variant tile_shapes --repeat 30 --size 6736x4480 > $L/ts6736.txt 2>&1; sed -n '/=== block-tile/,$p' $L/ts6736.txt | grep -vE "^---|^shape"
V="--variant fused --variant fused_rgba --variant fused_strip --variant fused_rgba_strip"
$B $V --repeat 30 --size 6736x4480 > $L/t6736.txt 2>&1; grep -E "^(copy|fused)" $L/t6736.txt | cut -c1-100
./build-gpu/tests/test_10_capstone "[ch10]" > $L/test_ch10.txt 2>&1; tail -2 $L/test_ch10.txt
tar czf $OUT/logs.tgz -C $OUT logs && rm -rf $L
