// Chapter 06: the five places the weights can live, each against the golden
// photos and, on awkward sizes and several radii, against the CPU reference
// (poisoned output buffers); the seminar's four kernels as published, on the
// goldens and the awkward sizes at the one blur they have built in; and the
// radius sweep end to end.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "support.hpp"

namespace chapter06 {
gauss::Chapter make_chapter();  // chapters/06_constant_memory/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter06::make_chapter();
  return instance;
}

const std::vector<std::string> kVariants{"array_fixed", "array_runtime", "constant_runtime", "constant_fixed",
                                         "global_runtime"};

// Radius 1 (the shortest loop) and 5 here, the goldens' 2 and 9; every radius
// from 1 to 16 in the sweep test below (on a small image: PoCL runs the 1089
// taps a pixel of radius 16 slowly).
void check_variant(const std::string& name, Api api) {
  gauss::test::check_on_goldens(chapter(), name, api);
  gauss::test::check_on_awkward_sizes(chapter(), name, api, {{0.5, 1}, {2.0, 5}});
}

// The candidate step (chapter 05's fused kernel with symmetric weights):
// R = 1, 2 and 5 stage 64 tile rows, 9 and 16 stage 32; the awkward sizes'
// odd widths take the byte path, 16x16 and 100x1 the word path. The main
// line here is chapter 05's kernel, tested there; here once, through this
// chapter's registration.
void check_main(Api api) {
  gauss::test::check_on_goldens(chapter(), "symmetric", api);
  gauss::test::check_on_awkward_sizes(chapter(), "symmetric", api, {{0.5, 1}, {1.0, 2}, {2.0, 5}, {3.0, 9}, {5.0, 16}});
  gauss::test::check_on_awkward_sizes(chapter(), "main", api, {{1.0, 2}});
}

// The seminar's kernels (a "valid" convolution on the input padded by the
// host) have their 5x5 sigma 1 table built in: that blur only; any other is
// skipped, not failed.
const std::vector<std::string> kSeminarVariants{"seminar_simple", "seminar_array", "seminar_constant",
                                                "seminar_constant_fixed"};

void check_seminar_variant(const std::string& name, Api api) {
  gauss::test::check_on_goldens(chapter(), name, api, {{1.0, 2}});
  gauss::test::check_on_awkward_sizes(chapter(), name, api, {{1.0, 2}});
}

// Any blur but the seminar's: each seminar kernel is skipped (it cannot
// compute it), neither run and failed nor an error.
void check_seminar_skips_other_blurs(Api api) {
  const gauss::Image input = gauss::test::random_image(19, 7, gauss::PixelFormat::Gray);
  const BlurSpec blur{1.0, 3};
  const gauss::Image reference = gauss::blur_reference(input, blur, gauss::ReferenceMethod::Separable, 0);
  for (const std::string& name : kSeminarVariants) {
    const gauss::VariantResult result = gauss::test::run_once(chapter(), name, api, input, blur, reference);
    INFO(name << " (" << gauss::name_of(api) << "): " << result.error);
    CHECK(result.error.empty());
    CHECK_FALSE(result.skipped.empty());
  }
}

int run_program(std::vector<const char*> args) {
  args.insert(args.begin(), "06_constant_memory");
  return chapter().run(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST_CASE("06_constant_memory: OpenCL variants match the goldens and the awkward sizes", "[ch06][opencl]") {
  for (const std::string& name : kVariants) {
    SECTION(name) { check_variant(name, Api::OpenCL); }
  }
}

TEST_CASE("06_constant_memory: the OpenCL main line matches the goldens and the awkward sizes", "[ch06][opencl]") {
  check_main(Api::OpenCL);
}

TEST_CASE("06_constant_memory: the seminar's OpenCL kernels match the goldens and the awkward sizes",
          "[ch06][opencl]") {
  for (const std::string& name : kSeminarVariants) {
    SECTION(name) { check_seminar_variant(name, Api::OpenCL); }
  }
}

TEST_CASE("06_constant_memory: the seminar's kernels skip other blurs (OpenCL)", "[ch06][opencl]") {
  check_seminar_skips_other_blurs(Api::OpenCL);
}

TEST_CASE("06_constant_memory: the radius sweep checks every radius 1..16 (OpenCL)", "[ch06][opencl]") {
  // 16 radii x 5 variants, each checked against the reference of its radius.
  CHECK(run_program(
            {"--api", "opencl", "--variant", "radius_sweep", "--size", "19x7", "--repeat", "1", "--warmup", "0"}) == 0);
}

TEST_CASE("06_constant_memory: CUDA variants match the goldens and the awkward sizes", "[ch06][.][cuda]") {
  for (const std::string& name : kVariants) {
    SECTION(name) { check_variant(name, Api::Cuda); }
  }
}

TEST_CASE("06_constant_memory: the CUDA main line matches the goldens and the awkward sizes", "[ch06][.][cuda]") {
  check_main(Api::Cuda);
}

TEST_CASE("06_constant_memory: the seminar's CUDA kernels match the goldens and the awkward sizes", "[ch06][.][cuda]") {
  for (const std::string& name : kSeminarVariants) {
    SECTION(name) { check_seminar_variant(name, Api::Cuda); }
  }
}

TEST_CASE("06_constant_memory: the seminar's kernels skip other blurs (CUDA)", "[ch06][.][cuda]") {
  check_seminar_skips_other_blurs(Api::Cuda);
}

TEST_CASE("06_constant_memory: the radius sweep checks every radius 1..16 (CUDA)", "[ch06][.][cuda]") {
  CHECK(run_program(
            {"--api", "cuda", "--variant", "radius_sweep", "--size", "19x7", "--repeat", "1", "--warmup", "0"}) == 0);
}

TEST_CASE("06_constant_memory: the main line's step is marked and listed first", "[ch06]") {
  gauss::test::check_main_line(chapter(), "main");
}
