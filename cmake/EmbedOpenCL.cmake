# Build-time script: turn one OpenCL C file into a C++ header that holds its
# text, so that every chapter executable stands alone (no .cl file to find at
# run time). Called by gauss_embed_opencl() with
#   -DINPUT=<file.cl> -DOUTPUT=<header.hpp> -DSYMBOL=<c identifier> -DDISPLAY=<path shown in build logs>
file(READ "${INPUT}" text)
string(FIND "${text}" ")gauss_cl\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter )gauss_cl\"")
endif()
set(header "// Generated from ${DISPLAY} by cmake/EmbedOpenCL.cmake: edit the .cl file, not this.
#pragma once
#include \"gauss/opencl_source.hpp\"

namespace gauss::embedded {
// constexpr at namespace scope: internal linkage, so two chapters linked into one
// program (the capstone) may embed files of the same name.
constexpr OpenClSource ${SYMBOL}{\"${DISPLAY}\", R\"gauss_cl(${text})gauss_cl\"};
}  // namespace gauss::embedded
")
include("${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake")
gauss_write_if_changed("${OUTPUT}" "${header}")
