// Chapter 14: the overlapped kernel against the golden photos, the images
// where half-precision sums could wrap (black, white, 0/255 patterns), and the
// awkward sizes at radius 1 to 6 (radius 1 and 2, at sigma 0.8, 1 and 1.4,
// are the overlapped kernel with their own half weights; 3 to 5, at sigma
// radius / 3, the shipped tile's wider build where packed halves run (CUDA,
// OpenCL with PTX; RGBA to radius 4); the rest falls back to chapter 10's
// float kernel). A warp walks a segment of 36 rows
// in stages of 5, so heights that cut a segment or a stage short, widths whose
// last strip pokes past the edge, and unaligned rows (every lane byte by byte)
// are all here. Every shape and every build of the ablation is checked by
// running its section, which fails on a mismatch.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "support.hpp"

namespace chapter14 {
gauss::Chapter make_chapter();  // chapters/14_capstone/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter14::make_chapter();
  return instance;
}

// The extreme images (chapter_checks.hpp). Heights: 37 (a segment and 1 row,
// cut mid-stage), 40, 5 (less than a stage); widths: 1024 and 1008 (aligned, the last strip past the
// edge), 1000 (8-byte but not 16-byte aligned rows), 961 and 488 (ragged).
const std::vector<gauss::test::Extent> kExtremeSizes{{1024, 40}, {1008, 73}, {1000, 37}, {961, 5}, {488, 19}};

void check_extremes(const std::string& variant, Api api) {
  gauss::test::check_on_extreme_images(chapter(), variant, api, kExtremeSizes);
}

void check_variants(Api api, std::initializer_list<const char*> variants) {
  for (const char* variant : variants) {
    check_extremes(variant, api);
    gauss::test::check_on_goldens(chapter(), variant, api);
    gauss::test::check_on_awkward_sizes(chapter(), variant, api,
                                        {{0.8, 1}, {1.0, 2}, {1.4, 2}, {1.0, 3}, {1.333, 4}, {1.667, 5}, {2.0, 6}});
  }
}

// A section on a small image, in one API: it checks every point it runs.
void check_section(const char* section, const char* api, const char* size) {
  std::string printed;
  const int status = gauss::test::run_captured(
      chapter(), {"14_capstone", "--api", api, "--variant", section, "--size", size, "--repeat", "1", "--warmup", "0"},
      printed);
  INFO(printed);
  CHECK(status == 0);
  CHECK(printed.find("MISMATCH") == std::string::npos);
}

}  // namespace

TEST_CASE("14_capstone: OpenCL main, main_rgba and the portable kernel on extremes, goldens and awkward sizes",
          "[ch14][opencl]") {
  check_variants(Api::OpenCL, {"main", "main_rgba", "portable", "portable_rgba", "overlap", "overlap_rgba"});
}

TEST_CASE("14_capstone: CUDA main and main_rgba on extremes, goldens and awkward sizes", "[ch14][.][cuda]") {
  check_variants(Api::Cuda, {"main", "main_rgba", "overlap", "overlap_rgba"});
}

TEST_CASE("14_capstone: the main line's step is marked", "[ch14]") {
  gauss::test::check_main_line(chapter(), "main");
  gauss::test::check_main_line(chapter(), "main_rgba", false);
}

// Every build the ablation and the shapes run (a mismatch fails the section),
// on a height that cuts a segment short and a width with an edge strip.
TEST_CASE("14_capstone: sections ablation and shapes check every build (OpenCL)", "[ch14][opencl]") {
  check_section("ablation", "opencl", "1000x45");
  check_section("overlap_shapes", "opencl", "1000x45");
}

// The packed halves at every radius `main` serves with them (1 to 5, RGBA to
// 4), through the emulation on the CPU (PTX on NVIDIA's platform): on the
// CPU `main` itself runs the float kernel, so this is where the tests see
// the wide tile's arithmetic. Odd widths, a height that cuts the group's
// rows short, and a width with several strips.
TEST_CASE("14_capstone: section halves_check: the packed halves at radius 1-5 (OpenCL)", "[ch14][opencl]") {
  check_section("halves_check", "opencl", "131x37");
  check_section("halves_check", "opencl", "1001x19");
}

TEST_CASE("14_capstone: sections ablation and shapes check every build (CUDA)", "[ch14][.][cuda]") {
  check_section("ablation", "cuda", "1000x45");
  check_section("overlap_shapes", "cuda", "1000x45");
  check_section("ablation", "cuda", "1001x83");
}
