# Runs a chapter executable's OpenCL variants under Oclgrind, the OpenCL
# simulator, with its race, uninitialised-value and API checks. Any finding
# (anything Oclgrind logs) or a non-zero exit fails the test.
#   cmake -DOCLGRIND=... -DEXE=... -DARGS=a;b;c -DLOG=<file> [-DLOCAL_MEM=<bytes>] -P run_oclgrind.cmake
# LOCAL_MEM: the simulated device's local memory per work-group (Oclgrind's
# default, 32 KB, is less than the GPUs': a kernel that sizes its tiles by it
# runs smaller ones there).
file(REMOVE "${LOG}")
set(device_options "")
if(LOCAL_MEM)
  set(device_options --local-mem-size ${LOCAL_MEM})
endif()
execute_process(
  COMMAND "${OCLGRIND}" --data-races --uninitialized --check-api ${device_options} --log "${LOG}" "${EXE}" ${ARGS}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 1200)
set(findings "")
if(EXISTS "${LOG}")
  file(READ "${LOG}" findings)
endif()
if(NOT status STREQUAL "0" OR NOT findings STREQUAL "")
  message(FATAL_ERROR "oclgrind: exit status ${status}\nfindings:\n${findings}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT out MATCHES "Oclgrind")
  message(FATAL_ERROR "the program did not run on Oclgrind's device:\n${out}")
endif()
message(STATUS "${out}")
