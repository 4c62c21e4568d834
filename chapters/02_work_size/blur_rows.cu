// Chapter 02, the main line: chapter 01's blur with several output pixels per
// thread, the same kernel as blur_rows.cl (which says why, at more length).
//
// A thread computes kRows pixels down one column: it walks its kRows + 2R
// input rows once, converting each row's 2R+1 bytes once into a ring of the
// last 2R+1 rows held in registers, so each output costs (2R+1)^2
// multiply-adds but only (2R+1)(kRows+2R)/kRows loads and conversions.
#include <cstdint>

#include "blur_rows.cuh"
#include "gauss/radius.hpp"

namespace {

constexpr int kRows = kBlurRowsPerThread;

// Above this radius the window, (2R+1)^2 floats and as many weight products,
// outgrows the registers: nvcc 13 for sm_90 gives the window 32 to 72
// registers per thread up to R = 5, 242 at R = 6 (a quarter of the warps an
// SM could hold), and spills to local memory from R = 7, losing what the
// window saves. The limit is 4, where chapter 03's three words end. Larger
// radii keep kRows outputs per thread (the launch is the same for every
// radius) but compute each one like chapter 01, one row of taps at a time.
constexpr int kWindowMaxRadius = 4;

template <int RADIUS>
__global__ void blur_rows(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                          gauss::GaussTaps taps) {
  constexpr int kTaps = 2 * RADIUS + 1;
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int first_row = (blockIdx.y * blockDim.y + threadIdx.y) * kRows;
  if (x >= width || first_row >= height) return;

  // The clamped columns are the same for every row the thread reads.
  int column[kTaps];
#pragma unroll
  for (int dx = -RADIUS; dx <= RADIUS; ++dx) column[dx + RADIUS] = min(max(x + dx, 0), width - 1);

  if constexpr (RADIUS <= kWindowMaxRadius) {
    // w[dy] * w[dx] once per thread instead of once per tap: the same float
    // chapter 01 multiplies each byte by, so the sums are its own, operation
    // for operation.
    float weight[kTaps][kTaps];
#pragma unroll
    for (int dy = 0; dy < kTaps; ++dy) {
#pragma unroll
      for (int dx = 0; dx < kTaps; ++dx) weight[dy][dx] = taps.w[dy] * taps.w[dx];
    }

    // The ring of the last kTaps input rows. Input row i lives in slot
    // i % kTaps; every loop is unrolled, so every slot index is a
    // compile-time constant and the ring is registers, never local memory.
    float window[kTaps][kTaps];
#pragma unroll
    for (int i = 0; i < kRows + 2 * RADIUS; ++i) {
      // EXERCISE: put input row first_row - R + i (clamped) in the ring: bytes at column[0..kTaps), slot i % kTaps
      const std::uint8_t* row = in + min(max(first_row - RADIUS + i, 0), height - 1) * pitch;
#pragma unroll
      for (int dx = 0; dx < kTaps; ++dx) window[i % kTaps][dx] = static_cast<float>(row[column[dx]]);
      // STARTER:
      // #pragma unroll
      // for (int dx = 0; dx < kTaps; ++dx) window[i % kTaps][dx] = 0.0f;
      // END EXERCISE

      // Once the ring holds input rows r .. r + 2R it holds every tap of
      // output row r; summed in chapter 01's order (dy, then dx).
      if (i >= 2 * RADIUS) {
        const int r = i - 2 * RADIUS;
        // EXERCISE: output row first_row + r from the ring: sum weight[dy][dx] times its tap (dy, dx), dy then dx
        // Input row first_row + r - R + dy was loaded at i = r + dy, into
        // slot (r + dy) % kTaps.
        float sum = 0.0f;
#pragma unroll
        for (int dy = 0; dy < kTaps; ++dy) {
#pragma unroll
          for (int dx = 0; dx < kTaps; ++dx) sum += weight[dy][dx] * window[(r + dy) % kTaps][dx];
        }
        // STARTER:
        // float sum = 0.0f;
        // END EXERCISE
        // The last thread of a column may have rows past the image: its
        // loads were clamped, only its stores must not happen.
        if (first_row + r < height)
          out[(first_row + r) * pitch + x] =
              static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
      }
    }
  } else {
    float w[kTaps];
#pragma unroll
    for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
    // Only the taps of one row are unrolled. A fully unrolled (2R+1)^2-tap
    // body, as in chapter 01, would exceed the registers from R = 10 (it
    // spills) and take nvcc over a minute for the radii 5..16; a loop over
    // the rows costs one weight (indexed in the parameter's constant bank)
    // and a few loop instructions per row.
    const int last_row = min(first_row + kRows, height);
#pragma unroll 1
    for (int y = first_row; y < last_row; ++y) {
      float sum = 0.0f;
#pragma unroll 1
      for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        const float weight_y = taps.w[dy + RADIUS];
        const std::uint8_t* row = in + min(max(y + dy, 0), height - 1) * pitch;
#pragma unroll
        for (int dx = 0; dx < kTaps; ++dx) sum += weight_y * w[dx] * static_cast<float>(row[column[dx]]);
      }
      out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
    }
  }
}

}  // namespace

void launch_blur_rows(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                      cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  // Each thread covers kRows rows: the grid spans the rows / kRows threads
  // down, rounded up to whole blocks; the kernel's guards idle the rest.
  const int thread_rows = (image.height + kRows - 1) / kRows;
  const dim3 grid((image.width + block.x - 1) / block.x, (thread_rows + block.y - 1) / block.y);
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_rows<radius.value><<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
