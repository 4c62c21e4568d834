# Shell helpers for the gpu-extra.sh scripts of chapters 02-04 (sourced, not run).
# Each script sets `exe` (the chapter executable), `logs` (its log folder)
# and `tag` (a short name for the summary lines) before sourcing this file.

# The arguments every gpu-extra.sh takes, checked: <build dir> <log folder>.
extra_arguments() {
  build=${1:?usage: gpu-extra.sh <build dir> <log folder>}
  logs=${2:?usage: gpu-extra.sh <build dir> <log folder>}
  mkdir -p "$logs"
}

# run <name> <args...>: the chapter with --csv <logs>/<name>.csv (sections add
# <name>.<section>.csv beside it), its output in <logs>/<name>.txt; prints one line.
run() {
  local name=$1
  shift
  "$exe" "$@" --csv "$logs/$name.csv" > "$logs/$name.txt" 2>&1
  echo "$tag extra: $name ($*): exit $?"
}

# ncu_csv <name> <kernel regex> <metrics> <args...>: Nsight Compute (clocks
# left alone) on the matching kernels of one run, as CSV in <logs>/<name>.csv.
ncu_csv() {
  local name=$1 kernels=$2 metrics=$3
  shift 3
  ncu --clock-control none --csv --kernel-name "regex:$kernels" --metrics "$metrics" "$exe" "$@" \
    > "$logs/$name.csv" 2> "$logs/$name.err"
  echo "$tag extra: $name: exit $? ($(grep -c gpu__time_duration "$logs/$name.csv") kernels profiled)"
}
