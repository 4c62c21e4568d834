// Chapter 02: the host's view of blur_shapes.cu, chapter 01's naive blur
// kernel with the questions this chapter asks about its launch shape.
#pragma once

#include "blur_naive.cuh"  // launch_blur_naive(in, out, problem, block, stream)

/// What the CUDA runtime says about the naive blur kernel at @p radius on the
/// current device.
struct BlurKernelLimits {
  int max_block = 0;        ///< cudaFuncGetAttributes: the most threads a block may have (registers decide)
  int registers = 0;        ///< registers per thread
  int suggested_block = 0;  ///< cudaOccupancyMaxPotentialBlockSize: threads per block for the best occupancy
  int min_grid = 0;         ///< the fewest blocks that fill the device at that block size
};

/// Queries the limits of the naive blur kernel compiled for @p radius.
BlurKernelLimits blur_naive_limits(int radius);
