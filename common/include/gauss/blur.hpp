/// @file blur.hpp
/// @brief The one blur the whole tutorial computes: a Gaussian with clamp-to-edge borders.
///
/// out(x, y) = floor( sum_{i,j = -r..r} w_i * w_j * in(clamp(x + j), clamp(y + i)) + 0.5 )
///
/// with w_k = exp(-k^2 / (2 sigma^2)) / sum_{j=-r..r} exp(-j^2 / (2 sigma^2)).
/// The output is centred on the input pixel, rows and columns outside the image
/// read the nearest edge pixel (clamp-to-edge), and the sum is rounded half up
/// to 8 bits. GPU kernels accumulate in float; the CPU reference in double.
#pragma once

#include <string>
#include <vector>

namespace gauss {

/// The largest radius any kernel in the tutorial accepts (33 taps).
inline constexpr int kMaxRadius = 16;
/// Length of the weight arrays handed to kernels.
inline constexpr int kMaxTaps = 2 * kMaxRadius + 1;

/// The blur: a Gaussian of standard deviation @c sigma, truncated at @c radius.
/// The defaults (sigma 1, radius 2: a 5x5 mask) are the Fixstars seminar's.
struct BlurSpec {
  double sigma = 1.0;  ///< standard deviation in pixels
  int radius = 2;      ///< the mask is (2 radius + 1) pixels wide and high

  /// Number of taps in one dimension.
  int taps() const { return 2 * radius + 1; }
};

/// Throws InputError unless 0 < sigma <= 100 and 1 <= radius <= kMaxRadius.
void validate(const BlurSpec& spec);

/// The 2r+1 normalised 1-D weights in double, w[0] for offset -r.
/// They sum to 1 and are symmetric; with sigma 1 and radius 2 they are
/// 0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685.
std::vector<double> gaussian_weights(const BlurSpec& spec);

/// The 1-D weights as every kernel receives them: float, offset k at index
/// k + radius, unused entries zero. The layout is shared with the OpenCL
/// and CUDA kernels, which take this struct by value.
struct GaussTaps {
  float w[kMaxTaps];
};

/// gaussian_weights() rounded to float, in the kernels' layout.
GaussTaps gaussian_taps(const BlurSpec& spec);

/// "Gaussian sigma 1, radius 2 (5x5)".
std::string describe(const BlurSpec& spec);

}  // namespace gauss
