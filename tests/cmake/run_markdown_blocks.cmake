# Runs the shell blocks of one Markdown page that are marked runnable, and
# fails on the first that exits non-zero: every command a page marks so works
# as written, after the quick start, on a machine without a GPU.
#
#   cmake -DPAGE=<page.md> -DSOURCE=<repository> -DBUILD=<build folder> -DWORK=<scratch folder>
#         -P tests/cmake/run_markdown_blocks.cmake
#
# The convention: a line `<!-- runnable -->` right before a ```sh fence;
# `<!-- runnable, needs oclgrind -->` names programs the block needs beyond
# the project's build (the block is skipped, and says so, where one is not
# installed: the GPU machines of a lab may lack Oclgrind, CI has it).
#
#     <!-- runnable -->
#     ```sh
#     build/bin/01_naive --size 640x480 --repeat 3
#     ```
#
# Each block runs with bash -e in WORK, which holds links to the repository's
# folders and files (images/, chapters/, ...), so that paths from the
# repository's root work and what the commands write stays in WORK; `build`
# as a path (build/bin/..., -B build, --build build, --test-dir build) means
# the build folder under test, and `-S .` the repository.
cmake_minimum_required(VERSION 3.16)

foreach(variable PAGE SOURCE BUILD WORK)
  if(NOT ${variable})
    message(FATAL_ERROR "run_markdown_blocks: -D${variable}=... is missing")
  endif()
endforeach()
get_filename_component(SOURCE "${SOURCE}" ABSOLUTE)
get_filename_component(BUILD "${BUILD}" ABSOLUTE)
file(RELATIVE_PATH shown "${SOURCE}" "${PAGE}")

# --- The marked blocks ----------------------------------------------------------
file(STRINGS "${PAGE}" lines)
set(blocks 0)
set(state outside)  # outside, marked (the marker seen), inside (a marked block's lines), fenced (another block)
set(number 0)
foreach(line IN LISTS lines)
  math(EXPR number "${number} + 1")
  if(state STREQUAL "fenced")
    # A code block that is not marked, which may show the convention itself.
    if(line MATCHES "^[ \t]*${fence}[ \t]*$")
      set(state outside)
    endif()
  elseif(state STREQUAL "outside" AND line MATCHES "^[ \t]*(```+|~~~+)")
    set(fence "${CMAKE_MATCH_1}")
    set(state fenced)
  elseif(state STREQUAL "inside")
    if(line MATCHES "^[ \t]*```[ \t]*$")
      set(state outside)
    else()
      string(APPEND block_${blocks} "${line}\n")
    endif()
  elseif(line MATCHES "^[ \t]*<!-- runnable(, needs ([a-z0-9_ -]+))? -->[ \t]*$")
    set(state marked)
    set(marked_at ${number})
    string(STRIP "${CMAKE_MATCH_2}" needs)
    string(REPLACE " " ";" needs "${needs}")
  elseif(state STREQUAL "marked")
    if(line MATCHES "^[ \t]*```(sh|bash|shell)[ \t]*$")
      math(EXPR blocks "${blocks} + 1")
      set(block_${blocks} "")
      set(line_${blocks} ${number})
      set(needs_${blocks} "${needs}")
      set(state inside)
    elseif(NOT line MATCHES "^[ \t]*$")
      message(FATAL_ERROR "run_markdown_blocks: ${shown}:${marked_at}: '<!-- runnable -->' must come right before "
                          "a ```sh fence (line ${number} is not one)")
    endif()
  endif()
endforeach()
if(state STREQUAL "inside")
  message(FATAL_ERROR "run_markdown_blocks: ${shown}:${line_${blocks}}: the runnable block is never closed")
endif()
if(blocks EQUAL 0)
  message(STATUS "run_markdown_blocks: ${shown} marks no block runnable")
  return()
endif()

# --- A place to run them ----------------------------------------------------------
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(GLOB entries RELATIVE "${SOURCE}" "${SOURCE}/*")
foreach(entry IN LISTS entries)
  if(NOT entry MATCHES "^(build|build-.*|\\.git|exercises)$")
    file(CREATE_LINK "${SOURCE}/${entry}" "${WORK}/${entry}" SYMBOLIC)
  endif()
endforeach()

# --- Run them -----------------------------------------------------------------------
set(skipped 0)
foreach(i RANGE 1 ${blocks})
  set(missing "")
  foreach(program IN LISTS needs_${i})
    find_program(found_${program} ${program})
    if(NOT found_${program})
      list(APPEND missing ${program})
    endif()
  endforeach()
  if(missing)
    message(STATUS "skipped (${shown}:${line_${i}}): ${missing} not installed here")
    math(EXPR skipped "${skipped} + 1")
    continue()
  endif()
  set(script "${block_${i}}")
  # `build` as a path: build/... at the start of a word, or the folder an
  # option names (-B build, --build build, --test-dir build).
  string(REGEX REPLACE "(^|[ \t\n=\"'])build/" "\\1${BUILD}/" script "${script}")
  string(REGEX REPLACE "(-B|--build|--test-dir)([ \t=]+)build([ \t\n\"';)]|$)" "\\1\\2${BUILD}\\3" script
                       "${script}")
  string(REGEX REPLACE "(^|[ \t\n])-S \\.([ \t\n]|$)" "\\1-S ${SOURCE}\\2" script "${script}")
  file(WRITE "${WORK}/block_${i}.sh" "${script}")
  message(STATUS "${shown}:${line_${i}}: running\n${script}")
  execute_process(COMMAND bash -e -o pipefail "${WORK}/block_${i}.sh"
                  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err
                  TIMEOUT 600)
  string(LENGTH "${out}" length)
  if(length GREATER 6000)  # the end says the most
    math(EXPR from "${length} - 6000")
    string(SUBSTRING "${out}" ${from} -1 out)
    set(out "...\n${out}")
  endif()
  if(NOT status STREQUAL "0")
    message(FATAL_ERROR "run_markdown_blocks: ${shown}:${line_${i}}: the block marked runnable failed "
                        "(exit status ${status})\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  message(STATUS "ok (${shown}:${line_${i}})")
endforeach()
if(skipped GREATER 0)
  message(STATUS "run_markdown_blocks: ${shown}: ${blocks} runnable blocks; ${skipped} skipped (a program they "
                 "need is not installed), every other one ran")
else()
  message(STATUS "run_markdown_blocks: ${shown}: ${blocks} runnable blocks, every one ran")
endif()
