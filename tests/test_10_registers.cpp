// Chapter 10: the ring-of-rows kernels against the golden photos (gray and
// RGBA) and, on awkward sizes, against the CPU reference at radii where the
// code path changes: the OpenCL strip kernel (1, 2) and its tile kernel
// (3 and up); CUDA's strips of 8 pixels per lane (1 to 4), 4 pixels (5 to 16,
// 2 blocks per SM from 9) and, for RGBA, 4 and 2 pixels per lane (1, 2 and
// 3, 4) and the shared-memory tile (5 and up).
#include <catch2/catch.hpp>

#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "support.hpp"

namespace chapter10 {
gauss::Chapter make_chapter();  // chapters/10_registers/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter10::make_chapter();
  return instance;
}

// Radii at each code path's ends.
const std::vector<BlurSpec> kBlurs{{0.8, 1}, {1.0, 2}, {1.2, 3}, {1.5, 4}, {2.0, 5}, {3.0, 9}, {5.0, 16}};

void check_step(Api api) {
  for (const char* variant : {"main", "main_rgba"}) {
    gauss::test::check_on_goldens(chapter(), variant, api);
    gauss::test::check_on_awkward_sizes(chapter(), variant, api, kBlurs);
  }
}

}  // namespace

TEST_CASE("10_registers: OpenCL main and main_rgba match the goldens and awkward sizes, radii 1 to 16",
          "[ch10][opencl]") {
  check_step(Api::OpenCL);
}

TEST_CASE("10_registers: CUDA main and main_rgba match the goldens and awkward sizes, radii 1 to 16",
          "[ch10][.][cuda]") {
  check_step(Api::Cuda);
}

TEST_CASE("10_registers: the main line's step is marked, gray and RGBA", "[ch10]") {
  gauss::test::check_main_line(chapter(), "main");
  gauss::test::check_main_line(chapter(), "main_rgba", false);
}

TEST_CASE("10_registers: the previous steps are borrowed unchanged", "[ch10]") {
  for (const char* name : {"ch05_main", "ch07_main"}) {
    const gauss::Variant* borrowed = chapter().find(name, Api::OpenCL);
    REQUIRE(borrowed != nullptr);
    CHECK(borrowed->line.empty());  // a step is counted once, in its own chapter
  }
  CHECK(chapter().format_of(*chapter().find("ch07_main", Api::OpenCL)) == gauss::PixelFormat::Rgba);
}

// The section `shapes` on a small image: every point is checked against the
// reference (a wrong shape fails the run) and printed.
TEST_CASE("10_registers: section shapes runs every OpenCL shape and checks it", "[ch10][opencl]") {
  std::string printed;
  const int status = gauss::test::run_captured(
      chapter(), {"10_registers", "--api", "opencl", "--variant", "shapes", "--size", "100x37", "--repeat", "1"},
      printed);
  INFO(printed);
  CHECK(status == 0);
  CHECK(printed.find("16 rows, 4 ahead") != std::string::npos);
  CHECK(printed.find("32 rows, 8 ahead") != std::string::npos);
}
