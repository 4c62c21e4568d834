#!/usr/bin/env bash
# Temporary (not committed): the final runs of commit caf57b6 on the GPU machine.
set -u
. scripts/env.sh
mkdir -p $OUT/runs $OUT/profile $OUT/logs
L=$OUT/logs
s=$SECONDS
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > $L/configure.log 2>&1
cmake --build build -j 16 --target chapters test_10_capstone > $L/build.log 2>&1 || { grep error $L/build.log | head; exit 1; }
echo "build $((SECONDS-s)) s"
for chapter in build/bin/[0-9][0-9]_*; do
  name=$(basename "$chapter")
  "$chapter" --json "$OUT/runs/$name.json" > "$OUT/runs/$name.txt" 2>&1
  echo "$name exit $?"
done
grep -E "^(copy|fused)" $OUT/runs/10_capstone.txt | cut -c1-100
(cd $OUT && tar czf runs.tgz runs && rm -rf runs)
./build/tests/test_10_capstone "[ch10]" > $L/test_ch10.txt 2>&1; tail -2 $L/test_ch10.txt
for tool in memcheck racecheck initcheck synccheck; do
  for size in 451x300 1024x40 6736x37; do
    compute-sanitizer --tool $tool --error-exitcode 9 build/bin/10_capstone --api cuda --variant fused --variant fused_rgba --size $size --repeat 1 --warmup 0 > $L/san.$tool.$size.log 2>&1
    echo "$tool $size exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/san.$tool.$size.log | tr '\n' ' ')"
  done
done
build/bin/10_capstone --variant fused --variant fused_rgba --variant fused_strip --variant fused_rgba_strip --repeat 30 --size 6736x4480 > $L/t6736.txt 2>&1; grep -E "^(copy|fused)" $L/t6736.txt | cut -c1-100
sed -i 's|^python3 scripts/profile_report.py|echo python3 scripts/profile_report.py|' scripts/profile.sh
scripts/profile.sh build $OUT/profile > $L/profile.log 2>&1
tail -2 $L/profile.log | cut -c1-100
cp results/*-opencl.txt $OUT/ 2>/dev/null
rm -rf $OUT/profile/cl $OUT/profile/kernel.*
cd $OUT && tar czf rest.tgz profile logs && rm -rf profile logs
