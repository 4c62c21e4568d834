// Chapter 01: the host's view of the CUDA half (blur_naive.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches the naive blur on @p stream: one thread per output pixel, blocks
/// of @p block threads, the grid rounded up to whole blocks.
void launch_blur_naive(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                       cudaStream_t stream);

/// The kernel instantiated for @p radius, as the CUDA runtime's queries
/// (cudaFuncGetAttributes, the occupancy calculator) take it: chapter 02 asks
/// them about this very kernel.
const void* blur_naive_kernel(int radius);
