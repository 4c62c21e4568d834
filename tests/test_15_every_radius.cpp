// Chapter 15: every radius. The tensor-core kernel's data paths (the planes,
// the two bands, the fragments of every lane) are checked on the CPU through
// its emulation (section mma_check: gray and RGBA at radius 3 and 13 on an
// image whose rows are unaligned and whose tiles are cut on both sides, at 7
// on one with tiles wholly inside it; on a GPU, every radius 1-16), the portable kernel on the goldens (radius 1, 2, 5,
// 9 and 16) and on awkward sizes at several radii, the error bound against
// its hand-checked terms, and the edit that writes a launch bound into the
// OpenCL kernel's PTX.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "blur_mma_plan.hpp"
#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "mma_opencl.hpp"
#include "support.hpp"

namespace chapter15 {
gauss::Chapter make_chapter();  // chapters/15_every_radius/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter15::make_chapter();
  return instance;
}

const std::vector<BlurSpec> kBlurs{{0.5, 1}, {1.0, 2}, {1.7, 5}, {3.0, 9}, {0.8, 13}, {5.3, 16}};

// Runs one section of the chapter; it must exit 0 and print no MISMATCH.
// Returns what it printed.
std::string run_section(const std::vector<std::string>& words) {
  std::string printed;
  const int status = gauss::test::run_captured(chapter(), words, printed);
  INFO(printed);
  CHECK(status == 0);
  CHECK(printed.find("MISMATCH") == std::string::npos);
  return printed;
}

void check_mma(const char* api, const char* size, const BlurSpec& blur) {
  run_section({"15_every_radius", "--api", api, "--variant", "mma_check", "--size", size, "--radius",
               std::to_string(blur.radius), "--sigma", std::to_string(blur.sigma), "--repeat", "1", "--warmup", "0"});
}

// The section `overlap` runs both schedules of the tensor-core kernel (the
// next tile's loads in flight during the passes, or waited for before them)
// at radius 2, 8 and 16, each checked against the reference: `main` ships one
// schedule per API and format, so this is where the other is checked. On the
// GPU at awkward sizes; on the CPU it only says that it needs a GPU.
void check_overlap(const char* api, const char* size, const char* expected) {
  const std::string printed = run_section(
      {"15_every_radius", "--api", api, "--variant", "overlap", "--size", size, "--repeat", "1", "--warmup", "0"});
  INFO(printed);
  CHECK(printed.find(expected) != std::string::npos);
}

}  // namespace

TEST_CASE("15_every_radius: OpenCL main and portable on goldens and awkward sizes, radius 1-16", "[ch15][opencl]") {
  for (const char* variant : {"main", "main_rgba", "portable_rgba"}) {
    gauss::test::check_on_goldens(chapter(), variant, Api::OpenCL);
    gauss::test::check_on_radius_goldens(chapter(), variant, Api::OpenCL);
    gauss::test::check_on_awkward_sizes(chapter(), variant, Api::OpenCL, kBlurs);
  }
}

TEST_CASE("15_every_radius: CUDA main on goldens and awkward sizes, radius 1-16", "[ch15][.][cuda]") {
  for (const char* variant : {"main", "main_rgba"}) {
    gauss::test::check_on_goldens(chapter(), variant, Api::Cuda);
    gauss::test::check_on_radius_goldens(chapter(), variant, Api::Cuda);
    gauss::test::check_on_awkward_sizes(chapter(), variant, Api::Cuda, kBlurs);
  }
}

// The emulation runs the very data paths of the tensor-core kernel, gray and
// RGBA, on 131 x 70 (tiles cut on both sides; rows not 16-byte aligned, so
// the kernel built with SHIFTED_ROWS, in both formats). On the CPU a
// radius costs seconds, so two: radius 3 (each pass takes a k-step of 16
// columns or rows and one of 8, mma_f16_k8: TAIL8_H and TAIL8_V in
// blur_mma.cl) and radius 13 (three of 16 in each pass).
TEST_CASE("15_every_radius: the tensor-core kernel, radius 3 and 13 (emulated on the CPU)", "[ch15][opencl]") {
  check_mma("opencl", "131x70", {1.0, 3});
  check_mma("opencl", "131x70", {4.0, 13});
}

// RGBA fills and stores the tiles wholly inside the image by a path of its
// own (INSIDE_PATH; CUDA's kInsidePath from radius 7): 131 x 70 has no such
// tile; 304 x 50 and 300 x 50 have (x 128-255, y 16-31 of OpenCL's 16-row
// tiles). 304 x 50 also has 16-byte aligned rows in both formats, so the
// kernel without SHIFTED_ROWS meets the image's edges there; 300 x 50 takes
// it in RGBA only.
TEST_CASE("15_every_radius: the tensor-core kernel on tiles inside the image, radius 2 and 7 (emulated on the CPU)",
          "[ch15][opencl]") {
  check_mma("opencl", "304x50", {1.0, 2});
  check_mma("opencl", "300x50", {2.5, 7});
}

TEST_CASE("15_every_radius: the tensor-core kernel at every radius (CUDA)", "[ch15][.][cuda]") {
  for (int radius = 1; radius <= 16; ++radius) {
    check_mma("cuda", "131x70", {radius / 3.0 + 0.3, radius});
    check_mma("cuda", "1000x67", {radius / 3.0 + 0.3, radius});
    check_mma("cuda", "400x100", {radius / 3.0 + 0.3, radius});  // tiles inside the image (32-row tiles)
  }
}

// OpenCL: both schedules where the default device is NVIDIA's (inline PTX),
// else the note that they are measured on a GPU only.
TEST_CASE("15_every_radius: the section overlap in OpenCL", "[ch15][opencl]") {
  if (mma::has_ptx(gauss::test::opencl_session()))
    check_overlap("opencl", "37x23", "serial / overlapped");
  else
    check_overlap("opencl", "37x23", "measured on a GPU only");
}

TEST_CASE("15_every_radius: both schedules at awkward sizes (CUDA)", "[ch15][.][cuda]") {
  check_overlap("cuda", "131x70", "serial / overlapped");
  check_overlap("cuda", "37x23", "serial / overlapped");
}

TEST_CASE("15_every_radius: the error bound", "[ch15]") {
  for (int radius = 1; radius <= 16; ++radius)
    for (double sigma : {0.3, 0.5, 1.0, radius / 3.0, 3.0, 8.0}) {
      const BlurSpec blur{sigma, radius};
      const mma::Weights w = mma::quantise(blur);
      // The horizontal sums start at -1024 x the half weights' sum (about 1), which takes out the 1024 of
      // every byte made a half (1024 + p).
      double sum = 0;
      for (int k = 0; k <= 2 * radius; ++k) sum += mma::half_value(w.v16[k]);
      CHECK(w.bias == static_cast<float>(-1024.0 * sum));
      CHECK(sum == Approx(1.0).epsilon(0.002));
      const mma::ErrorBound b = mma::error_bound(blur, w);
      INFO("sigma " << sigma << " radius " << radius << ": total " << b.total());
      CHECK(b.total() < 0.25);
      CHECK(b.halves == Approx(0.0625).epsilon(0.01));  // 2^-4 times weights summing to about 1
      CHECK(b.horizontal_sums > 0.0);
      CHECK(b.horizontal_sums < 0.02);
      CHECK(mma::serves(blur));
    }
  // Half-float rounding, by hand: 0.40261995 is 0x3671 (0.402588), 2^-24 the smallest subnormal.
  CHECK(mma::half_bits_rounded(0.4026199470) == 0x3671u);
  CHECK(mma::half_value(0x3671u) == Approx(0.402588).epsilon(1e-6));
  CHECK(mma::half_bits_rounded(std::ldexp(1.0, -24)) == 1u);
  CHECK(mma::half_bits_rounded(1.0) == 0x3C00u);
}

// On NVIDIA's platform the OpenCL set-up may rebuild the kernel's PTX with a
// launch bound (mma::with_groups_per_cu); the text edit is checked here, on
// PTX shaped as NVIDIA's compiler writes it (the entry's directives on their
// own lines after its parameters; the binary ends in a NUL).
TEST_CASE("15_every_radius: the PTX launch bound goes after .reqntid", "[ch15]") {
  const std::string entry = ".entry blur_mma(\n\t.param .u64 in\n)\n.reqntid 32, 8, 1\n{\n\tret;\n}\n";
  const std::string prologue = ".version 9.0\n.target sm_90, texmode_independent\n";
  const std::string edited = mma::with_min_groups_directive(prologue + entry + std::string(1, '\0'), 3);
  CHECK(edited ==
        prologue + ".entry blur_mma(\n\t.param .u64 in\n)\n.reqntid 32, 8, 1\n.minnctapersm 3\n{\n\tret;\n}\n");
  CHECK(mma::with_min_groups_directive(".reqntid 32, 8, 1\n", 2) == ".reqntid 32, 8, 1\n.minnctapersm 2\n");
  // No .reqntid (the kernel lost its reqd_work_group_size), or no line after it: refused, not guessed.
  CHECK_THROWS_AS(mma::with_min_groups_directive(prologue + ".entry blur_mma()\n{\n}\n", 3), gauss::ApiError);
  CHECK_THROWS_AS(mma::with_min_groups_directive(".reqntid 32, 8, 1", 3), gauss::ApiError);
}

// The persistent grid's block count (mma::walk_blocks): block b takes tiles
// b, b + G, ... in row-major order, so its columns step by G % tiles_x. The
// count must leave no block in fewer columns than its tiles would visit,
// wherever a count within 1/8 of the GPU's does; otherwise the GPU's count.
// (Tiles of 1 x 1 pixels: the image's size is then its tiles.)
TEST_CASE("15_every_radius: the walk's block count spreads each block over the columns", "[ch15]") {
  // 8448 x 3456 gray on an H200 (66 x 54 tiles, 396 blocks): each block would keep one column.
  CHECK(mma::walk_blocks(66, 54, 1, 1, 396) == 395);
  // 6720 x 4480 (53 x 70 tiles): a step of 25 of 53 visits a new column each tile.
  CHECK(mma::walk_blocks(53, 70, 1, 1, 396) == 396);
  // Fewer tiles than blocks: one tile a block, nothing to spread.
  CHECK(mma::walk_blocks(66, 2, 1, 1, 396) == 132);
  CHECK(mma::walk_blocks(1, 1, 1, 1, 396) == 1);
  for (int tiles_x = 1; tiles_x <= 140; ++tiles_x)
    for (int tiles_y : {1, 3, 35, 140})
      for (int resident : {1, 16, 132, 264, 396, 528}) {
        const int tiles = tiles_x * tiles_y;
        const int most = std::min(tiles, resident);
        const int blocks = mma::walk_blocks(tiles_x, tiles_y, 1, 1, resident);
        INFO(tiles_x << " x " << tiles_y << " tiles, " << resident << " resident: " << blocks << " blocks");
        REQUIRE(blocks >= 1);
        REQUIRE(blocks <= most);
        // The columns a block visits before it returns to its first, against its tiles.
        const auto spread = [&](int g) {
          int worst = tiles_x;
          for (int b = 0; b < g; ++b) {
            std::vector<bool> seen(tiles_x, false);
            int visited = 0;
            int tile = b;
            for (; tile < tiles && !seen[tile % tiles_x]; tile += g, ++visited) seen[tile % tiles_x] = true;
            if (tile < tiles) worst = std::min(worst, visited);  // came back before its last tile
          }
          return worst;
        };
        const auto spread_enough = [&](int g) { return spread(g) >= std::min(tiles_x, (tiles + g - 1) / g); };
        int largest = 0;  // the largest count within 1/8 of the GPU's that spreads, if any
        for (int g = most; g >= most - most / 8 && g >= 1 && largest == 0; --g)
          if (spread_enough(g)) largest = g;
        CHECK(blocks == (largest > 0 ? largest : most));
      }
}
