// Chapter 01: every variant against the golden photos and, on awkward sizes,
// against the CPU reference. Output buffers are poisoned before each run by
// the runners, so a pixel a kernel never writes fails.
#include <catch2/catch.hpp>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"

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
