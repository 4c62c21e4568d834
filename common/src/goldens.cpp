#include "gauss/goldens.hpp"

#include <cstdio>

namespace gauss {

std::string GoldenCase::name() const {
  const std::string stem = photo.substr(0, photo.rfind('.'));
  char blur_part[64];
  std::snprintf(blur_part, sizeof blur_part, "_s%g_r%d", blur.sigma, blur.radius);
  const char* format_part = format == PixelFormat::Gray ? "_gray" : format == PixelFormat::Rgb ? "_rgb" : "_rgba";
  return stem + format_part + blur_part;
}

std::string GoldenCase::golden_path(const std::string& images_dir) const {
  return images_dir + "/golden/" + name() + ".png";
}

std::string GoldenCase::photo_path(const std::string& images_dir) const { return images_dir + "/" + photo; }

std::vector<GoldenCase> golden_cases() {
  std::vector<GoldenCase> cases;
  for (const char* photo : {"astronaut.png", "camera.png", "chelsea.png", "coffee.png"})
    for (PixelFormat format : {PixelFormat::Gray, PixelFormat::Rgb, PixelFormat::Rgba})
      for (BlurSpec blur : {BlurSpec{1.0, 2}, BlurSpec{3.0, 9}}) cases.push_back({photo, format, blur});
  return cases;
}

std::vector<GoldenCase> radius_golden_cases() {
  std::vector<GoldenCase> cases;
  for (PixelFormat format : {PixelFormat::Gray, PixelFormat::Rgba})
    for (BlurSpec blur : {BlurSpec{0.5, 1}, BlurSpec{2.0, 5}, BlurSpec{5.0, 16}})
      cases.push_back({"chelsea.png", format, blur});
  return cases;
}

}  // namespace gauss
