// Chapter 05: every variant against the golden photos and, on awkward sizes,
// against the CPU reference (poisoned output buffers); the seminar's halo bug
// where it must and must not show; the linear-sampling tolerance; the
// group-shape sweep end to end.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "samplers.hpp"  // chapters/05_local_memory
#include "support.hpp"

namespace chapter05 {
gauss::Chapter make_chapter();  // chapters/05_local_memory/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter05::make_chapter();
  return instance;
}

// The kernels every API has, with the blurs they are checked with on the
// goldens and on the awkward sizes. PoCL runs the 2-D kernels slowly at large
// radii ((2R+1)^2 taps a pixel), so each blur is checked where it tests
// something: R = 5, whose tile (42 x 18) needs three passes of a 32x8 group
// in y; R = 9 and 16 for the separable kernel, whose overlap grows with R;
// the odd R = 5 for the linear taps, whose last tap is read alone; the
// goldens' R = 9 wherever it is affordable.
struct Checked {
  std::string name;
  std::vector<BlurSpec> goldens;  // empty: every golden blur
  std::vector<BlurSpec> awkward;
};
const std::vector<Checked> kCorrectVariants{
    // The main line: R = 2 and 5 stage 64 tile rows, 9 and 16 stage 32; the
    // awkward sizes' odd widths take the byte path for every word, 16x16 and
    // 100x1 the word path, 451 and 1023 both at once at the right edge.
    {"main", {{1.0, 2}}, {{1.0, 2}, {2.0, 5}, {3.0, 9}, {5.0, 16}}},
    {"naive_32x8", {{1.0, 2}}, {{1.0, 2}}},  // chapter 01's kernel, tested there; here its 32x8 groups
    {"tiled", {}, {{1.0, 2}, {2.0, 5}}},
    {"separable_local", {}, {{1.0, 2}, {3.0, 9}, {5.0, 16}}},
    {"image_nearest", {{1.0, 2}}, {{1.0, 2}}},
    {"image_linear", {{1.0, 2}}, {{1.0, 2}, {2.0, 5}}},
};

void check_variant(const Checked& variant, Api api) {
  gauss::test::check_on_goldens(chapter(), variant.name, api, variant.goldens);
  gauss::test::check_on_awkward_sizes(chapter(), variant.name, api, variant.awkward);
}

// Runs broken_halo at a size and returns its result, with the reference.
struct HaloRun {
  gauss::VariantResult result;
  gauss::Image reference;
};
HaloRun run_broken_halo(Api api, int width, int height, const BlurSpec& blur) {
  const gauss::Image input = gauss::test::random_image(width, height, gauss::PixelFormat::Gray);
  gauss::Image reference = gauss::blur_reference(input, blur);
  return {gauss::test::run_once(chapter(), "broken_halo", api, input, blur, reference), reference};
}

// The seminar's kernel is right exactly when its windows tile the image:
// (W - 2R) a multiple of 32 and (H - 2R) of 8. Where they do not, every wrong
// pixel lies in the last, partial, block column or row, which reads halo
// cells that no thread loaded.
void check_broken_halo(Api api) {
  struct Case {
    int width, height;
    BlurSpec blur;
    bool right;
  };
  const std::vector<Case> cases{
      {36, 12, {1.0, 2}, true},       // one full 32x8 block of windows
      {1924, 1028, {1.0, 2}, true},   // the seed's example that works: 1920 x 1024 windows
      {82, 34, {3.0, 9}, true},       // 64 x 16 windows, halo wider than a block is tall
      {1920, 1080, {1.0, 2}, false},  // the seed's example that fails: 1916 x 1076 windows
      {6720 / 10, 4480 / 10, {1.0, 2}, false},
      {37, 23, {1.0, 2}, false},  // the Oclgrind size
      {451, 300, {3.0, 9}, false},
      {68, 13, {1.0, 2}, false},  // full columns (64 = 2 x 32), partial rows
  };
  for (const Case& c : cases) {
    const HaloRun run = run_broken_halo(api, c.width, c.height, c.blur);
    INFO("broken_halo (" << gauss::name_of(api) << ") at " << c.width << "x" << c.height << ", radius " << c.blur.radius
                         << ": " << run.result.comparison.summary());
    REQUIRE(run.result.error.empty());
    CHECK(run.result.comparison.matches() == c.right);
    if (c.right) continue;
    const int r = c.blur.radius;
    const int full_x = r + (c.width - 2 * r) / 32 * 32;  // first column of the partial block column
    const int full_y = r + (c.height - 2 * r) / 8 * 8;
    int outside_partial_blocks = 0;
    for (int y = 0; y < c.height; ++y)
      for (int x = 0; x < c.width; ++x)
        if (std::abs(run.result.output.at(x, y) - run.reference.at(x, y)) > 1 && x < full_x && y < full_y)
          ++outside_partial_blocks;
    CHECK(outside_partial_blocks == 0);
  }
}

// Runs the chapter's program with @p args; returns its exit status.
int run_program(std::vector<const char*> args) {
  args.insert(args.begin(), "05_local_memory");
  return chapter().run(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("05_local_memory: the CPU baseline reproduces the goldens", "[ch05][cpu]") {
  gauss::test::check_on_goldens(chapter(), "cpu_single", Api::Cpu, {{1.0, 2}});
}

TEST_CASE("05_local_memory: OpenCL variants match the goldens and the awkward sizes", "[ch05][opencl]") {
  for (const Checked& variant : kCorrectVariants) {
    SECTION(variant.name) { check_variant(variant, Api::OpenCL); }
  }
}

TEST_CASE("05_local_memory: OpenCL broken_halo fails exactly where the seminar's kernel does", "[ch05][opencl]") {
  check_broken_halo(Api::OpenCL);
}

TEST_CASE("05_local_memory: the group-shape sweep runs and checks every shape (OpenCL)", "[ch05][opencl]") {
  CHECK(run_program({"--api", "opencl", "--variant", "group_shapes", "--size", "37x23", "--repeat", "1", "--warmup",
                     "0"}) == 0);
  // Radius 9: the 16-wide groups of the separable kernel cannot overlap by 18.
  CHECK(run_program({"--api", "opencl", "--variant", "group_shapes", "--size", "17x40", "--radius", "9", "--sigma", "3",
                     "--repeat", "1", "--warmup", "0"}) == 0);
}

TEST_CASE("05_local_memory: linear sampling reproduces the taps it merges", "[ch05][unit]") {
  for (int r = 1; r <= gauss::kMaxRadius; ++r) {
    for (double sigma : {0.5, 1.0, 3.0, 10.0}) {
      const BlurSpec spec{sigma, r};
      const chapter05::LinearTaps taps = chapter05::linear_taps(spec);
      INFO("sigma " << sigma << ", radius " << r);
      REQUIRE(taps.fetches == 1 + 2 * ((r + 1) / 2));
      // With exact mixing the merged reads apply the Gaussian's taps (to the
      // precision of the float offsets the kernels get).
      const std::vector<double> exact = chapter05::effective_filter(spec, 52, false);
      const std::vector<double> w = gauss::gaussian_weights(spec);
      CHECK(exact.front() == Approx(0.0).margin(1e-12));  // offsets -R-1 and R+1 get nothing
      CHECK(exact.back() == Approx(0.0).margin(1e-12));
      for (int k = -r; k <= r; ++k)
        CHECK(exact[static_cast<std::size_t>(k + r + 1)] == Approx(w[static_cast<std::size_t>(k + r)]).margin(1e-7));
    }
  }
}

TEST_CASE("05_local_memory: the linear-sampling tolerance covers 8-bit mixing weights", "[ch05][unit]") {
  double largest = 0;
  for (int r = 1; r <= gauss::kMaxRadius; ++r) {
    for (double sigma : {0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 100.0}) {
      const BlurSpec spec{sigma, r};
      INFO("sigma " << sigma << ", radius " << r);
      // The bound holds for the weights the hardware really applies...
      for (bool truncate : {true, false}) {
        const double worst = chapter05::worst_case_error(spec, 8, truncate);
        CHECK(worst <= chapter05::error_bound(spec) + 1e-9);
        largest = std::max(largest, worst);
      }
      // ...and a value less than the tolerance off rounds to at most the tolerance.
      CHECK(chapter05::error_bound(spec) < chapter05::kLinearSamplingTolerance);
    }
  }
  // What 8 fractional bits really cost with these offsets: at most 0.71 of
  // a level on the worst image (the README quotes it), well inside the bound.
  CHECK(largest == Approx(0.714).margin(0.001));
}

TEST_CASE("05_local_memory: CUDA variants match the goldens and the awkward sizes", "[ch05][.][cuda]") {
  for (const Checked& variant : kCorrectVariants) {
    SECTION(variant.name) { check_variant(variant, Api::Cuda); }
  }
}

TEST_CASE("05_local_memory: CUDA broken_halo fails exactly where the seminar's kernel does", "[ch05][.][cuda]") {
  check_broken_halo(Api::Cuda);
}

TEST_CASE("05_local_memory: the group-shape sweep runs and checks every shape (CUDA)", "[ch05][.][cuda]") {
  CHECK(run_program(
            {"--api", "cuda", "--variant", "group_shapes", "--size", "37x23", "--repeat", "1", "--warmup", "0"}) == 0);
  CHECK(run_program({"--api", "cuda", "--variant", "group_shapes", "--size", "17x40", "--radius", "9", "--sigma", "3",
                     "--repeat", "1", "--warmup", "0"}) == 0);
}

TEST_CASE("05_local_memory: the main line's step is marked and listed first", "[ch05]") {
  gauss::test::check_main_line(chapter(), "main");
}
