// Chapter 10: the shapes of the ring-of-rows blur, shared by the CUDA
// launcher (blur_ring.cu) and the OpenCL set-up (ring_opencl.hpp).
#pragma once

namespace ring {

/// Warps (rows of 32 lanes) per block or work-group, stacked vertically, so
/// that strips above and below each other share their halo rows in L1.
constexpr int kWarpsPerBlock = 4;

/// Side of the tile kernel's square block (RGBA, radius above 4; OpenCL,
/// radius above 2).
constexpr int kTile = 16;

/// Local/shared memory the tile kernel needs: the tile and its halo, and the
/// vertical sums, as floats, for the blurred channels.
constexpr int tile_bytes(int tile, int channels, int radius) {
  const int span = tile + 2 * radius;
  return (span * span + tile * span) * (channels == 4 ? 3 : 1) * 4;
}

/// Pixels per lane: as many as one 16-byte load holds while the ring of
/// 2R+1 converted rows still fits in registers.
constexpr int pixels_per_lane(int channels, int radius) {
  if (channels == 1) return radius <= 4 ? 8 : 4;
  return radius <= 2 ? 4 : 2;
}

/// Output rows per warp (CUDA) or per item (OpenCL). More rows spread the
/// 2R halo rows over more output; fewer rows make more warps, which hide
/// latency better. Measured on the H200 (the `shapes` section): at radius 2,
/// gray is fastest with 8 rows, RGBA with 16, OpenCL with 16; wide radii need
/// more rows, or the halo rows outnumber the output.
constexpr int rows_per_warp(int channels, int radius) {
  if (radius <= 2) return channels == 1 ? 8 : 16;
  return radius <= 8 ? 16 : 32;
}
constexpr int opencl_rows_per_item(int radius) { return radius <= 2 ? 16 : 32; }

/// Rows loaded ahead of use: several DRAM requests in flight per lane.
/// Measured on the H200 (the `shapes` section): gray is fastest 4 rows ahead,
/// RGBA 6 ahead, in both APIs; none ahead costs 20-25% (gray) and 15-35% (RGBA).
constexpr int rows_ahead(int channels, int /*radius*/) { return channels == 4 ? 6 : 4; }
constexpr int opencl_rows_ahead(int channels) { return channels == 4 ? 6 : 4; }

/// Blocks per SM the register budget must leave room for (CUDA
/// __launch_bounds__): 4 (128 registers) while the ring is small; wide gray
/// radii need more registers than that and get 2.
constexpr int min_blocks(int channels, int radius) { return channels == 1 && radius > 8 ? 2 : 4; }

/// RGBA with a radius above 4 needs too many registers for the ring, and
/// uses the shared-memory tile kernel instead.
constexpr bool uses_warp_strip(int channels, int radius) { return channels == 1 || radius <= 4; }

/// Lanes at each end of a warp that only supply neighbours' sums.
constexpr int halo_lanes(int channels, int radius) {
  return (radius + pixels_per_lane(channels, radius) - 1) / pixels_per_lane(channels, radius);
}

/// Output pixels per warp strip.
constexpr int strip_width(int channels, int radius) {
  return (32 - 2 * halo_lanes(channels, radius)) * pixels_per_lane(channels, radius);
}

// OpenCL (blur_ring.cl): work-items cannot share sums without local memory
// and barriers, so each item sums its own halo pixels too. That pays for
// radius 1 and 2 only; larger radii use the tile kernel.

/// The OpenCL strip kernel serves this radius (else the tile kernel).
constexpr bool opencl_uses_strip(int radius) { return radius <= 2; }

/// Pixels per work-item of the OpenCL strip kernel: one 16-byte load.
constexpr int opencl_pixels_per_item(int channels) { return 16 / channels; }

}  // namespace ring
