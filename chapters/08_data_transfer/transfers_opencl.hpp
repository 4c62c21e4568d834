// Chapter 08: the whole job in OpenCL, three ways, and in overlapping strips.
#pragma once

#include <vector>

#include "gauss/opencl.hpp"
#include "gauss/problem.hpp"
#include "transfer_jobs.hpp"

namespace chapter08 {

/// The OpenCL methods, in the order of the lesson:
///  - read_write:     clEnqueueWriteBuffer / ReadBuffer straight from and to the user's (pageable) images;
///  - pinned:         the same through staging buffers the runtime allocated with CL_MEM_ALLOC_HOST_PTR
///                    (page-locked on NVIDIA), mapped once; the host copies the images in and out;
///  - alloc_host_ptr: the kernel runs on CL_MEM_ALLOC_HOST_PTR buffers; the host fills and reads
///                    them through clEnqueueMapBuffer / clEnqueueUnmapMemObject;
///  - use_host_ptr:   the same on CL_MEM_USE_HOST_PTR buffers over page-aligned host memory the
///                    application allocated (zero copy where the device shares host memory).
/// @p kernel is chapter 01's blur, built for @p problem's radius.
std::vector<TransferMethod> opencl_methods(gauss::OpenClSession& cl, const cl::Kernel& kernel,
                                           const gauss::Problem& problem);

/// The overlap: the image split into @p strips strips of whole 16-row groups,
/// each uploaded, blurred and downloaded on one of kOverlapQueues in-order
/// queues, round robin, so that one strip's copies run while another strip's
/// kernel does. The images are in pinned memory (CL_MEM_ALLOC_HOST_PTR,
/// mapped), as asynchronous copies need.
TransferMethod opencl_overlap(gauss::OpenClSession& cl, const cl::Kernel& kernel, const gauss::Problem& problem,
                              int strips);

/// Queues (OpenCL) and streams (CUDA) the overlap spreads strips over: one
/// per engine that can work at once (upload, kernel, download).
inline constexpr int kOverlapQueues = 3;

}  // namespace chapter08
