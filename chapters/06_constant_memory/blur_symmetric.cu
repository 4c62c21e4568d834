// Chapter 06, the main line: chapter 05's fused separable kernel with the
// weights' symmetry used, the same kernel as blur_symmetric.cl (its comment
// says why). Mirrored bytes are added as integers before one conversion and
// one multiply-add; mirrored row sums are added before their weight.
#include <cstdint>

#include "blur_staged.hpp"  // chapter 05's tile rule: the same two tiles (USES 05_local_memory)
#include "blur_symmetric.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

constexpr int kGroupX = 32;
constexpr int kGroupY = 8;
constexpr int kGroupSize = kGroupX * kGroupY;

// TILE_ROWS is chapter 05's staged_tile_rows(RADIUS), computed by the launcher (a host
// constexpr function cannot be called from device code).
template <int RADIUS, int TILE_ROWS>
__global__ void __launch_bounds__(kGroupSize)
    blur_symmetric(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch, gauss::GaussTaps taps,
                   bool aligned) {
  constexpr int kTaps = 2 * RADIUS + 1;
  constexpr int kTileRows = TILE_ROWS;
  constexpr int kRows = kTileRows / kGroupY;            // output rows per thread
  constexpr int kTileH = kTileRows + 2 * RADIUS;        // tile rows, halo included
  constexpr int kHaloX = 4 * ((RADIUS + 3) / 4);        // halo columns, whole words
  constexpr int kTileWords = kGroupX + 2 * kHaloX / 4;  // words per tile row
  constexpr int kSpanWords = 1 + 2 * kHaloX / 4;        // words a thread reads per row
  __shared__ std::uint32_t pixels[kTileH][kTileWords];
  __shared__ float4 row_sums[kTileH][kGroupX];  // float4s: a warp's 512 bytes, no bank conflicts

  const int lx = threadIdx.x;
  const int ly = threadIdx.y;
  const int x0 = blockIdx.x * (4 * kGroupX);
  const int y0 = blockIdx.y * kTileRows;

  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];

  // 1. The load, one flat stride over the tile's words: whole words where
  //    they lie inside the image's aligned rows, four clamped bytes elsewhere.
  for (int i = ly * kGroupX + lx; i < kTileH * kTileWords; i += kGroupSize) {
    const int ty = i / kTileWords;
    const int tw = i - ty * kTileWords;
    const std::uint8_t* row = in + min(max(y0 - RADIUS + ty, 0), height - 1) * pitch;
    const int x = x0 - kHaloX + 4 * tw;
    std::uint32_t word;
    if (aligned && x >= 0 && x + 4 <= width) {
      word = reinterpret_cast<const std::uint32_t*>(row)[x / 4];
    } else {
      word = 0;
#pragma unroll
      for (int b = 0; b < 4; ++b) word |= std::uint32_t{row[min(max(x + b, 0), width - 1)]} << (8 * b);
    }
    pixels[ty][tw] = word;
  }
  __syncthreads();

  // 2. The horizontal pass, every 8th tile row: mirrored bytes added as
  //    integers (exact), then one conversion and one multiply-add per pair.
  for (int ty = ly; ty < kTileH; ty += kGroupY) {
    std::uint32_t span[kSpanWords];  // the thread's 4 pixels start at byte kHaloX of the span
#pragma unroll
    for (int i = 0; i < kSpanWords; ++i) span[i] = pixels[ty][lx + i];
    int b[4 * kSpanWords];
#pragma unroll
    for (int j = 0; j < 4 * kSpanWords; ++j) b[j] = (span[j / 4] >> (8 * (j % 4))) & 0xffu;
    float s[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int c = kHaloX + k;
      s[k] = w[RADIUS] * static_cast<float>(b[c]);
#pragma unroll
      for (int d = 1; d <= RADIUS; ++d) s[k] += w[RADIUS + d] * static_cast<float>(b[c - d] + b[c + d]);
    }
    row_sums[ty][lx] = make_float4(s[0], s[1], s[2], s[3]);
  }
  __syncthreads();

  // 3. The vertical pass, kRows consecutive output rows per thread, mirrored rows added first.
  const int x = x0 + 4 * lx;
  if (x >= width) return;
  const bool whole_word = aligned && x + 4 <= width;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int y = y0 + ly * kRows + j;
    if (y >= height) break;
    const int c = ly * kRows + j + RADIUS;  // the output row's tile row
    const float4 centre = row_sums[c][lx];
    float4 sum = make_float4(w[RADIUS] * centre.x, w[RADIUS] * centre.y, w[RADIUS] * centre.z, w[RADIUS] * centre.w);
#pragma unroll
    for (int d = 1; d <= RADIUS; ++d) {
      const float4 above = row_sums[c - d][lx];
      const float4 below = row_sums[c + d][lx];
      sum.x += w[RADIUS + d] * (above.x + below.x);
      sum.y += w[RADIUS + d] * (above.y + below.y);
      sum.z += w[RADIUS + d] * (above.z + below.z);
      sum.w += w[RADIUS + d] * (above.w + below.w);
    }
    // Round half up; the float-to-unsigned conversion truncates.
    const std::uint32_t b0 = min(static_cast<unsigned int>(sum.x + 0.5f), 255u);
    const std::uint32_t b1 = min(static_cast<unsigned int>(sum.y + 0.5f), 255u);
    const std::uint32_t b2 = min(static_cast<unsigned int>(sum.z + 0.5f), 255u);
    const std::uint32_t b3 = min(static_cast<unsigned int>(sum.w + 0.5f), 255u);
    std::uint8_t* target = out + y * pitch;
    if (whole_word) {
      reinterpret_cast<std::uint32_t*>(target)[x / 4] = b0 | (b1 << 8) | (b2 << 16) | (b3 << 24);
    } else {
      target[x] = static_cast<std::uint8_t>(b0);
      if (x + 1 < width) target[x + 1] = static_cast<std::uint8_t>(b1);
      if (x + 2 < width) target[x + 2] = static_cast<std::uint8_t>(b2);
      if (x + 3 < width) target[x + 3] = static_cast<std::uint8_t>(b3);
    }
  }
}

}  // namespace

void launch_blur_symmetric(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                           cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const int r = problem.blur.radius;
  // Word loads and stores need word-aligned rows in both buffers.
  const bool aligned = image.pitch % 4 == 0 && reinterpret_cast<std::uintptr_t>(in) % 4 == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % 4 == 0;
  const dim3 block(kGroupX, kGroupY);
  const dim3 grid(gauss::div_up(image.width, 4 * kGroupX), gauss::div_up(image.height, chapter05::staged_tile_rows(r)));
  gauss::with_radius(r, [&](auto radius) {
    blur_symmetric<radius.value, chapter05::staged_tile_rows(radius.value)>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps, aligned);
  });
}
