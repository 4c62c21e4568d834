// Chapter 05: the linear-sampling trick's taps, and what it costs in precision.
//
// A bilinear read at offset a + f (0 <= f < 1) between pixels a and a + 1
// returns (1 - f) p[a] + f p[a+1]. Two taps w_a, w_b at offsets a and a + 1
// are therefore one read at a + w_b / (w_a + w_b), weighted w_a + w_b. Per
// dimension: the centre tap alone, then the pairs (1, 2), (3, 4), ... on each
// side; an odd radius leaves the last tap alone, read at its own offset
// (f = 0, exact). 1 + 2 ceil(R/2) reads instead of 2R + 1.
//
// The price: the texture unit does not mix with the exact f. NVIDIA's
// hardware keeps the mixing weight in 9-bit fixed point with 8 fractional
// bits (CUDA C++ Programming Guide, "Texture Fetching"), so f is off by up
// to d = 1/256 (whether it rounds or truncates is not documented; assume the
// worse). Each merged read moves at most d of its weight from one pixel to
// the other, so per dimension the applied weights differ from the exact ones
// by at most 2 d s in all (s = 1 - w_0; w_0, the centre weight, is read
// exactly). In 2-D the applied filter is the product e_i e_j of two such
// filters; e_i e_j - w_i w_j = (e_i - w_i) e_j + w_i (e_j - w_j), so the
// weight errors sum to at most 4 d s, and since both filters sum to 1, half
// of that is added weight. On an 8-bit image that is at most
//
//     255 * 2 d s = 2 (255/256) (1 - w_0)  <  2 levels,
//
// and a value less than 2 levels off rounds to at most 2 levels off. That is
// the tolerance the linear-sampling variants are checked with.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "gauss/blur.hpp"

namespace chapter05 {

/// Accepted difference of the linear-sampling variants from the reference.
inline constexpr int kLinearSamplingTolerance = 2;

/// The merged reads of one dimension, as the kernels take them.
struct LinearTaps {
  int fetches = 0;             ///< 1 + 2 ceil(R/2)
  gauss::GaussTaps offsets{};  ///< offsets[i]: pixels from the centre
  gauss::GaussTaps weights{};  ///< weights[i]: the merged weight
};

/// The centre tap, then pairs (k, k+1) for k = 1, 3, 5, ... on each side.
inline LinearTaps linear_taps(const gauss::BlurSpec& spec) {
  const std::vector<double> w = gauss::gaussian_weights(spec);
  const int r = spec.radius;
  LinearTaps taps;
  auto add = [&taps](double offset, double weight) {
    taps.offsets.w[taps.fetches] = static_cast<float>(offset);
    taps.weights.w[taps.fetches] = static_cast<float>(weight);
    ++taps.fetches;
  };
  add(0.0, w[static_cast<std::size_t>(r)]);
  for (int k = 1; k <= r; k += 2) {
    const double wa = w[static_cast<std::size_t>(r + k)];
    const double wb = k + 1 <= r ? w[static_cast<std::size_t>(r + k + 1)] : 0.0;
    const double offset = k + wb / (wa + wb);
    add(offset, wa + wb);
    add(-offset, wa + wb);
  }
  return taps;
}

/// The 1-D filter a texture unit really applies with these reads when it
/// keeps the mixing weight with @p fraction_bits bits (rounded or
/// truncated): weights for offsets -R-1 .. R+1, index k + R + 1.
inline std::vector<double> effective_filter(const gauss::BlurSpec& spec, int fraction_bits, bool truncate) {
  const LinearTaps taps = linear_taps(spec);
  const int r = spec.radius;
  std::vector<double> filter(static_cast<std::size_t>(2 * r + 3), 0.0);
  const double scale = std::ldexp(1.0, fraction_bits);
  for (int i = 0; i < taps.fetches; ++i) {
    const double offset = taps.offsets.w[i];
    const double left = std::floor(offset);
    const double exact = offset - left;
    const double f = truncate ? std::floor(exact * scale) / scale : std::round(exact * scale) / scale;
    const auto at = static_cast<std::size_t>(static_cast<int>(left) + r + 1);
    filter[at] += taps.weights.w[i] * (1.0 - f);
    filter[at + 1] += taps.weights.w[i] * f;
  }
  return filter;
}

/// The largest error, in levels, that quantized mixing weights can cause on
/// any 8-bit image (before rounding): 255 times the positive part of the
/// difference between the applied 2-D filter and the exact one. An image
/// that is 255 where the applied filter weighs more and 0 elsewhere reaches it.
inline double worst_case_error(const gauss::BlurSpec& spec, int fraction_bits, bool truncate) {
  const std::vector<double> applied = effective_filter(spec, fraction_bits, truncate);
  const std::vector<double> exact_1d = gauss::gaussian_weights(spec);
  std::vector<double> exact(applied.size(), 0.0);
  std::copy(exact_1d.begin(), exact_1d.end(), exact.begin() + 1);
  double positive = 0;
  for (std::size_t j = 0; j < applied.size(); ++j)
    for (std::size_t i = 0; i < applied.size(); ++i)
      positive += std::max(0.0, applied[j] * applied[i] - exact[j] * exact[i]);
  return 255.0 * positive;
}

/// The bound of the comment above, 2 (255/256) (1 - w_0): the most that
/// 8 fractional bits can cost, rounded or truncated.
inline double error_bound(const gauss::BlurSpec& spec) {
  const double centre = gauss::gaussian_weights(spec)[static_cast<std::size_t>(spec.radius)];
  return 2.0 * (255.0 / 256.0) * (1.0 - centre);
}

}  // namespace chapter05
