// Chapter 07, the main line: chapter 06's fused separable kernel with
// symmetric weights on RGBA pixels, the same kernel as blur_rgba_main.cl
// (its comment has the phases): one 32-bit word per pixel, R, G and B
// through the two passes in shared memory, alpha carried.
#include <cstdint>
#include <stdexcept>

#include "blur_rgba_main.cuh"
#include "blur_rgba_main.hpp"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

constexpr int kGroupX = 32;
constexpr int kGroupY = 8;
constexpr int kGroupSize = kGroupX * kGroupY;

// Channel c (0 R, 1 G, 2 B, 3 A) of a pixel word, as an int.
__device__ __forceinline__ int channel(std::uint32_t pixel, int c) { return (pixel >> (8 * c)) & 0xff; }

// TILE_ROWS is rgba_main_tile_rows(RADIUS), computed by the launcher (a host
// constexpr function cannot be called from device code).
template <int RADIUS, int TILE_ROWS>
__global__ void __launch_bounds__(kGroupSize) blur_rgba_staged(const std::uint8_t* in, std::uint8_t* out, int width,
                                                               int height, int pitch, gauss::GaussTaps taps) {
  constexpr int kTaps = 2 * RADIUS + 1;
  constexpr int kRows = TILE_ROWS / kGroupY;
  constexpr int kTileH = TILE_ROWS + 2 * RADIUS;
  constexpr int kTileW = kGroupX + 2 * RADIUS;
  __shared__ std::uint32_t pixels[kTileH][kTileW];
  __shared__ float4 row_sums[kTileH][kGroupX];  // R, G, B, alpha: a warp's 512 bytes, no bank conflicts

  const int lx = threadIdx.x;
  const int ly = threadIdx.y;
  const int x0 = blockIdx.x * kGroupX;
  const int y0 = blockIdx.y * TILE_ROWS;

  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];

  // 1. The load: one flat stride over the tile's pixels, one clamped 32-bit load each.
  for (int i = ly * kGroupX + lx; i < kTileH * kTileW; i += kGroupSize) {
    const int ty = i / kTileW;
    const int tx = i - ty * kTileW;
    const auto* row = reinterpret_cast<const std::uint32_t*>(in + min(max(y0 - RADIUS + ty, 0), height - 1) * pitch);
    pixels[ty][tx] = row[min(max(x0 - RADIUS + tx, 0), width - 1)];
  }
  __syncthreads();

  // 2. The horizontal pass, every 8th tile row: per channel, the mirrored
  //    bytes added as integers (exact), one conversion and one multiply-add.
  for (int ty = ly; ty < kTileH; ty += kGroupY) {
    const std::uint32_t centre = pixels[ty][lx + RADIUS];
    float s[3];
#pragma unroll
    for (int c = 0; c < 3; ++c) s[c] = w[RADIUS] * static_cast<float>(channel(centre, c));
#pragma unroll
    for (int d = 1; d <= RADIUS; ++d) {
      const std::uint32_t left = pixels[ty][lx + RADIUS - d];
      const std::uint32_t right = pixels[ty][lx + RADIUS + d];
#pragma unroll
      for (int c = 0; c < 3; ++c) s[c] += w[RADIUS + d] * static_cast<float>(channel(left, c) + channel(right, c));
    }
    // The fourth lane carries the pixel's own alpha to the vertical pass.
    row_sums[ty][lx] = make_float4(s[0], s[1], s[2], static_cast<float>(channel(centre, 3)));
  }
  __syncthreads();

  // 3. The vertical pass, kRows consecutive output rows per thread, mirrored rows added first.
  const int x = x0 + lx;
  if (x >= width) return;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int y = y0 + ly * kRows + j;
    if (y >= height) break;
    const int c = ly * kRows + j + RADIUS;  // the output row's tile row
    const float4 mid = row_sums[c][lx];
    float r = w[RADIUS] * mid.x, g = w[RADIUS] * mid.y, b = w[RADIUS] * mid.z;
#pragma unroll
    for (int d = 1; d <= RADIUS; ++d) {
      const float4 above = row_sums[c - d][lx];
      const float4 below = row_sums[c + d][lx];
      r += w[RADIUS + d] * (above.x + below.x);
      g += w[RADIUS + d] * (above.y + below.y);
      b += w[RADIUS + d] * (above.z + below.z);
    }
    // Round half up (the conversion truncates); alpha is the pixel's own,
    // from the centre row's fourth lane (exact: a byte converted and back).
    const std::uint32_t r8 = min(static_cast<unsigned int>(r + 0.5f), 255u);
    const std::uint32_t g8 = min(static_cast<unsigned int>(g + 0.5f), 255u);
    const std::uint32_t b8 = min(static_cast<unsigned int>(b + 0.5f), 255u);
    const std::uint32_t alpha = static_cast<std::uint32_t>(mid.w) << 24;
    reinterpret_cast<std::uint32_t*>(out + y * pitch)[x] = r8 | (g8 << 8) | (b8 << 16) | alpha;  // one 32-bit store
  }
}

}  // namespace

void launch_blur_rgba_main(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                           cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  if (image.pitch % 4 != 0 || reinterpret_cast<std::uintptr_t>(in) % 4 != 0 ||
      reinterpret_cast<std::uintptr_t>(out) % 4 != 0) {
    throw std::invalid_argument("blur_rgba_staged reads and writes whole 32-bit pixels: rows must be word-aligned");
  }
  const int r = problem.blur.radius;
  const dim3 block(kGroupX, kGroupY);
  const dim3 grid(gauss::div_up(image.width, kGroupX), gauss::div_up(image.height, chapter07::rgba_main_tile_rows(r)));
  gauss::with_radius(r, [&](auto radius) {
    blur_rgba_staged<radius.value, chapter07::rgba_main_tile_rows(radius.value)>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
