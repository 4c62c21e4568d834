// Chapter 02: chapter 01's naive blur, unchanged, and what the CUDA runtime
// can tell about launching it.
//
// The kernel is the very same code as chapter 01's: this chapter links
// chapter 01's kernels, so that the launch shape is the only thing it changes,
// and asks the runtime about the kernel through blur_naive_kernel().
#include "blur_shapes.cuh"
#include "gauss/cuda.hpp"

BlurKernelLimits blur_naive_limits(int radius) {
  BlurKernelLimits limits;
  const void* kernel = blur_naive_kernel(radius);
  // The kernel's own limit: a block's threads share the SM's 64K registers,
  // so a kernel that needs many registers per thread cannot have 1024 of them.
  cudaFuncAttributes attributes{};
  GAUSS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  limits.max_block = attributes.maxThreadsPerBlock;
  limits.registers = attributes.numRegs;
  // The runtime's suggestion: the block size with the highest theoretical
  // occupancy (the largest such size), and the grid that fills every SM.
  GAUSS_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&limits.min_grid, &limits.suggested_block, kernel, 0, 0));
  return limits;
}
