#include <catch2/catch.hpp>

#include "gauss/goldens.hpp"
#include "gauss/reference.hpp"
#include "support.hpp"

using gauss::BlurSpec;
using gauss::Image;
using gauss::PixelFormat;
using gauss::ReferenceMethod;

TEST_CASE("a 1x1 image is its own blur: every tap reads the one pixel", "[reference]") {
  for (int value = 0; value < 256; ++value) {
    const Image one = Image::make(1, 1, PixelFormat::Gray, static_cast<std::uint8_t>(value));
    for (int radius : {1, 2, 16}) REQUIRE(gauss::blur_reference(one, {1.5, radius}).at(0, 0) == value);
  }
}

TEST_CASE("a flat image stays flat, borders included", "[reference]") {
  for (int value : {0, 1, 127, 128, 254, 255}) {
    const Image flat = Image::make(19, 7, PixelFormat::Gray, static_cast<std::uint8_t>(value));
    const Image out = gauss::blur_reference(flat, {2.0, 5});
    for (std::uint8_t v : out.pixels) REQUIRE(v == value);
  }
}

TEST_CASE("an impulse gives the rounded 2-D weights (checked by hand)", "[reference]") {
  // 100 at the centre of a black 9x9 image; sigma 1, radius 2. With the 1-D
  // weights 0.0545, 0.2442, 0.4026: 100 * 0.4026^2 = 16.2 -> 16,
  // 100 * 0.4026 * 0.2442 = 9.83 -> 10, 100 * 0.4026 * 0.0545 = 2.19 -> 2,
  // 100 * 0.2442^2 = 5.96 -> 6, 100 * 0.2442 * 0.0545 = 1.33 -> 1,
  // 100 * 0.0545^2 = 0.30 -> 0.
  Image impulse = Image::make(9, 9, PixelFormat::Gray, 0);
  impulse.at(4, 4) = 100;
  const Image out = gauss::blur_reference(impulse, {1.0, 2});
  const int expected[5][5] = {{0, 1, 2, 1, 0}, {1, 6, 10, 6, 1}, {2, 10, 16, 10, 2}, {1, 6, 10, 6, 1}, {0, 1, 2, 1, 0}};
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) {
      const bool inside = x >= 2 && x <= 6 && y >= 2 && y <= 6;
      INFO("(" << x << ", " << y << ")");
      CHECK(out.at(x, y) == (inside ? expected[y - 2][x - 2] : 0));
    }
}

TEST_CASE("clamp-to-edge: a ramp's first pixels (checked by hand)", "[reference]") {
  // One row 0, 10, 20, ... With clamping, x = 0 reads 0, 0, 0, 10, 20:
  // 10 * 0.2442 + 20 * 0.0545 = 3.53 -> 4. x = 1 reads 0, 0, 10, 20, 30:
  // 10 * 0.4026 + 20 * 0.2442 + 30 * 0.0545 = 10.55 -> 11. In the middle the
  // ramp is unchanged: the weights are symmetric.
  Image ramp = Image::make(12, 1, PixelFormat::Gray);
  for (int x = 0; x < 12; ++x) ramp.at(x, 0) = static_cast<std::uint8_t>(10 * x);
  const Image out = gauss::blur_reference(ramp, {1.0, 2});
  CHECK(out.at(0, 0) == 4);
  CHECK(out.at(1, 0) == 11);
  for (int x = 2; x < 10; ++x) CHECK(out.at(x, 0) == 10 * x);
  CHECK(out.at(10, 0) == 99);   // reads 80, 90, 100, 110, 110: 99.45
  CHECK(out.at(11, 0) == 106);  // reads 90, 100, 110, 110, 110: 106.47
}

TEST_CASE("every method and thread count gives the same bytes", "[reference]") {
  for (PixelFormat format : {PixelFormat::Gray, PixelFormat::Rgb, PixelFormat::Rgba})
    for (const BlurSpec blur : {BlurSpec{1.0, 2}, BlurSpec{3.0, 9}, BlurSpec{0.7, 1}}) {
      const Image input = gauss::test::random_image(131, 67, format);
      const Image direct1 = gauss::blur_reference(input, blur, ReferenceMethod::Direct2D, 1);
      INFO(gauss::name_of(format) << ", " << gauss::describe(blur));
      CHECK(gauss::blur_reference(input, blur, ReferenceMethod::Direct2D, 3).pixels == direct1.pixels);
      CHECK(gauss::blur_reference(input, blur, ReferenceMethod::Separable, 1).pixels == direct1.pixels);
      CHECK(gauss::blur_reference(input, blur, ReferenceMethod::Separable, 0).pixels == direct1.pixels);
    }
  // And on a real photo, where smooth areas put many sums near a half level.
  const Image photo = gauss::load_image(gauss::test::images_dir() + "/coffee.png", PixelFormat::Rgba);
  CHECK(gauss::blur_reference(photo, {1.0, 2}, ReferenceMethod::Separable).pixels ==
        gauss::blur_reference(photo, {1.0, 2}, ReferenceMethod::Direct2D).pixels);
}

TEST_CASE("RGBA: channels are independent and alpha is carried through", "[reference]") {
  Image input = gauss::test::random_image(23, 17, PixelFormat::Rgba);
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x) input.at(x, y, 1) = input.at(x, y, 2) = 0;  // only R and A vary
  const Image out = gauss::blur_reference(input, {1.0, 2});
  Image red_only = Image::make(23, 17, PixelFormat::Gray);
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x) red_only.at(x, y) = input.at(x, y, 0);
  const Image red_blurred = gauss::blur_reference(red_only, {1.0, 2});
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x) {
      REQUIRE(out.at(x, y, 0) == red_blurred.at(x, y));
      REQUIRE(out.at(x, y, 1) == 0);
      REQUIRE(out.at(x, y, 2) == 0);
      REQUIRE(out.at(x, y, 3) == input.at(x, y, 3));
    }
}

TEST_CASE("the CPU reference still reproduces every golden image exactly", "[reference][golden]") {
  const std::string images = gauss::test::images_dir();
  auto cases = gauss::golden_cases();
  REQUIRE(cases.size() == 24);
  const auto radius_cases = gauss::radius_golden_cases();
  REQUIRE(radius_cases.size() == 6);
  cases.insert(cases.end(), radius_cases.begin(), radius_cases.end());
  for (const gauss::GoldenCase& c : cases) {
    const Image input = gauss::load_image(c.photo_path(images), c.format);
    const Image golden = gauss::load_image(c.golden_path(images), c.format);
    const Image out = gauss::blur_reference(input, c.blur);
    INFO(c.name());
    CHECK(out.pixels == golden.pixels);
  }
}
