# Helpers shared by every chapter, so that a chapter's CMakeLists.txt is one call.

# gauss_warnings(<target>...): the warnings every C++ file in the tutorial compiles with.
function(gauss_warnings)
  foreach(target IN LISTS ARGN)
    target_compile_options(${target} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-Wall -Wextra -Wpedantic -Wshadow>)
  endforeach()
endfunction()

# gauss_embed_opencl(<target> <file.cl>...)
# Generates <build>/embedded/<name>_cl.hpp for each file, holding
# gauss::embedded::<name>_cl (an OpenClSource: the file's path and text), and
# adds that folder to <target>'s include path.
function(gauss_embed_opencl target)
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/embedded")
  foreach(cl_file IN LISTS ARGN)
    get_filename_component(abs "${cl_file}" ABSOLUTE)
    get_filename_component(stem "${cl_file}" NAME_WE)
    file(RELATIVE_PATH display "${PROJECT_SOURCE_DIR}" "${abs}")
    set(header "${out_dir}/${stem}_cl.hpp")
    add_custom_command(
      OUTPUT "${header}"
      COMMAND "${CMAKE_COMMAND}" -DINPUT=${abs} -DOUTPUT=${header}
              -DSYMBOL=${stem}_cl -DDISPLAY=${display}
              -P "${PROJECT_SOURCE_DIR}/cmake/EmbedOpenCL.cmake"
      DEPENDS "${abs}" "${PROJECT_SOURCE_DIR}/cmake/EmbedOpenCL.cmake" "${PROJECT_SOURCE_DIR}/cmake/WriteIfChanged.cmake"
      COMMENT "Embedding ${display}"
      VERBATIM)
    target_sources(${target} PRIVATE "${header}")
  endforeach()
  target_include_directories(${target} PUBLIC "${out_dir}")
endfunction()

# gauss_kernels_library(<target> [OPENCL <file.cl>...] [CUDA <file.cu>...] [USES <earlier chapter>...])
# A chapter's kernels as a static library: its .cl files embedded, its .cu
# files compiled where CUDA is enabled, its folder on the include path, and
# the kernels of the chapters it USES linked in.
function(gauss_kernels_library target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "OPENCL;CUDA;USES")
  add_library(${target} STATIC)
  gauss_embed_opencl(${target} ${ARG_OPENCL})
  if(GAUSS_HAVE_CUDA AND ARG_CUDA)
    target_sources(${target} PRIVATE ${ARG_CUDA})
    # Keep the compiler's resource report (registers, spills, shared memory)
    # in the build log: the chapters quote it.
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v -lineinfo>)
  else()
    # A library needs a source: give it an empty one where there is no CUDA.
    target_sources(${target} PRIVATE "${PROJECT_SOURCE_DIR}/common/src/empty.cpp")
  endif()
  target_include_directories(${target} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${target} PUBLIC gauss::common)
  foreach(used IN LISTS ARG_USES)
    target_link_libraries(${target} PUBLIC ${used}_kernels)
  endforeach()
endfunction()

# gauss_add_chapter(<NN_name> SOURCES <main.cpp>... [OPENCL <file.cl>...] [CUDA <file.cu>...]
#                   [USES <earlier chapter>...] [LINKS <library>...] [EXERCISE <file.cl> [<file.cu>]]
#                   [OCLGRIND_RUNS <size,radius,sigma[,argument...]>...]
#                   [TEST_ENVIRONMENT <NAME=value>...])
# Builds build/bin/<NN_name>, a standalone executable, and <NN_name>_lesson, a
# static library of the same code without main() that the tests link to run
# the very same variants on the golden images. The CUDA files are compiled
# only when CUDA is enabled; the chapter sees GAUSS_HAVE_CUDA then. USES links
# an earlier chapter's kernels (its .cl files embedded, its .cu launchers, its
# folder on the include path), so a kernel is compiled once however many
# chapters run it. LINKS links more libraries into every build of the
# chapter's main.cpp (the executable, the lesson library, the exercise's
# builds): another chapter's lesson, say. EXERCISE names the kernels of the
# chapter's exercise (see gauss_add_exercise below). TEST_ENVIRONMENT is set
# for the chapter's Catch2 tests and its exercise's grading (tests/CMakeLists.txt).
#
# Each source is compiled once per role: the chapter's program (with main())
# once, into <NN_name>_program, which the executable and the exercise's
# builds share; the lesson library (without main()) once more.
function(gauss_add_chapter name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;OPENCL;CUDA;USES;LINKS;EXERCISE;OCLGRIND_RUNS;TEST_ENVIRONMENT")
  set_property(GLOBAL PROPERTY GAUSS_OCLGRIND_RUNS_${name} ${ARG_OCLGRIND_RUNS})
  set_property(GLOBAL PROPERTY GAUSS_TEST_ENVIRONMENT_${name} ${ARG_TEST_ENVIRONMENT})
  set(kernels ${name}_kernels)
  gauss_kernels_library(${kernels} OPENCL ${ARG_OPENCL} CUDA ${ARG_CUDA} USES ${ARG_USES})

  add_library(${name}_lesson STATIC ${ARG_SOURCES})
  target_compile_definitions(${name}_lesson PRIVATE GAUSS_CHAPTER_NO_MAIN)
  target_link_libraries(${name}_lesson PUBLIC ${kernels} ${ARG_LINKS})

  add_library(${name}_program OBJECT ${ARG_SOURCES})
  target_link_libraries(${name}_program PUBLIC ${kernels} ${ARG_LINKS})
  add_executable(${name} $<TARGET_OBJECTS:${name}_program>)
  target_link_libraries(${name} PRIVATE ${kernels} ${ARG_LINKS})
  gauss_warnings(${kernels} ${name}_lesson ${name}_program)
  set_property(GLOBAL APPEND PROPERTY GAUSS_CHAPTERS ${name})
  # `cmake --build build --target chapters`: the executables alone, without
  # the tests (the quick start's first command builds just these).
  if(NOT TARGET chapters)
    add_custom_target(chapters)
  endif()
  add_dependencies(chapters ${name})
  if(ARG_EXERCISE)
    gauss_add_exercise(${name} LINKS ${ARG_LINKS} EXERCISE ${ARG_EXERCISE})
  endif()
endfunction()

# The folder the students' exercise files live in: one folder per chapter,
# holding their copies of the starters (`cmake --build build --target
# exercises` writes the starters there, never over a file that exists). An
# instructor grading a submission points it elsewhere:
#   cmake -B build -DGAUSS_EXERCISES_DIR=/path/to/alice
# (reconfiguring an existing build tree: only the CUDA exercises recompile,
# one file each).
set(GAUSS_EXERCISES_DIR "${PROJECT_SOURCE_DIR}/exercises" CACHE PATH "Where the students' exercise kernels are")
# The CUDA starters take minutes of nvcc (chapter 07's most of all) and only a
# CUDA device runs them: scripts/run-tests.sh leaves them out of 'all' where
# there is none (their self-checks are skipped there anyway).
option(GAUSS_BUILD_CUDA_STARTERS "Build the CUDA exercises' starters with 'all' (their self-checks run them)" ON)
if(NOT TARGET exercises)
  # tests/CMakeLists.txt adds the grader to it, and every exercise adds its
  # chapter: after this one target, `ctest -R NN_name.exercise` has all it runs.
  add_custom_target(exercises COMMENT "Exercise starters in ${GAUSS_EXERCISES_DIR} (existing files are kept)")
endif()

# gauss_add_exercise(<NN_name> LINKS ... EXERCISE <file.cl> [<file.cu>])
# Called by gauss_add_chapter. The exercise is the chapter's kernel file
# (OpenCL, and its CUDA twin) whose solution has '// EXERCISE:' blocks (see
# cmake/MakeStarter.cmake); main.cpp names it and the variants that run it
# with Chapter::set_exercise(). The grader (tests/grade_exercise.cpp) compares
# the exercise's outputs on the photos with the golden Gaussian blurs; a
# chapter whose exercise computes something else (a recursive filter, a
# transpose) says so after the call:
#   set_property(GLOBAL PROPERTY GAUSS_EXERCISE_NO_GOLDENS_<NN_name> ON)
# and the grader relies on the chapter's own check alone. For each exercise kernel it
#   - generates the starter into <build>/exercises/<NN_name>/ (part of 'all', so a
#     broken marker fails the build);
#   - has the 'exercises' target copy it to GAUSS_EXERCISES_DIR/<NN_name>/ unless
#     the student's file is already there, and build the chapter;
#   - for a .cu file: adds <NN_name>_starter, the chapter built with the starter
#     in place of the solution (build/bin/starters/<NN_name>, part of 'all', so
#     the tests only run it), and <NN_name>_exercise, built with the student's
#     file (build/bin/exercises/<NN_name>, outside 'all': the student builds it,
#     or the grader does). CUDA is compiled ahead of time, so a CUDA exercise is
#     a build target; OpenCL C is compiled at run time, so the chapter itself
#     takes --kernel-file.
function(gauss_add_exercise name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LINKS;EXERCISE")
  set(starter_dir "${PROJECT_BINARY_DIR}/exercises/${name}")
  set(student_dir "${GAUSS_EXERCISES_DIR}/${name}")
  set(starters "")
  set(cuda_exercise "")
  foreach(file IN LISTS ARG_EXERCISE)
    get_filename_component(abs "${file}" ABSOLUTE)
    get_filename_component(file_name "${file}" NAME)
    file(RELATIVE_PATH display "${PROJECT_SOURCE_DIR}" "${abs}")
    add_custom_command(
      OUTPUT "${starter_dir}/${file_name}"
      COMMAND "${CMAKE_COMMAND}" -DINPUT=${abs} -DOUTPUT=${starter_dir}/${file_name} -DDISPLAY=${display}
              -P "${PROJECT_SOURCE_DIR}/cmake/MakeStarter.cmake"
      DEPENDS "${abs}" "${PROJECT_SOURCE_DIR}/cmake/MakeStarter.cmake" "${PROJECT_SOURCE_DIR}/cmake/WriteIfChanged.cmake"
      COMMENT "Exercise starter from ${display}"
      VERBATIM)
    list(APPEND starters "${starter_dir}/${file_name}")
    if(file_name MATCHES "\\.cu$")
      set(cuda_exercise "${file_name}")
      set_property(GLOBAL PROPERTY GAUSS_EXERCISE_CU_SOLUTION_${name} "${abs}")
    elseif(file_name MATCHES "\\.cl$")
      set_property(GLOBAL PROPERTY GAUSS_EXERCISE_CL_${name} "${abs}")
    endif()
  endforeach()
  add_custom_target(${name}_starters ALL DEPENDS ${starters})
  add_custom_target(${name}_copy_starters
    COMMAND "${CMAKE_COMMAND}" "-DSTARTERS=${starters}" -DDEST=${student_dir}
            -P "${PROJECT_SOURCE_DIR}/cmake/CopyStarters.cmake"
    DEPENDS ${name}_starters
    VERBATIM)
  add_dependencies(exercises ${name}_copy_starters ${name})
  set_property(GLOBAL APPEND PROPERTY GAUSS_EXERCISE_CHAPTERS ${name})
  set_property(GLOBAL PROPERTY GAUSS_EXERCISE_LINKS_${name} ${ARG_LINKS})

  if(NOT GAUSS_HAVE_CUDA OR NOT cuda_exercise)
    return()
  endif()
  set_property(GLOBAL PROPERTY GAUSS_EXERCISE_CU_${name} "${cuda_exercise}")
  # Two builds of the chapter, each with one .cu swapped: the starter
  # (<name>_starter, which the tests use to check that an untouched starter
  # fails) and the student's (<name>_exercise).
  gauss_chapter_with_kernel(${name} starter "${starter_dir}/${cuda_exercise}" starters
    "cmake --build build --target ${name}_starters writes it")
  gauss_chapter_with_kernel(${name} exercise "${student_dir}/${cuda_exercise}" exercises
    "cmake --build build --target exercises writes the starter there")
  add_dependencies(${name}_starter_kernel ${name}_starters)
  add_dependencies(${name}_exercise_kernel ${name}_starters)
  if(GAUSS_BUILD_CUDA_STARTERS)
    set_target_properties(${name}_starter_kernel ${name}_starter PROPERTIES EXCLUDE_FROM_ALL OFF)
  endif()
endfunction()

# gauss_chapter_with_kernel(<NN_name> <kind> <kernel.cu> <bin folder> <hint>)
# <NN_name>_<kind>: chapter NN_name built with <kernel.cu> in place of the
# solution file of the same launchers (a starter, a student's file, the
# grader's slow kernel), as build/bin/<bin folder>/<NN_name>, outside 'all'.
# It reuses the chapter's compiled program and kernels and compiles one file:
# the swapped .cu, in a library (<NN_name>_<kind>_kernel) linked ahead of the
# chapter's kernels, so that the linker takes its launchers and never pulls
# the solution's object file (the swapped file defines the very same
# functions). The file is compiled through a one-line wrapper, so that a
# missing file is a clear error that ends with <hint>.
function(gauss_chapter_with_kernel name kind kernel_path bin_folder hint)
  get_filename_component(file_name "${kernel_path}" NAME)
  set(wrapper "${PROJECT_BINARY_DIR}/exercises/${name}_${kind}_${file_name}")
  file(CONFIGURE OUTPUT "${wrapper}" CONTENT "// Generated by gauss_chapter_with_kernel(): compiles the ${kind}'s ${file_name}.
#if !__has_include(\"${kernel_path}\")
#error \"${kernel_path} is missing: ${hint}\"
#endif
#include \"${kernel_path}\"
")
  get_property(links GLOBAL PROPERTY GAUSS_EXERCISE_LINKS_${name})
  set(swapped ${name}_${kind}_kernel)
  add_library(${swapped} STATIC EXCLUDE_FROM_ALL "${wrapper}")
  target_compile_options(${swapped} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v -lineinfo>)
  target_link_libraries(${swapped} PUBLIC ${name}_kernels)
  add_executable(${name}_${kind} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${name}_program>)
  target_link_libraries(${name}_${kind} PRIVATE ${swapped} ${name}_kernels ${links})
  set_target_properties(${name}_${kind} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin/${bin_folder}" OUTPUT_NAME ${name})
  gauss_warnings(${swapped})
endfunction()
