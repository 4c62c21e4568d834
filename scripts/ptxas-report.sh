#!/usr/bin/env bash
# The CUDA compiler launcher (CMAKE_CUDA_COMPILER_LAUNCHER, set by the
# top-level CMakeLists.txt): runs the nvcc command it is given and files
# ptxas's resource report instead of printing it.
#
#   scripts/ptxas-report.sh <build folder> nvcc ... -c file.cu -o file.cu.o
#
# Every kernel library is compiled with -Xptxas -v (cmake/GaussChapter.cmake):
# registers, spills, stack frame and shared memory per kernel, which the
# chapters quote. That is thousands of lines for a whole build; on the
# terminal they bury the build's progress and its real warnings. So:
#   <build>/ptxas/<object>.txt   the report of one compiled file (rewritten
#                                with the file)
#   <build>/ptxas-report.txt     all of them, file by file (rewritten after
#                                each compile)
# and everything else nvcc says (errors, warnings) goes to stderr as usual.
# nvcc's exit status is the launcher's.
set -uo pipefail
build=$1
shift

source="" object="" previous=""
for argument in "$@"; do
  if [ "$previous" = "-o" ]; then object=$argument; fi
  case "$argument" in *.cu) source=$argument ;; esac
  previous=$argument
done

messages=$(mktemp)
trap 'rm -f "$messages"' EXIT
"$@" 2> "$messages"
status=$?

# ptxas -v's lines: "ptxas info    : ..." and the indented line after
# "Function properties for ...": "    8 bytes stack frame, ...".
report='^(ptxas info[[:space:]]*:|[[:space:]]+[0-9]+ bytes stack frame)'
grep -Ev "$report" "$messages" >&2
if [ -n "$object" ] && grep -Eq "$report" "$messages"; then
  mkdir -p "$build/ptxas"
  name=$(printf '%s' "${object#"$build"/}" | tr -c 'A-Za-z0-9._-' '_')
  {
    echo "== ${source:-$object}"
    grep -E "$report" "$messages"
    echo
  } > "$build/ptxas/$name.txt"
  # Gathered under a lock: compiles finish side by side (make -j).
  gather() {
    cat "$build"/ptxas/*.txt > "$build/ptxas-report.txt.partial-$$" &&
      mv "$build/ptxas-report.txt.partial-$$" "$build/ptxas-report.txt"
  }
  if command -v flock > /dev/null 2>&1; then
    (flock 9 && gather) 9> "$build/ptxas/.lock"
  else
    gather
  fi
fi
exit "$status"
