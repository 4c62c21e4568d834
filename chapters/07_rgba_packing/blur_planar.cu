// Chapter 07: planar colour in CUDA, the same steps as blur_planar.cl: split
// the RGB24 image into three planes, blur each plane with chapter 01's gray
// kernel, join the planes again.
#include <cstdint>

#include "blur_naive.cuh"
#include "blur_rgba.cuh"
#include "gauss/cuda.hpp"

namespace {

__global__ void deinterleave_rgb(const std::uint8_t* in, std::uint8_t* r, std::uint8_t* g, std::uint8_t* b, int width,
                                 int height, int pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const std::uint8_t* pixel = in + y * pitch + 3 * x;
  const int i = y * width + x;
  r[i] = pixel[0];
  g[i] = pixel[1];
  b[i] = pixel[2];
}

__global__ void interleave_rgb(const std::uint8_t* r, const std::uint8_t* g, const std::uint8_t* b, std::uint8_t* out,
                               int width, int height, int pitch) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  std::uint8_t* pixel = out + y * pitch + 3 * x;
  const int i = y * width + x;
  pixel[0] = r[i];
  pixel[1] = g[i];
  pixel[2] = b[i];
}

}  // namespace

void launch_blur_planar(const std::uint8_t* in, std::uint8_t* out, std::uint8_t* planes, const gauss::Problem& problem,
                        cudaStream_t stream, cudaEvent_t* marks) {
  const gauss::ImageGeometry& image = problem.image;
  const std::size_t plane = static_cast<std::size_t>(image.width) * image.height;
  const dim3 block(32, 8);
  const dim3 grid(gauss::div_up(image.width, block.x), gauss::div_up(image.height, block.y));
  auto mark = [&](int i) {
    if (marks != nullptr) GAUSS_CUDA_CHECK(cudaEventRecord(marks[i], stream));
  };
  // Each plane: one byte per pixel, rows `width` bytes apart.
  gauss::Problem gray = problem;
  gray.image = gauss::ImageGeometry{image.width, image.height, 1, image.width};
  mark(0);
  deinterleave_rgb<<<grid, block, 0, stream>>>(in, planes, planes + plane, planes + 2 * plane, image.width,
                                               image.height, image.pitch);
  mark(1);
  for (int c = 0; c < 3; ++c) launch_blur_naive(planes + c * plane, planes + (3 + c) * plane, gray, block, stream);
  mark(2);
  interleave_rgb<<<grid, block, 0, stream>>>(planes + 3 * plane, planes + 4 * plane, planes + 5 * plane, out,
                                             image.width, image.height, image.pitch);
  mark(3);
}
