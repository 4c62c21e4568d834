// Chapter 10: the fused kernels against the golden photos (gray and RGBA)
// and, on awkward sizes, against the CPU reference for radii 1 to 16: each
// radius range takes a different code path (16, 8 or 4 pixels per lane, the
// tile kernel), so each is checked.
#include <catch2/catch.hpp>

#include <initializer_list>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "support.hpp"

namespace chapter10 {
gauss::Chapter make_chapter();  // chapters/10_capstone/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter10::make_chapter();
  return instance;
}

// Radii at each code path's ends: the strip kernels (1, 2), the narrower
// strips (3, 4), the widest gray strips and the tile kernel (5, 9, 16).
const std::vector<BlurSpec> kBlurs{{0.8, 1}, {1.0, 2}, {1.2, 3}, {1.5, 4}, {2.0, 5}, {3.0, 9}, {5.0, 16}};

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

// Packed-half variants (gray and RGBA) in one API: the extremes, the goldens,
// and awkward sizes at the radii of the packed-half path and one float radius
// (the fallback).
void check_packed_half_variants(Api api, std::initializer_list<const char*> variants) {
  for (const char* variant : variants) {
    check_extremes(variant, api);
    gauss::test::check_on_goldens(chapter(), variant, api);
    gauss::test::check_on_awkward_sizes(chapter(), variant, api, {{0.8, 1}, {1.0, 2}, {1.2, 3}});
  }
}

}  // namespace

TEST_CASE("10_capstone: OpenCL packed halves on black, white, checkerboards and stripes", "[ch10][opencl]") {
  check_extremes("fused", Api::OpenCL);
  check_extremes("fused_rgba", Api::OpenCL);
}

TEST_CASE("10_capstone: CUDA packed halves on black, white, checkerboards and stripes", "[ch10][.][cuda]") {
  check_extremes("fused", Api::Cuda);
  check_extremes("fused_rgba", Api::Cuda);
}

TEST_CASE("10_capstone: OpenCL fused_f32 matches the goldens and awkward sizes", "[ch10][opencl]") {
  gauss::test::check_on_goldens(chapter(), "fused_f32", Api::OpenCL);
  gauss::test::check_on_goldens(chapter(), "fused_rgba_f32", Api::OpenCL);
  gauss::test::check_on_awkward_sizes(chapter(), "fused_f32", Api::OpenCL, {{0.8, 1}, {1.0, 2}});
  gauss::test::check_on_awkward_sizes(chapter(), "fused_rgba_f32", Api::OpenCL, {{0.8, 1}, {1.0, 2}});
}

TEST_CASE("10_capstone: CUDA fused_f32 matches the goldens and awkward sizes", "[ch10][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "fused_f32", Api::Cuda);
  gauss::test::check_on_goldens(chapter(), "fused_rgba_f32", Api::Cuda);
  gauss::test::check_on_awkward_sizes(chapter(), "fused_f32", Api::Cuda, {{0.8, 1}, {1.0, 2}});
  gauss::test::check_on_awkward_sizes(chapter(), "fused_rgba_f32", Api::Cuda, {{0.8, 1}, {1.0, 2}});
}

TEST_CASE("10_capstone: OpenCL fused matches the goldens, gray and RGBA", "[ch10][opencl]") {
  gauss::test::check_on_goldens(chapter(), "fused", Api::OpenCL);
  gauss::test::check_on_goldens(chapter(), "fused_rgba", Api::OpenCL);
}

TEST_CASE("10_capstone: OpenCL fused on awkward sizes, radii 1 to 16", "[ch10][opencl]") {
  gauss::test::check_on_awkward_sizes(chapter(), "fused", Api::OpenCL, kBlurs);
  gauss::test::check_on_awkward_sizes(chapter(), "fused_rgba", Api::OpenCL, kBlurs);
}

TEST_CASE("10_capstone: CUDA fused matches the goldens, gray and RGBA", "[ch10][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "fused", Api::Cuda);
  gauss::test::check_on_goldens(chapter(), "fused_rgba", Api::Cuda);
}

TEST_CASE("10_capstone: CUDA fused on awkward sizes, radii 1 to 16", "[ch10][.][cuda]") {
  gauss::test::check_on_awkward_sizes(chapter(), "fused", Api::Cuda, kBlurs);
  gauss::test::check_on_awkward_sizes(chapter(), "fused_rgba", Api::Cuda, kBlurs);
}

// The cp.async candidates: the same packed-half arithmetic with the rows
// ahead in shared memory; edge lanes store their bytes there by hand, so the
// ragged sizes and the top and bottom rows (clamped) are the cases to check.
TEST_CASE("10_capstone: OpenCL cp.async candidates on extremes, goldens and awkward sizes", "[ch10][opencl]") {
  check_packed_half_variants(Api::OpenCL, {"fused_async", "fused_rgba_async"});
}

TEST_CASE("10_capstone: CUDA cp.async candidates on extremes, goldens and awkward sizes", "[ch10][.][cuda]") {
  check_packed_half_variants(Api::Cuda, {"fused_async", "fused_rgba_async"});
}

// The warp strips (the step before the block tiles): rows ahead in
// registers, edge lanes byte by byte; the same checks as the cp.async ones.
TEST_CASE("10_capstone: OpenCL warp strips on extremes, goldens and awkward sizes", "[ch10][opencl]") {
  check_packed_half_variants(Api::OpenCL, {"fused_strip", "fused_rgba_strip"});
}

TEST_CASE("10_capstone: CUDA warp strips on extremes, goldens and awkward sizes", "[ch10][.][cuda]") {
  check_packed_half_variants(Api::Cuda, {"fused_strip", "fused_rgba_strip"});
}

TEST_CASE("10_capstone: the main line's step is marked", "[ch10]") {
  gauss::test::check_main_line(chapter(), "fused", false);
  gauss::test::check_main_line(chapter(), "fused_rgba", false);
}

// Apple's two roofs: the multiply-add kernel's output equals the same chains
// on the host (the row says "ok"), the table and the verdict on every one of
// Apple's algorithms are printed, and the run succeeds (PoCL here; the GPU
// session runs it on CUDA too).
TEST_CASE("10_capstone: section roofs measures both roofs and checks the multiply-add kernel", "[ch10][opencl]") {
  std::string printed;
  const int status = gauss::test::run_captured(
      chapter(), {"10_capstone", "--api", "opencl", "--variant", "roofs", "--size", "64x48", "--repeat", "2"}, printed);
  INFO(printed);
  CHECK(status == 0);
  CHECK(printed.find("G multiply-adds/s") != std::string::npos);
  CHECK(printed.find("WRONG") == std::string::npos);
  CHECK(printed.find("separable convolution") != std::string::npos);
  CHECK(printed.find(" ok") != std::string::npos);
}
