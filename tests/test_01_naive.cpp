// Chapter 01: every variant against the golden photos and, on awkward sizes,
// against the CPU reference. Output buffers are poisoned before each run by
// the runners, so a pixel a kernel never writes fails.
#include <catch2/catch.hpp>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "support.hpp"

namespace chapter01 {
gauss::Chapter make_chapter();  // chapters/01_naive/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter01::make_chapter();
  return instance;
}

// The default 5x5 blur, the largest radius, and one in between whose mask is
// wider than the smallest images.
const std::vector<BlurSpec> kBlurs{{1.0, 2}, {3.0, 9}, {5.0, 16}};

// The seminar's kernel has its table built in: sigma 1, radius 2 alone.
const BlurSpec kSeminarBlur{1.0, 2};

// The seminar's kernel on another blur: skipped (it cannot compute it), not
// run and failed, and not an error.
void check_seminar_skips_other_blurs(Api api) {
  const gauss::Image input = gauss::test::random_image(37, 23, gauss::PixelFormat::Gray);
  const BlurSpec blur{3.0, 9};
  const gauss::Image reference = gauss::blur_reference(input, blur, gauss::ReferenceMethod::Separable, 0);
  const gauss::VariantResult result = gauss::test::run_once(chapter(), "seminar_simple", api, input, blur, reference);
  CHECK(result.error.empty());
  CHECK_FALSE(result.skipped.empty());
}

}  // namespace

TEST_CASE("01_naive: the CPU variants reproduce the goldens exactly", "[ch01][cpu]") {
  gauss::test::check_on_goldens(chapter(), "cpu_single", Api::Cpu, {{1.0, 2}});
  gauss::test::check_on_goldens(chapter(), "cpu_threads", Api::Cpu);
}

TEST_CASE("01_naive: the CPU variants on awkward sizes", "[ch01][cpu]") {
  gauss::test::check_on_awkward_sizes(chapter(), "cpu_threads", Api::Cpu, kBlurs);
}

TEST_CASE("01_naive: OpenCL naive matches the goldens", "[ch01][opencl]") {
  gauss::test::check_on_goldens(chapter(), "naive", Api::OpenCL);
}

TEST_CASE("01_naive: OpenCL naive on awkward sizes", "[ch01][opencl]") {
  gauss::test::check_on_awkward_sizes(chapter(), "naive", Api::OpenCL, kBlurs);
}

TEST_CASE("01_naive: CUDA naive matches the goldens", "[ch01][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "naive", Api::Cuda);
}

TEST_CASE("01_naive: CUDA naive on awkward sizes", "[ch01][.][cuda]") {
  gauss::test::check_on_awkward_sizes(chapter(), "naive", Api::Cuda, kBlurs);
}

// The Fixstars seminar's Simple kernel as published: a "valid" convolution on
// the input padded by the host, so every output pixel, borders included, is
// checked against the same reference as naive.
TEST_CASE("01_naive: OpenCL seminar_simple matches the goldens and the awkward sizes", "[ch01][opencl]") {
  gauss::test::check_on_goldens(chapter(), "seminar_simple", Api::OpenCL, {kSeminarBlur});
  gauss::test::check_on_awkward_sizes(chapter(), "seminar_simple", Api::OpenCL, {kSeminarBlur});
  check_seminar_skips_other_blurs(Api::OpenCL);
}

TEST_CASE("01_naive: CUDA seminar_simple matches the goldens and the awkward sizes", "[ch01][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "seminar_simple", Api::Cuda, {kSeminarBlur});
  gauss::test::check_on_awkward_sizes(chapter(), "seminar_simple", Api::Cuda, {kSeminarBlur});
  check_seminar_skips_other_blurs(Api::Cuda);
}

TEST_CASE("01_naive: the main line's step is marked and listed first", "[ch01]") {
  gauss::test::check_main_line(chapter(), "naive");
}
