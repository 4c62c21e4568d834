// Chapter 08: chapter 01's naive blur, for a strip of output rows (blur_strip.cl
// is the same kernel in OpenCL C).
// (It repeats chapter 01's blur_naive.cu on purpose, line for line but the
// strip's rows: that difference is the lesson.)
//
// CUDA has no global work offset: blockIdx and threadIdx start at zero in
// every launch, so the strip's first row must come in as a parameter, and its
// end as the guard. That is the only change from ../01_naive/blur_naive.cu;
// everything that reads memory is the same.
#include <cstdint>

#include "blur_strip.cuh"
#include "gauss/radius.hpp"

namespace {

template <int RADIUS>
__global__ void blur_strip(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                           gauss::GaussTaps taps, int row0, int row_end) {
  // EXERCISE: this thread's pixel (x, y): the strip starts at row row0; threads past its end or the right edge go home
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;  // the offset OpenCL gives for free
  // The bounds guard, against the strip's end: rows past it belong to the
  // next strip, whose input rows may not have arrived yet.
  if (x >= width || y >= row_end) return;
  // STARTER:
  // const int x = blockIdx.x * blockDim.x + threadIdx.x;
  // const int y = blockIdx.y * blockDim.y + threadIdx.y;
  // if (x >= width || y >= height) return;
  // END EXERCISE

  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];

  float sum = 0.0f;
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    // EXERCISE: the input row this tap reads (rows above and below the strip are its halo)
    // Clamp to the image, not to the strip.
    const int sy = min(max(y + dy, 0), height - 1);
    // STARTER:
    // const int sy = y;
    // END EXERCISE
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      const int sx = min(max(x + dx, 0), width - 1);
      sum += w[dy + RADIUS] * w[dx + RADIUS] * static_cast<float>(in[sy * pitch + sx]);
    }
  }
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

}  // namespace

void launch_blur_strip(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int row0, int rows,
                       cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(16, 16);
  const dim3 grid((image.width + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_strip<radius.value>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps, row0, row0 + rows);
  });
}
