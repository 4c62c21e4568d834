// Chapter 10: the host's view of the packed-half kernels in blur_half2.cu.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gauss/problem.hpp"

/// The capstone's fastest path: the radius-2 blur with the sigma-1 weights
/// (the tutorial's default blur), summed in packed half precision over block
/// tiles (each block's rows and their halo brought into shared memory at once
/// by every thread's `cp.async`, then walked by its warps), for gray or RGBA
/// images of any size; fused_plan.hpp's tile_* shapes. Returns false,
/// launching nothing, for any other blur: fused_plan.hpp's half2_weights()
/// says which blurs it serves and why only those.
bool launch_blur_half2(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, cudaStream_t stream);

/// The same arithmetic over warp strips, each warp loading its own rows a few
/// ahead into registers (the capstone's fastest path until 2026-11-26;
/// fused_plan.hpp's half2_* shapes). Returns false where launch_blur_half2 does.
bool launch_blur_half2_strips(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                              cudaStream_t stream);

/// The warp strips with the rows ahead brought into shared memory by
/// `cp.async` (loads in flight that hold no register) and each warp's rows
/// unrolled whole; fused_plan.hpp's async_* shapes. Returns false, launching
/// nothing, where launch_blur_half2 does.
bool launch_blur_half2_async(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem,
                             cudaStream_t stream);

/// The block-tile shapes the section `tile_shapes` compares, for gray
/// (@p channels 1) or RGBA (4); shape 0 is fused_plan.hpp's (the one
/// launch_blur_half2 launches).
int half2_tile_shape_count(int channels);
const char* half2_tile_shape_name(int channels, int shape);
bool launch_blur_half2_tile_shape(const std::uint8_t* in, std::uint8_t* out, const gauss::Problem& problem, int shape,
                                  cudaStream_t stream);

/// The capstone's ablation (chapter 10's section `ablation`): the packed-half
/// block tiles as shipped, and with one choice taken back at a time.
enum class HalfAblation {
  Shipped,          ///< fused_plan.hpp's tile shape
  WarpStrips,       ///< no block tiles: warp strips, rows ahead in registers (launch_blur_half2_strips)
  OneLoadInFlight,  ///< each thread waits for each 16-byte chunk before the next (chapter 03: loads in flight)
  NarrowLanes,      ///< 8 bytes per lane instead of 16 (chapter 03); gray only, RGBA ships 8
  OneRowPerWarp,    ///< a warp computes one output row: 4 output rows per 8 loaded (chapter 02: work per item)
  NoLaunchBounds,   ///< __launch_bounds__ without a blocks-per-SM floor (chapter 02: occupancy)
};

/// Whether @p which can be taken back from the shipped shape of @p channels.
bool half2_ablation_applies(HalfAblation which, int channels);

/// Launches the packed-half kernel with @p which taken back; false (nothing
/// launched) where the half-precision path does not serve the blur or
/// half2_ablation_applies() is false.
bool launch_blur_half2_ablated(HalfAblation which, const std::uint8_t* in, std::uint8_t* out,
                               const gauss::Problem& problem, cudaStream_t stream);
