// Chapter 15: the tensor-core blur's plan, shared by the CUDA launcher
// (blur_mma.cu), the OpenCL set-up (mma_opencl.hpp) and the section that
// prints the error bound: the tile shape, the weights as the tensor cores
// take them, and the proof that the result is within one level of the exact
// blur, computed for the blur asked for.
//
// The two passes (blur_mma.cu's opening comment), both with the half-float
// weights v[k] (11 significant bits):
//  * horizontal: v[k] times the bytes p made halves 1024 + p (exact), float
//    sums started at -1024 x sum_k v[k] (rounded to a float: `bias`), so
//    that the sum is sum_k v[k] p[k] but for the float additions' rounding;
//  * that sum rounded to a half float;
//  * vertical: v[k] times those halves, float sums.
// Against the exact blur sum_i sum_j w_i w_j p_ij, the result is off by
//  * the weights' quantisation: |sum_ij (v_i v_j - w_i w_j) p_ij| at most
//    255 x sum_ij |v_i v_j - w_i w_j|, the worst image;
//  * the float sums of the horizontal pass: 2R+1 products and the start,
//    every partial sum below 2048 in size (the products 1024 + p times
//    weights summing to about 1), so each addition rounds by at most 2^-24 x
//    2048, and the start itself by 2^-24 x 1024; counted four times over,
//    since the tensor cores' float additions need not round as IEEE
//    additions do, and carried into the result times sum_j |v_j|;
//  * the halves' rounding: each horizontal sum lies in [0, 255], where a half
//    float's spacing is at most 2^-3, so it moves by at most 2^-4, and the
//    vertical sum by at most 2^-4 x sum_j |v_j|;
//  * the float sums of the vertical pass: at most 2R+1 additions of terms
//    below 256, each rounding by at most 2^-24 x 256 relative to the sum;
//    counted four times over, as above;
//  * the final rounding: the vertical sums start at 0.5, so v + 0.5 comes out
//    of the float sums above; one more rounding allowed for it, 2^-16.
// While the total stays below 1, floor(result + 0.5) is within one level of
// floor(exact + 0.5), which is what every variant is checked against. The
// kernels ask for less, below 1/2: they take floor(v + 0.5) as the low byte
// of 2^23 + (v + 0.5) rounded down, which is that byte only while v + 0.5
// stays within [0, 256) (exact values lie in [0, 255]). For every sigma from
// 0.05 to 100 and radius 1 to 16 the total stays below 0.26 (0.254 at its
// largest, sigma 0.69 at radius 16, where most taps are tiny halves; the
// section `error_bound` prints the terms for the blur asked for).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/image.hpp"

namespace mma {

/// Warps per block (work-group) and output tile: 128 columns wide (16 a
/// warp: the rows of the horizontal product's result), 64 rows gray and 32
/// RGBA (from radius 9 CUDA's RGBA tile stages its output over its planes, so
/// that it fits 48 KB: blur_mma.cu, Tile::kOutOverRaw).
constexpr int kWarps = 8;
constexpr int kTileWidth = 128;
constexpr int tile_rows(int channels) { return channels == 1 ? 64 : 32; }
/// The portable kernel's tiles are 64 columns wide.
constexpr int kPortableTileWidth = 64;
/// The portable kernel's tiles (blur_tiles_f32): 64 rows gray, 32 RGBA.
constexpr int portable_tile_rows(int channels) { return channels == 4 ? 32 : 64; }

/// Work-groups per compute unit of OpenCL's persistent grid. CUDA asks the
/// occupancy API how many blocks fit on an SM (blur_mma.cu); OpenCL has no
/// such query (NVIDIA's runtime does not report a kernel's registers), so the
/// number is the one measured fastest on the H200. Gray to radius 8: 3
/// groups. NVIDIA's compiler gave that kernel 80 registers, or 64 with a
/// spill at radius 3 and 4 (dd06bc7), so three groups of 256 fit a compute
/// unit; against 2 they took 0.048 -> 0.041 ms at radius 3 and 4 (the
/// spill's waits covered by more warps) and 2-3% at 2; 4 groups, a second wave,
/// were 14-18% slower than 3 at 2 and 5. Where the kernel still spills, or
/// (the 32-row RGBA tile) takes more registers than this number of groups
/// leaves, its PTX is rebuilt with the number as its launch bound
/// (opencl_setup). Above (128 registers) and RGBA (87-159): 2, against 3,
/// 4, 6, 8 and 12 at radius 2, 8 and 16 (within 2% of the fastest at each,
/// and the fastest at 16).
constexpr int opencl_groups_per_cu(int channels, int radius) { return channels == 1 && radius <= 8 ? 3 : 2; }
/// The same for the portable kernel (blur_tiles_f32), whose groups wait on
/// their barriers and loads with no tensor-core work to cover them: on the
/// H200, 8 groups per compute unit against 2 took 12-17% off at radius 1 and
/// 2 (gray 0.0570 -> 0.0482 ms at radius 2, RGBA 0.204 -> 0.172), 5-14% at
/// 5 to 16 in gray and at 5 in RGBA, 2% at 9 and 16 in RGBA; 12 was no
/// faster than 8. (Registers let 3-5 of them fit on an SM at once; the rest
/// wait, and the tiles loop either way.)
constexpr int opencl_portable_groups_per_cu = 8;

/// The persistent grid's walk over the tiles, worked out on the host: block
/// (work-group) b of G takes tiles b, b + G, b + 2G, ... in row-major order, so
/// from one tile to its next the column steps by G's remainder and the row by
/// its quotient by the tiles per row; the kernels add instead of dividing each
/// tile (an integer division is some 20 instructions on these GPUs).
/// OpenCL's TileWalk in blur_mma.cl: the layout must match.
struct TileWalk {
  std::int32_t tiles_x, tiles_y;  ///< tiles per row, rows of tiles
  std::int32_t step_x, step_y;    ///< G % tiles_x, G / tiles_x
};

inline TileWalk tile_walk(int width, int height, int columns_per_tile, int rows_per_tile, int blocks) {
  const int tiles_x = (width + columns_per_tile - 1) / columns_per_tile;
  return {tiles_x, (height + rows_per_tile - 1) / rows_per_tile, blocks % tiles_x, blocks / tiles_x};
}

/// The blocks (work-groups) to launch for the walk: at most @p resident, the
/// number the GPU holds at once, and at most the tiles; fewer where that many
/// would keep each block in a few columns. A block's column steps by
/// G % tiles_x a tile, so it is back in its first column after tiles_x /
/// gcd(G, tiles_x) tiles. Where that comes before the block's last tile, the
/// blocks on the image's edge columns take the edges' clamped fill tile after
/// tile while the others take it seldom, and the launch waits on them: 396
/// blocks on 66 tiles a row (8448 wide) keep one column each (on the H200,
/// gray at radius 3: the busiest SM 1.62x the mean's active cycles, 40% of
/// the copy). So the first count from @p resident down (to 7/8 of it) whose
/// step visits a new column each tile, up to the block's last: 395 there, a
/// step of 65 (57% of the copy; 8320 wide, 65%).
inline int walk_blocks(int width, int height, int columns_per_tile, int rows_per_tile, int resident) {
  const TileWalk shape = tile_walk(width, height, columns_per_tile, rows_per_tile, 1);
  const int tiles_x = shape.tiles_x;
  const int tiles = tiles_x * shape.tiles_y;
  const int most = std::max(1, std::min(tiles, resident));
  for (int blocks = most; blocks >= most - most / 8 && blocks >= 1; --blocks) {
    const int tiles_per_block = (tiles + blocks - 1) / blocks;
    const int columns_visited = tiles_x / std::gcd(blocks % tiles_x, tiles_x);
    if (columns_visited >= std::min(tiles_x, tiles_per_block)) return blocks;
  }
  return most;
}

/// When a tile's input is loaded. Overlapped: each block issues the loads of
/// its next tile before the passes over this one, so they land during the
/// arithmetic. Serial: each tile's loads are waited for before its passes
/// (fill, then compute). The section `overlap` times both.
enum class Schedule { Overlapped, Serial };

/// Whether every row of @p image starts on a 16-byte boundary (the kernels
/// then load and store whole 16-byte words; the others shift them).
constexpr bool aligned_rows(const gauss::ImageGeometry& image) { return image.pitch % 16 == 0; }

/// The schedule `main` ships with for @p image at @p radius, the faster of the
/// two on the H200: overlapped, except in RGBA in CUDA, where the overlapped
/// kernel spills a word in flight at 3 blocks an SM and is slower (at radius
/// 1-4, where with RGBA's bytes staged one by one it did not spill, it was
/// still 1.09-1.12x slower: README, Why), but at radius 7 and 8 on rows that
/// are all 16-byte aligned, where it runs 2 blocks an SM (blur_mma.cu,
/// min_blocks_per_sm; on other rows the kernel that shifts each word was
/// 1.12-1.14x slower overlapped than serial); and in OpenCL from radius 9,
/// where NVIDIA's compiler gives the overlapped kernel 190-203 registers a
/// thread, so one work-group of 256 fits a compute unit instead of two
/// (README, Why).
constexpr Schedule shipped_schedule(bool cuda, const gauss::ImageGeometry& image, int radius) {
  if (image.channels != 4) return Schedule::Overlapped;
  if (cuda) return aligned_rows(image) && (radius == 7 || radius == 8) ? Schedule::Overlapped : Schedule::Serial;
  return radius >= 9 ? Schedule::Serial : Schedule::Overlapped;
}

/// The same in OpenCL on NVIDIA. RGBA overlapped: 16 rows. At 32 NVIDIA's
/// compiler gives that kernel 151 registers a thread (ptxas through
/// -cl-nv-verbose), so one work-group of 256 fits a compute unit; at 16 rows,
/// 87-111 (two fit), 1.16-1.26x as fast on an H100. RGBA serial (from radius
/// 9): 32 rows, as CUDA's, where 48 KB hold them (to radius 12; opencl_setup
/// falls back to 16 above). ptxas gives that kernel 254-255 registers, so its
/// PTX is rebuilt with the launch's two groups as its bound (128 registers,
/// 88-120 bytes spilled): 1.12-1.17x as fast as 16-row tiles at radius 9, 10
/// and 12 (H200), which compute 40 rows of horizontal sums for 16 output rows
/// at radius 9, where 32-row tiles compute 56 for 32.
constexpr int opencl_tile_rows(int channels, Schedule schedule) {
  return channels == 4 ? (schedule == Schedule::Serial ? 32 : 16) : tile_rows(channels);
}

/// The weights as the kernels take them (OpenCL's MmaWeights: the layout must match).
struct Weights {
  std::uint32_t v16[33];  ///< the weights as half-float bits (both passes)
  float bias;             ///< -1024 x their sum: where the horizontal sums start (blur_mma.cu, step 2)
};

/// @p value rounded to the nearest half float (ties to even), as bits. The
/// weights are positive and below 1: no infinities here.
inline std::uint32_t half_bits_rounded(double value) {
  if (value <= 0) return 0;
  int exponent = 0;
  std::frexp(value, &exponent);               // value = m x 2^exponent, m in [0.5, 1)
  const int e = std::max(exponent - 1, -14);  // the half's exponent; below 2^-14, subnormal
  const double step = std::ldexp(1.0, e - 10);
  double units = std::nearbyint(value / step);  // significand in units of the last place (ties to even)
  int field = e + 15;
  if (units >= 2048) {  // rounded up to the next power of two
    units /= 2;
    ++field;
  }
  if (units < 1024) return static_cast<std::uint32_t>(units);  // subnormal: exponent field 0
  return static_cast<std::uint32_t>(field) << 10 | (static_cast<std::uint32_t>(units) - 1024);
}

/// The value of half-float @p bits.
inline double half_value(std::uint32_t bits) {
  const int field = static_cast<int>((bits >> 10) & 0x1F);
  const double fraction = static_cast<double>(bits & 0x3FF);
  return field == 0 ? std::ldexp(fraction, -24) : std::ldexp(1024 + fraction, field - 25);
}

/// The weights for @p blur: the exact weights (double) rounded to half
/// floats, and the horizontal sums' start, -1024 x their sum.
inline Weights quantise(const gauss::BlurSpec& blur) {
  const std::vector<double> exact = gauss::gaussian_weights(blur);
  Weights w;
  std::memset(&w, 0, sizeof w);
  double sum = 0;
  for (int k = 0; k <= 2 * blur.radius; ++k) {
    w.v16[k] = half_bits_rounded(exact[k]);
    sum += half_value(w.v16[k]);  // exact: halves of one sign, 2^-24 apart at the finest
  }
  w.bias = static_cast<float>(-1024.0 * sum);
  return w;
}

/// The error bound's terms, in levels.
struct ErrorBound {
  double quantisation = 0;     ///< the weights' rounding, worst image
  double horizontal_sums = 0;  ///< the horizontal pass's float additions (and its start)
  double halves = 0;           ///< the horizontal sums rounded to half floats
  double float_sums = 0;       ///< the vertical pass's float additions
  double final_rounding = 0;
  double total() const { return quantisation + horizontal_sums + halves + float_sums + final_rounding; }
};

inline ErrorBound error_bound(const gauss::BlurSpec& blur, const Weights& w) {
  const std::vector<double> exact = gauss::gaussian_weights(blur);
  const int radius = blur.radius;
  ErrorBound bound;
  double v_sum = 0;
  for (int i = 0; i <= 2 * radius; ++i) {
    const double h = half_value(w.v16[i]);
    for (int j = 0; j <= 2 * radius; ++j) {
      const double v = half_value(w.v16[j]);
      bound.quantisation += std::fabs(h * v - exact[i] * exact[j]);
    }
    v_sum += h;
  }
  bound.quantisation *= 255.0;
  // Partial sums below 2048 need weights summing below 2048 / 1279 (Gaussian halves sum to about 1).
  bound.horizontal_sums =
      1279.0 * v_sum < 2048.0 ? (4.0 * (2 * radius + 2) * 2048.0 + 1024.0) * std::ldexp(1.0, -24) * v_sum : HUGE_VAL;
  bound.halves = std::ldexp(1.0, -4) * v_sum;
  bound.float_sums = 4.0 * (2 * radius + 1) * 256.0 * std::ldexp(1.0, -24);
  bound.final_rounding = std::ldexp(1.0, -16);
  return bound;
}

/// Whether the kernels may take a blur with error bound @p b: below 1/2 (the
/// kernels' rounding, above; below 1 would do for one level alone).
inline bool bound_holds(const ErrorBound& b) { return b.total() < 0.5; }

/// Whether the tensor-core path serves the blur.
inline bool serves(const gauss::BlurSpec& blur) {
  return blur.radius >= 1 && blur.radius <= 16 && bound_holds(error_bound(blur, quantise(blur)));
}

}  // namespace mma
