# Build-time script: write an exercise's starter kernel from its solution, so
# that the two cannot drift apart. Called by gauss_add_chapter(... EXERCISE)
# with
#   -DINPUT=<solution kernel> -DOUTPUT=<starter> -DDISPLAY=<path shown to students>
#
# The solution marks each block the student writes:
#
#     // EXERCISE: one line that says what the block must do (the hint)
#     ... the solution's lines: left out of the starter ...
#     // STARTER:
#     // ... lines the starter has instead, commented out here ...
#     // END EXERCISE
#
# The STARTER part is optional. In the starter the block becomes
#
#     // TODO(exercise): one line that says what the block must do
#     ... the STARTER lines, uncommented ...
#
# so the starter compiles and runs, and its output is wrong until the TODOs are
# filled in. The markers are comments, so the solution builds as it is.
# Line by line without CMake lists: a kernel's ';' and unbalanced '[' would
# confuse them.
file(READ "${INPUT}" text)
set(out "")
set(state outside)  # outside | solution | starter
set(blocks 0)
set(line_number 0)
while(NOT text STREQUAL "")
  string(FIND "${text}" "\n" newline)
  if(newline EQUAL -1)
    set(line "${text}")
    set(text "")
  else()
    string(SUBSTRING "${text}" 0 ${newline} line)
    math(EXPR rest "${newline} + 1")
    string(SUBSTRING "${text}" ${rest} -1 text)
  endif()
  math(EXPR line_number "${line_number} + 1")
  if(line MATCHES "^([ \t]*)// EXERCISE: (.+)$")
    if(NOT state STREQUAL outside)
      message(FATAL_ERROR "${DISPLAY}:${line_number}: EXERCISE inside another exercise block (END EXERCISE missing?)")
    endif()
    set(state solution)
    math(EXPR blocks "${blocks} + 1")
    string(APPEND out "${CMAKE_MATCH_1}// TODO(exercise): ${CMAKE_MATCH_2}\n")
  elseif(line MATCHES "^[ \t]*// EXERCISE")
    message(FATAL_ERROR "${DISPLAY}:${line_number}: write the marker as '// EXERCISE: <hint>'")
  elseif(line MATCHES "^[ \t]*// STARTER:[ \t]*$")
    if(NOT state STREQUAL solution)
      message(FATAL_ERROR "${DISPLAY}:${line_number}: STARTER outside an exercise block")
    endif()
    set(state starter)
  elseif(line MATCHES "^[ \t]*// END EXERCISE[ \t]*$")
    if(state STREQUAL outside)
      message(FATAL_ERROR "${DISPLAY}:${line_number}: END EXERCISE without EXERCISE")
    endif()
    set(state outside)
  elseif(state STREQUAL starter)
    if(line MATCHES "^([ \t]*)// ?(.*)$")
      string(APPEND out "${CMAKE_MATCH_1}${CMAKE_MATCH_2}\n")
    elseif(line MATCHES "^[ \t]*$")
      string(APPEND out "\n")
    else()
      message(FATAL_ERROR "${DISPLAY}:${line_number}: a STARTER line must be commented out ('// ...')")
    endif()
  elseif(state STREQUAL outside)
    string(APPEND out "${line}\n")
  endif()
endwhile()
if(NOT state STREQUAL outside)
  message(FATAL_ERROR "${DISPLAY}: the last exercise block has no END EXERCISE")
endif()
if(blocks EQUAL 0)
  message(FATAL_ERROR "${DISPLAY}: no '// EXERCISE: <hint>' block: nothing for the student to write")
endif()

set(header "// Exercise starter, generated from ${DISPLAY} (its solution) by cmake/MakeStarter.cmake.
// Fill in the ${blocks} TODO(exercise) block(s), then run and grade it as the
// chapter's README (section Exercise) says.
")
set(out "${header}${out}")
include("${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake")
gauss_write_if_changed("${OUTPUT}" "${out}")
