# Runs a chapter executable on bad input and requires what every chapter
# promises: exit status 2, exactly one line on stderr, naming the problem
# (MATCH, a regular expression), and no output file.
#   cmake -DEXE=... -DARGS=a;b;c -DOUT=<png it must not write> -DMATCH=<regex> -P expect_bad_input.cmake
file(REMOVE "${OUT}")
execute_process(COMMAND "${EXE}" ${ARGS} --output "${OUT}"
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
string(REGEX REPLACE "\n$" "" err_line "${err}")
if(NOT status STREQUAL "2")
  message(FATAL_ERROR "expected exit status 2, got '${status}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(err_line STREQUAL "" OR err_line MATCHES "\n")
  message(FATAL_ERROR "expected exactly one line on stderr, got:\n${err}")
endif()
if(NOT err_line MATCHES "${MATCH}")
  message(FATAL_ERROR "stderr does not name the problem (expected /${MATCH}/):\n${err}")
endif()
if(EXISTS "${OUT}")
  message(FATAL_ERROR "an output file was written: ${OUT}")
endif()
message(STATUS "ok: ${err_line}")
