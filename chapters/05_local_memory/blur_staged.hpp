// Chapter 05: the main line's tile height, shared by the OpenCL set-up
// (blur_staged_setup.hpp passes it as -D TILE_ROWS) and the CUDA launcher
// (blur_staged.cu).
#pragma once

#include <algorithm>
#include <cstddef>

namespace chapter05 {

/// Bytes of local memory one group of blur_staged uses: the input tile as
/// words (128 columns plus HALO_X = R rounded up to a multiple of 4 on each
/// side) and the float4 row sums of 32 items, both tile_rows + 2R rows high.
constexpr std::size_t staged_local_bytes(int radius, int tile_rows) {
  const int halo_x = 4 * ((radius + 3) / 4);
  const int rows = tile_rows + 2 * radius;
  return static_cast<std::size_t>(rows) * (128 + 2 * halo_x) + static_cast<std::size_t>(rows) * 32 * 16;
}

/// The output rows of a group's tile: the most of 64 (8 per item, chapter
/// 03's register window), 32, 16 and 8 whose two tiles fit in @p local_bytes,
/// at most the 48 KB a group may use by default in both APIs. With 48 KB: 64
/// rows up to R = 5, 32 above (R = 16: 42 KB); halving the rows costs halo
/// (at R = 9, 18 of every 50 tile rows instead of 18 of 82). Smaller devices
/// (Oclgrind's 32 KB) get fewer rows. 0 if not even 8 rows fit.
constexpr int staged_tile_rows(int radius, std::size_t local_bytes = 48 * 1024) {
  const std::size_t budget = std::min<std::size_t>(local_bytes, 48 * 1024);
  for (int rows = 64; rows >= 8; rows /= 2) {
    if (staged_local_bytes(radius, rows) <= budget) return rows;
  }
  return 0;
}

static_assert(staged_tile_rows(5) == 64 && staged_tile_rows(6) == 32 && staged_tile_rows(16) == 32,
              "the rule the README states");

}  // namespace chapter05
