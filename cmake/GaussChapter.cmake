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
      DEPENDS "${abs}" "${PROJECT_SOURCE_DIR}/cmake/EmbedOpenCL.cmake"
      COMMENT "Embedding ${display}"
      VERBATIM)
    target_sources(${target} PRIVATE "${header}")
  endforeach()
  target_include_directories(${target} PUBLIC "${out_dir}")
endfunction()

# gauss_add_chapter(<NN_name> SOURCES <main.cpp>... [OPENCL <file.cl>...] [CUDA <file.cu>...]
#                   [USES <earlier chapter>...])
# Builds build/bin/<NN_name>, a standalone executable, and <NN_name>_lesson, a
# static library of the same code without main() that the tests link to run
# the very same variants on the golden images. The CUDA files are compiled
# only when CUDA is enabled; the chapter sees GAUSS_HAVE_CUDA then. USES links
# an earlier chapter's kernels (its .cl files embedded, its .cu launchers, its
# folder on the include path), so a kernel is compiled once however many
# chapters run it.
function(gauss_add_chapter name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;OPENCL;CUDA;USES")
  set(kernels ${name}_kernels)
  add_library(${kernels} STATIC)
  gauss_embed_opencl(${kernels} ${ARG_OPENCL})
  if(GAUSS_HAVE_CUDA AND ARG_CUDA)
    target_sources(${kernels} PRIVATE ${ARG_CUDA})
    # Keep the compiler's resource report (registers, spills, shared memory)
    # in the build log: the chapters quote it.
    target_compile_options(${kernels} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v -lineinfo>)
  else()
    # A library needs a source: give it an empty one where there is no CUDA.
    target_sources(${kernels} PRIVATE "${PROJECT_SOURCE_DIR}/common/src/empty.cpp")
  endif()
  target_include_directories(${kernels} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${kernels} PUBLIC gauss::common)
  foreach(used IN LISTS ARG_USES)
    target_link_libraries(${kernels} PUBLIC ${used}_kernels)
  endforeach()

  add_library(${name}_lesson STATIC ${ARG_SOURCES})
  target_compile_definitions(${name}_lesson PRIVATE GAUSS_CHAPTER_NO_MAIN)
  target_link_libraries(${name}_lesson PUBLIC ${kernels})

  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${kernels})
  gauss_warnings(${kernels} ${name}_lesson ${name})
  set_property(GLOBAL APPEND PROPERTY GAUSS_CHAPTERS ${name})
endfunction()
