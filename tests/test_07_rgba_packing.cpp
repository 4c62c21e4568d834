// Chapter 07: every colour variant against the RGB or RGBA golden photos and,
// on awkward sizes, against the CPU reference (poisoned output buffers);
// alpha carried through exactly (random alpha, not 255); the seminar's
// alpha = 0 caught; the 16-byte path of rgba32_x4 on widths that allow it;
// rgba32_prmt's byte-permute unpack at radii 1 to 16; the planar stages end
// to end.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/goldens.hpp"
#include "gauss/reference.hpp"
#include "support.hpp"

namespace chapter07 {
gauss::Chapter make_chapter();  // chapters/07_rgba_packing/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;
using gauss::PixelFormat;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter07::make_chapter();
  return instance;
}

// The chapter's format is RGBA; rgb24 and planar read and write RGB. The
// shared checks use the chapter's format, so these take the variant's.
PixelFormat format_of(const std::string& name, Api api) {
  const gauss::Variant* variant = chapter().find(name, api);
  REQUIRE(variant != nullptr);
  return chapter().format_of(*variant);
}

// Every golden of the variant's format; with @p default_blur_only, the
// sigma 1, radius 2 ones alone.
void check_goldens(const std::string& name, Api api, bool default_blur_only) {
  const PixelFormat format = format_of(name, api);
  int checked = 0;
  for (const gauss::GoldenCase& c : gauss::golden_cases()) {
    if (c.format != format || (default_blur_only && c.blur.radius != 2)) continue;
    const std::string images = gauss::test::images_dir();
    const gauss::Image input = gauss::load_image(c.photo_path(images), format);
    const gauss::Image golden = gauss::load_image(c.golden_path(images), format);
    const gauss::VariantResult result = gauss::test::run_once(chapter(), name, api, input, c.blur, golden);
    INFO(name << " (" << gauss::name_of(api) << ") on " << c.name() << ": "
              << (result.error.empty() ? result.comparison.summary() : result.error));
    CHECK(result.error.empty());
    CHECK(result.comparison.matches());
    ++checked;
  }
  REQUIRE(checked > 0);
}

// Random bytes in every channel, alpha included: the channels must stay
// apart and alpha must come through unchanged.
void check_sizes(const std::string& name, Api api, const std::vector<gauss::ImageSize>& sizes,
                 const std::vector<BlurSpec>& blurs) {
  const PixelFormat format = format_of(name, api);
  for (const BlurSpec& blur : blurs) {
    for (const gauss::ImageSize size : sizes) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, format);
      const gauss::Image reference = gauss::blur_reference(input, blur);
      const gauss::VariantResult result = gauss::test::run_once(chapter(), name, api, input, blur, reference);
      INFO(name << " (" << gauss::name_of(api) << ") at " << gauss::to_string(size) << ", " << gauss::describe(blur)
                << ", seed " << gauss::test::kSeed << ": "
                << (result.error.empty() ? result.comparison.summary() : result.error));
      REQUIRE(result.error.empty());
      CHECK(result.comparison.matches());
      if (format != PixelFormat::Rgba) continue;
      int alpha_changed = 0;  // alpha is copied, not blurred: exact
      for (int y = 0; y < size.height; ++y)
        for (int x = 0; x < size.width; ++x) alpha_changed += result.output.at(x, y, 3) != input.at(x, y, 3);
      CHECK(alpha_changed == 0);
    }
  }
}

// Widths that are multiples of 4 (16-byte rows), where rgba32_x4 loads
// 16-byte vectors, with edges, partial groups and odd heights.
const std::vector<gauss::ImageSize> kVectorSizes{{132, 37}, {36, 5}, {4, 3}, {520, 9}};

void check_variant(const std::string& name, Api api) {
  // planar is chapter 01's gray kernel three times: its radius 9 is tested there.
  check_goldens(name, api, name == "planar");
  check_sizes(name, api, gauss::test::awkward_sizes(), {{1.0, 2}, {2.0, 5}});
  // The main line: R = 1 to 4 stage 64 tile rows, 5 to 16 stage 32; the
  // awkward sizes give partial tiles in both directions and a 1-pixel image.
  if (name == "main") check_sizes(name, api, gauss::test::awkward_sizes(), {{0.5, 1}, {3.0, 9}, {5.0, 16}});
  if (name == "rgba32_x4") check_sizes(name, api, kVectorSizes, {{0.5, 1}, {1.0, 2}, {2.0, 5}, {3.0, 9}, {5.0, 16}});
  // rgba32 with the byte-permute unpack (and, in CUDA, rounding by adding 2^23
  // rounded down, unsaturated): every radius its templates cover at the ends.
  if (name == "rgba32_prmt") check_sizes(name, api, gauss::test::awkward_sizes(), {{0.5, 1}, {3.0, 9}, {5.0, 16}});
}

void check_alpha_zero(Api api) {
  const gauss::Image input = gauss::test::random_image(45, 17, PixelFormat::Rgba);
  const BlurSpec blur{1.0, 2};
  const gauss::Image reference = gauss::blur_reference(input, blur);
  const gauss::VariantResult result = gauss::test::run_once(chapter(), "alpha_zero", api, input, blur, reference);
  REQUIRE(result.error.empty());
  CHECK_FALSE(result.comparison.matches());
  int nonzero_alpha = 0, wrong_colour = 0;
  for (int y = 0; y < input.height; ++y) {
    for (int x = 0; x < input.width; ++x) {
      nonzero_alpha += result.output.at(x, y, 3) != 0;
      for (int c = 0; c < 3; ++c) wrong_colour += std::abs(result.output.at(x, y, c) - reference.at(x, y, c)) > 1;
    }
  }
  CHECK(nonzero_alpha == 0);  // the bug, exactly: alpha 0 ...
  CHECK(wrong_colour == 0);   // ... and nothing else wrong
}

int run_program(std::vector<const char*> args) {
  args.insert(args.begin(), "07_rgba_packing");
  return chapter().run(static_cast<int>(args.size()), args.data());
}

const std::vector<std::string> kVariants{"main", "rgb24", "planar", "rgba32", "rgba32_prmt", "rgba32_x4"};

}  // namespace

TEST_CASE("07_rgba_packing: OpenCL variants match the goldens and the awkward sizes", "[ch07][opencl]") {
  for (const std::string& name : kVariants) {
    SECTION(name) { check_variant(name, Api::OpenCL); }
  }
}

TEST_CASE("07_rgba_packing: OpenCL alpha_zero writes alpha 0 and nothing else wrong", "[ch07][opencl]") {
  check_alpha_zero(Api::OpenCL);
}

TEST_CASE("07_rgba_packing: the planar stages run and check their output (OpenCL)", "[ch07][opencl]") {
  CHECK(run_program({"--api", "opencl", "--variant", "planar_split", "--size", "37x23", "--repeat", "1", "--warmup",
                     "0"}) == 0);
}

TEST_CASE("07_rgba_packing: CUDA variants match the goldens and the awkward sizes", "[ch07][.][cuda]") {
  for (const std::string& name : kVariants) {
    SECTION(name) { check_variant(name, Api::Cuda); }
  }
}

TEST_CASE("07_rgba_packing: CUDA alpha_zero writes alpha 0 and nothing else wrong", "[ch07][.][cuda]") {
  check_alpha_zero(Api::Cuda);
}

TEST_CASE("07_rgba_packing: the planar stages run and check their output (CUDA)", "[ch07][.][cuda]") {
  CHECK(run_program(
            {"--api", "cuda", "--variant", "planar_split", "--size", "37x23", "--repeat", "1", "--warmup", "0"}) == 0);
}

TEST_CASE("07_rgba_packing: the main line's step is marked and listed first", "[ch07]") {
  gauss::test::check_main_line(chapter(), "main");
}
