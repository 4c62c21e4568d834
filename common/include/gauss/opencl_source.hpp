/// @file opencl_source.hpp
/// @brief An OpenCL C file embedded into an executable at build time.
#pragma once

namespace gauss {

/// The text of an OpenCL C file and the path it came from (relative to the
/// repository root). CMake's gauss_embed_opencl() generates one of these per
/// .cl file, so the executables need no kernel files at run time; the path
/// makes build errors point at the right file and line.
struct OpenClSource {
  const char* path;  ///< e.g. "chapters/01_naive/blur_naive.cl"
  const char* text;  ///< the whole file
};

}  // namespace gauss
