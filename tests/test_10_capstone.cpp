// Chapter 10: the fused kernels against the golden photos (gray and RGBA)
// and, on awkward sizes, against the CPU reference for radii 1 to 16: each
// radius range takes a different code path (16, 8 or 4 pixels per lane, the
// tile kernel), so each is checked.
#include <catch2/catch.hpp>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"

namespace chapter10 {
gauss::Chapter make_chapter();  // chapters/10_capstone/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter10::make_chapter();
  return instance;
}

// Radii at each code path's ends: the strip kernels (1, 2), the narrower
// strips (3, 4), the widest gray strips and the tile kernel (5, 9, 16).
const std::vector<BlurSpec> kBlurs{{0.8, 1}, {1.0, 2}, {1.2, 3}, {1.5, 4}, {2.0, 5}, {3.0, 9}, {5.0, 16}};

}  // namespace

TEST_CASE("10_capstone: OpenCL fused matches the goldens, gray and RGBA", "[ch10][opencl]") {
  gauss::test::check_on_goldens(chapter(), "fused", Api::OpenCL);
  gauss::test::check_on_goldens(chapter(), "fused_rgba", Api::OpenCL);
}

TEST_CASE("10_capstone: OpenCL fused on awkward sizes, radii 1 to 16", "[ch10][opencl]") {
  gauss::test::check_on_awkward_sizes(chapter(), "fused", Api::OpenCL, kBlurs);
  gauss::test::check_on_awkward_sizes(chapter(), "fused_rgba", Api::OpenCL, kBlurs);
}

TEST_CASE("10_capstone: CUDA fused matches the goldens, gray and RGBA", "[ch10][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "fused", Api::Cuda);
  gauss::test::check_on_goldens(chapter(), "fused_rgba", Api::Cuda);
}

TEST_CASE("10_capstone: CUDA fused on awkward sizes, radii 1 to 16", "[ch10][.][cuda]") {
  gauss::test::check_on_awkward_sizes(chapter(), "fused", Api::Cuda, kBlurs);
  gauss::test::check_on_awkward_sizes(chapter(), "fused_rgba", Api::Cuda, kBlurs);
}
