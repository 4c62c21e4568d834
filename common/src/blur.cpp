#include "gauss/blur.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "gauss/error.hpp"

namespace gauss {

namespace {

// A number as the user typed it: -1, 0.5, 1e+03 (std::to_string would say -1.000000).
std::string shortest(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

void validate(const BlurSpec& spec) {
  if (!(spec.sigma > 0.0 && spec.sigma <= 100.0)) {  // also rejects NaN
    throw InputError("--sigma must be greater than 0 and at most 100 (got " + shortest(spec.sigma) + ")");
  }
  if (spec.radius < 1 || spec.radius > kMaxRadius) {
    throw InputError("--radius must be between 1 and " + std::to_string(kMaxRadius) + " (got " +
                     std::to_string(spec.radius) + ")");
  }
}

std::vector<double> gaussian_weights(const BlurSpec& spec) {
  validate(spec);
  std::vector<double> weights(static_cast<std::size_t>(spec.taps()));
  double sum = 0.0;
  for (int k = -spec.radius; k <= spec.radius; ++k) {
    const double w = std::exp(-(k * k) / (2.0 * spec.sigma * spec.sigma));
    weights[static_cast<std::size_t>(k + spec.radius)] = w;
    sum += w;
  }
  for (double& w : weights) w /= sum;
  return weights;
}

GaussTaps gaussian_taps(const BlurSpec& spec) {
  GaussTaps taps{};  // unused entries stay 0
  const std::vector<double> weights = gaussian_weights(spec);
  for (std::size_t i = 0; i < weights.size(); ++i) taps.w[i] = static_cast<float>(weights[i]);
  return taps;
}

std::string describe(const BlurSpec& spec) {
  char text[96];
  std::snprintf(text, sizeof text, "Gaussian sigma %g, radius %d (%dx%d)", spec.sigma, spec.radius, spec.taps(),
                spec.taps());
  return text;
}

}  // namespace gauss
