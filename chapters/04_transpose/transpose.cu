// Chapter 04: the transposes in CUDA, the same as transpose.cl.
#include <cstdint>
#include <stdexcept>

#include "gauss/cuda.hpp"
#include "transpose.cuh"

namespace chapter04 {
namespace {

using chapter03::Element;

__device__ std::uint8_t convert(std::uint8_t v, std::uint8_t*) { return v; }
__device__ float convert(float v, float*) { return v; }
// The pipeline's last transpose: float in, 8-bit out, rounded half up.
__device__ std::uint8_t convert(float v, std::uint8_t*) {
  return static_cast<std::uint8_t>(fminf(fmaxf(v + 0.5f, 0.0f), 255.0f));
}

// Naive: thread (x, y) reads in(x, y), writes out(y, x): the writes of a
// warp are out_pitch elements apart.
template <class In, class Out>
__global__ void transpose_naive(const In* in, int in_pitch, Out* out, int out_pitch, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[x * out_pitch + y] = convert(in[y * in_pitch + x], out);
}

// A TILE x TILE tile per TILE x TILE block; PAD adds a column to the shared
// tile; SKEW visits tiles in diagonal order (see transpose.cl).
template <int TILE, int PAD, bool SKEW, class In, class Out>
__global__ void transpose_tiled(const In* in, int in_pitch, Out* out, int out_pitch, int width, int height) {
  __shared__ In tile[TILE][TILE + PAD];
  const int group_x = blockIdx.x;
  const int group_y = SKEW ? (blockIdx.y + blockIdx.x) % gridDim.y : blockIdx.y;
  const int lx = threadIdx.x;
  const int ly = threadIdx.y;
  // EXERCISE: load the tile: thread (lx, ly) copies its input pixel into tile[ly][lx], if it is in the image
  const int x = group_x * TILE + lx;
  const int y = group_y * TILE + ly;
  if (x < width && y < height) tile[ly][lx] = in[y * in_pitch + x];
  // END EXERCISE
  // EXERCISE: no thread may read the tile before every thread of the block has loaded its value
  __syncthreads();  // the column read below needs values other threads loaded
  // END EXERCISE
  // EXERCISE: store the tile transposed: consecutive lx write consecutive values of an output row
  const int out_x = group_y * TILE + lx;
  const int out_y = group_x * TILE + ly;
  if (out_x < height && out_y < width) out[out_y * out_pitch + out_x] = convert(tile[lx][ly], out);
  // STARTER:
  // (void)group_x, (void)group_y, (void)lx, (void)ly;  // unused until the three blocks are written
  // END EXERCISE
}

// 32 x 8 threads over a 32 x 33 tile, four values per thread.
template <class In, class Out>
__global__ void transpose_32x8(const In* in, int in_pitch, Out* out, int out_pitch, int width, int height) {
  __shared__ In tile[32][33];
  const int lx = threadIdx.x;
  const int ly = threadIdx.y;
  const int x = blockIdx.x * 32 + lx;
#pragma unroll
  for (int j = 0; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + ly + j;
    if (x < width && y < height) tile[ly + j][lx] = in[y * in_pitch + x];
  }
  __syncthreads();
  const int out_x = blockIdx.y * 32 + lx;
#pragma unroll
  for (int j = 0; j < 32; j += 8) {
    const int out_y = blockIdx.x * 32 + ly + j;
    if (out_x < height && out_y < width) out[out_y * out_pitch + out_x] = convert(tile[lx][ly + j], out);
  }
}

template <class In, class Out>
void launch_typed(TransposeKind kind, const In* in, int in_pitch, Out* out, int out_pitch, int width, int height,
                  cudaStream_t stream) {
  const dim3 block16(16, 16);
  const dim3 grid16(gauss::div_up(width, 16), gauss::div_up(height, 16));
  switch (kind) {
    case TransposeKind::Naive:
      transpose_naive<<<grid16, block16, 0, stream>>>(in, in_pitch, out, out_pitch, width, height);
      break;
    case TransposeKind::Tiled16:
      transpose_tiled<16, 0, false><<<grid16, block16, 0, stream>>>(in, in_pitch, out, out_pitch, width, height);
      break;
    case TransposeKind::Tiled16Padded:
      transpose_tiled<16, 1, false><<<grid16, block16, 0, stream>>>(in, in_pitch, out, out_pitch, width, height);
      break;
    case TransposeKind::Tiled16Skewed:
      transpose_tiled<16, 0, true><<<grid16, block16, 0, stream>>>(in, in_pitch, out, out_pitch, width, height);
      break;
    case TransposeKind::Tiled32x8:
      transpose_32x8<<<dim3(gauss::div_up(width, 32), gauss::div_up(height, 32)), dim3(32, 8), 0, stream>>>(
          in, in_pitch, out, out_pitch, width, height);
      break;
  }
}

}  // namespace

void launch_transpose(TransposeKind kind, Element in_type, const void* in, int in_pitch, Element out_type, void* out,
                      int out_pitch, int width, int height, cudaStream_t stream) {
  using U8 = std::uint8_t;
  if (in_type == Element::U8 && out_type == Element::U8) {
    launch_typed(kind, static_cast<const U8*>(in), in_pitch, static_cast<U8*>(out), out_pitch, width, height, stream);
  } else if (in_type == Element::F32 && out_type == Element::F32) {
    launch_typed(kind, static_cast<const float*>(in), in_pitch, static_cast<float*>(out), out_pitch, width, height,
                 stream);
  } else if (in_type == Element::F32 && out_type == Element::U8) {
    launch_typed(kind, static_cast<const float*>(in), in_pitch, static_cast<U8*>(out), out_pitch, width, height,
                 stream);
  } else {
    throw std::invalid_argument("launch_transpose: no kernel from 8-bit to float");
  }
}

}  // namespace chapter04
