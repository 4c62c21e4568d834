// Chapter 12: the packed-half strips with their rows ahead brought into
// shared (local) memory, and the same with the stack frame, against the
// golden photos, the images where half-precision sums could wrap (black,
// white, 0/255 patterns), and the awkward sizes at radius 1 to 3 (radius 1
// and 2 are the packed-half path, each with its own half weights; 3 falls
// back to chapter 10's float kernel). The lanes at an image's edge gather their bytes and store
// them into their slot by hand, so ragged sizes and the clamped top and
// bottom rows are the cases to check.
#include <catch2/catch.hpp>

#include <initializer_list>
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

// The extreme images (chapter_checks.hpp) at sizes whose rows are 8-byte
// aligned and wider than several warp strips, so the interior blocks (no
// byte paths) run beside the edge blocks, plus ragged ones.
const std::vector<gauss::test::Extent> kExtremeSizes{{1024, 40}, {1000, 37}, {961, 5}, {488, 19}};

void check_extremes(const std::string& variant, Api api) {
  gauss::test::check_on_extreme_images(chapter(), variant, api, kExtremeSizes);
}

// Each variant in one API: the extremes, the goldens, and the awkward sizes
// at the packed-half radii and the float fallback's above them.
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
