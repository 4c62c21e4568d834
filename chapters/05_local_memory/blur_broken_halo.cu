// Chapter 05: the Fixstars seminar's shared-memory kernel with its halo bug,
// the same port as blur_broken_halo.cl (read that file's comment first).
// One thread per window of the valid convolution; a thread whose window is
// outside the image loads nothing, not even the halo its neighbours need.
// Its index mapping and taps repeat chapter 01's kernel and blur_image.cu on
// purpose: the tile, and its bug, are what differ.
#include <cstdint>

#include "blur_tiled.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

constexpr int kBlockX = 32;  // the seminar's block
constexpr int kBlockY = 8;

template <int RADIUS>
__global__ void blur_broken_halo(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                 gauss::GaussTaps taps) {
  constexpr int kTileW = kBlockX + 2 * RADIUS;
  constexpr int kTileH = kBlockY + 2 * RADIUS;
  __shared__ float tile[kTileH][kTileW];
  const int lx = threadIdx.x;
  const int ly = threadIdx.y;

  // The zero fill (not in the seminar: a missing cell reads 0, every run).
  for (int ty = ly; ty < kTileH; ty += kBlockY)
    for (int tx = lx; tx < kTileW; tx += kBlockX) tile[ty][tx] = 0.0f;
  __syncthreads();

  const int ox = blockIdx.x * kBlockX + lx;  // the window's top-left input pixel
  const int oy = blockIdx.y * kBlockY + ly;
  const bool inside = ox < width - 2 * RADIUS && oy < height - 2 * RADIUS;

  if (inside) {  // THE BUG: threads outside load nothing, not even the halo
    const int right = min(ox + kBlockX, width - 1);
    tile[ly][lx] = in[oy * pitch + ox];
    if (lx < 2 * RADIUS) tile[ly][lx + kBlockX] = in[oy * pitch + right];
    for (int ty = ly + kBlockY; ty < kTileH; ty += kBlockY) {
      const int row = min(oy + ty - ly, height - 1);
      tile[ty][lx] = in[row * pitch + ox];
      if (lx < 2 * RADIUS) tile[ty][lx + kBlockX] = in[row * pitch + right];
    }
  }
  __syncthreads();
  if (!inside) return;

  constexpr int kTaps = 2 * RADIUS + 1;
  float w[kTaps];
#pragma unroll
  for (int i = 0; i < kTaps; ++i) w[i] = taps.w[i];
  float sum = 0.0f;
#pragma unroll
  for (int dy = 0; dy < kTaps; ++dy) {
#pragma unroll
    for (int dx = 0; dx < kTaps; ++dx) sum += w[dy] * w[dx] * tile[ly + dy][lx + dx];
  }
  out[(oy + RADIUS) * pitch + ox + RADIUS] =
      static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

}  // namespace

void launch_blur_broken_halo(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const int valid_width = image.width - 2 * problem.blur.radius;  // the seminar's output size
  const int valid_height = image.height - 2 * problem.blur.radius;
  if (valid_width <= 0 || valid_height <= 0) return;  // no window fits: nothing to launch
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(gauss::div_up(valid_width, kBlockX), gauss::div_up(valid_height, kBlockY));
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_broken_halo<radius.value>
        <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
