// Chapter 06: where the filter's weights live, in CUDA: the same five
// kernels as blur_weights.cl. One loop (sum_2d), five ways to read weight k.
//
// FIXED > 0 makes the radius a compile-time constant: the loops unroll and
// every weight index is a constant. FIXED == 0 takes the radius at run time.
#include <cstdint>

#include "blur_weights.cuh"
#include "gauss/cuda.hpp"
#include "gauss/radius.hpp"

namespace {

// The weights of the __constant__ kernels: 64 KB of constant memory per
// module, read through the constant cache, which broadcasts a value to all
// threads of a warp that read the same address.
// EXERCISE: declare c_weights, room for gauss::kMaxTaps floats in __constant__ memory
__constant__ float c_weights[gauss::kMaxTaps];
// END EXERCISE

template <int FIXED, class Weight>
__device__ __forceinline__ void sum_2d(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                       int x, int y, int radius, Weight weight) {
  const int r = FIXED > 0 ? FIXED : radius;
  float sum = 0.0f;
#pragma unroll
  for (int dy = -r; dy <= r; ++dy) {
    const int sy = min(max(y + dy, 0), height - 1);
#pragma unroll
    for (int dx = -r; dx <= r; ++dx) {
      const int sx = min(max(x + dx, 0), width - 1);
      sum += weight(dy + r) * weight(dx + r) * static_cast<float>(in[sy * pitch + sx]);
    }
  }
  out[y * pitch + x] = static_cast<std::uint8_t>(min(static_cast<unsigned int>(sum + 0.5f), 255u));
}

#define PIXEL_OR_RETURN                                \
  const int x = blockIdx.x * blockDim.x + threadIdx.x; \
  const int y = blockIdx.y * blockDim.y + threadIdx.y; \
  if (x >= width || y >= height) return

// A per-thread array with a run-time radius: dynamically indexed, so it is
// placed in local memory (nvcc -Xptxas -v reports a stack frame).
__global__ void blur_array_runtime(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                   gauss::GaussTaps taps, int radius) {
  PIXEL_OR_RETURN;
  float w[gauss::kMaxTaps];
  for (int i = 0; i < 2 * radius + 1; ++i) w[i] = taps.w[i];
  sum_2d<0>(in, out, width, height, pitch, x, y, radius, [&](int k) { return w[k]; });
}

__global__ void blur_constant_runtime(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                      int radius) {
  PIXEL_OR_RETURN;
  // EXERCISE: blur pixel (x, y) over `radius` with sum_2d<0>, weight k read from c_weights
  sum_2d<0>(in, out, width, height, pitch, x, y, radius, [](int k) { return c_weights[k]; });
  // STARTER:
  // out[y * pitch + x] = in[y * pitch + x];
  // END EXERCISE
}

__global__ void blur_global_runtime(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                    const float* weights, int radius) {
  PIXEL_OR_RETURN;
  sum_2d<0>(in, out, width, height, pitch, x, y, radius, [weights](int k) { return weights[k]; });
}

// Chapter 01's kernel: every index into w[] is a constant after unrolling.
template <int RADIUS>
__global__ void blur_array_fixed(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch,
                                 gauss::GaussTaps taps) {
  PIXEL_OR_RETURN;
  float w[2 * RADIUS + 1];
#pragma unroll
  for (int i = 0; i < 2 * RADIUS + 1; ++i) w[i] = taps.w[i];
  sum_2d<RADIUS>(in, out, width, height, pitch, x, y, RADIUS, [&](int k) { return w[k]; });
}

template <int RADIUS>
__global__ void blur_constant_fixed(const std::uint8_t* in, std::uint8_t* out, int width, int height, int pitch) {
  PIXEL_OR_RETURN;
  // EXERCISE: the same with the compile-time radius RADIUS (sum_2d<RADIUS>), weights again from c_weights
  sum_2d<RADIUS>(in, out, width, height, pitch, x, y, RADIUS, [](int k) { return c_weights[k]; });
  // STARTER:
  // out[y * pitch + x] = in[y * pitch + x];
  // END EXERCISE
}

}  // namespace

void upload_constant_weights(const gauss::GaussTaps& taps) {
  // EXERCISE: copy the weights taps.w from the host into c_weights (checked with GAUSS_CUDA_CHECK)
  GAUSS_CUDA_CHECK(cudaMemcpyToSymbol(c_weights, taps.w, sizeof taps.w));
  // STARTER:
  // (void)taps;
  // END EXERCISE
}

void launch_blur_weights(WeightStorage storage, const std::uint8_t* in, std::uint8_t* out,
                         const gauss::Problem& problem, const float* global_weights, cudaStream_t stream) {
  const gauss::ImageGeometry& image = problem.image;
  const dim3 block(32, 8);  // the seminar's blocks
  const dim3 grid(gauss::div_up(image.width, block.x), gauss::div_up(image.height, block.y));
  const int radius = problem.blur.radius;
  switch (storage) {
    case WeightStorage::ArrayRuntime:
      blur_array_runtime<<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps,
                                                     radius);
      break;
    case WeightStorage::ConstantRuntime:
      blur_constant_runtime<<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, radius);
      break;
    case WeightStorage::GlobalRuntime:
      blur_global_runtime<<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, global_weights,
                                                      radius);
      break;
    case WeightStorage::ArrayFixed:
      gauss::with_radius(radius, [&](auto r) {
        blur_array_fixed<r.value>
            <<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch, problem.taps);
      });
      break;
    case WeightStorage::ConstantFixed:
      gauss::with_radius(radius, [&](auto r) {
        blur_constant_fixed<r.value><<<grid, block, 0, stream>>>(in, out, image.width, image.height, image.pitch);
      });
      break;
  }
}
