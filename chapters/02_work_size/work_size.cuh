// Chapter 02: the host's view of work_size.cu, the add kernel and the
// compute-bound loop in CUDA.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

/// rigaya's add: c = a + b over width x height ints, blocks of @p block
/// threads, the grid rounded up to whole blocks.
void launch_add_ints(const int* a, const int* b, int* c, int width, int height, dim3 block, cudaStream_t stream);

/// The block size cudaOccupancyMaxPotentialBlockSize suggests for the add kernel.
int add_ints_suggested_block();

/// toropippi's loop: @p items threads in blocks of @p block, each iterating
/// @p iterations times; @p reserved_bytes of dynamic shared memory per block,
/// never touched, only to limit how many blocks an SM holds.
void launch_sin_divide_loop(unsigned int* out, unsigned int items, unsigned int iterations, int block,
                            std::size_t reserved_bytes, cudaStream_t stream);

/// Theoretical occupancy of the loop kernel for one block size.
struct LoopOccupancy {
  int blocks_per_sm = 0;  ///< cudaOccupancyMaxActiveBlocksPerMultiprocessor
  double occupancy = 0;   ///< resident warps / the SM's maximum, 0..1
  int max_block = 0;      ///< the kernel's own limit on threads per block
  int registers = 0;      ///< registers per thread
};

/// Occupancy of the loop kernel with blocks of @p block threads and
/// @p reserved_bytes of dynamic shared memory each, on the current device.
LoopOccupancy sin_divide_loop_occupancy(int block, std::size_t reserved_bytes);
