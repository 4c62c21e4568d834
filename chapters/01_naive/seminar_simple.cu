// Chapter 01: the Fixstars seminar's first GPU kernel ("Simple") in CUDA, as
// published, to be timed beside our naive kernel; the same code as
// seminar_simple.cl, which says what it does and how it is checked.
//
// nvcc folds the table into immediates: every index is a constant once the
// fixed 5x5 loops are unrolled, so no weight is ever loaded (the build log's
// ptxas line: no stack frame).
#include <cstdint>

#include "gauss/cuda.hpp"
#include "seminar_simple.cuh"

namespace {

__global__ void seminar_simple(const std::uint8_t* src, std::uint8_t* dst, int width, int height, int src_step,
                               int dst_step) {
  // The 2-D Gaussian, sigma 1: entry [i][j] is w[i] * w[j] with
  // w = 0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685.
  const float table[5][5] = {
      {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},
      {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},
      {0.021938231f, 0.098320331f, 0.162102822f, 0.098320331f, 0.021938231f},
      {0.01330621f, 0.059634295f, 0.098320331f, 0.059634295f, 0.01330621f},
      {0.002969017f, 0.01330621f, 0.021938231f, 0.01330621f, 0.002969017f},
  };

  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    float sum = 0.0f;
    for (int dy = 0; dy < 5; ++dy) {
      for (int dx = 0; dx < 5; ++dx) {
        sum += table[dy][dx] * src[(x + dx) + (y + dy) * src_step];
      }
    }
    dst[x + y * dst_step] = static_cast<int>(sum + 0.5f);  // round half up; at most 255
  }
}

}  // namespace

void launch_seminar_simple(const std::uint8_t* padded, int padded_pitch, std::uint8_t* out,
                           const gauss::Problem& problem, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(32, 32);  // the seminar's, for this kernel alone (its later kernels: 32x8)
  // One thread per output pixel: at 6720 x 4480, the seminar's 210 x 140 blocks.
  const dim3 grid(gauss::div_up(image.width, block.x), gauss::div_up(image.height, block.y));
  seminar_simple<<<grid, block, 0, stream>>>(padded, out, image.width, image.height, padded_pitch, image.pitch);
}
