# gauss_write_if_changed(<file> <text>): writes <text> to <file> only when the
# file holds something else, so that an unchanged input rebuilds nothing.
# Included by the build-time scripts that generate sources.
function(gauss_write_if_changed file text)
  if(EXISTS "${file}")
    file(READ "${file}" old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE "${file}" "${text}")
endfunction()
