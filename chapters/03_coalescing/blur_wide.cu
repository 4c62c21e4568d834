// Chapter 03, the main line: chapter 02's main-line blur with wide loads and
// stores, the same kernel as blur_wide.cl (which says why, at more length).
//
// A thread computes 4 adjacent pixels of each of its kRows rows: it reads
// its 32-bit word and the words either side (coalesced: a warp reads 128
// contiguous bytes per word), takes the bytes out in registers, keeps chapter
// 02's ring of input rows, now 4 + 2R wide, and writes one 32-bit word per row.
#include <cstdint>

#include "blur_wide.cuh"
#include "gauss/radius.hpp"

namespace {

constexpr int kPixels = kBlurWidePixels;
constexpr int kRows = kBlurWideRows;

// Up to R = 4 the span of input columns x0 - R .. x0 + 3 + R lies inside the
// words w - 1, w, w + 1 around the thread's word w, and the window (TAPS rows
// of 4 + 2R floats) stays in registers. Larger radii would need more words
// and a window beyond the registers (chapter 02's kWindowMaxRadius): they
// load bytes one row of taps at a time, still 4 x kRows pixels per thread.
constexpr int kWindowMaxRadius = 4;

__device__ unsigned int to_level(float sum) { return min(static_cast<unsigned int>(sum + 0.5f), 255u); }

// Writes a thread's 4 results to its row. Packed: one 32-bit store, which
// needs an aligned row and all 4 pixels inside the image (a word past the
// width of the last row lies outside the buffer). Otherwise byte by byte,
// only the pixels inside the image.
__device__ void store_pixels(std::uint8_t* row, int x0, int width, bool packed, const float (&sum)[kPixels]) {
  if (packed) {
    // EXERCISE: the 4 levels as one 32-bit store: pixel x0 + k is byte k of word x0 / 4 of the row
    reinterpret_cast<std::uint32_t*>(row)[x0 / kPixels] =
        to_level(sum[0]) | to_level(sum[1]) << 8 | to_level(sum[2]) << 16 | to_level(sum[3]) << 24;
    // STARTER:
    // row[x0] = static_cast<std::uint8_t>(to_level(sum[0]));  // only the first of the 4 pixels
    // END EXERCISE
  } else {
#pragma unroll
    for (int k = 0; k < kPixels; ++k)
      if (x0 + k < width) row[x0 + k] = static_cast<std::uint8_t>(to_level(sum[k]));
  }
}

// One thread's 4 x kRows pixels through chapter 02's ring of input rows.
// WORDS: the row is aligned and words w - 1 and w + 1 lie inside it, so the
// span comes from three word loads and no column needs a clamp. Otherwise
// (the image's left and right edges, the last partial word of a row,
// unaligned images) each column is a clamped byte. A template parameter, not
// a branch per row: each path's loads can be scheduled ahead freely.
template <int RADIUS, bool WORDS>
__device__ void blur_item(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                          const float (&weight)[2 * RADIUS + 1][2 * RADIUS + 1], int x0, int first_row, bool packed) {
  constexpr int kTaps = 2 * RADIUS + 1;
  constexpr int kSpan = kPixels + 2 * RADIUS;
  int column[kSpan];
#pragma unroll
  for (int j = 0; j < kSpan; ++j) column[j] = min(max(x0 - RADIUS + j, 0), width - 1);

  // Input row i in slot i % kTaps; unrolled, so every index is a constant.
  float window[kTaps][kSpan];
#pragma unroll
  for (int i = 0; i < kRows + 2 * RADIUS; ++i) {
    const std::uint8_t* row = in + min(max(first_row - RADIUS + i, 0), height - 1) * pitch;
    if constexpr (WORDS) {
      // EXERCISE: window[i % kTaps][j], column x0 - R + j, from 3 word loads: words x0 / 4 - 1 .. x0 / 4 + 1, no clamp
      const std::uint32_t* word = reinterpret_cast<const std::uint32_t*>(row) + x0 / kPixels;
      const std::uint32_t three[3] = {word[-1], word[0], word[1]};
      // Column x0 - R + j is byte (j + 4 - R) of the three words: byte b of
      // a word is bits 8b .. 8b + 7 (little-endian).
#pragma unroll
      for (int j = 0; j < kSpan; ++j) {
        const int byte = j + kPixels - RADIUS;
        window[i % kTaps][j] = static_cast<float>((three[byte / 4] >> (8 * (byte % 4))) & 0xffu);
      }
      // STARTER:
      // for (int j = 0; j < kSpan; ++j) window[i % kTaps][j] = 0.0f;
      // END EXERCISE
    } else {
#pragma unroll
      for (int j = 0; j < kSpan; ++j) window[i % kTaps][j] = static_cast<float>(row[column[j]]);
    }

    if (i >= 2 * RADIUS) {
      const int r = i - 2 * RADIUS;
      float sum[kPixels];
#pragma unroll
      for (int k = 0; k < kPixels; ++k) {
        // Chapter 01's order: dy, then dx. An explicit fma, as chapter 01's
        // sum += w * v compiles: written that way, nvcc shares the product of
        // a byte and a weight between two pixels whose weights are equal
        // (w[a] * w[b] == w[b] * w[a]), and a shared product is a multiply
        // and two adds instead of two fused multiply-adds.
        sum[k] = 0.0f;
#pragma unroll
        for (int dy = 0; dy < kTaps; ++dy) {
#pragma unroll
          for (int dx = 0; dx < kTaps; ++dx) sum[k] = fmaf(weight[dy][dx], window[(r + dy) % kTaps][k + dx], sum[k]);
        }
      }
      // Rows past the image were loaded clamped; only their stores must not happen.
      if (first_row + r < height) store_pixels(out + (first_row + r) * pitch, x0, width, packed, sum);
    }
  }
}

template <int RADIUS>
__global__ void blur_wide(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch, bool aligned,
                          gauss::GaussTaps taps) {
  constexpr int kTaps = 2 * RADIUS + 1;
  constexpr int kSpan = kPixels + 2 * RADIUS;
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * kPixels;
  const int first_row = (blockIdx.y * blockDim.y + threadIdx.y) * kRows;
  if (x0 >= width || first_row >= height) return;
  const bool packed = aligned && x0 + kPixels <= width;

  if constexpr (RADIUS <= kWindowMaxRadius) {
    // The same products chapter 01 multiplies each byte by (chapter 02).
    float weight[kTaps][kTaps];
#pragma unroll
    for (int dy = 0; dy < kTaps; ++dy) {
#pragma unroll
      for (int dx = 0; dx < kTaps; ++dx) weight[dy][dx] = taps.w[dy] * taps.w[dx];
    }
    if (aligned && x0 >= kPixels && x0 + 2 * kPixels <= width)
      blur_item<RADIUS, true>(in, out, width, height, pitch, weight, x0, first_row, true);
    else
      blur_item<RADIUS, false>(in, out, width, height, pitch, weight, x0, first_row, packed);
  } else {
    int column[kSpan];
#pragma unroll
    for (int j = 0; j < kSpan; ++j) column[j] = min(max(x0 - RADIUS + j, 0), width - 1);
    float w[kTaps];
#pragma unroll
    for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
    // Chapter 02's loops for large radii: one input row of taps at a time,
    // its 4 + 2R bytes loaded once for the thread's 4 pixels.
    const int last_row = min(first_row + kRows, height);
#pragma unroll 1
    for (int y = first_row; y < last_row; ++y) {
      float sum[kPixels] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll 1
      for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        const float weight_y = taps.w[dy + RADIUS];
        const std::uint8_t* row = in + min(max(y + dy, 0), height - 1) * pitch;
        float span[kSpan];
#pragma unroll
        for (int j = 0; j < kSpan; ++j) span[j] = static_cast<float>(row[column[j]]);
#pragma unroll
        for (int k = 0; k < kPixels; ++k) {
#pragma unroll
          for (int dx = 0; dx < kTaps; ++dx) sum[k] += weight_y * w[dx] * span[k + dx];
        }
      }
      store_pixels(out + y * pitch, x0, width, packed, sum);
    }
  }
}

}  // namespace

void launch_blur_wide(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                      cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  // Each thread covers kPixels columns and kRows rows: the grid spans the
  // image in those units, rounded up to whole blocks; the kernel's guards
  // idle the rest.
  const int thread_columns = (image.width + kPixels - 1) / kPixels;
  const int thread_rows = (image.height + kRows - 1) / kRows;
  const dim3 grid((thread_columns + block.x - 1) / block.x, (thread_rows + block.y - 1) / block.y);
  // Words can be read and written only where every row starts on a 4-byte
  // boundary: the pitch a multiple of 4 and both buffers aligned.
  const bool aligned = image.pitch % kPixels == 0 && reinterpret_cast<std::uintptr_t>(in) % kPixels == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % kPixels == 0;
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_wide<radius.value>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, aligned, problem.taps);
  });
}
