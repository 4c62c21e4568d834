// Chapter 05: the main line's set-ups in both APIs, which chapter 06 runs
// too (USES 05_local_memory): its step, measured, did not beat this one.
#pragma once

#include <stdexcept>
#include <string>

#include "blur_staged.hpp"     // the tile height
#include "blur_staged_cl.hpp"  // the kernel, embedded from blur_staged.cl
#include "gauss/lesson_launch.hpp"
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#ifdef GAUSS_HAVE_CUDA
#include "blur_staged.cuh"
#endif

namespace chapter05 {

// --- The main line: the fused separable blur, staged in local memory ----------------
// 32x8 groups, each owning 128 x staged_tile_rows(R) output pixels. Word loads
// and stores need word-aligned rows: an OpenCL buffer's base is aligned far
// beyond 4 bytes, so the pitch decides. @p source and @p name: blur_staged,
// or a kernel with the same tiles and arguments (chapter 06's candidate).
inline gauss::OpenClLaunch staged_tiles_opencl(gauss::OpenClSession& cl, const gauss::Problem& p,
                                               const gauss::OpenClSource& source, const char* name) {
  const int tile_rows = staged_tile_rows(p.blur.radius, cl.info.local_memory);
  if (tile_rows == 0)
    throw std::runtime_error(std::string(name) + ": the device's local memory holds no tile at this radius");
  cl::Kernel kernel = gauss::lesson::blur_kernel(
      cl, source, name, "-D RADIUS=" + std::to_string(p.blur.radius) + " -D TILE_ROWS=" + std::to_string(tile_rows), p);
  kernel.setArg(6, static_cast<cl_int>(p.image.pitch % 4 == 0));
  // One group per 128 x tile_rows output pixels.
  const cl::NDRange global(gauss::round_up(p.image.width, 128) / 4,
                           gauss::round_up(p.image.height, tile_rows) / tile_rows * 8);
  return gauss::lesson::enqueue_kernel(cl, kernel, global, cl::NDRange(32, 8));
}

inline gauss::OpenClLaunch staged_opencl(gauss::OpenClSession& cl, const gauss::Problem& p) {
  return staged_tiles_opencl(cl, p, gauss::embedded::blur_staged_cl, "blur_staged");
}

#ifdef GAUSS_HAVE_CUDA
inline gauss::CudaSetup staged_cuda() { return gauss::lesson::cuda_launch(launch_blur_staged); }
#endif

}  // namespace chapter05
