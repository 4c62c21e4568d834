#include "gauss/compare.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace gauss {
namespace {

// Accumulates one value pair; NaN-safe: any NaN, or an infinity where the
// other side differs, is infinitely far and always over the tolerance.
class Accumulator {
 public:
  Accumulator(Comparison& result, double peak) : result_(result), peak_(peak) {}

  void add(double got, double expected, int x, int y, int c) {
    ++result_.values;
    if (got == expected) return;  // also true for equal infinities; never for a NaN
    double diff = std::fabs(got - expected);
    if (std::isnan(diff) || std::isinf(diff)) diff = std::numeric_limits<double>::infinity();
    ++result_.differing;
    squared_error_ += diff * diff;
    if (diff > result_.max_abs_diff) result_.max_abs_diff = diff;
    if (!(diff <= result_.tolerance)) {
      ++result_.over_tolerance;
      if (result_.first.size() < kMaxListedDiffs) result_.first.push_back({x, y, c, got, expected});
    }
  }

  void finish() {
    if (result_.values == 0 || squared_error_ == 0.0) {
      result_.psnr_db = std::numeric_limits<double>::infinity();
      return;
    }
    const double mse = squared_error_ / static_cast<double>(result_.values);
    result_.psnr_db = 10.0 * std::log10(peak_ * peak_ / mse);  // mse = inf gives -inf
  }

 private:
  Comparison& result_;
  double peak_;
  double squared_error_ = 0.0;
};

}  // namespace

std::string Comparison::summary() const {
  if (!same_shape) return "output has a different size or format than the reference";
  char text[256];
  if (differing == 0) {
    std::snprintf(text, sizeof text, "identical (%zu values)", values);
  } else if (over_tolerance == 0) {
    std::snprintf(text, sizeof text, "max diff %g, %zu of %zu values differ (tolerance %g)", max_abs_diff, differing,
                  values, tolerance);
  } else {
    const ValueDiff& d = first.front();
    std::snprintf(text, sizeof text,
                  "max diff %g, %zu of %zu values over the tolerance %g; first at (%d, %d) channel %d: got %g, "
                  "expected %g",
                  max_abs_diff, over_tolerance, values, tolerance, d.x, d.y, d.channel, d.got, d.expected);
  }
  return text;
}

Comparison compare_images(const Image& got, const Image& expected, int tolerance) {
  Comparison result;
  result.tolerance = tolerance;
  if (got.width != expected.width || got.height != expected.height || got.channels != expected.channels ||
      got.pixels.size() != expected.pixels.size()) {
    result.same_shape = false;
    result.max_abs_diff = std::numeric_limits<double>::infinity();
    return result;
  }
  Accumulator acc(result, 255.0);
  for (int y = 0; y < got.height; ++y) {
    const std::uint8_t* g = got.row(y);
    const std::uint8_t* e = expected.row(y);
    for (int x = 0; x < got.width; ++x)
      for (int c = 0; c < got.channels; ++c) acc.add(g[x * got.channels + c], e[x * got.channels + c], x, y, c);
  }
  acc.finish();
  return result;
}

Comparison compare_floats(const float* got, const float* expected, int width, int height, int channels,
                          double tolerance, double peak) {
  Comparison result;
  result.tolerance = tolerance;
  Accumulator acc(result, peak);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < channels; ++c) {
        const std::size_t i = (static_cast<std::size_t>(y) * width + x) * channels + c;
        acc.add(got[i], expected[i], x, y, c);
      }
  acc.finish();
  return result;
}

}  // namespace gauss
