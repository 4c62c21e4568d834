#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <numeric>

#include "gauss/blur.hpp"
#include "gauss/error.hpp"

using gauss::BlurSpec;

TEST_CASE("weights sum to 1 and are symmetric", "[blur]") {
  for (double sigma : {0.5, 1.0, 2.5, 5.0, 40.0})
    for (int radius : {1, 2, 7, 16}) {
      const auto w = gauss::gaussian_weights({sigma, radius});
      REQUIRE(w.size() == static_cast<std::size_t>(2 * radius + 1));
      CHECK(std::accumulate(w.begin(), w.end(), 0.0) == Approx(1.0).epsilon(1e-15));
      for (int k = 0; k < radius; ++k) CHECK(w[k] == w[w.size() - 1 - k]);
      for (int k = 0; k < radius; ++k) CHECK(w[k] < w[k + 1]);  // rises to the centre
    }
}

TEST_CASE("sigma 1, radius 2 gives the Fixstars seminar's weights", "[blur]") {
  const auto w = gauss::gaussian_weights({1.0, 2});
  const double seminar[] = {0.054488685, 0.244201342, 0.402619947, 0.244201342, 0.054488685};
  for (int k = 0; k < 5; ++k) CHECK(w[k] == Approx(seminar[k]).margin(1e-9));
  // Its 2-D centre weight, 0.162102822, is the product of two 1-D centres.
  CHECK(w[2] * w[2] == Approx(0.162102822).margin(1e-9));
}

TEST_CASE("kernel taps are the weights in float, unused entries zero", "[blur]") {
  const gauss::GaussTaps taps = gauss::gaussian_taps({1.0, 2});
  const auto w = gauss::gaussian_weights({1.0, 2});
  for (int k = 0; k < 5; ++k) CHECK(taps.w[k] == static_cast<float>(w[k]));
  for (int k = 5; k < gauss::kMaxTaps; ++k) CHECK(taps.w[k] == 0.0f);
  static_assert(sizeof(gauss::GaussTaps) == 33 * sizeof(float), "the kernels' struct is 33 floats");
}

TEST_CASE("impossible blurs are rejected with a message", "[blur]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (BlurSpec bad : {BlurSpec{0.0, 2}, BlurSpec{-1.0, 2}, BlurSpec{nan, 2}, BlurSpec{101.0, 2}, BlurSpec{1.0, 0},
                       BlurSpec{1.0, -1}, BlurSpec{1.0, 17}}) {
    CHECK_THROWS_AS(gauss::validate(bad), gauss::InputError);
  }
  CHECK_THROWS_WITH(gauss::validate({1.0, -1}), Catch::Contains("--radius must be between 1 and 16"));
  CHECK(gauss::describe({1.0, 2}) == "Gaussian sigma 1, radius 2 (5x5)");
}
