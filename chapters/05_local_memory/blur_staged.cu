// Chapter 05, the main line: the separable blur fused in shared memory, the
// same kernel as blur_staged.cl (its comment has the picture). A 32x8 block
// owns a 128 x TILE_ROWS output tile: it loads the tile and its halo once as
// 32-bit words, sums each row horizontally into a float4 tile, and, after a
// barrier, sums each column vertically and stores 4 packed bytes a row.
#include <cstdint>

#include "blur_staged.cuh"
#include "blur_staged.hpp"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

constexpr int kGroupX = 32;
constexpr int kGroupY = 8;
constexpr int kGroupSize = kGroupX * kGroupY;

// TILE_ROWS is staged_tile_rows(RADIUS), computed by the launcher (a host
// constexpr function cannot be called from device code).
template <int RADIUS, int TILE_ROWS>
__global__ void __launch_bounds__(kGroupSize) blur_staged(const std::uint8_t* in, std::uint8_t* out, int width,
                                                          int height, int pitch, gauss::GaussTaps taps, bool aligned) {
  constexpr int kTaps = 2 * RADIUS + 1;
  constexpr int kTileRows = TILE_ROWS;
  constexpr int kRows = kTileRows / kGroupY;            // output rows per thread
  constexpr int kTileH = kTileRows + 2 * RADIUS;        // tile rows, halo included
  constexpr int kHaloX = 4 * ((RADIUS + 3) / 4);        // halo columns, whole words
  constexpr int kTileWords = kGroupX + 2 * kHaloX / 4;  // words per tile row
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
    // EXERCISE: pixels[ty][tw]: 4 pixels from column x0 - kHaloX + 4 tw of row y0 - R + ty, clamped to the image
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
    // STARTER:
    // pixels[ty][tw] = 0u;
    // END EXERCISE
  }
  // EXERCISE: no thread may read the tile before every thread of the block has stored its words
  __syncthreads();
  // END EXERCISE

  // 2. The horizontal pass, every 8th tile row: each byte converted once per
  //    row, then used by up to 2R+1 sums.
  for (int ty = ly; ty < kTileH; ty += kGroupY) {
    // EXERCISE: row_sums[ty][lx]: the 2R+1-tap horizontal sums of the thread's 4 columns in tile row ty, a float4
    constexpr int kSpanWords = 1 + 2 * kHaloX / 4;  // words a thread reads per row
    std::uint32_t span[kSpanWords];                 // the item's 4 pixels start at byte kHaloX of the span
#pragma unroll
    for (int i = 0; i < kSpanWords; ++i) span[i] = pixels[ty][lx + i];
    float v[4 + 2 * RADIUS];
#pragma unroll
    for (int j = 0; j < 4 + 2 * RADIUS; ++j) {
      constexpr int kFirst = kHaloX - RADIUS;
      v[j] = static_cast<float>((span[(kFirst + j) / 4] >> (8 * ((kFirst + j) % 4))) & 0xffu);
    }
    float s[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      s[k] = 0.0f;
#pragma unroll
      for (int d = 0; d < kTaps; ++d) s[k] += w[d] * v[k + d];
    }
    row_sums[ty][lx] = make_float4(s[0], s[1], s[2], s[3]);
    // STARTER:
    // row_sums[ty][lx] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    // END EXERCISE
  }
  // EXERCISE: no thread may read row_sums before every thread of the block has stored its sums
  __syncthreads();
  // END EXERCISE

  // 3. The vertical pass, kRows consecutive output rows per thread.
  const int x = x0 + 4 * lx;
  if (x >= width) return;
  const bool whole_word = aligned && x + 4 <= width;
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int y = y0 + ly * kRows + j;
    if (y >= height) break;
    // EXERCISE: sum, output row y's 4 pixels: the 2R+1 row sums around it in the thread's column, weighed by w[]
    // Output row y is tile row ly * kRows + j + R of row_sums.
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
    for (int d = 0; d < kTaps; ++d) {
      const float4 t = row_sums[ly * kRows + j + d][lx];
      sum.x += w[d] * t.x;
      sum.y += w[d] * t.y;
      sum.z += w[d] * t.z;
      sum.w += w[d] * t.w;
    }
    // STARTER:
    // float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    // END EXERCISE
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

void launch_blur_staged(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const int r = problem.blur.radius;
  // Word loads and stores need word-aligned rows in both buffers.
  const bool aligned = image.pitch % 4 == 0 && reinterpret_cast<std::uintptr_t>(in) % 4 == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % 4 == 0;
  const dim3 block(kGroupX, kGroupY);
  const dim3 grid(gauss::div_up(image.width, 4 * kGroupX), gauss::div_up(image.height, chapter05::staged_tile_rows(r)));
  gauss::with_radius(r, [&](auto radius) {
    blur_staged<radius.value, chapter05::staged_tile_rows(radius.value)>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps, aligned);
  });
}
