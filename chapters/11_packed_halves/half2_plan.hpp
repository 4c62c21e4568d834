// Chapter 11: the packed-half path's plan, shared by the CUDA launchers
// (blur_half2.cu), the OpenCL set-up (main.cpp) and the later chapters that
// sum in packed halves (their CMakeLists.txt USES 11_packed_halves): the
// weights as half floats, the proof that they are precise enough, and the
// warp strips' shapes.
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
//    reference floor(exact + 0.5). half2_error_bound() computes these terms
//    from the kernel's order of operations; the tests check its numbers.
//    (Near 0 and 255 the sums are small or their deficit from 255 is, so no
//    output wraps past 0 or 255; the tests' black, white and 0/255
//    checkerboard images check it.)
// Other blurs get their own weights the same way (choose_half_taps: the
// multiples of 1/4096 near their taps whose bound is smallest; radius 1 as
// radius 2 with outer taps 0) and their own bound, and take the path only
// where it holds. Chapters 11-13's kernels sum five taps: half2_weights()
// returns nothing above radius 2, and those blurs take chapter 10's float
// kernel. Chapter 14's kernel sums any radius up to kMaxHalfRadius with the
// same order of operations (wide_half2_weights()).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "gauss/blur.hpp"
#include "ring_plan.hpp"  // chapter 10's plan: the packed-half strips keep its block of warps

namespace half2 {

/// Warps per block or work-group, stacked vertically: chapter 10's.
constexpr int kWarpsPerBlock = ring::kWarpsPerBlock;

/// The widest blur the packed halves serve. Chapters 11-13 sum five taps
/// (radius 1 and 2); chapter 14's kernel takes its radius as a parameter and
/// serves radius 3 to 5 too, wherever the bound below holds for the blur's
/// weights (at sigma = radius / 3 it does up to 5: 0.61, 0.78, 0.85 level).
constexpr int kMaxHalfRadius = 5;

/// The half weights of a blur of radius 2 (radius 1: w0 = 0) or more, by
/// distance from the centre: w2 at 0, w1 at 1, w0 at 2, far[d - 3] at d = 3
/// .. 5 (zero beyond the radius), each a value a half float holds exactly.
struct HalfTaps {
  double w0, w1, w2;
  std::array<double, kMaxHalfRadius - 2> far{};
};

/// The tap of @p taps at distance @p d (0 .. kMaxHalfRadius) from the centre.
inline double& tap_at(HalfTaps& taps, int d) {
  return d == 0 ? taps.w2 : d == 1 ? taps.w1 : d == 2 ? taps.w0 : taps.far[static_cast<std::size_t>(d - 3)];
}
inline double tap_at(const HalfTaps& taps, int d) { return tap_at(const_cast<HalfTaps&>(taps), d); }

/// The bias K of the kernel's vertical sums for a blur of radius @p radius:
/// 1024 times each distinct tap once (the centre row holds 1024 + b, each
/// pair of rows 1024 + b + b', so K takes back the 1024 of each).
inline double half_bias(const HalfTaps& taps, int radius) {
  double tap_sum = 0;
  for (int d = 0; d <= radius; ++d) tap_sum += tap_at(taps, d);
  return 1024.0 * tap_sum;
}

/// Sigma 1's: 0.0544886850, 0.2442013420 and 0.4026199470 in units of
/// 1/4096, rounded so that 2 w0 + 2 w1 + w2 is exactly 1 (1001, not 1000).
inline constexpr HalfTaps kSigma1Taps{223.0 / 4096, 1001.0 / 4096, 1648.0 / 4096};

/// The sigma-1 blur's exact weights, offsets -2 .. 2 (gauss::gaussian_weights).
inline constexpr std::array<double, 5> kSigma1Exact{0.0544886850, 0.2442013420, 0.4026199470, 0.2442013420,
                                                    0.0544886850};

/// How far the packed-half sum of one output value can lie from the exact
/// sum of the reference, for any input bytes, in levels, before the final
/// HADD2 rounds it to an integer; term by term, in the kernel's order.
struct ErrorBound {
  int radius = 2;  ///< the kernel's: 2 (radius 1 runs as 2) .. kMaxHalfRadius
  /// out_row's radius + 1 vertical HFMA2 (w2 r2 - K, + w1 B, + w0 A, then the
  /// far pairs), each carried through the horizontal weights
  std::array<double, kMaxHalfRadius + 1> vertical{};
  /// its 2 radius + 1 horizontal HFMA2, outermost pair first (radius 2: w0,
  /// w0, w1, w1, w2)
  std::array<double, 2 * kMaxHalfRadius + 1> horizontal{};
  double quantisation = 0;  ///< the half weights against the exact ones, at most, over bytes 0..255
  double total = 0;         ///< the sum of all of them
  bool exact = false;       ///< the weights and the bias K are exact halves (else nothing is proven)

  /// The output is then within one level of the reference: the final HADD2
  /// rounds to the nearest integer, the reference rounds the exact sum half
  /// up, each at most half a level away, so an error under 1 cannot reach 2.
  bool holds() const { return exact && total < 1.0; }
};

/// Whether @p value is exactly a normal half float (or zero): 11 significant
/// bits, exponent -14 .. 15.
inline bool is_half(double value) {
  if (value == 0.0) return true;
  int exponent = 0;
  const double mantissa = std::frexp(std::fabs(value), &exponent);  // in [0.5, 1)
  return mantissa * 2048.0 == std::floor(mantissa * 2048.0) && exponent - 1 >= -14 && exponent - 1 <= 15;
}

/// The largest rounding error of a half-precision result of magnitude at
/// most @p magnitude: half a unit in the last place of its binade.
inline double half_rounding(double magnitude) {
  if (magnitude < 0x1p-14) return 0x1p-25;  // subnormal halves: steps of 2^-24
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
  return std::ldexp(1.0, exponent - 1 - 11);
}

/// The error bound of the packed-half path (blur_half2.cu's out_row, and
/// chapter 14's for any radius) with the half weights @p half for the blur
/// whose exact weights are @p exact (offsets -R .. R, R = 2 .. 5: radius 1
/// in radius 2's layout). Inputs are bytes 0..255 held as the halves 1024 +
/// b; each step's result range follows from the one before (widened by the
/// errors so far), and its rounding is half a unit in the last place of the
/// largest magnitude.
inline ErrorBound half2_error_bound(const HalfTaps& half, const std::vector<double>& exact) {
  ErrorBound bound;
  const int radius = static_cast<int>(exact.size() / 2);
  bound.radius = radius;
  if (radius < 2 || radius > kMaxHalfRadius || exact.size() != static_cast<std::size_t>(2 * radius + 1))
    return bound;  // nothing proven
  double weight_sum = 0;
  bound.exact = true;
  for (int d = 0; d <= radius; ++d) {
    weight_sum += (d ? 2 : 1) * tap_at(half, d);
    bound.exact = bound.exact && is_half(tap_at(half, d));
  }
  const double k = half_bias(half, radius);
  bound.exact = bound.exact && is_half(k);

  // Vertical (out_row): each pair of rows d above and below is first added
  // as integers on the biased bit patterns, exactly (1024 + r + r' <= 1534 <
  // 2048, where a half counts in whole units); then t = w2 (1024 + r) - K,
  // and t += tap(d) (1024 + r + r') for d = 1 .. R.
  double lo = 1024.0 * half.w2 - k, hi = 1279.0 * half.w2 - k;  // t before its rounding
  for (int d = 0; d <= radius; ++d) {
    if (d > 0) {  // the first product is in lo, hi already
      lo += 1024.0 * tap_at(half, d);
      hi += 1534.0 * tap_at(half, d);
    }
    const double rounding = half_rounding(std::fmax(std::fabs(lo), std::fabs(hi)));
    lo -= rounding;  // the next step adds to a result this far off
    hi += rounding;
    bound.vertical[static_cast<std::size_t>(d)] = rounding * weight_sum;  // carried through the horizontal weights
  }

  // Horizontal: h = tap(R) x (the value R to the left), += tap(R) x (R to the
  // right), then R - 1, ..., the centre last, over the vertical sums' range
  // (0 .. 255, widened by their errors).
  const double v_lo = lo, v_hi = hi;
  lo = hi = 0;
  for (int step = 0; step < 2 * radius + 1; ++step) {
    const double w = tap_at(half, radius - step / 2);
    lo += w * v_lo;
    hi += w * v_hi;
    const double rounding = half_rounding(std::fmax(std::fabs(lo), std::fabs(hi)));
    lo -= rounding;
    hi += rounding;
    bound.horizontal[static_cast<std::size_t>(step)] = rounding;
  }

  // Quantisation: sum over the (2R + 1)^2 taps of (q_i q_j - t_i t_j) x b_ij,
  // largest where b is 255 on the taps that grew and 0 on those that shrank
  // (or the other way round).
  double grew = 0, shrank = 0;
  for (int i = -radius; i <= radius; ++i)
    for (int j = -radius; j <= radius; ++j) {
      const double d = tap_at(half, std::abs(i)) * tap_at(half, std::abs(j)) -
                       exact[static_cast<std::size_t>(i + radius)] * exact[static_cast<std::size_t>(j + radius)];
      (d > 0 ? grew : shrank) += std::fabs(d);
    }
  bound.quantisation = 255.0 * std::fmax(grew, shrank);

  bound.total = bound.quantisation;
  for (double term : bound.vertical) bound.total += term;
  for (double term : bound.horizontal) bound.total += term;
  return bound;
}

/// The same for a radius-2 blur's five exact weights.
inline ErrorBound half2_error_bound(const HalfTaps& half, const std::array<double, 5>& exact) {
  return half2_error_bound(half, std::vector<double>(exact.begin(), exact.end()));
}

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

/// The blur's exact weights at offsets -R .. R for the packed halves, R =
/// max(2, radius): radius 1's in radius 2's layout with outer taps 0 (five
/// taps then sum the same three pixels); nothing above kMaxHalfRadius.
inline std::optional<std::vector<double>> half_exact_weights(const gauss::BlurSpec& blur) {
  if (blur.radius < 1 || blur.radius > kMaxHalfRadius) return std::nullopt;
  std::vector<double> w = gauss::gaussian_weights(blur);
  if (blur.radius == 1) w = {0.0, w[0], w[1], w[2], 0.0};
  return w;
}

/// The same for the five-tap kernels of chapters 11-13: radius 1 and 2 only.
inline std::optional<std::array<double, 5>> radius2_weights(const gauss::BlurSpec& blur) {
  if (blur.radius > 2) return std::nullopt;
  const auto w = half_exact_weights(blur);
  if (!w) return std::nullopt;
  return std::array<double, 5>{(*w)[0], (*w)[1], (*w)[2], (*w)[3], (*w)[4]};
}

/// The float taps of a radius-1 or -2 blur in radius 2's layout (index k +
/// 2 for offset k), for the kernels whose five taps are fixed; larger radii
/// keep their own.
inline gauss::GaussTaps radius2_taps(const gauss::BlurSpec& blur, const gauss::GaussTaps& taps) {
  if (blur.radius != 1) return taps;
  gauss::GaussTaps padded{};
  for (int k = 0; k < 3; ++k) padded.w[k + 1] = taps.w[k];
  return padded;
}

/// The half weights for the exact weights @p exact (offsets -R .. R, R =
/// 2 .. kMaxHalfRadius): among the multiples of 1/4096 within 3 (radius 2)
/// or 2 (radius 3 - 5: 5^R candidates) of each tap off the centre, the
/// centre 1 minus twice their sum so that they sum to exactly 1, the exact
/// halves whose error bound is the smallest (a zero tap stays zero). For
/// sigma 1 this is kSigma1Taps.
inline HalfTaps choose_half_taps(const std::vector<double>& exact) {
  const int radius = static_cast<int>(exact.size() / 2);
  const long span = radius <= 2 ? 3 : 2;
  HalfTaps best{0, 0, 1};
  if (radius < 2 || radius > kMaxHalfRadius) return best;
  double best_total = -1;
  std::array<long, kMaxHalfRadius + 1> n{};  // n[d]: the tap at distance d in units of 1/4096
  // Tries every candidate for distances d .. R, the nearer ones fixed.
  auto search = [&](auto& self, int d) -> void {
    if (d > radius) {
      long centre = 4096;
      for (int e = 1; e <= radius; ++e) centre -= 2 * n[static_cast<std::size_t>(e)];
      if (centre < 0) return;
      HalfTaps taps{0, 0, centre / 4096.0};
      for (int e = 1; e <= radius; ++e) tap_at(taps, e) = n[static_cast<std::size_t>(e)] / 4096.0;
      const ErrorBound bound = half2_error_bound(taps, exact);
      if (bound.exact && (best_total < 0 || bound.total < best_total)) {
        best = taps;
        best_total = bound.total;
      }
      return;
    }
    const double tap = exact[static_cast<std::size_t>(radius + d)];
    const long rounded = std::lround(tap * 4096);
    const long first = tap == 0.0 ? 0 : std::max(0L, rounded - span), last = tap == 0.0 ? 0 : rounded + span;
    for (n[static_cast<std::size_t>(d)] = first; n[static_cast<std::size_t>(d)] <= last;
         ++n[static_cast<std::size_t>(d)])
      self(self, d + 1);
  };
  search(search, 1);
  return best;
}

/// The same for a radius-2 blur's five exact weights.
inline HalfTaps choose_half_taps(const std::array<double, 5>& exact) {
  return choose_half_taps(std::vector<double>(exact.begin(), exact.end()));
}

/// The far taps of a radius-3 to -5 blur, distances 3 .. 5 (zero beyond its
/// radius), paired as HalfWeights' are; chapter 14's kernel only.
struct FarHalfWeights {
  std::uint32_t w3, w4, w5;           // (R, G) pairs; gray: every pair
  std::uint32_t w3_ba, w4_ba, w5_ba;  // RGBA's (B, A) pairs: alpha's high halves 0
};

/// Everything chapter 14's kernel needs for one blur: the weights at
/// distance 0 .. 2 with the bias K of all of them, the far ones, and the
/// radius it sums (2 for radius 1).
struct WideHalfWeights {
  HalfWeights near;
  FarHalfWeights far;
  int radius;
};

/// The packed-half weights for @p blur, or nothing where the half path's
/// error bound is not proven: radius above kMaxHalfRadius, or a blur whose
/// chosen half weights' bound does not hold. Computed afresh (radius 2: a
/// search of 49 bounds, about 6 us; radius 5: 3,125, a few ms);
/// wide_half2_weights() keeps each blur's answer.
inline std::optional<WideHalfWeights> chosen_half2_weights(const gauss::BlurSpec& blur) {
  const auto exact = half_exact_weights(blur);
  if (!exact) return std::nullopt;
  const HalfTaps taps = choose_half_taps(*exact);
  const ErrorBound bound = half2_error_bound(taps, *exact);
  if (!bound.holds()) return std::nullopt;
  const double k = half_bias(taps, bound.radius);
  const double w0 = taps.w0, w1 = taps.w1, w2 = taps.w2, w3 = taps.far[0], w4 = taps.far[1], w5 = taps.far[2];
  const HalfWeights near{half_pair(w0, w0),  half_pair(w1, w1),  half_pair(w2, w2),  half_pair(-k, -k),
                         half_pair(w0, 0.0), half_pair(w1, 0.0), half_pair(w2, 1.0), half_pair(-k, -1024.0)};
  const FarHalfWeights far{half_pair(w3, w3),  half_pair(w4, w4),  half_pair(w5, w5),
                           half_pair(w3, 0.0), half_pair(w4, 0.0), half_pair(w5, 0.0)};
  return WideHalfWeights{near, far, bound.radius};
}

/// chosen_half2_weights(@p blur), searched once per blur: the CUDA launchers
/// ask at every launch, the OpenCL set-ups once per program.
inline std::optional<WideHalfWeights> wide_half2_weights(const gauss::BlurSpec& blur) {
  static std::mutex mutex;
  static std::map<std::pair<double, int>, std::optional<WideHalfWeights>> known;  // (sigma, radius) -> weights
  const std::lock_guard<std::mutex> lock(mutex);
  const std::pair<double, int> key{blur.sigma, blur.radius};
  const auto found = known.find(key);
  if (found != known.end()) return found->second;
  return known[key] = chosen_half2_weights(blur);
}

/// The packed-half weights of the five-tap kernels (chapters 11-13): the
/// radius-1 and -2 blurs whose bound holds, else nothing.
inline std::optional<HalfWeights> half2_weights(const gauss::BlurSpec& blur) {
  if (blur.radius > 2) return std::nullopt;
  const auto wide = wide_half2_weights(blur);
  if (!wide) return std::nullopt;
  return wide->near;
}

/// Shapes of the packed-half warp strips (launch_blur_half2, blur_half2.cl;
/// measured on the H200, see the README): bytes per lane (8 gray: half the
/// registers of 16, so twice the warps; 16 RGBA), output rows per warp, rows
/// loaded ahead, blocks per SM.
constexpr int half2_lane_bytes(int channels) { return channels == 4 ? 16 : 8; }
constexpr int half2_rows(int channels) { return channels == 4 ? 16 : 8; }
constexpr int half2_ahead(int /*channels*/) { return 4; }
constexpr int half2_min_blocks(int channels) { return channels == 4 ? 4 : 6; }

}  // namespace half2
