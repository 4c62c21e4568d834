# Build-time script for the 'exercises' target: copy each exercise starter to
# the student's folder, unless a file of that name is already there (it is the
# student's work: never overwrite it). Called with
#   -DSTARTERS=<starter>;<starter>... -DDEST=<folder>
file(MAKE_DIRECTORY "${DEST}")
foreach(starter IN LISTS STARTERS)
  get_filename_component(file_name "${starter}" NAME)
  if(EXISTS "${DEST}/${file_name}")
    message(STATUS "kept ${DEST}/${file_name} (yours; delete it to start again from the starter)")
  else()
    file(COPY_FILE "${starter}" "${DEST}/${file_name}")
    message(STATUS "wrote ${DEST}/${file_name}: the starter, fill in its TODO(exercise) blocks")
  endif()
endforeach()
