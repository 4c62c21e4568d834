// Chapter 06: the host's view of blur_symmetric.cu, the main line's kernel.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches the main line's fused separable blur with symmetric weights
/// (chapter 05's launch_blur_staged, mirrored taps added before weighing):
/// 32x8 blocks, each owning a 128 x staged_tile_rows(R) output tile
/// (chapter 05's blur_staged.hpp: the same tiles) staged in shared memory.
void launch_blur_symmetric(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                           cudaStream_t stream);
