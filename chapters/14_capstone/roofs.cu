// Chapter 14: the multiply-add roof in CUDA, the same kernel as roofs.cl
// (which says why it is written this way).
#include "gauss/cuda.hpp"
#include "roofs.cuh"

namespace {

__global__ void fma_roof(float* out, int items, int iterations, float b, float c) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= items) return;
  float a[kRoofChains];
#pragma unroll
  for (int k = 0; k < kRoofChains; ++k) a[k] = static_cast<float>(id + k);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kRoofChains; ++k) a[k] = fmaf(a[k], b, c);
  }
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kRoofChains; ++k) sum += a[k];
  out[id] = sum;
}

}  // namespace

void launch_fma_roof(float* out, int items, int iterations, float b, float c, cudaStream_t stream) {
  constexpr int kBlock = 256;
  fma_roof<<<gauss::div_up(items, kBlock), kBlock, 0, stream>>>(out, items, iterations, b, c);
}
