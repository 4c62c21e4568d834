// Chapter 13: the packed-half block tiles against the golden photos, the
// images where half-precision sums could wrap (black, white, 0/255
// patterns), and the awkward sizes at radius 1 to 3 (radius 1 and 2 are the
// tile, each with its own half weights; 3 falls back to chapter 10's float
// kernel). A tile's
// chunks come three ways (copied inside an aligned row, the edge pixel
// repeated wholly outside it, gathered byte by byte across the edge or in
// unaligned rows), so the widths below put every kind in play.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "support.hpp"

namespace chapter13 {
gauss::Chapter make_chapter();  // chapters/13_block_tiles/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter13::make_chapter();
  return instance;
}

// The extreme images (chapter_checks.hpp) at widths whose rows are 16-byte aligned and span several tiles (1024, 1008:
// chunks copied whole beside edge chunks), a strip poking past the right edge by more than a chunk (1008 gray: 480 x 2
// + 48), and ragged ones (byte paths).
const std::vector<gauss::test::Extent> kExtremeSizes{{1024, 40}, {1008, 21}, {1000, 37}, {961, 5}, {488, 19}};

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

TEST_CASE("13_block_tiles: OpenCL main and main_rgba on extremes, goldens and awkward sizes", "[ch13][opencl]") {
  check_variants(Api::OpenCL, {"main", "main_rgba"});
}

TEST_CASE("13_block_tiles: CUDA main and main_rgba on extremes, goldens and awkward sizes", "[ch13][.][cuda]") {
  check_variants(Api::Cuda, {"main", "main_rgba"});
}

TEST_CASE("13_block_tiles: the main line's step is marked", "[ch13]") {
  gauss::test::check_main_line(chapter(), "main");
  gauss::test::check_main_line(chapter(), "main_rgba", false);
}

// The section tile_shapes: every shape of both lists runs, matches the
// reference (a mismatch fails the run) and is printed against the copy.
TEST_CASE("13_block_tiles: section tile_shapes runs and checks every shape", "[ch13][opencl]") {
  std::string printed;
  const int status = gauss::test::run_captured(chapter(),
                                               {"13_block_tiles", "--api", "opencl", "--variant", "tile_shapes",
                                                "--size", "64x48", "--repeat", "1", "--warmup", "0"},
                                               printed);
  INFO(printed);
  CHECK(status == 0);
  CHECK(printed.find("16 B, 4 rows (shipped)") != std::string::npos);
  CHECK(printed.find("16 B, 8 rows (shipped)") != std::string::npos);
  CHECK(printed.find("MISMATCH") == std::string::npos);
}
