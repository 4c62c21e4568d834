// Chapter 01's naive blur launched from another chapter (OpenCL side).
//
// Chapter 08 asks what it costs to bring the image to the GPU and back, and
// chapter 09 sums the blur's output: both want a kernel whose time the reader
// already knows, so they run chapter 01's, unchanged. A chapter that borrows
// chapter 01's kernels includes this header by name ("naive_blur.hpp"): its
// CMakeLists.txt says USES 01_naive, which puts this folder on its include
// path and links the embedded blur_naive_cl.hpp and the CUDA launcher
// (blur_naive.cuh); this header only launches the OpenCL kernel.
#pragma once

#include <string>
#include <vector>

#include "blur_naive_cl.hpp"  // chapters/01_naive/blur_naive.cl, embedded at build time (USES 01_naive)
#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/variant.hpp"

namespace gauss::naive {

/// Chapter 01's work-group shape, 16 x 16.
inline constexpr int kGroupX = 16;
inline constexpr int kGroupY = 16;

/// Builds chapter 01's OpenCL kernel for @p blur's radius.
inline cl::Kernel build_naive_blur(gauss::OpenClSession& cl, const gauss::BlurSpec& blur) {
  return cl.kernel(gauss::embedded::blur_naive_cl, "blur_naive", "-D RADIUS=" + std::to_string(blur.radius));
}

/// Enqueues chapter 01's blur of the output rows [row0, row0 + rows) on
/// @p queue, after the events in @p wait (if any), and returns its event.
///
/// The whole image is row0 = 0, rows = height. A strip uses OpenCL's global
/// work offset: get_global_id(1) then starts at row0, so the kernel needs no
/// change, and its bounds guard still compares against the image's height.
/// The NDRange is rounded up to whole 16-row groups, so a strip other than
/// the last must be a multiple of kGroupY rows: otherwise its last group would
/// compute rows of the next strip, whose input may not have arrived yet.
inline cl::Event enqueue_naive_blur(const cl::CommandQueue& queue, cl::Kernel& kernel, const cl::Buffer& in,
                                    const cl::Buffer& out, const gauss::Problem& p, int row0, int rows,
                                    const std::vector<cl::Event>* wait = nullptr) {
  kernel.setArg(0, in);
  kernel.setArg(1, out);
  kernel.setArg(2, p.image.width);
  kernel.setArg(3, p.image.height);
  kernel.setArg(4, p.image.pitch);
  kernel.setArg(5, p.taps);
  const cl::NDRange offset(0, static_cast<std::size_t>(row0));
  const cl::NDRange global(gauss::round_up(static_cast<std::size_t>(p.image.width), kGroupX),
                           gauss::round_up(static_cast<std::size_t>(rows), kGroupY));
  const cl::NDRange local(kGroupX, kGroupY);
  cl::Event done;
  queue.enqueueNDRangeKernel(kernel, offset, global, local, wait, &done);
  return done;
}

/// The image variant `naive`: the blur alone, on data already on the device
/// (chapter 01's row, measured again in the same run as the transfers).
inline gauss::OpenClSetup naive_blur_setup() {
  return [](gauss::OpenClSession& cl, const gauss::Problem& p) -> gauss::OpenClLaunch {
    cl::Kernel kernel = build_naive_blur(cl, p.blur);
    return [&cl, kernel, p](const cl::Buffer& in, const cl::Buffer& out) mutable {
      return std::vector<cl::Event>{enqueue_naive_blur(cl.queue, kernel, in, out, p, 0, p.image.height)};
    };
  };
}

}  // namespace gauss::naive
