// Chapter 03: one FIR Gaussian pass per pixel in CUDA, the same as gaussian_fir.cl.
#include <cstdint>
#include <stdexcept>

#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"
#include "gaussian_fir.cuh"

namespace chapter03 {
namespace {

__device__ void store(float* p, float v) { *p = v; }
__device__ void store(std::uint8_t* p, float v) {
  *p = static_cast<std::uint8_t>(fminf(fmaxf(v + 0.5f, 0.0f), 255.0f));
}

// Along the row: thread (x, y) reads in(x - R .. x + R, y), clamped to the row.
template <int RADIUS, class In, class Out>
__global__ void fir_rows(const In* in, int in_pitch, Out* out, int out_pitch, int width, int height,
                         gauss::GaussTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const In* row = in + y * in_pitch;
  float sum = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += taps.w[k + RADIUS] * static_cast<float>(row[min(max(x + k, 0), width - 1)]);
  store(out + y * out_pitch + x, sum);
}

// Down the column: thread (x, y) reads in(x, y - R .. y + R), clamped.
template <int RADIUS, class In, class Out>
__global__ void fir_columns(const In* in, int in_pitch, Out* out, int out_pitch, int width, int height,
                            gauss::GaussTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
#pragma unroll
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += taps.w[k + RADIUS] * static_cast<float>(in[min(max(y + k, 0), height - 1) * in_pitch + x]);
  store(out + y * out_pitch + x, sum);
}

}  // namespace

void launch_fir_pass(Line line, int radius, Element in_type, const void* in, int in_pitch, Element out_type, void* out,
                     int out_pitch, int width, int height, const gauss::GaussTaps& taps, cudaStream_t stream) {
  using U8 = std::uint8_t;
  const dim3 block(16, 16);
  const dim3 grid(gauss::div_up(width, block.x), gauss::div_up(height, block.y));
  gauss::with_radius(radius, [&](auto r) {
    constexpr int R = r.value;
    if (line == Line::Rows && in_type == Element::U8 && out_type == Element::U8) {
      fir_rows<R><<<grid, block, 0, stream>>>(static_cast<const U8*>(in), in_pitch, static_cast<U8*>(out), out_pitch,
                                              width, height, taps);
    } else if (line == Line::Rows && in_type == Element::U8 && out_type == Element::F32) {
      fir_rows<R><<<grid, block, 0, stream>>>(static_cast<const U8*>(in), in_pitch, static_cast<float*>(out), out_pitch,
                                              width, height, taps);
    } else if (line == Line::Columns && in_type == Element::U8 && out_type == Element::U8) {
      fir_columns<R><<<grid, block, 0, stream>>>(static_cast<const U8*>(in), in_pitch, static_cast<U8*>(out), out_pitch,
                                                 width, height, taps);
    } else if (line == Line::Columns && in_type == Element::F32 && out_type == Element::U8) {
      fir_columns<R><<<grid, block, 0, stream>>>(static_cast<const float*>(in), in_pitch, static_cast<U8*>(out),
                                                 out_pitch, width, height, taps);
    } else {
      throw std::invalid_argument("launch_fir_pass: no kernel for this combination of direction and element types");
    }
  });
}

}  // namespace chapter03
