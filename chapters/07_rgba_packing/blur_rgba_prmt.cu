// Chapter 07: rgba32 with a byte-permute unpack, in CUDA (variant
// rgba32_prmt; blur_rgba_prmt.cl says what changes against rgba32).
//
// blur_rgba32_prmt is blur_rgba32 of blur_rgba.cu, line for line, except for
// the conversions: a byte becomes a float with one PRMT and one FADD
// (chapter 10's byte_to_float) instead of a shift or mask and an I2F, and a
// rounded sum becomes a byte with one FADD in round-down mode and PRMTs to
// pack (chapter 10's floor trick) instead of F2I, clamps, shifts and ors.
#include <cstdint>

#include "blur_rgba_prmt.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

__device__ __forceinline__ int clamp_to(int value, int size) { return min(max(value, 0), size - 1); }

// Byte k of word as a float: __byte_perm puts it under 0x4B0000, the bit
// pattern of the float 2^23 + byte; subtracting 2^23 is exact.
__device__ __forceinline__ float byte_to_float(unsigned int word, int k) {
  return __uint_as_float(__byte_perm(word, 0x4B000000u, 0x7540 | k)) - 8388608.0f;
}

__device__ __forceinline__ float4 to_float4(unsigned int rgba) {  // R in the lowest byte (little-endian)
  return make_float4(byte_to_float(rgba, 0), byte_to_float(rgba, 1), byte_to_float(rgba, 2), byte_to_float(rgba, 3));
}

__device__ __forceinline__ void fma4(float4& sum, float w, float4 p) {
  sum.x += w * p.x;
  sum.y += w * p.y;
  sum.z += w * p.z;
  sum.w += w * p.w;
}

// Round half up, as rgba32's to_byte: floor(value + 0.5), in the low byte of
// the result. Adding 2^23 rounding down leaves 2^23 + floor(s) for
// 0 <= s < 256, exact; value + 0.5f is the same float rgba32 truncates. No
// saturation: the weights are positive and sum to 1, so 0 <= value <= 255
// (plus rounding), and the tests compare every value with the reference.
__device__ __forceinline__ unsigned int round_to_low_byte(float value) {
  return __float_as_uint(__fadd_rd(value + 0.5f, 8388608.0f));
}

// Blurred R, G, B and the pixel's own word's alpha, packed with byte permutes.
__device__ __forceinline__ unsigned int pack(float4 sum, unsigned int centre) {
  const unsigned int rg = __byte_perm(round_to_low_byte(sum.x), round_to_low_byte(sum.y), 0x0040);  // R, G low
  const unsigned int ba = __byte_perm(round_to_low_byte(sum.z), centre, 0x0070);  // B, then centre's alpha
  return __byte_perm(rg, ba, 0x5410);
}

template <int RADIUS>
__global__ void blur_rgba32_prmt(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
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
    const unsigned int* row = reinterpret_cast<const unsigned int*>(in + clamp_to(y + dy, height) * pitch);
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      fma4(sum, w[dy + RADIUS] * w[dx + RADIUS], to_float4(row[clamp_to(x + dx, width)]));  // one 32-bit load
    }
  }
  const unsigned int centre = reinterpret_cast<const unsigned int*>(in + y * pitch)[x];
  reinterpret_cast<unsigned int*>(out + y * pitch)[x] = pack(sum, centre);
}

}  // namespace

void launch_blur_rgba32_prmt(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(32, 8);  // as rgba32
  const dim3 grid(gauss::div_up(image.width, block.x), gauss::div_up(image.height, block.y));
  gauss::with_radius(problem.blur.radius, [&](auto r) {
    blur_rgba32_prmt<r.value>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
