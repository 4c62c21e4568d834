// Chapter 10: the host's view of the packed-half kernels in blur_half2.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The capstone's fastest path: the radius-2 blur with the sigma-1 weights
/// (the tutorial's default blur), summed in packed half precision, for gray
/// or RGBA images of any size. Returns false, launching nothing, for any
/// other blur: fused_plan.hpp's half2_weights() says which blurs it serves
/// and why only those.
bool launch_blur_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The same kernel with the rows ahead brought into shared memory by
/// `cp.async` (loads in flight that hold no register) and each warp's rows
/// unrolled whole; fused_plan.hpp's async_* shapes. Returns false, launching
/// nothing, where launch_blur_half2 does.
bool launch_blur_half2_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream);

/// The capstone's ablation (chapter 10's section `ablation`): the packed-half
/// kernel as shipped, and with one choice taken back at a time.
enum class HalfAblation {
  Shipped,         ///< fused_plan.hpp's shape
  NoRowsAhead,     ///< each row loaded just before its use (chapter 03: loads in flight)
  NarrowLanes,     ///< half the bytes per lane: 4-byte (gray) and 8-byte (RGBA) loads and stores (chapter 03)
  OneRowPerWarp,   ///< a warp computes one output row, reloading its 4 halo rows (chapter 02: work per item)
  NoLaunchBounds,  ///< __launch_bounds__ without a blocks-per-SM floor (chapter 02: occupancy)
};

/// Launches the packed-half kernel with @p which taken back; false (nothing
/// launched) where the half-precision path does not serve the blur.
bool launch_blur_half2_ablated(HalfAblation which, const std::uint8_t* in, std::uint8_t* out,
                               const gauss::Problem& problem, cudaStream_t stream);
