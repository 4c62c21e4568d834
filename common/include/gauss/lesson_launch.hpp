// The lesson runners' OpenCL launch helpers (chapters 05, 06 and 07): the
// launch every blur kernel of these chapters uses, and the build options that
// fix a kernel's radius and work-group shape at compile time.
//
// Every kernel of these chapters takes (in, out, width, height, pitch, ...)
// as its first arguments. Everything but the two buffers is known at set-up,
// so it is set once there; each timed run sets the run's buffers and enqueues.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "gauss/variant.hpp"

namespace gauss::lesson {

/// A work-group (OpenCL) or block (CUDA) shape.
struct GroupShape {
  int x = 32;
  int y = 8;
};

/// "32x8".
inline std::string to_string(GroupShape shape) { return std::to_string(shape.x) + "x" + std::to_string(shape.y); }

/// "-D RADIUS=2 -D GROUP_X=32 -D GROUP_Y=8": the radius and the group shape as
/// compile-time constants, so that loops unroll and local arrays get their size.
inline std::string build_options(int radius, GroupShape shape) {
  return "-D RADIUS=" + std::to_string(radius) + " -D GROUP_X=" + std::to_string(shape.x) +
         " -D GROUP_Y=" + std::to_string(shape.y);
}

/// Sets arguments 2, 3, 4 of a blur kernel: the image's width, height and pitch.
inline void set_geometry_args(cl::Kernel& kernel, const Problem& problem) {
  kernel.setArg(2, problem.image.width);
  kernel.setArg(3, problem.image.height);
  kernel.setArg(4, problem.image.pitch);
}

/// Blur kernel @p name of @p source built with @p options, with what every
/// blur kernel of these chapters takes at set-up already set: the geometry
/// (arguments 2, 3, 4) and the taps, by value (argument 5).
inline cl::Kernel blur_kernel(OpenClSession& cl, const OpenClSource& source, const char* name,
                              const std::string& options, const Problem& problem) {
  cl::Kernel kernel = cl.kernel(source, name, options);
  set_geometry_args(kernel, problem);
  kernel.setArg(5, problem.taps);
  return kernel;
}

/// The NDRange of one item per pixel, rounded up to whole groups of @p shape.
inline cl::NDRange global_for(const ImageGeometry& image, GroupShape shape) {
  return cl::NDRange(round_up(static_cast<std::size_t>(image.width), static_cast<std::size_t>(shape.x)),
                     round_up(static_cast<std::size_t>(image.height), static_cast<std::size_t>(shape.y)));
}

/// The launch of one kernel whose other arguments are already set: each run
/// sets its input and output buffers (arguments 0 and 1) and enqueues.
inline OpenClLaunch enqueue_kernel(OpenClSession& cl, cl::Kernel kernel, cl::NDRange global, cl::NDRange local) {
  return [&cl, kernel, global, local](const cl::Buffer& in, const cl::Buffer& out) mutable {
    kernel.setArg(0, in);
    kernel.setArg(1, out);
    cl::Event done;  // its profiling counters time the kernel
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &done);
    return std::vector<cl::Event>{done};
  };
}

/// A CUDA variant that needs no set-up: each run calls
/// @p launch(in, out, problem, stream), a kernel's launcher from its .cuh.
template <class Launch>
CudaSetup cuda_launch(Launch launch) {
  return [launch](const Problem& p) -> CudaLaunch {
    return [launch, p](const std::uint8_t* in, std::uint8_t* out, CUstream_st* stream) { launch(in, out, p, stream); };
  };
}

}  // namespace gauss::lesson
