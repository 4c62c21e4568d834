// Chapter 07, the main line: chapter 05's kernel (blur_staged.cu) on RGBA
// pixels, the same kernel as blur_rgba_main.cl (its comment has the picture).
// A 32x8 block owns a 32 x TILE_ROWS output tile: it loads the tile and its
// halo once, one 32-bit word per pixel, unpacks each row's pixels and sums
// them horizontally into a float4 tile (R, G, B and the pixel's alpha), and,
// after a barrier, sums each column vertically and stores one packed word a
// pixel, alpha carried.
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

// TILE_ROWS is rgba_main_tile_rows(RADIUS), computed by the launcher (a host
// constexpr function cannot be called from device code).
template <int RADIUS, int TILE_ROWS>
__global__ void __launch_bounds__(kGroupSize) blur_rgba_staged(const std::uint8_t* in, std::uint8_t* out, int width,
                                                               int height, int pitch, gauss::GaussTaps taps) {
  constexpr int kTaps = 2 * RADIUS + 1;
  constexpr int kTileRows = TILE_ROWS;
  constexpr int kRows = kTileRows / kGroupY;        // output rows per thread
  constexpr int kTileH = kTileRows + 2 * RADIUS;    // tile rows, halo included
  constexpr int kHaloX = RADIUS;                    // halo columns: R pixels, R words
  constexpr int kTileWords = kGroupX + 2 * kHaloX;  // words per tile row
  constexpr int kSpanWords = 1 + 2 * kHaloX;        // words a thread reads per row
  __shared__ std::uint32_t pixels[kTileH][kTileWords];
  __shared__ float4 row_sums[kTileH][kGroupX];  // R, G, B, alpha: a warp's 512 bytes, no bank conflicts

  const int lx = threadIdx.x;
  const int ly = threadIdx.y;
  const int x0 = blockIdx.x * kGroupX;
  const int y0 = blockIdx.y * kTileRows;

  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];

  // 1. The load, one flat stride over the tile's words: a word is a pixel,
  //    one clamped 32-bit load each.
  for (int i = ly * kGroupX + lx; i < kTileH * kTileWords; i += kGroupSize) {
    const int ty = i / kTileWords;
    const int tw = i - ty * kTileWords;
    const auto* row = reinterpret_cast<const std::uint32_t*>(in + min(max(y0 - RADIUS + ty, 0), height - 1) * pitch);
    const int x = x0 - kHaloX + tw;
    pixels[ty][tw] = row[min(max(x, 0), width - 1)];
  }
  __syncthreads();

  // 2. The horizontal pass, every 8th tile row: each word unpacked into four
  //    floats once per row, then weighed once.
  for (int ty = ly; ty < kTileH; ty += kGroupY) {
    float4 v[kSpanWords];  // the pixels around the thread's own, which is v[kHaloX]
#pragma unroll
    for (int i = 0; i < kSpanWords; ++i) {
      // EXERCISE: v[i], the pixel word pixels[ty][lx + i] as four floats: R, G, B, A (R in the lowest byte)
      const std::uint32_t word = pixels[ty][lx + i];
      v[i] = make_float4(word & 0xffu, (word >> 8) & 0xffu, (word >> 16) & 0xffu, word >> 24);
      // STARTER:
      // v[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
      // END EXERCISE
    }
    float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int d = 0; d < kTaps; ++d) {
      s.x += w[d] * v[d].x;
      s.y += w[d] * v[d].y;
      s.z += w[d] * v[d].z;
    }
    // The fourth lane carries the pixel's own alpha to the vertical pass.
    row_sums[ty][lx] = make_float4(s.x, s.y, s.z, v[kHaloX].w);
  }
  __syncthreads();

  // 3. The vertical pass, kRows consecutive output rows per thread.
  const int x = x0 + lx;
  if (x >= width) return;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int y = y0 + ly * kRows + j;
    if (y >= height) break;
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int d = 0; d < kTaps; ++d) {
      const float4 t = row_sums[ly * kRows + j + d][lx];
      sum.x += w[d] * t.x;
      sum.y += w[d] * t.y;
      sum.z += w[d] * t.z;
    }
    // EXERCISE: the pixel back in one word: R, G, B rounded half up and saturated, alpha the centre row's fourth lane
    // Round half up; the float-to-unsigned conversion truncates.
    const std::uint32_t b0 = min(static_cast<unsigned int>(sum.x + 0.5f), 255u);
    const std::uint32_t b1 = min(static_cast<unsigned int>(sum.y + 0.5f), 255u);
    const std::uint32_t b2 = min(static_cast<unsigned int>(sum.z + 0.5f), 255u);
    const std::uint32_t b3 = static_cast<unsigned int>(row_sums[ly * kRows + j + RADIUS][lx].w);  // exact
    const std::uint32_t packed = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
    // STARTER:
    // const std::uint32_t packed = 0;
    // END EXERCISE
    reinterpret_cast<std::uint32_t*>(out + y * pitch)[x] = packed;  // one packed store
  }
}

}  // namespace

void launch_blur_rgba_main(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                           cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  // Word loads and stores need word-aligned rows in both buffers; RGBA rows always are.
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
