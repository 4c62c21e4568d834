// Chapter 12: the shape of the packed-half strips whose rows ahead travel by
// cp.async, shared by the CUDA launcher (blur_async.cu) and the OpenCL set-up
// (main.cpp). The arithmetic, the weights and their error bound are chapter
// 11's (half2_plan.hpp); only where the rows ahead wait changes.
#pragma once

#include "half2_plan.hpp"  // chapter 11's plan

namespace async {

/// Warps (rows of 32 lanes) per block or work-group, stacked vertically, as
/// in chapters 10 and 11.
constexpr int kWarpsPerBlock = half2::kWarpsPerBlock;

/// Bytes per lane: 8 for both formats. RGBA's lanes are half as wide as
/// chapter 11's 16, so the strip holds half the registers and twice the
/// warps fit (measured on the H100: the narrower lanes alone give about a
/// third of RGBA's gain; the README's section "Why").
constexpr int lane_bytes(int /*channels*/) { return 8; }

/// Output rows per warp: 8, so a warp walks 8 + 4 input rows, every one
/// unrolled, and each slot of shared memory is a constant.
constexpr int rows(int /*channels*/) { return 8; }

/// Rows loaded ahead of use: 4 for gray, 6 for RGBA, whose rows ahead no
/// longer cost registers.
constexpr int ahead(int channels) { return channels == 4 ? 6 : 4; }

/// Blocks per SM the register budget must leave room for (CUDA
/// __launch_bounds__): 6 for gray (at most 80 registers a thread), 8 for
/// RGBA (at most 64); ptxas needs 52 for both.
constexpr int min_blocks(int channels) { return channels == 4 ? 8 : 6; }

}  // namespace async
