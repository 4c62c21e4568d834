// Chapter 13: the shapes of the block tiles, shared by the CUDA launcher
// (blur_tile.cu) and the OpenCL set-up (main.cpp). The arithmetic, the
// weights and their error bound are chapter 11's (half2_plan.hpp); chapter
// 12's cp.async brings the rows. Measured on the H100 with the section
// `tile_shapes` (README, section "Shapes").
#pragma once

#include "half2_plan.hpp"  // chapter 11's plan

namespace tile {

/// Warps (rows of 32 lanes) per block or work-group, stacked vertically, as
/// in chapters 10 to 12: a block's tile holds its 4 warps' rows and one halo
/// of 4 rows.
constexpr int kWarpsPerBlock = half2::kWarpsPerBlock;

/// Bytes per lane: 16 for gray; RGBA 8 in CUDA, where ptxas, held to enough
/// blocks per SM, needs 76-96 registers for 16, and 16 in OpenCL, whose
/// compiler keeps the 16-byte tile in 72 registers.
constexpr int tile_lane_bytes(int channels) { return channels == 4 ? 8 : 16; }
constexpr int opencl_tile_lane_bytes(int /*channels*/) { return 16; }

/// Output rows per warp: a block of 4 warps holds 4 x rows + 4 tile rows
/// (gray 20 rows of 512 bytes, 10 KB; RGBA in CUDA 36 rows of 272 bytes,
/// 9.8 KB; RGBA in OpenCL 36 rows of 512, 18 KB).
constexpr int tile_rows(int channels) { return channels == 4 ? 8 : 4; }
constexpr int opencl_tile_rows(int channels) { return channels == 4 ? 8 : 4; }

/// Blocks per SM the register budget must leave room for (CUDA
/// __launch_bounds__): 6 for gray (at most 80 registers), 8 for RGBA (64).
constexpr int tile_min_blocks(int channels) { return channels == 4 ? 8 : 6; }

}  // namespace tile
