#!/usr/bin/env bash
# A chapter's extra GPU evidence: the measurements its README quotes beyond
# the main table (sweeps, Nsight Compute metrics, what the compilers made of a
# kernel). scripts/gpu-session.sh runs it (phase extra) as
#
#   scripts/gpu-extra.sh <NN_name> <build dir> <log folder>
#
# The steps are the chapter's own, in chapters/<NN_name>/gpu-extra.conf: a
# short bash file that this runner sources after defining the words below. It
# writes CSV and text files into the log folder and prints a short summary
# (the session keeps it). A chapter without gpu-extra.conf has nothing extra.
#
# The words a gpu-extra.conf uses ($exe is the chapter, $logs the log folder,
# $build the build folder, $here the chapter's folder):
#   run <name> <args...>          the chapter with --csv $logs/<name>.csv (sections add
#                                 <name>.<section>.csv beside it), its output in $logs/<name>.txt
#   run_logged <name> <args...>   the same without --csv (give it one where wanted)
#   ncu_csv <name> <kernel regex> <metrics> <args...>
#                                 Nsight Compute (clocks left alone) on the matching kernels
#                                 of one run, as CSV in $logs/<name>.csv
#   ncu_variant <name> <variant> <args...>
#                                 Nsight Compute metrics ($METRICS) of one CUDA variant's third
#                                 launch of a kernel matching $NCU_REGEX (default blur), as CSV
#                                 in $logs/ncu.<name>.csv
#   ncu_summary <pixels> <name>...
#                                 one line per ncu_variant profile (scripts/ncu_table.py),
#                                 also in $logs/ncu_summary.txt
#   dump_cl_binaries <dir> <args...>
#                                 runs the chapter with GAUSS_DUMP_CL_BINARIES=<dir>: the
#                                 programs the OpenCL driver built (PTX on NVIDIA's)
#   cuda_object <file.cu>         the path of that file's object in the build (empty if none)
set -uo pipefail

chapter=${1:?usage: scripts/gpu-extra.sh <NN_name> <build dir> <log folder>}
build=${2:?usage: scripts/gpu-extra.sh <NN_name> <build dir> <log folder>}
logs=${3:?usage: scripts/gpu-extra.sh <NN_name> <build dir> <log folder>}
scripts="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
here="$(cd "$scripts/../chapters/$chapter" && pwd)" || exit 1
config="$here/gpu-extra.conf"
[ -f "$config" ] || { echo "$chapter: no gpu-extra.conf, nothing extra"; exit 0; }
exe="$build/bin/$chapter"
tag=${chapter%%_*}
mkdir -p "$logs"
[ -x "$exe" ] || { echo "$chapter extra: $exe not built"; exit 1; }

METRICS=${METRICS:-gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static}

run() {
  local name=$1
  shift
  "$exe" "$@" --csv "$logs/$name.csv" > "$logs/$name.txt" 2>&1
  echo "$tag extra: $name ($*): exit $?"
}

run_logged() {
  local name=$1
  shift
  "$exe" "$@" > "$logs/$name.txt" 2>&1
  echo "$tag extra: $name ($*): exit $?"
}

ncu_csv() {
  local name=$1 kernels=$2 metrics=$3
  shift 3
  ncu --clock-control none --csv --kernel-name "regex:$kernels" --metrics "$metrics" "$exe" "$@" \
    > "$logs/$name.csv" 2> "$logs/$name.err"
  echo "$tag extra: $name: exit $? ($(grep -c gpu__time_duration "$logs/$name.csv") kernels profiled)"
}

ncu_variant() {
  local name=$1 variant=$2
  shift 2
  ncu --clock-control none --kernel-name regex:"${NCU_REGEX:-blur}" --launch-skip 2 --launch-count 1 --csv --page raw \
    --metrics "$METRICS" "$exe" --api cuda --variant "$variant" --repeat 2 --warmup 1 "$@" \
    > "$logs/ncu.$name.csv" 2> "$logs/ncu.$name.err"
  echo "$tag extra: ncu $name (exit $?)"
}

ncu_summary() {
  local pixels=$1
  shift
  local files=()
  for name in "$@"; do files+=("$logs/ncu.$name.csv"); done
  python3 "$scripts/ncu_table.py" --pixels "$pixels" "${files[@]}" | tee "$logs/ncu_summary.txt"
}

dump_cl_binaries() {
  local dir=$1
  shift
  mkdir -p "$dir"
  GAUSS_DUMP_CL_BINARIES="$dir" "$exe" "$@" > /dev/null 2>&1
}

cuda_object() { find "$build/chapters/$chapter" -name "$1.o" | head -1; }

echo "== $chapter: extra measurements"
# shellcheck source=/dev/null
source "$config"
exit 0
