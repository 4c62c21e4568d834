/// @file goldens.hpp
/// @brief The golden outputs: which photos, formats and blurs are stored in
///        images/golden/, and where.
#pragma once

#include <string>
#include <vector>

#include "gauss/blur.hpp"
#include "gauss/image.hpp"

namespace gauss {

/// One stored golden image: a photo blurred by the CPU reference.
struct GoldenCase {
  std::string photo;   ///< file name in images/, e.g. "chelsea.png"
  PixelFormat format;  ///< the photo is converted to this before blurring
  BlurSpec blur;

  /// "chelsea_gray_s1_r2": the photo's stem, the format, sigma and radius.
  std::string name() const;
  /// images_dir + "/golden/" + name() + ".png".
  std::string golden_path(const std::string& images_dir) const;
  /// images_dir + "/" + photo.
  std::string photo_path(const std::string& images_dir) const;
};

/// Every stored case: the four photos, gray, RGB and RGBA, at the default blur
/// (sigma 1, radius 2) and at a larger one (sigma 3, radius 9).
std::vector<GoldenCase> golden_cases();

/// The radii beyond those two, for the kernels that take any radius (chapter
/// 15): one photo of odd width (chelsea, 451 x 300), gray and RGBA, at radius
/// 1 (sigma 0.5), 5 (sigma 2) and 16 (sigma 5).
std::vector<GoldenCase> radius_golden_cases();

}  // namespace gauss
