// Chapter 11: the packed-half strips on the images that push half-precision
// sums to their ends, on the golden photos, on awkward sizes at radii 1 to 3
// (radius 1 and 2, at sigma 0.8, 1 and 2, are the packed path, each with its
// own weights; 3 is chapter 10's float fallback), and the error bound that
// licenses the path, term by term.
#include <catch2/catch.hpp>

#include <array>
#include <initializer_list>
#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "half2_plan.hpp"
#include "support.hpp"

namespace chapter11 {
gauss::Chapter make_chapter();  // chapters/11_packed_halves/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter11::make_chapter();
  return instance;
}

// The extreme images (chapter_checks.hpp) at sizes whose rows are 8-byte
// aligned and wider than several warp strips, so the interior blocks (no
// byte paths) run beside the edge blocks, plus ragged ones.
const std::vector<gauss::test::Extent> kExtremeSizes{{1024, 40}, {1000, 37}, {961, 5}, {488, 19}};

void check_extremes(const std::string& variant, Api api) {
  gauss::test::check_on_extreme_images(chapter(), variant, api, kExtremeSizes);
}

// The extremes, the goldens, and awkward sizes at the packed path's radii
// (three sets of weights) and above them (the fallback).
void check_packed_half_variants(Api api, std::initializer_list<const char*> variants) {
  for (const char* variant : variants) {
    check_extremes(variant, api);
    gauss::test::check_on_goldens(chapter(), variant, api);
    gauss::test::check_on_awkward_sizes(chapter(), variant, api, {{0.8, 1}, {1.0, 2}, {1.2, 3}});
  }
}

std::array<double, 5> exact_weights(const BlurSpec& blur) {
  const std::vector<double> w = gauss::gaussian_weights(blur);
  return {w[0], w[1], w[2], w[3], w[4]};
}

}  // namespace

TEST_CASE("11_packed_halves: OpenCL main, main_rgba and portable on extremes, goldens and awkward sizes",
          "[ch11][opencl]") {
  check_packed_half_variants(Api::OpenCL, {"main", "main_rgba", "portable"});
}

TEST_CASE("11_packed_halves: CUDA main and main_rgba on extremes, goldens and awkward sizes", "[ch11][.][cuda]") {
  check_packed_half_variants(Api::Cuda, {"main", "main_rgba"});
}

TEST_CASE("11_packed_halves: the main line's step is marked, gray and RGBA", "[ch11]") {
  gauss::test::check_main_line(chapter(), "main");
  gauss::test::check_main_line(chapter(), "main_rgba", false);
  CHECK(chapter().find("ch10_main", Api::OpenCL) != nullptr);
  CHECK(chapter().find("ch10_main_rgba", Api::OpenCL) != nullptr);
  CHECK(chapter().find("portable", Api::Cuda) == nullptr);  // OpenCL's path without inline PTX
}

// The bound of sigma 1's half weights, term by term: the numbers half2_plan.hpp's
// comment states (0.25 + 0.168 + 0.098 < 0.52).
TEST_CASE("11_packed_halves: the error bound of sigma 1's half weights", "[ch11]") {
  const half2::ErrorBound bound = half2::half2_error_bound(half2::kSigma1Taps, exact_weights({1.0, 2}));
  CHECK(bound.exact);
  CHECK(bound.vertical[0] == Approx(1.0 / 8));  // w2 r2 - K: magnitudes up to 306
  CHECK(bound.vertical[1] == Approx(1.0 / 16));
  CHECK(bound.vertical[2] == Approx(1.0 / 16));
  const double horizontal[5] = {1.0 / 256, 1.0 / 128, 1.0 / 32, 1.0 / 16, 1.0 / 16};
  for (int i = 0; i < 5; ++i) CHECK(bound.horizontal[static_cast<std::size_t>(i)] == Approx(horizontal[i]));
  CHECK(bound.quantisation == Approx(255 * 0.000384).epsilon(0.002));
  CHECK(bound.total == Approx(0.25 + 0.16797 + 0.09789).epsilon(0.001));
  CHECK(bound.total < 0.52);
  CHECK(bound.holds());
  // The weights the kernel gets are these, as half-float bit patterns.
  const auto weights = half2::half2_weights({1.0, 2});
  REQUIRE(weights.has_value());
  CHECK(weights->w0 == 0x2af82af8u);       // 223/4096 in both halves
  CHECK(weights->minus_k == 0xe19ce19cu);  // -718: 1024 (w0 + w1 + w2)
}

// The weights are chosen per blur: sigma 1's search lands on kSigma1Taps (the
// numbers the chapter proves by hand); other radius-2 and radius-1 blurs get
// weights of their own, exact halves summing to 1, whose bound holds, and the
// path takes them; sigma 1's weights would be 97 levels from a sigma-3 blur's.
TEST_CASE("11_packed_halves: half weights are chosen for every radius-1 and -2 blur, and proven", "[ch11]") {
  const half2::HalfTaps sigma1 = half2::choose_half_taps(exact_weights({1.0, 2}));
  CHECK(sigma1.w0 * 4096 == 223);
  CHECK(sigma1.w1 * 4096 == 1001);
  CHECK(sigma1.w2 * 4096 == 1648);
  CHECK_FALSE(half2::half2_error_bound(half2::kSigma1Taps, exact_weights({3.0, 2})).holds());
  for (const BlurSpec blur : {BlurSpec{0.3, 1}, BlurSpec{0.8, 1}, BlurSpec{5.0, 1}, BlurSpec{0.5, 2},
                              BlurSpec{0.667, 2}, BlurSpec{1.5, 2}, BlurSpec{3.0, 2}, BlurSpec{100.0, 2}}) {
    INFO("sigma " << blur.sigma << " radius " << blur.radius);
    const auto exact = half2::radius2_weights(blur);
    REQUIRE(exact.has_value());
    if (blur.radius == 1) CHECK(((*exact)[0] == 0.0 && (*exact)[4] == 0.0));
    const half2::HalfTaps taps = half2::choose_half_taps(*exact);
    CHECK(2 * taps.w0 + 2 * taps.w1 + taps.w2 == 1.0);
    if (blur.radius == 1) CHECK(taps.w0 == 0.0);
    const half2::ErrorBound bound = half2::half2_error_bound(taps, *exact);
    CHECK(bound.exact);
    CHECK(bound.total < 0.7);  // 0.29 - 0.64 over these blurs
    CHECK(bound.holds());
    CHECK(half2::half2_weights(blur).has_value());
  }
  // Radius 1's float taps in radius 2's layout: the three taps in the middle.
  const gauss::GaussTaps taps1 = gauss::gaussian_taps({0.8, 1});
  const gauss::GaussTaps padded = half2::radius2_taps({0.8, 1}, taps1);
  CHECK(padded.w[0] == 0.0f);
  CHECK(padded.w[1] == taps1.w[0]);
  CHECK(padded.w[2] == taps1.w[1]);
  CHECK(padded.w[3] == taps1.w[2]);
  CHECK(padded.w[4] == 0.0f);
}

// Chapter 14's kernel sums radius 3 to 5 in the same order: the bound of
// each blur at sigma = radius / 3 holds (0.61, 0.78, 0.85 level), term by
// term as many as the kernel has, with weights summing to exactly 1; where
// it does not hold (radius 4 at sigma 12, radius 5 at sigma 5) nothing is
// offered; radius 6 is past kMaxHalfRadius.
TEST_CASE("11_packed_halves: radius 3 to 5 for chapter 14's kernel, where the bound holds", "[ch11]") {
  const double expected[3] = {0.612, 0.783, 0.850};
  for (int radius = 3; radius <= 5; ++radius) {
    const BlurSpec blur{radius / 3.0, radius};
    INFO("radius " << radius);
    const auto exact = half2::half_exact_weights(blur);
    REQUIRE(exact.has_value());
    REQUIRE(exact->size() == static_cast<std::size_t>(2 * radius + 1));
    const half2::HalfTaps taps = half2::choose_half_taps(*exact);
    double sum = half2::tap_at(taps, 0);
    for (int d = 1; d <= radius; ++d) sum += 2 * half2::tap_at(taps, d);
    CHECK(sum == 1.0);
    const half2::ErrorBound bound = half2::half2_error_bound(taps, *exact);
    CHECK(bound.radius == radius);
    CHECK(bound.total == Approx(expected[radius - 3]).epsilon(0.002));
    CHECK(bound.holds());
    for (int d = radius + 1; d <= half2::kMaxHalfRadius; ++d) CHECK(bound.vertical[static_cast<std::size_t>(d)] == 0);
    CHECK(bound.horizontal[static_cast<std::size_t>(2 * radius)] > 0);  // the centre tap, last
    const auto wide = half2::wide_half2_weights(blur);
    REQUIRE(wide.has_value());
    CHECK(wide->radius == radius);
    CHECK_FALSE(half2::half2_weights(blur).has_value());  // chapters 11-13 sum five taps
  }
  // The bias K counts every tap once: sigma 1's radius-3 taps 1636, 991, 221, 18
  // (units of 1/4096) give 1024 x 2866 / 4096 = 716.5.
  const auto r3 = half2::wide_half2_weights({1.0, 3});
  REQUIRE(r3.has_value());
  CHECK(r3->near.minus_k == half2::half_pair(-716.5, -716.5));
  CHECK(r3->far.w3 == half2::half_pair(18.0 / 4096, 18.0 / 4096));
  CHECK(r3->far.w4 == 0u);
  CHECK_FALSE(half2::wide_half2_weights({12.0, 4}).has_value());
  CHECK_FALSE(half2::wide_half2_weights({5.0, 5}).has_value());
  CHECK_FALSE(half2::wide_half2_weights({2.0, 6}).has_value());
  // Radius 1 and 2 are the same in both: wide_half2_weights().near is half2_weights().
  const auto r2 = half2::wide_half2_weights({1.0, 2});
  REQUIRE(r2.has_value());
  CHECK(r2->radius == 2);
  CHECK(r2->near.minus_k == half2::half2_weights({1.0, 2})->minus_k);
  CHECK(r2->far.w3 == 0u);
}

// What the five-tap path refuses: radius 3 and up (its order of operations
// is radius 2's); half weights that are not halves prove nothing.
TEST_CASE("11_packed_halves: blurs it does not cover, and weights that are not halves, are refused", "[ch11]") {
  CHECK_FALSE(half2::radius2_weights({1.0, 3}).has_value());
  CHECK_FALSE(half2::half2_weights({1.0, 3}).has_value());
  CHECK_FALSE(half2::half2_weights({5.0, 16}).has_value());
  // Sigma 1's own taps, not rounded to halves: nothing is proven.
  const half2::HalfTaps too_fine{0.0544886850, 0.2442013420, 0.4026199470};
  CHECK_FALSE(half2::half2_error_bound(too_fine, exact_weights({1.0, 2})).holds());
}

namespace {

// The section `error_bound` for one blur, on OpenCL: it runs and exits 0;
// what it printed, for the checks.
std::string error_bound_section(const char* sigma, const char* radius) {
  std::string printed;
  const int status = gauss::test::run_captured(chapter(),
                                               {"11_packed_halves", "--api", "opencl", "--variant", "error_bound",
                                                "--size", "16x8", "--sigma", sigma, "--radius", radius},
                                               printed);
  INFO(printed);
  CHECK(status == 0);
  return printed;
}

}  // namespace

// The section `error_bound` prints the terms and the verdict for the blur given.
TEST_CASE("11_packed_halves: section error_bound prints the terms and whether the path is taken", "[ch11][opencl]") {
  std::string printed = error_bound_section("1", "2");
  CHECK(printed.find("0.1250 + 0.0625 + 0.0625 = 0.2500") != std::string::npos);
  CHECK(printed.find("total before HADD2's rounding: 0.5159") != std::string::npos);
  CHECK(printed.find("taken: main and main_rgba") != std::string::npos);
  printed = error_bound_section("2", "2");
  CHECK(printed.find("half weights, outermost first: 625/4096, 909/4096, 1028/4096, exact in half: yes") !=
        std::string::npos);
  CHECK(printed.find("taken: main and main_rgba") != std::string::npos);
  // Radius 3: proven (7 horizontal roundings), and chapter 14's kernel takes it.
  printed = error_bound_section("1", "3");
  CHECK(printed.find("half weights, outermost first: 18/4096, 221/4096, 991/4096, 1636/4096") != std::string::npos);
  CHECK(printed.find("horizontal roundings (7 HFMA2)") != std::string::npos);
  CHECK(printed.find("every output within one level") != std::string::npos);
  CHECK(printed.find("not taken here") != std::string::npos);
  CHECK(printed.find("chapter 14's main") != std::string::npos);
  printed = error_bound_section("5", "5");
  CHECK(printed.find("nothing proven") != std::string::npos);
  printed = error_bound_section("2", "6");
  CHECK(printed.find("past the widest") != std::string::npos);
}
