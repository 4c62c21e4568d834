# Helpers for the test suite (tests/ and docs/ add tests).

# Where the tests write: <build>/tests/scratch/<test name>/, one folder per test.
set(GAUSS_TEST_SCRATCH_ROOT "${PROJECT_BINARY_DIR}/tests/scratch")

# gauss_give_tests_own_scratch(): call at the end of a CMakeLists.txt that adds
# tests. `ctest -j` runs tests at the same time, so no two may write the same
# file: every test of the directory gets its own scratch folder, named after
# it, in GAUSS_TEST_SCRATCH (the test binaries take it through
# gauss::test::scratch_dir(), the grader as its default --scratch).
# tests/cmake/test_isolation.cmake checks that every test has one and that no
# two tests name the same path under the scratch root on their command lines.
function(gauss_give_tests_own_scratch)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(test IN LISTS tests)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "GAUSS_TEST_SCRATCH=${GAUSS_TEST_SCRATCH_ROOT}/${test}")
  endforeach()
endfunction()
