// Chapter 07: the main line's tile height, shared by the OpenCL host code
// (main.cpp passes it as -D TILE_ROWS) and the CUDA launcher (blur_rgba_main.cu).
#pragma once

#include <algorithm>
#include <cstddef>

namespace chapter07 {

/// Bytes of local memory one group of blur_rgba_staged uses: the input tile,
/// 32 + 2R pixels of 4 bytes a row (one word a pixel), and the float4 row sums
/// of 32 items, both tile_rows + 2R rows high.
constexpr std::size_t rgba_main_local_bytes(int radius, int tile_rows) {
  const int rows = tile_rows + 2 * radius;
  return static_cast<std::size_t>(rows) * (32 + 2 * radius) * 4 + static_cast<std::size_t>(rows) * 32 * 16;
}

/// The output rows of a group's tile: the most of 64, 32, 16 and 8 whose two
/// tiles fit in @p local_bytes, at most the 48 KB a group may use by default
/// in both APIs. With 48 KB: 64 rows up to R = 4, 32 above (R = 16: exactly
/// 48 KB). Smaller devices (Oclgrind's 32 KB) get fewer rows. 0 if not even
/// 8 rows fit.
constexpr int rgba_main_tile_rows(int radius, std::size_t local_bytes = 48 * 1024) {
  const std::size_t budget = std::min<std::size_t>(local_bytes, 48 * 1024);
  for (int rows = 64; rows >= 8; rows /= 2) {
    if (rgba_main_local_bytes(radius, rows) <= budget) return rows;
  }
  return 0;
}

static_assert(rgba_main_tile_rows(4) == 64 && rgba_main_tile_rows(5) == 32 && rgba_main_tile_rows(16) == 32,
              "the rule the README states");

}  // namespace chapter07
