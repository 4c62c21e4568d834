#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "gauss/compare.hpp"
#include "support.hpp"

using gauss::Image;
using gauss::PixelFormat;

TEST_CASE("identical images match with infinite PSNR", "[compare]") {
  const Image a = gauss::test::random_image(31, 9, PixelFormat::Rgba);
  const gauss::Comparison c = gauss::compare_images(a, a, 0);
  CHECK(c.matches());
  CHECK(c.differing == 0);
  CHECK(c.values == 31u * 9u * 4u);
  CHECK(std::isinf(c.psnr_db));
  CHECK(c.summary().find("identical") != std::string::npos);
}

TEST_CASE("differences are counted, located and held to the tolerance", "[compare]") {
  const Image expected = gauss::test::random_image(20, 10, PixelFormat::Gray);
  Image got = expected;
  got.at(3, 7) = static_cast<std::uint8_t>(expected.at(3, 7) ^ 2);                                  // 2 levels off
  got.at(5, 8) = static_cast<std::uint8_t>(expected.at(5, 8) < 255 ? expected.at(5, 8) + 1 : 254);  // 1 level off

  const gauss::Comparison tolerant = gauss::compare_images(got, expected, 2);
  CHECK(tolerant.matches());
  CHECK(tolerant.differing == 2);
  CHECK(tolerant.max_abs_diff == 2);

  const gauss::Comparison strict = gauss::compare_images(got, expected, 1);
  CHECK_FALSE(strict.matches());
  CHECK(strict.over_tolerance == 1);
  REQUIRE(strict.first.size() == 1);
  CHECK(strict.first[0].x == 3);
  CHECK(strict.first[0].y == 7);
  CHECK(std::isfinite(strict.psnr_db));
  CHECK(strict.summary().find("(3, 7)") != std::string::npos);
}

TEST_CASE("images of different shapes never match", "[compare]") {
  const Image a = Image::make(4, 4, PixelFormat::Gray);
  CHECK_FALSE(gauss::compare_images(a, Image::make(4, 5, PixelFormat::Gray), 255).matches());
  CHECK_FALSE(gauss::compare_images(a, Image::make(4, 4, PixelFormat::Rgba), 255).matches());
}

TEST_CASE("float comparison is NaN-safe", "[compare]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> expected{1, 2, 3, 4};
  for (float bad : {nan, inf, -inf}) {
    std::vector<float> got = expected;
    got[2] = bad;
    const gauss::Comparison c = gauss::compare_floats(got.data(), expected.data(), 2, 2, 1, 1e30);
    INFO(bad);
    CHECK_FALSE(c.matches());  // however loose the tolerance
    CHECK(std::isinf(c.max_abs_diff));
    CHECK(c.first.at(0).x == 0);
    CHECK(c.first.at(0).y == 1);
  }
  std::vector<float> both_nan = expected;
  both_nan[0] = nan;
  CHECK_FALSE(gauss::compare_floats(both_nan.data(), both_nan.data(), 4, 1, 1, 0).matches());
  std::vector<float> close = expected;
  close[3] += 1e-4f;
  CHECK(gauss::compare_floats(close.data(), expected.data(), 4, 1, 1, 1e-3).matches());
}
