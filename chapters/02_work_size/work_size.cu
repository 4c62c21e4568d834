// Chapter 02: the add kernel and the compute-bound loop in CUDA, the same as
// work_size.cl.
#include <cstdint>

#include "gauss/cuda.hpp"
#include "work_size.cuh"

namespace {

// rigaya's add: one load of a, one of b, one store per thread. The bounds
// guard keeps the threads of the rounded-up grid inside the arrays.
__global__ void add_ints(const int* a, const int* b, int* c, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int i = y * width + x;
  c[i] = a[i] + b[i];
}

// toropippi's loop: a serial chain of sinf and a division per step, one
// store at the end. 1.3001 keeps 1e8 * y within a uint (see work_size.cl).
// The dynamic shared memory of the launch is never declared here: reserving
// it in the launch is enough to take its room on the SM.
__global__ void sin_divide_loop(unsigned int* out, unsigned int items, unsigned int iterations) {
  const unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= items) return;
  unsigned int x = id;
  for (unsigned int i = 0; i < iterations; ++i) {
    float y = sinf(1.234f * static_cast<float>(x % 12345u));
    y = 2.3456f / (y + 1.3001f);
    x = static_cast<unsigned int>(1e8f * y) + id;
  }
  out[id] = x;
}

// Above 48 KiB of dynamic shared memory a kernel has to opt in.
void allow_shared_memory(std::size_t bytes) {
  if (bytes > 48 * 1024) {
    GAUSS_CUDA_CHECK(
        cudaFuncSetAttribute(sin_divide_loop, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  }
}

}  // namespace

void launch_add_ints(const int* a, const int* b, int* c, int width, int height, dim3 block, cudaStream_t stream) {
  const dim3 grid(gauss::div_up(width, block.x), gauss::div_up(height, block.y));
  add_ints<<<grid, block, 0, stream>>>(a, b, c, width, height);
}

int add_ints_suggested_block() {
  int min_grid = 0;
  int block = 0;
  GAUSS_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, add_ints, 0, 0));
  return block;
}

void launch_sin_divide_loop(unsigned int* out, unsigned int items, unsigned int iterations, int block,
                            std::size_t reserved_bytes, cudaStream_t stream) {
  allow_shared_memory(reserved_bytes);
  const unsigned int grid = gauss::div_up(items, static_cast<unsigned int>(block));
  sin_divide_loop<<<grid, block, reserved_bytes, stream>>>(out, items, iterations);
}

LoopOccupancy sin_divide_loop_occupancy(int block, std::size_t reserved_bytes) {
  allow_shared_memory(reserved_bytes);
  LoopOccupancy result;
  cudaFuncAttributes attributes{};
  GAUSS_CUDA_CHECK(cudaFuncGetAttributes(&attributes, sin_divide_loop));
  result.max_block = attributes.maxThreadsPerBlock;
  result.registers = attributes.numRegs;
  if (block > result.max_block) return result;
  GAUSS_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&result.blocks_per_sm, sin_divide_loop, block, reserved_bytes));
  int device = 0;
  int warp = 0;
  int threads_per_sm = 0;
  GAUSS_CUDA_CHECK(cudaGetDevice(&device));
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  GAUSS_CUDA_CHECK(cudaDeviceGetAttribute(&threads_per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  // A block occupies whole warps: a block of 1 thread takes one warp slot.
  const int warps_per_block = (block + warp - 1) / warp;
  result.occupancy = static_cast<double>(result.blocks_per_sm * warps_per_block) / (threads_per_sm / warp);
  return result;
}
