// Chapter 05: the host's view of blur_tiled.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// Launches the tiled blur: each block loads its tile and halo into shared
/// memory, then computes its pixels from there. Any block shape whose tile
/// fits in 48 KB of shared memory works; the grid is rounded up to whole blocks.
void launch_blur_tiled(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                       cudaStream_t stream);

/// Launches the seminar's kernel with its halo bug (32x8 blocks, one thread
/// per window of the valid convolution): it writes only the pixels at least
/// R from every edge. See blur_broken_halo.cl for the bug.
void launch_blur_broken_halo(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream);

/// Launches the separable blur joined through shared memory: blocks of
/// @p block threads that overlap by 2R columns (block.x must exceed 2R).
void launch_blur_separable_local(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, dim3 block,
                                 cudaStream_t stream);
