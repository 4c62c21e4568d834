// Chapter 08: the whole job in CUDA, seven ways, and in overlapping strips.
// Include only under GAUSS_HAVE_CUDA.
#pragma once

#include <vector>

#include "gauss/cuda.hpp"
#include "gauss/problem.hpp"
#include "transfer_jobs.hpp"

namespace chapter08 {

/// The CUDA methods, in the order of the lesson (the Fixstars seminar's first):
///  - pageable:         cudaMemcpy from and to the user's ordinary images;
///  - pinned:           through cudaMallocHost staging buffers, with host copies in and out;
///  - registered:       the user's own images page-locked in place with cudaHostRegister;
///  - mapped:           zero copy: the kernel reads its input from, and writes its output to,
///                      mapped host memory (cudaHostAlloc + cudaHostGetDevicePointer);
///  - mapped_out:       the input copied to the device through pinned staging, the output mapped;
///  - managed:          cudaMallocManaged: pages migrate when the kernel and the host touch them;
///  - managed_prefetch: the same, moved ahead of time with cudaMemPrefetchAsync.
/// Every one runs chapter 01's kernel (../01_naive/blur_naive.cu) on @p device (current).
std::vector<TransferMethod> cuda_methods(const gauss::CudaDeviceInfo& device, const gauss::Problem& problem);

/// How many copies the device can run while a kernel runs (cudaDevAttrAsyncEngineCount):
/// 1, a copy in one direction at a time; 2, an upload and a download at once.
int copy_engines(const gauss::CudaDeviceInfo& device);

/// The overlap: @p strips strips of whole 16-row groups on kOverlapQueues
/// streams, round robin, from and to pinned images (cudaMallocHost).
TransferMethod cuda_overlap(const gauss::Problem& problem, int strips);

}  // namespace chapter08
