// Chapter 13: the host's view of the block tiles in blur_tile.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The radius-2 blur with the sigma-1 weights summed in packed halves over
/// block tiles: each block's rows and their halo brought into shared memory
/// at once by every thread's 16-byte `cp.async`, then walked by its warps;
/// gray or RGBA, any size; tile_plan.hpp's shape. Returns false, launching
/// nothing, for any other blur: half2_plan.hpp's half2_weights() says which
/// blurs the packed halves serve and why only those.
bool launch_blur_tile(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The block-tile shapes the section `tile_shapes` compares, for gray
/// (@p channels 1) or RGBA (4): bytes per lane, output rows per warp, blocks
/// per SM. Shape 0 is tile_plan.hpp's, the one launch_blur_tile launches.
int tile_shape_count(int channels);
const char* tile_shape_name(int channels, int shape);
bool launch_blur_tile_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int shape,
                            cudaStream_t stream);
