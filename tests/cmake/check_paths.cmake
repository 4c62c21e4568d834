# Fails when a page or a source of the project cites a file a reader cannot
# follow: by an absolute path of the machine it was written on (under its
# work or home folders), in a folder beside the repository (a shared folder
# of notes), or, in a Markdown page's prose (outside its code blocks), under
# the temporary folder. The patterns below say exactly which. A
# student reads the lessons on GitHub, on the docs site or in a fresh clone:
# what they cite must be in the repository, by a path from its root or from
# the page.
#
#   cmake -DSOURCE=<repository> -P tests/cmake/check_paths.cmake
#
# Scripts may name /tmp (a default scratch folder); the results' logs, which
# record what a program printed on the machine that ran it, are not read.
cmake_minimum_required(VERSION 3.16)

if(NOT IS_DIRECTORY "${SOURCE}")
  message(FATAL_ERROR "check_paths: no repository at '${SOURCE}'")
endif()

# What a reader may be sent to: the Markdown pages, and every source, script
# and build file (their comments are read too).
set(patterns
  README.md docs/*.md images/*.md chapters/*/*.md results/*/*.md
  CMakeLists.txt */CMakeLists.txt */*/CMakeLists.txt cmake/*.cmake tests/cmake/*.cmake docs/*.cmake docs/*.in
  common/*/*.cpp common/*/*.hpp common/*/*/*.hpp common/*/*.cu common/*/*.cl
  chapters/*/*.cpp chapters/*/*.hpp chapters/*/*.cu chapters/*/*.cuh chapters/*/*.cl chapters/*/*.conf
  tests/*.cpp tests/*.hpp tests/*.cu tests/*.cuh tests/data/*.cl tests/data/*.cu
  scripts/*.sh scripts/*.py docs/*.py .ci/run)
set(files "")
foreach(pattern IN LISTS patterns)
  file(GLOB found LIST_DIRECTORIES false RELATIVE "${SOURCE}" "${SOURCE}/${pattern}")
  list(APPEND files ${found})
endforeach()
list(REMOVE_DUPLICATES files)
list(REMOVE_ITEM files tests/cmake/check_paths.cmake)  # itself: its patterns name what it looks for
list(SORT files)

# A path starts at the beginning of a line or after a space, a quote, a
# bracket, '=', ':' or '/' (a file:// URL), never inside a word or a URL's
# host name.
set(before "(^|[ \t\"'`(<=:,/])")
set(anywhere "${before}/(work|home)(/|[ \t\"'`)>.,;:]|$)|\\.\\./shared([/ \t\"'`)]|$)|shared/notes")
set(in_prose "${before}/tmp(/|[ \t\"'`)>.,;:]|$)")

set(problems "")
set(problem_count 0)
foreach(file IN LISTS files)
  file(STRINGS "${SOURCE}/${file}" lines)
  set(number 0)
  set(in_code FALSE)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(file MATCHES "\\.md$" AND line MATCHES "^[ \t]*(```|~~~)")
      if(in_code)
        set(in_code FALSE)
      else()
        set(in_code TRUE)
      endif()
    endif()
    set(hit "")
    if(line MATCHES "${anywhere}")
      set(hit "${CMAKE_MATCH_0}")
    elseif(file MATCHES "\\.md$" AND NOT in_code AND line MATCHES "${in_prose}")
      set(hit "${CMAKE_MATCH_0}")
    endif()
    if(NOT hit STREQUAL "")
      math(EXPR problem_count "${problem_count} + 1")
      string(STRIP "${line}" shown)
      string(SUBSTRING "${shown}" 0 140 shown)
      string(APPEND problems "  ${file}:${number}: '${hit}' in: ${shown}\n")
    endif()
  endforeach()
endforeach()

list(LENGTH files file_count)
if(problem_count GREATER 0)
  message(FATAL_ERROR "check_paths: ${problem_count} citations a reader cannot follow (an absolute path, or a "
                      "folder outside the repository); cite the repository's own files, by a path from its root or "
                      "from the page:\n${problems}(${file_count} files read)")
endif()
message(STATUS "check_paths: ${file_count} files read, no absolute path and nothing outside the repository cited")
