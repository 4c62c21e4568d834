// Chapter 14: the multiply-add roof in CUDA (roofs.cu), as roofs.cl.
#pragma once

#include <cuda_runtime_api.h>

/// Independent multiply-add chains per thread of fma_roof.
inline constexpr int kRoofChains = 8;

/// Launches fma_roof: @p items threads in blocks of 256, each running
/// kRoofChains chains of @p iterations multiply-adds a = a * b + c, and
/// storing their sum in @p out[thread].
void launch_fma_roof(float* out, int items, int iterations, float b, float c, cudaStream_t stream);
