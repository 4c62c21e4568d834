#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "gauss/error.hpp"
#include "gauss/image.hpp"
#include "support.hpp"

namespace fs = std::filesystem;
using gauss::Image;
using gauss::InputError;
using gauss::PixelFormat;

namespace {

// A scratch folder under the build tree, emptied for each test.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(gauss::test::scratch_dir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string data_file(const std::string& name) { return std::string(GAUSS_TEST_DATA) + "/" + name; }

}  // namespace

TEST_CASE("PNG round trip keeps every byte, gray, RGB and RGBA", "[image]") {
  const fs::path dir = scratch("round_trip");
  for (PixelFormat format : {PixelFormat::Gray, PixelFormat::Rgb, PixelFormat::Rgba}) {
    const Image original = gauss::test::random_image(37, 23, format);
    const std::string path = (dir / "image.png").string();
    gauss::save_png(original, path);
    const Image loaded = gauss::load_image(path, format);
    CHECK(loaded.width == 37);
    CHECK(loaded.height == 23);
    CHECK(loaded.channels == gauss::channels_of(format));
    CHECK(loaded.pixels == original.pixels);
  }
  // Only the PNG is left: the temporary file was renamed.
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
}

TEST_CASE("saving into a missing folder fails cleanly and leaves no file", "[image]") {
  const fs::path dir = scratch("missing_folder");
  const std::string path = (dir / "nowhere" / "out.png").string();
  CHECK_THROWS_AS(gauss::save_png(gauss::test::random_image(4, 4, PixelFormat::Gray), path), InputError);
  CHECK_FALSE(fs::exists(path));
  CHECK(std::distance(fs::recursive_directory_iterator(dir), fs::recursive_directory_iterator()) == 0);
}

TEST_CASE("bad image files give one clear error each", "[image]") {
  const fs::path dir = scratch("bad_files");
  CHECK_THROWS_WITH(gauss::load_image((dir / "absent.png").string(), PixelFormat::Gray),
                    Catch::Contains("no such file"));
  CHECK_THROWS_WITH(gauss::load_image(dir.string(), PixelFormat::Gray), Catch::Contains("is a directory"));
  CHECK_THROWS_WITH(gauss::load_image(data_file("empty.png"), PixelFormat::Gray), Catch::Contains("is empty"));
  CHECK_THROWS_WITH(gauss::load_image(data_file("not_an_image.png"), PixelFormat::Gray),
                    Catch::Contains("is not an image"));
  CHECK_THROWS_WITH(gauss::load_image(data_file("truncated.png"), PixelFormat::Gray), Catch::Contains("cannot decode"));
  CHECK_THROWS_WITH(gauss::load_image(data_file("huge_header.png"), PixelFormat::Gray),
                    Catch::Contains("100000x100000"));
  for (const char* name : {"empty.png", "not_an_image.png", "truncated.png", "huge_header.png"}) {
    CHECK_THROWS_AS(gauss::load_image(data_file(name), PixelFormat::Rgba), InputError);
  }
}

TEST_CASE("colour conversions: integer Rec. 601 luma, replicated gray, opaque alpha", "[image]") {
  Image rgba = Image::make(3, 1, PixelFormat::Rgba);
  const std::uint8_t pixels[] = {255, 0, 0, 10, 0, 255, 0, 20, 0, 0, 255, 30};
  std::copy(std::begin(pixels), std::end(pixels), rgba.pixels.begin());
  const Image gray = gauss::convert(rgba, PixelFormat::Gray);
  CHECK(gray.at(0, 0) == 76);   // (299 * 255 + 500) / 1000
  CHECK(gray.at(1, 0) == 150);  // (587 * 255 + 500) / 1000
  CHECK(gray.at(2, 0) == 29);   // (114 * 255 + 500) / 1000
  const Image back = gauss::convert(gray, PixelFormat::Rgba);
  CHECK(back.at(0, 0, 0) == 76);
  CHECK(back.at(0, 0, 1) == 76);
  CHECK(back.at(0, 0, 2) == 76);
  CHECK(back.at(0, 0, 3) == 255);
  const Image rgb = gauss::convert(rgba, PixelFormat::Rgb);  // alpha dropped, colours kept
  CHECK(rgb.pitch == 9);
  CHECK(rgb.at(1, 0, 1) == 255);
  CHECK(gauss::convert(rgb, PixelFormat::Rgba).at(2, 0, 3) == 255);
  CHECK(gauss::convert(rgb, PixelFormat::Gray).pixels == gray.pixels);
}

TEST_CASE("the bundled photos load in both formats", "[image]") {
  for (const char* photo : {"astronaut.png", "camera.png", "chelsea.png", "coffee.png"}) {
    const std::string path = gauss::test::images_dir() + "/" + photo;
    const gauss::ImageFileInfo info = gauss::probe_image(path);
    const Image gray = gauss::load_image(path, PixelFormat::Gray);
    const Image rgba = gauss::load_image(path, PixelFormat::Rgba);
    const Image rgb = gauss::load_image(path, PixelFormat::Rgb);
    CHECK(gray.width == info.width);
    CHECK(rgba.height == info.height);
    CHECK(rgba.pitch == 4 * info.width);
    CHECK(rgb.pitch == 3 * info.width);
    CHECK(gauss::convert(rgba, PixelFormat::Rgb).pixels == rgb.pixels);
  }
}

TEST_CASE("sizes: WxH parses, anything else is rejected", "[image]") {
  const gauss::ImageSize s = gauss::parse_size("6720x4480");
  CHECK(s.width == 6720);
  CHECK(s.height == 4480);
  CHECK(gauss::to_string(s) == "6720x4480");
  for (const char* bad : {"0x5", "5x0", "-3x4", "x5", "5x", "5", "axb", "5x5x5", "70000x10", "65536x65536", ""}) {
    INFO(bad);
    CHECK_THROWS_AS(gauss::parse_size(bad), InputError);
  }
  CHECK_THROWS_AS(Image::make(0, 5, PixelFormat::Gray), InputError);
}

TEST_CASE("resampling gives the requested size and keeps flat images flat", "[image]") {
  const Image flat = Image::make(40, 30, PixelFormat::Gray, 77);
  const Image up = gauss::resize(flat, 123, 45);
  CHECK(up.width == 123);
  CHECK(up.height == 45);
  for (std::uint8_t v : up.pixels) REQUIRE(v == 77);
  const Image down = gauss::resize(gauss::test::random_image(64, 64, PixelFormat::Rgba), 7, 9);
  CHECK(down.pitch == 28);
}
