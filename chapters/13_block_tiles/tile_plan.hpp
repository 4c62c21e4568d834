// Chapter 13: the shapes of the block tiles, shared by the CUDA launcher
// (blur_tile.cu) and the OpenCL set-up (main.cpp). The arithmetic, the
// weights and their error bound are chapter 11's (half2_plan.hpp); chapter
// 12's cp.async brings the rows. Measured on the H100 and the H200 with the
// section `tile_shapes` (README, section "Shapes"); CUDA ships the H200's
// fastest, OpenCL the shape fastest on both.
#pragma once

#include "half2_plan.hpp"  // chapter 11's plan

namespace tile {

/// Warps (rows of 32 lanes) per block or work-group, stacked vertically, as
/// in chapters 10 to 12: a block's tile holds its 4 warps' rows and one halo
/// of 4 rows.
constexpr int kWarpsPerBlock = half2::kWarpsPerBlock;

/// Bytes per lane (the section tile_shapes on the H200). CUDA: 8 for gray
/// (8 rows, 8 blocks per SM: 0.0236 ms against 0.0241 with 16 bytes and 4
/// rows), 16 for RGBA (4 blocks per SM: 0.0732 against 0.0760 with 8 bytes
/// and 8 blocks). OpenCL: 16 for both (8-byte gray lanes: 0.0253 ms at
/// best, against 0.0228).
constexpr int tile_lane_bytes(int channels) { return channels == 4 ? 16 : 8; }
constexpr int opencl_tile_lane_bytes(int /*channels*/) { return 16; }

/// Output rows per warp: a block of 4 warps holds 4 x rows + 4 tile rows
/// (CUDA: gray 36 rows of 272 bytes, 9.8 KB; RGBA 36 rows of 512, 18 KB.
/// OpenCL: gray 20 rows of 512 bytes, 10 KB; RGBA 36 rows of 512, 18 KB).
constexpr int tile_rows(int /*channels*/) { return 8; }
constexpr int opencl_tile_rows(int channels) { return channels == 4 ? 8 : 4; }

/// Blocks per SM the register budget must leave room for (CUDA
/// __launch_bounds__): 8 for gray (at most 64 registers), 4 for RGBA (128).
constexpr int tile_min_blocks(int channels) { return channels == 4 ? 4 : 8; }

}  // namespace tile
