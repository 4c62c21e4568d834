// Chapter 05: the tiled blur in CUDA, the same kernel as blur_tiled.cl.
//
// The block's tile of input pixels, halo included, is loaded cooperatively
// into shared memory (converted to float once), then every thread computes
// its pixel from shared memory. The tile's size depends on the block shape
// and the radius, so it is dynamic shared memory sized at launch.
#include <cstdint>

#include "blur_tiled.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

template <int RADIUS>
__global__ void blur_tiled(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                           gauss::GaussTaps taps) {
  extern __shared__ float tile[];  // (blockDim.y + 2R) rows of (blockDim.x + 2R)
  const int tile_w = blockDim.x + 2 * RADIUS;
  const int tile_h = blockDim.y + 2 * RADIUS;
  const int x0 = blockIdx.x * blockDim.x;  // the block's first output pixel
  const int y0 = blockIdx.y * blockDim.y;

  // EXERCISE: load the whole tile, halo included, into tile[]: every cell by some thread, as a float, clamped
  // 1. The cooperative load: the threads stride over the whole tile, so every
  //    cell is loaded whatever the block shape, radius and image size, and
  //    every coordinate is clamped to the image (clamp-to-edge).
  for (int ty = threadIdx.y; ty < tile_h; ty += blockDim.y) {
    const int sy = min(max(y0 - RADIUS + ty, 0), height - 1);
    for (int tx = threadIdx.x; tx < tile_w; tx += blockDim.x) {
      const int sx = min(max(x0 - RADIUS + tx, 0), width - 1);
      tile[ty * tile_w + tx] = static_cast<float>(in[sy * pitch + sx]);
    }
  }
  // END EXERCISE

  // EXERCISE: wait until every thread of the block has stored its cells (every thread must get here)
  // 2. Every thread reaches the barrier, including those past the image's
  //    edge (their loads are other pixels' halo): the guard comes after it.
  __syncthreads();
  // END EXERCISE

  // 3. The arithmetic, from shared memory only.
  const int x = x0 + threadIdx.x;
  const int y = y0 + threadIdx.y;
  if (x >= width || y >= height) return;
  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
  // EXERCISE: sum the (2R+1)^2 taps of pixel (x, y) from tile[] (the tile starts R pixels up and left of the block)
  const float* window = tile + threadIdx.y * tile_w + threadIdx.x;
  float sum = 0.0f;
#pragma unroll
  for (int dy = 0; dy < kTaps; ++dy) {
#pragma unroll
    for (int dx = 0; dx < kTaps; ++dx) sum += w[dy] * w[dx] * window[dy * tile_w + dx];
  }
  // STARTER:
  // float sum = 0.0f;
  // END EXERCISE
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

}  // namespace

void launch_blur_tiled(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                       cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 grid(gauss::div_up(image.width, block.x), gauss::div_up(image.height, block.y));
  const int r = problem.blur.radius;
  const std::size_t shared = (block.x + 2 * r) * (block.y + 2 * r) * sizeof(float);
  gauss::with_radius(r, [&](auto radius) {
    blur_tiled<radius.value>
        <<<grid, block, shared, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
