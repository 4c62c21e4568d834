// Chapter 05: the separable blur joined through shared memory, the same
// kernel as blur_separable_local.cl (its comment has the picture): each
// thread sums its column into shared memory, a barrier, then each thread
// that owns a pixel sums 2R+1 column sums. Blocks overlap by 2R columns;
// the R threads at each edge ("fake" threads) only compute column sums.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "blur_tiled.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

template <int RADIUS>
__global__ void blur_separable_local(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                     gauss::GaussTaps taps) {
  extern __shared__ float column_sums[];  // blockDim.y rows of blockDim.x
  const int outputs_x = blockDim.x - 2 * RADIUS;
  const int lx = threadIdx.x;
  const int ly = threadIdx.y;
  const int x = blockIdx.x * outputs_x - RADIUS + lx;  // may be outside the image: clamped below
  const int y = blockIdx.y * blockDim.y + ly;

  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];

  // 1. The vertical pass, from global memory, for every thread that has a row.
  float column = 0.0f;
  if (y < height) {
    const int sx = min(max(x, 0), width - 1);
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
      const int sy = min(max(y + dy, 0), height - 1);
      column += w[dy + RADIUS] * static_cast<float>(in[sy * pitch + sx]);
    }
  }
  column_sums[ly * blockDim.x + lx] = column;

  // 2. Every thread, fake or past the image, reaches the barrier.
  __syncthreads();

  // 3. The horizontal pass, from shared memory, by the threads that own a pixel.
  const bool fake = lx < RADIUS || lx >= static_cast<int>(blockDim.x) - RADIUS;
  if (fake || x >= width || y >= height) return;
  const float* row = column_sums + ly * blockDim.x + lx;
  float sum = 0.0f;
#pragma unroll
  for (int dx = -RADIUS; dx <= RADIUS; ++dx) sum += w[dx + RADIUS] * row[dx];
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

}  // namespace

void launch_blur_separable_local(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                                 cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const int r = problem.blur.radius;
  if (static_cast<int>(block.x) <= 2 * r) {
    throw std::invalid_argument("a block " + std::to_string(block.x) + " wide writes no pixel at radius " +
                                std::to_string(r) + ": it must be wider than 2R");
  }
  const unsigned int outputs_x = block.x - 2 * r;  // the columns each block writes
  const dim3 grid(gauss::div_up(image.width, outputs_x), gauss::div_up(image.height, block.y));
  const std::size_t shared = block.x * block.y * sizeof(float);
  gauss::with_radius(r, [&](auto radius) {
    blur_separable_local<radius.value>
        <<<grid, block, shared, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
