/// @file compare.hpp
/// @brief Comparing a variant's output with the reference: maximum difference,
///        which values differ and where, PSNR.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gauss/image.hpp"

namespace gauss {

/// One value that differs from the reference.
struct ValueDiff {
  int x = 0;
  int y = 0;
  int channel = 0;
  double got = 0;
  double expected = 0;
};

/// The result of comparing an output with the reference.
struct Comparison {
  bool same_shape = true;          ///< false: sizes or formats differ, nothing else is meaningful
  double tolerance = 0;            ///< largest accepted |got - expected|
  double max_abs_diff = 0;         ///< largest |got - expected| (infinite if a NaN is involved)
  std::size_t values = 0;          ///< values compared
  std::size_t differing = 0;       ///< values with got != expected
  std::size_t over_tolerance = 0;  ///< values with |got - expected| > tolerance (NaN counts)
  std::vector<ValueDiff> first;    ///< the first few values over the tolerance, in raster order
  double psnr_db = 0;              ///< peak signal-to-noise ratio; infinite for identical images

  /// True when the shapes agree, values were compared, and none is over the
  /// tolerance. (A comparison that never ran compares no values: no match.)
  bool matches() const { return same_shape && values > 0 && over_tolerance == 0; }
  /// One line: "max diff 1, 37 of 30105600 values differ" or where it fails.
  std::string summary() const;
};

/// Compares two 8-bit images value by value; @p tolerance is in levels (0..255).
Comparison compare_images(const Image& got, const Image& expected, int tolerance);

/// Compares two float arrays laid out as width x height x channels, rows
/// width*channels values apart. NaN-safe: a NaN (or infinity) in @p got where
/// @p expected has a different value is infinitely far and always fails;
/// @p peak is the signal peak used for PSNR (255 for 8-bit data).
Comparison compare_floats(const float* got, const float* expected, int width, int height, int channels,
                          double tolerance, double peak = 255.0);

/// How many differing values compare_*() lists in Comparison::first.
inline constexpr std::size_t kMaxListedDiffs = 8;

}  // namespace gauss
