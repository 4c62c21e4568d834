// Chapter 01: the naive blur in CUDA, the same kernel as blur_naive.cl.
//
// One thread computes one output pixel from the (2R+1) x (2R+1) input pixels
// around it, read straight from global memory. The radius is a template
// parameter: loops of known length unroll, and the per-thread weight array
// lives in registers.
#include <cstdint>

#include "blur_naive.cuh"
#include "gauss/radius.hpp"

namespace {

template <int RADIUS>
__global__ void blur_naive(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                           gauss::GaussTaps taps) {
  // EXERCISE: map this thread to its pixel (x, y), and send the threads past the image's edges home
  // The index mapping: thread (x, y) of the grid is pixel (x, y).
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;

  // The bounds guard: the grid is rounded up to whole blocks, so the last
  // blocks have threads past the right and bottom edges, with no pixel.
  if (x >= width || y >= height) return;
  // STARTER:
  // const int x = 0;
  // const int y = 0;
  // END EXERCISE

  // The weights in a per-thread array (registers: every index is a constant
  // once the loops are unrolled). The kernel parameter itself sits in the
  // constant bank; each thread copies the 2R+1 values it needs.
  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];

  float sum = 0.0f;
#pragma unroll
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    // EXERCISE: the row this tap reads, clamped to the image (clamp-to-edge)
    const int sy = min(max(y + dy, 0), height - 1);
    // STARTER:
    // const int sy = y;
    // END EXERCISE
#pragma unroll
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      // EXERCISE: the column this tap reads, clamped to the image
      const int sx = min(max(x + dx, 0), width - 1);
      // STARTER:
      // const int sx = x;
      // END EXERCISE
      sum += w[dy + RADIUS] * w[dx + RADIUS] * static_cast<float>(in[sy * pitch + sx]);
    }
  }

  // Round half up: the float-to-unsigned conversion truncates, so add 0.5.
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

}  // namespace

void launch_blur_naive(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                       cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  // Round the grid up to whole blocks; the kernel's bounds guard idles the rest.
  const dim3 grid((image.width + block.x - 1) / block.x, (image.height + block.y - 1) / block.y);
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_naive<radius.value><<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}

const void* blur_naive_kernel(int radius) {
  const void* kernel = nullptr;
  gauss::with_radius(radius, [&](auto r) { kernel = reinterpret_cast<const void*>(blur_naive<r.value>); });
  return kernel;
}
