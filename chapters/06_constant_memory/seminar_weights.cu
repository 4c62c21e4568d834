// Chapter 06: the Fixstars seminar's ladder in CUDA, as published: the three
// kernels after Simple (chapter 01's seminar_simple.cu). The same code as
// seminar_weights.cl, which says what each changes and how it is checked.
// The loops repeat Simple's, and each other's, on purpose (as published).
//
// Where nvcc 13.0 puts the table (the build log's ptxas lines, sm_90):
// seminar_array gets a 104-byte stack frame, its table stored to local memory
// by every thread and read back by every tap; the __constant__ kernels have
// none and read c_table with constant-bank loads.
#include <cstdint>

#include "gauss/cuda.hpp"
#include "seminar_weights.cuh"

namespace {

// The 2-D Gaussian, sigma 1: entry [i][j] is w[i] * w[j] with
// w = 0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685.
// clang-format off
#define SEMINAR_TABLE                                                         \
  {                                                                           \
    {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},     \
    {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},     \
    {0.021938231f, 0.098320331f, 0.162102822f, 0.098320331f, 0.021938231f},   \
    {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},     \
    {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},     \
  }
// clang-format on

// The table of the two constant kernels, initialized where it is declared,
// as the seminar's: no cudaMemcpyToSymbol.
__constant__ float c_table[5][5] = SEMINAR_TABLE;

// Simple's per-thread table with a run-time bound: the indices are not
// constants, so the table goes to local memory.
__global__ void seminar_array(const std::uint8_t* src, std::uint8_t* dst, int width, int height, int src_step,
                              int dst_step, int ks) {
  const float table[5][5] = SEMINAR_TABLE;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float sum = 0.0f;
    for (int dy = 0; dy < ks; ++dy) {
      for (int dx = 0; dx < ks; ++dx) {
        sum += table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
      }
    }
    dst[x + y * dst_step] = static_cast<int>(sum + 0.5f);  // round half up; at most 255
  }
}

// The table in __constant__ memory, the bound still a run-time ks.
__global__ void seminar_constant(const std::uint8_t* src, std::uint8_t* dst, int width, int height, int src_step,
                                 int dst_step, int ks) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float sum = 0.0f;
    for (int dy = 0; dy < ks; ++dy) {
      for (int dx = 0; dx < ks; ++dx) {
        sum += c_table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
      }
    }
    dst[x + y * dst_step] = static_cast<int>(sum + 0.5f);
  }
}

// The __constant__ table with Simple's fixed 5x5 loops.
__global__ void seminar_constant_fixed(const std::uint8_t* src, std::uint8_t* dst, int width, int height, int src_step,
                                       int dst_step) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float sum = 0.0f;
    for (int dy = 0; dy < 5; ++dy) {
      for (int dx = 0; dx < 5; ++dx) {
        sum += c_table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
      }
    }
    dst[x + y * dst_step] = static_cast<int>(sum + 0.5f);
  }
}

}  // namespace

void launch_seminar_weights(SeminarKernel kernel, const std::uint8_t* padded, int padded_pitch, std::uint8_t* out,
                            const gauss::Problem& problem, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(32, 8);  // the seminar's blocks after Simple
  const dim3 grid(gauss::div_up(image.width, block.x), gauss::div_up(image.height, block.y));
  const int ks = problem.blur.taps();
  switch (kernel) {
    case SeminarKernel::Array:
      seminar_array<<<grid, block, 0, stream>>>(padded, out, image.width, image.height, padded_pitch, image.pitch, ks);
      break;
    case SeminarKernel::Constant:
      seminar_constant<<<grid, block, 0, stream>>>(padded, out, image.width, image.height, padded_pitch, image.pitch,
                                                   ks);
      break;
    case SeminarKernel::ConstantFixed:
      seminar_constant_fixed<<<grid, block, 0, stream>>>(padded, out, image.width, image.height, padded_pitch,
                                                         image.pitch);
      break;
  }
}
