# Shared by chapters 05-07's gpu-extra.sh (sourced, not run):
#   extra_init <chapter> <build dir> <log folder>   sets $exe, $logs, $build
#   run_logged <name> <args...>                     runs the chapter, output to $logs/<name>.txt
#   ncu_variant <name> <variant> <args...>          Nsight Compute metrics of one CUDA variant's
#                                                   third launch, as CSV in $logs/ncu.<name>.csv
#   ncu_summary <pixels> <name>...                  one line per profiled variant (ncu_table.py)
# Set METRICS before ncu_variant (a comma-separated list) if the default does not fit.
METRICS=${METRICS:-gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static}
lib_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

extra_init() {
  local chapter=$1
  build=${2:?usage: gpu-extra.sh <build dir> <log folder>}
  logs=${3:?usage: gpu-extra.sh <build dir> <log folder>}
  exe="$build/bin/$chapter"
  mkdir -p "$logs"
  [ -x "$exe" ] || { echo "$chapter extra: $exe not built"; exit 1; }
}

run_logged() {
  local name=$1
  shift
  "$exe" "$@" > "$logs/$name.txt" 2>&1
  local status=$?
  echo "$(basename "$exe") extra: $name (exit $status): $*"
  return 0
}

ncu_variant() {
  local name=$1 variant=$2
  shift 2
  ncu --clock-control none --kernel-name regex:"${NCU_REGEX:-blur}" --launch-skip 2 --launch-count 1 --csv --page raw \
    --metrics "$METRICS" "$exe" --api cuda --variant "$variant" --repeat 2 --warmup 1 "$@" \
    > "$logs/ncu.$name.csv" 2> "$logs/ncu.$name.err"
  echo "$(basename "$exe") extra: ncu $name (exit $?)"
}

ncu_summary() {
  local pixels=$1
  shift
  local files=()
  for name in "$@"; do files+=("$logs/ncu.$name.csv"); done
  python3 "$lib_dir/ncu_table.py" --pixels "$pixels" "${files[@]}" | tee "$logs/ncu_summary.txt"
}
