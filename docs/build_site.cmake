# Builds the docs site from scratch: the old html/ folder goes first, so that
# a page whose source is gone (a chapter renamed or removed) does not stay on
# the site, and Doxygen's exit status (it fails on any warning) is the test's.
#   cmake -DDOXYGEN=<doxygen> -DDOXYFILE=<build>/docs/Doxyfile -DHTML=<build>/docs/html -P docs/build_site.cmake
cmake_minimum_required(VERSION 3.16)
file(REMOVE_RECURSE "${HTML}")
execute_process(COMMAND "${DOXYGEN}" "${DOXYFILE}" RESULT_VARIABLE status)
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "doxygen failed (exit status ${status}): its warnings are above and in "
                      "${HTML}/../warnings.log")
endif()
