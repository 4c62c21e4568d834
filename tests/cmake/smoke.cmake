# Runs a chapter executable end to end on a small image and requires exit
# status 0, a results table, and the CSV, JSON and PNG files it was asked for.
#   cmake -DEXE=... -DDIR=<scratch folder> -DARGS=a;b;c -P smoke.cmake
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
execute_process(
  COMMAND "${EXE}" ${ARGS} --csv "${DIR}/results.csv" --json "${DIR}/results.json" --output "${DIR}/out.png"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 600)
message(STATUS "${out}")
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "exit status ${status}\nstderr:\n${err}")
endif()
if(NOT out MATCHES "median ms" OR NOT out MATCHES "ok \\(ceiling\\)")
  message(FATAL_ERROR "no results table with a copy ceiling in the output")
endif()
foreach(f results.csv results.json out.png)
  if(NOT EXISTS "${DIR}/${f}")
    message(FATAL_ERROR "${f} was not written")
  endif()
endforeach()
file(GLOB leftovers "${DIR}/*.partial-*")
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()
