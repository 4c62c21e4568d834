// Chapter 05: the host's view of blur_staged.cu, the main line's kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches the main line's fused separable blur: 32x8 blocks, each owning a
/// 128 x staged_tile_rows(R) output tile (blur_staged.hpp) staged in shared
/// memory; 32-bit loads and stores where the image's rows and buffers are
/// word-aligned, byte loads and stores elsewhere.
void launch_blur_staged(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);
