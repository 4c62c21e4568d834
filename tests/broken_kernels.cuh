// Deliberately broken CUDA kernels: the runner tests require them to fail.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

/// Copies @p in to @p out but forgets the last row.
void launch_copy_but_last_row(const std::uint8_t* in, std::uint8_t* out, int width, int height, cudaStream_t stream);

/// Launches a copy with 2048-thread blocks, which no GPU allows.
void launch_with_too_many_threads(const std::uint8_t* in, std::uint8_t* out, int width, int height,
                                  cudaStream_t stream);
