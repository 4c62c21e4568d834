// Chapter 07: the host's view of blur_rgba_main.cu, the main line's kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches the main line's RGBA blur: chapter 05's fused separable kernel on
/// 32-bit pixels, 32x8 blocks each owning 32 x rgba_main_tile_rows(R) pixels
/// (blur_rgba_main.hpp), one word per pixel, alpha carried.
/// Throws std::invalid_argument unless the rows and buffers are word-aligned.
void launch_blur_rgba_main(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                           cudaStream_t stream);
