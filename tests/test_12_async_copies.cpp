// Chapter 12: the packed-half strips with their rows ahead brought into
// shared (local) memory, and the same with the stack frame, against the
// golden photos, the images where half-precision sums could wrap (black,
// white, 0/255 patterns), and the awkward sizes at radius 1 to 3 (radius 2
// with sigma 1 is the packed-half path; 1 and 3 fall back to chapter 10's
// float kernel). The lanes at an image's edge gather their bytes and store
// them into their slot by hand, so ragged sizes and the clamped top and
// bottom rows are the cases to check.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <utility>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "support.hpp"

namespace chapter12 {
gauss::Chapter make_chapter();  // chapters/12_async_copies/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter12::make_chapter();
  return instance;
}

// Images that push the packed-half sums to their ends: black, white (sums at
// 255, where a rounding up would wrap to 0), a 0/255 checkerboard and 0/255
// stripes (the largest sums next to the smallest), and random bytes. Sizes
// whose rows are 8-byte aligned and wider than several warp strips, so the
// interior blocks (no byte paths) run beside the edge blocks, plus ragged ones.
std::vector<gauss::Image> extreme_images(gauss::PixelFormat format) {
  std::vector<gauss::Image> images;
  for (const auto& [width, height] :
       {std::pair{1024, 40}, std::pair{1000, 37}, std::pair{961, 5}, std::pair{488, 19}}) {
    images.push_back(gauss::Image::make(width, height, format, 0));
    images.push_back(gauss::Image::make(width, height, format, 255));
    gauss::Image checker = gauss::Image::make(width, height, format);
    gauss::Image stripes = gauss::Image::make(width, height, format);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < checker.channels; ++c) {
          checker.at(x, y, c) = (x + y) % 2 ? 255 : 0;
          stripes.at(x, y, c) = (x / 2) % 2 ? 255 : 0;
        }
    images.push_back(checker);
    images.push_back(stripes);
    images.push_back(gauss::test::random_image(width, height, format));
  }
  return images;
}

void check_extremes(const std::string& variant, Api api) {
  const gauss::Variant* v = chapter().find(variant, api);
  REQUIRE(v != nullptr);
  const BlurSpec blur{1.0, 2};  // the blur the packed-half path serves
  for (const gauss::Image& input : extreme_images(chapter().format_of(*v))) {
    const gauss::Image reference = chapter().reference_for(*v, input, blur);
    const gauss::VariantResult result = gauss::test::run_once(chapter(), variant, api, input, blur, reference);
    INFO(variant << " on a " << input.width << "x" << input.height << " image starting with " << int{input.pixels[0]}
                 << ", " << int{input.pixels[1]} << ": "
                 << (result.error.empty() ? result.comparison.summary() : result.error));
    CHECK(result.error.empty());
    CHECK(result.comparison.matches());
  }
}

// Each variant in one API: the extremes, the goldens, and the awkward sizes
// at the packed-half radius and the float fallback's on each side.
void check_variants(Api api, std::initializer_list<const char*> variants) {
  for (const char* variant : variants) {
    check_extremes(variant, api);
    gauss::test::check_on_goldens(chapter(), variant, api);
    gauss::test::check_on_awkward_sizes(chapter(), variant, api, {{0.8, 1}, {1.0, 2}, {1.2, 3}});
  }
}

}  // namespace

TEST_CASE("12_async_copies: OpenCL main and main_rgba on extremes, goldens and awkward sizes", "[ch12][opencl]") {
  check_variants(Api::OpenCL, {"main", "main_rgba"});
}

TEST_CASE("12_async_copies: CUDA main and main_rgba on extremes, goldens and awkward sizes", "[ch12][.][cuda]") {
  check_variants(Api::Cuda, {"main", "main_rgba"});
}

// The stack frame changes where the packed words wait, not what they are:
// the same checks.
TEST_CASE("12_async_copies: OpenCL stack_frame on extremes, goldens and awkward sizes", "[ch12][opencl]") {
  check_variants(Api::OpenCL, {"stack_frame"});
}

TEST_CASE("12_async_copies: CUDA stack_frame on extremes, goldens and awkward sizes", "[ch12][.][cuda]") {
  check_variants(Api::Cuda, {"stack_frame"});
}

TEST_CASE("12_async_copies: the main line's step is marked", "[ch12]") {
  gauss::test::check_main_line(chapter(), "main");
  gauss::test::check_main_line(chapter(), "main_rgba", false);
}
