// Chapter 06: the five places the weights can live, each against the golden
// photos and, on awkward sizes and several radii, against the CPU reference
// (poisoned output buffers); and the radius sweep end to end.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"

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

TEST_CASE("06_constant_memory: the radius sweep checks every radius 1..16 (CUDA)", "[ch06][.][cuda]") {
  CHECK(run_program(
            {"--api", "cuda", "--variant", "radius_sweep", "--size", "19x7", "--repeat", "1", "--warmup", "0"}) == 0);
}
