// A correct but slow answer to chapter 05's exercise, for the grader's own
// test (tests/CMakeLists.txt, 05_local_memory.speed.slow.cuda): the launcher
// of chapter 05's blur_staged.cu (blur_staged.cuh) with chapter 01's kernel
// behind it, one thread per pixel reading its (2R+1)^2 taps from global
// memory, no shared memory. Its outputs match the reference; on a GPU it
// takes several times the solution's time, so the grader must say that it
// misses the step's target. The test builds chapter 05 with this file in
// place of blur_staged.cu (05_local_memory_slow, build/bin/slow/).
#include <cstdint>

#include "blur_staged.cuh"
#include "gauss/radius.hpp"

namespace {

template <int RADIUS>
__global__ void blur_slow(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                          gauss::GaussTaps taps) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0.0f;
  for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
    const int sy = min(max(y + dy, 0), height - 1);
    for (int dx = -RADIUS; dx <= RADIUS; ++dx) {
      const int sx = min(max(x + dx, 0), width - 1);
      sum += taps.w[dy + RADIUS] * taps.w[dx + RADIUS] * static_cast<float>(in[sy * pitch + sx]);
    }
  }
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

}  // namespace

void launch_blur_staged(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(16, 16);
  const dim3 grid((image.width + block.x - 1) / block.x, (image.height + block.y - 1) / block.y);
  gauss::with_radius(problem.blur.radius, [&](auto radius) {
    blur_slow<radius.value><<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
  });
}
