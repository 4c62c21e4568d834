// Chapter 10: the launch shapes of the fused blur, shared by the CUDA
// launcher (blur_fused.cu) and the OpenCL set-up (main.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

#include "gauss/blur.hpp"

namespace fused {

/// Warps (rows of 32 lanes) per block or work-group, stacked vertically, so
/// that strips above and below each other share their halo rows in L1.
constexpr int kWarpsPerBlock = 4;

/// Side of the tile kernel's square block (RGBA, radius above 4).
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

// OpenCL (blur_fused.cl): work-items cannot share sums without local memory
// and barriers, so each item sums its own halo pixels too. That pays for
// radius 1 and 2 only; larger radii use the tile kernel.

/// The OpenCL strip kernel serves this radius (else the tile kernel).
constexpr bool opencl_uses_strip(int radius) { return radius <= 2; }

/// Pixels per work-item of the OpenCL strip kernel: one 16-byte load.
constexpr int opencl_pixels_per_item(int channels) { return 16 / channels; }

// --- The packed-half path (blur_half2.cu, blur_half2.cl) ---------------------
//
// Two pixels per 32-bit register, as a pair of IEEE half floats, summed with
// one HFMA2 (fused multiply-add on both halves) per tap and pair: half the
// instructions of float sums, and the bytes become halves with one byte
// permute (0x64bb is the half 1024 + bb). Half floats carry 11 significant
// bits, so the weights must be chosen, not just rounded, and the error
// proven, not just tested:
//  * weights: 223/4096, 1001/4096 and 1648/4096 (sigma 1: 0.0544886850,
//    0.2442013420, 0.4026199470), exact in half, summing to exactly 1, with
//    1024 (w0 + w1 + w2) = 718 exact, so the bias of the 1024 + b encoding
//    cancels exactly (K below);
//  * error, for every input, before the final rounding: vertical sums round
//    three times (at most 1/8 + 1/16 + 1/16 = 0.25 level), horizontal sums
//    five times (at most 1/256 + 1/128 + 1/32 + 1/16 + 1/16 = 0.168), the
//    weights' quantisation moves the exact sum by at most 255 x 0.000384 =
//    0.098: |error| < 0.52 < 1, so every output is within one level of the
//    reference floor(exact + 0.5). (Near 0 and 255 the sums are small or
//    their deficit from 255 is, so no output wraps past 0 or 255; the tests'
//    black, white and 0/255 checkerboard images check it.)
// Other blurs would need their own weight search and bound, so they take the
// float kernels: half2_weights() returns nothing for them.

/// Half-float bit patterns of the weights, two per 32-bit word (low half =
/// even pixel or channel, high half = odd). Gray uses the "even" words for
/// every pair; RGBA's (B, A) pairs use the "odd" words, whose high half
/// passes alpha through exactly (taps 0, 0, 1 and bias 1024).
struct HalfWeights {
  std::uint32_t w0, w1, w2, minus_k;              // (R, G) pairs; gray: every pair
  std::uint32_t w0_ba, w1_ba, w2_ba, minus_k_ba;  // RGBA's (B, A) pairs
};

/// The bit pattern of @p value as an IEEE half float; @p value must be zero or
/// a normal half exactly (every value used here is).
inline std::uint32_t half_bits(double value) {
  if (value == 0.0) return 0;
  const std::uint32_t sign = value < 0 ? 0x8000u : 0u;
  int exponent = 0;
  const double mantissa =
      std::frexp(std::fabs(value), &exponent);  // value = mantissa x 2^exponent, mantissa in [0.5, 1)
  const auto fraction = static_cast<std::uint32_t>((mantissa * 2.0 - 1.0) * 1024.0);
  return sign | static_cast<std::uint32_t>(exponent - 1 + 15) << 10 | fraction;
}

/// Two halves in one word: @p low in bits 0-15, @p high in bits 16-31.
inline std::uint32_t half_pair(double low, double high) { return half_bits(low) | half_bits(high) << 16; }

/// The packed-half weights for @p blur, or nothing where the half path's
/// error bound is not proven (any blur but radius 2 with sigma 1's taps).
inline std::optional<HalfWeights> half2_weights(int radius, const gauss::GaussTaps& taps) {
  const double sigma1[] = {0.0544886850, 0.2442013420, 0.4026199470, 0.2442013420, 0.0544886850};
  if (radius != 2) return std::nullopt;
  for (int k = 0; k < 5; ++k)
    if (std::fabs(taps.w[k] - sigma1[k]) > 1e-6) return std::nullopt;
  const double w0 = 223.0 / 4096, w1 = 1001.0 / 4096, w2 = 1648.0 / 4096, k = 1024.0 * (w0 + w1 + w2);
  return HalfWeights{half_pair(w0, w0),  half_pair(w1, w1),  half_pair(w2, w2),  half_pair(-k, -k),
                     half_pair(w0, 0.0), half_pair(w1, 0.0), half_pair(w2, 1.0), half_pair(-k, -1024.0)};
}

/// Shapes of the packed-half warp strips (launch_blur_half2_strips, blur_half2.cl
/// without -D TILE; measured on the H200, see the README): bytes per lane (8 gray: half the registers of 16, so twice
/// the warps; 16 RGBA), output rows per warp, rows loaded ahead, blocks per SM.
constexpr int half2_lane_bytes(int channels) { return channels == 4 ? 16 : 8; }
constexpr int half2_rows(int channels) { return channels == 4 ? 16 : 8; }
constexpr int half2_ahead(int /*channels*/) { return 4; }
constexpr int half2_min_blocks(int channels) { return channels == 4 ? 4 : 6; }

/// Shapes of the same strips with the rows ahead brought by cp.async into
/// shared memory (launch_blur_half2_async; measured on the H100, 2026-11-26,
/// see the README's section "Loads in flight without registers"): 8 bytes
/// per lane, 8 rows per warp, more rows ahead for RGBA, whose registers no
/// longer hold them, so 8 blocks of 4 warps fit.
constexpr int async_lane_bytes(int /*channels*/) { return 8; }
constexpr int async_rows(int /*channels*/) { return 8; }
constexpr int async_ahead(int channels) { return channels == 4 ? 6 : 4; }
constexpr int async_min_blocks(int channels) { return channels == 4 ? 8 : 6; }

/// Shapes of the block tiles, the capstone's fastest path (launch_blur_half2,
/// blur_half2.cl with -D TILE; measured on the H100, 2026-11-26, the section
/// `tile_shapes` and the README's section "Block tiles"): bytes per lane (16
/// gray; RGBA 8 in CUDA, 16 in OpenCL, whose compiler keeps the 16-byte tile
/// in 72 registers where ptxas, held to 4 blocks, takes 96), output rows per
/// warp (a block of 4 warps holds 4 x rows + 4 rows: 10 KB gray, 9.8 KB RGBA
/// in CUDA, 18 KB in OpenCL), blocks per SM (CUDA __launch_bounds__).
constexpr int tile_lane_bytes(int channels) { return channels == 4 ? 8 : 16; }
constexpr int tile_rows(int channels) { return channels == 4 ? 8 : 4; }
constexpr int tile_min_blocks(int channels) { return channels == 4 ? 8 : 6; }
constexpr int opencl_tile_lane_bytes(int /*channels*/) { return 16; }
constexpr int opencl_tile_rows(int channels) { return channels == 4 ? 8 : 4; }

}  // namespace fused
