// Chapter 07: colour pixels, 3 bytes against 4, in CUDA: the same kernels as
// blur_rgba.cl (its comment says what each one loads).
// The index mapping, bounds guard and clamped taps repeat chapter 01's kernel
// (and each other) on purpose: what this chapter changes is the loads.
#include <cstdint>

#include "blur_rgba.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

__device__ __forceinline__ int clamp_to(int value, int size) { return min(max(value, 0), size - 1); }

// Round half up and saturate to 0..255.
__device__ __forceinline__ unsigned int to_byte(float value) {
  return min(static_cast<unsigned int>(fmaxf(value + 0.5f, 0.0f)), 255u);
}

__device__ __forceinline__ float4 to_float4(unsigned int rgba) {  // R in the lowest byte (little-endian)
  return make_float4(rgba & 0xffu, (rgba >> 8) & 0xffu, (rgba >> 16) & 0xffu, rgba >> 24);
}

__device__ __forceinline__ void fma4(float4& sum, float w, float4 p) {
  sum.x += w * p.x;
  sum.y += w * p.y;
  sum.z += w * p.z;
  sum.w += w * p.w;
}

// Blurred R, G, B and the given alpha, packed (R in the lowest byte).
__device__ __forceinline__ unsigned int pack(float4 sum, unsigned int alpha) {
  return to_byte(sum.x) | to_byte(sum.y) << 8 | to_byte(sum.z) << 16 | alpha << 24;
}

template <int RADIUS>
__global__ void blur_rgb24(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                           gauss::GaussTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
  float3 sum = make_float3(0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    const uchar3* row = reinterpret_cast<const uchar3*>(in + clamp_to(y + dy, height) * pitch);
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      const uchar3 p = row[clamp_to(x + dx, width)];  // uchar3 is 3 bytes, aligned to 1: three byte loads
      const float weight = w[dy + RADIUS] * w[dx + RADIUS];
      sum.x += weight * p.x;
      sum.y += weight * p.y;
      sum.z += weight * p.z;
    }
  }
  uchar3* target = reinterpret_cast<uchar3*>(out + y * pitch);
  target[x] = make_uchar3(static_cast<unsigned char>(to_byte(sum.x)), static_cast<unsigned char>(to_byte(sum.y)),
                          static_cast<unsigned char>(to_byte(sum.z)));
}

template <int RADIUS, bool ALPHA_ZERO>
__global__ void blur_rgba32(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                            gauss::GaussTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
  float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    // EXERCISE: this window row as 32-bit pixels (clamped row); add each tap, one 32-bit load, to sum (to_float4, fma4)
    const unsigned int* row = reinterpret_cast<const unsigned int*>(in + clamp_to(y + dy, height) * pitch);
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      fma4(sum, w[dy + RADIUS] * w[dx + RADIUS], to_float4(row[clamp_to(x + dx, width)]));  // one 32-bit load
    }
    // END EXERCISE
  }
  const unsigned int centre = reinterpret_cast<const unsigned int*>(in + y * pitch)[x];
  const unsigned int alpha = ALPHA_ZERO ? 0u : centre >> 24;  // ALPHA_ZERO: the seminar's bug
  // EXERCISE: store the float4 sum as one 32-bit pixel: R, G, B rounded and saturated, then alpha (pack)
  reinterpret_cast<unsigned int*>(out + y * pitch)[x] = pack(sum, alpha);
  // STARTER:
  // reinterpret_cast<unsigned int*>(out + y * pitch)[x] = alpha << 24;
  // END EXERCISE
}

// Four pixels per thread; each window row loaded as aligned 16-byte vectors
// where it can be (see blur_rgba.cl), pixel by pixel (clamped) where not.
template <int RADIUS>
__global__ void blur_rgba32_x4(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                               gauss::GaussTaps taps) {
  constexpr int kLead = 4 * ((RADIUS + 3) / 4);  // pixels loaded left of the first output
  constexpr int kChunks = 1 + 2 * kLead / 4;     // 16-byte vectors per row
  constexpr int kSpan = 4 * kChunks;             // pixels loaded per row
  const int x0 = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x0 >= width || y >= height) return;
  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
  const bool vectors = pitch % 16 == 0 && x0 - kLead >= 0 && x0 - kLead + kSpan <= width;

  float4 sum[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) sum[k] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  float4 p[kSpan];
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    const std::uint8_t* row = in + clamp_to(y + dy, height) * pitch;
    if (vectors) {
      const uint4* chunks = reinterpret_cast<const uint4*>(row + 4 * (x0 - kLead));
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        const uint4 v = chunks[c];  // one 16-byte load: four pixels
        p[4 * c + 0] = to_float4(v.x);
        p[4 * c + 1] = to_float4(v.y);
        p[4 * c + 2] = to_float4(v.z);
        p[4 * c + 3] = to_float4(v.w);
      }
    } else {
      const unsigned int* pixels = reinterpret_cast<const unsigned int*>(row);
#pragma unroll
      for (int i = 0; i < kSpan; ++i) p[i] = to_float4(pixels[clamp_to(x0 - kLead + i, width)]);
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
#pragma unroll
      for (int dx = -RADIUS; dx <= RADIUS; ++dx) fma4(sum[k], w[dy + RADIUS] * w[dx + RADIUS], p[kLead + k + dx]);
    }
  }

  const unsigned int* centre = reinterpret_cast<const unsigned int*>(in + y * pitch);
  unsigned int packed[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) packed[k] = pack(sum[k], centre[min(x0 + k, width - 1)] >> 24);
  std::uint8_t* target = out + y * pitch;
  if (pitch % 16 == 0 && x0 + 4 <= width) {
    *reinterpret_cast<uint4*>(target + 4 * x0) = make_uint4(packed[0], packed[1], packed[2], packed[3]);
  } else {
    for (int k = 0; k < 4 && x0 + k < width; ++k) reinterpret_cast<unsigned int*>(target)[x0 + k] = packed[k];
  }
}

}  // namespace

void launch_blur_colour(ColourKernel kernel, const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                        cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(32, 8);
  const unsigned int items_x = kernel == ColourKernel::Rgba32x4 ? gauss::div_up(image.width, 4) : image.width;
  const dim3 grid(gauss::div_up(items_x, block.x), gauss::div_up(image.height, block.y));
  gauss::with_radius(problem.blur.radius, [&](auto r) {
    constexpr int R = r.value;
    const int w = image.width, h = image.height, pitch = image.pitch;
    switch (kernel) {
      case ColourKernel::Rgb24:
        blur_rgb24<R><<<grid, block, 0, stream>>>(in, out, w, h, pitch, problem.taps);
        break;
      case ColourKernel::Rgba32:
        blur_rgba32<R, false><<<grid, block, 0, stream>>>(in, out, w, h, pitch, problem.taps);
        break;
      case ColourKernel::AlphaZero:
        blur_rgba32<R, true><<<grid, block, 0, stream>>>(in, out, w, h, pitch, problem.taps);
        break;
      case ColourKernel::Rgba32x4:
        blur_rgba32_x4<R><<<grid, block, 0, stream>>>(in, out, w, h, pitch, problem.taps);
        break;
    }
  });
}
