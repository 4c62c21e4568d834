// Chapter 03: the main line's kernel (4 x 8 pixels per item, words in and
// out) on every path; the recursive Gaussian (its coefficients, its CPU reference
// against a sampled Gaussian, a constant image), its GPU passes against the
// CPU reference in double on awkward sizes, the batched passes (16 and 32
// values in flight per item) against the same reference and against the
// one-at-a-time passes, the FIR passes against the goldens, and the width and
// height sweep sections.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "chapter_checks.hpp"
#include "deriche_names.hpp"
#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "gauss/reference.hpp"
#include "passes.hpp"  // chapters/03_coalescing
#include "support.hpp"

namespace chapter03 {
gauss::Chapter make_chapter();  // chapters/03_coalescing/main.cpp
}

namespace {

using chapter03::Element;
using chapter03::Line;
using chapter03::Passes;
using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter03::make_chapter();
  return instance;
}

// Every recursive variant: one value in flight per item, then 16 and 32.
const std::vector<std::string>& recursive_variants() {
  static const std::vector<std::string> names{"rgh",     "rgv",     "rgv_rgh",     "rgh_b16",    "rgh_b32",
                                              "rgv_b16", "rgv_b32", "rgv_rgh_b16", "rgv_rgh_b32"};
  return names;
}

// The reference each recursive variant is checked against: rgv_rgh* both
// directions, rgh* rows, rgv* columns.
gauss::Image recursive_reference_for(const std::string& variant, const gauss::Image& input, double sigma) {
  const bool both = variant.rfind("rgv_rgh", 0) == 0;
  const Passes passes = both ? Passes::Both : variant.rfind("rgh", 0) == 0 ? Passes::Rows : Passes::Columns;
  return chapter03::recursive_reference(input, sigma, passes);
}

// Runs @p variant on seeded random images of every awkward size for each
// sigma and requires it to match @p reference within one level.
template <class Reference>
void check_awkward(const std::string& variant, Api api, const std::vector<double>& sigmas, Reference reference) {
  for (const double sigma : sigmas) {
    const BlurSpec blur{sigma, std::min(gauss::kMaxRadius, static_cast<int>(std::ceil(3 * sigma)))};
    for (const gauss::ImageSize size : gauss::test::awkward_sizes()) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
      const gauss::VariantResult result =
          gauss::test::run_once(chapter(), variant, api, input, blur, reference(input, blur));
      INFO(variant << " (" << gauss::name_of(api) << ") at " << gauss::to_string(size) << ", sigma " << sigma
                   << ", random image seed " << gauss::test::kSeed << ": "
                   << (result.error.empty() ? result.comparison.summary() : result.error));
      CHECK(result.error.empty());
      CHECK(result.comparison.matches());
    }
  }
}

void check_recursive_variants(Api api) {
  for (const std::string& variant : recursive_variants()) {
    check_awkward(variant, api, {2.0, 10.0}, [&](const gauss::Image& input, const BlurSpec& blur) {
      return recursive_reference_for(variant, input, blur.sigma);
    });
  }
}

// The batched passes on lines just under, at and just over one and two
// batches (16 and 32), and lines of one value: the batch loop, the
// one-at-a-time tail, and both together.
void check_batch_edges(Api api) {
  const std::vector<gauss::ImageSize> sizes{{1, 1},   {1, 15}, {15, 1}, {16, 16}, {17, 17}, {31, 33}, {33, 31},
                                            {32, 32}, {1, 64}, {64, 1}, {63, 65}, {65, 63}, {96, 7},  {7, 96}};
  for (const std::string& variant : recursive_variants()) {
    if (variant.find("_b") == std::string::npos) continue;
    for (const gauss::ImageSize size : sizes) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
      const BlurSpec blur{3.0, 9};
      const gauss::VariantResult result = gauss::test::run_once(chapter(), variant, api, input, blur,
                                                                recursive_reference_for(variant, input, blur.sigma));
      INFO(variant << " (" << gauss::name_of(api) << ") at " << gauss::to_string(size) << ": "
                   << (result.error.empty() ? result.comparison.summary() : result.error));
      CHECK(result.error.empty());
      CHECK(result.comparison.matches());
    }
  }
}

// The main line's kernel (blur_wide), one case: @p size at @p blur against
// the Gaussian reference.
void check_main_at(Api api, gauss::ImageSize size, const BlurSpec& blur) {
  const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
  const gauss::VariantResult result =
      gauss::test::run_once(chapter(), "main", api, input, blur, gauss::blur_reference(input, blur));
  INFO("main at " << gauss::to_string(size) << ", " << gauss::describe(blur) << ", random image seed "
                  << gauss::test::kSeed << ": " << (result.error.empty() ? result.comparison.summary() : result.error));
  CHECK(result.error.empty());
  CHECK(result.skipped.empty());
  CHECK(result.comparison.matches());
}

// blur_wide has three paths: words (aligned rows, R <= 4, items whose words
// w - 1 and w + 1 lie inside the row), clamped bytes (unaligned rows, the
// left and right edge items, the last partial word) and, for R > 4, bytes
// row by row. The goldens are 512 (aligned) and 451 (unaligned) wide; most
// awkward sizes are unaligned (odd widths), 16 x 16 and 100 x 1 aligned. The
// widths that are multiples of 4 below add aligned images whose last group is
// partial (132, 260) or just full (128, 1024), items whose right word is the
// last one (12) and images too narrow for any word item (4, 8); heights no
// multiple of the 8 rows an item computes.
const std::vector<gauss::ImageSize> kAlignedSizes{{4, 5},    {8, 3},    {12, 9},    {128, 64},
                                                  {132, 70}, {260, 67}, {1024, 17}, {20, 1}};

void check_main(Api api) {
  gauss::test::check_on_goldens(chapter(), "main", api);
  gauss::test::check_on_awkward_sizes(chapter(), "main", api, {{1.0, 2}, {2.0, 5}, {5.0, 16}});
  for (const gauss::ImageSize size : kAlignedSizes)
    for (const BlurSpec blur : {BlurSpec{0.5, 1}, {1.0, 2}, {1.5, 4}, {2.0, 5}}) check_main_at(api, size, blur);
  // Every radius, aligned and not.
  for (int radius = 1; radius <= gauss::kMaxRadius; ++radius)
    for (const gauss::ImageSize size : {gauss::ImageSize{44, 37}, {45, 19}})
      check_main_at(api, size, {radius / 3.0 + 0.5, radius});
}

void check_fir_variants(Api api) {
  gauss::test::check_on_goldens(chapter(), "fir_separable", api, {{3.0, 9}});
  gauss::test::check_on_awkward_sizes(chapter(), "fir_separable", api, {{5.0, 16}});
  check_awkward("fir_h", api, {3.0}, [](const gauss::Image& input, const BlurSpec& blur) {
    return chapter03::gaussian_pass_reference(input, blur.sigma, blur.radius, Passes::Rows);
  });
  check_awkward("fir_v", api, {3.0}, [](const gauss::Image& input, const BlurSpec& blur) {
    return chapter03::gaussian_pass_reference(input, blur.sigma, blur.radius, Passes::Columns);
  });
}

// A constant image must come out as the same constant, in every variant.
void check_constant_image(Api api) {
  for (const int level : {0, 77, 255}) {
    for (const gauss::ImageSize size : {gauss::ImageSize{1, 1}, {37, 1}, {451, 300}}) {
      const gauss::Image input =
          gauss::Image::make(size.width, size.height, gauss::PixelFormat::Gray, static_cast<std::uint8_t>(level));
      for (const std::string& variant : recursive_variants()) {
        const gauss::VariantResult result = gauss::test::run_once(chapter(), variant, api, input, {10.0, 16}, input);
        INFO(variant << " on a constant " << level << " at " << gauss::to_string(size) << ": "
                     << (result.error.empty() ? result.comparison.summary() : result.error));
        CHECK(result.error.empty());
        CHECK(result.comparison.max_abs_diff == 0);
      }
    }
  }
}

// A sweep (width_sweep on a 3-row image, height_sweep on a 3-column one), one
// run per point, on @p api; CSV to @p csv if not empty.
std::vector<std::string> sweep_command(const std::string& api, const std::string& csv,
                                       const std::string& sweep = "width_sweep") {
  const std::string size = sweep == "width_sweep" ? "40x3" : "3x40";
  std::vector<std::string> words{"03_coalescing", "--api", api,         "--size", size, "--repeat", "1",
                                 "--warmup",      "0",     "--variant", sweep};
  if (!csv.empty()) words.insert(words.end(), {"--csv", csv});
  return words;
}

// Runs @p sweep on OpenCL and requires every point checked and in its CSV.
void check_sweep_csv(const std::string& sweep) {
  const std::string csv = gauss::test::scratch_dir() + "/03_sweep.csv";
  const std::string sweep_csv = gauss::test::scratch_dir() + "/03_sweep." + sweep + ".csv";
  std::remove(sweep_csv.c_str());
  std::string printed;
  const int status = gauss::test::run_captured(chapter(), sweep_command("opencl", csv, sweep), printed);
  INFO(printed);
  CHECK(status == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("32768"));
  std::ifstream file(sweep_csv);
  std::string header;
  std::getline(file, header);
  CHECK(header == "api,device,pass,width,height,work_items,runs,median_ms,min_ms,max_ms,mpix_per_s,gbps,status");
  int lines = 0;
  for (std::string line; std::getline(file, line);) lines += line.find(",ok") != std::string::npos ? 1 : 0;
  CHECK(lines == 5 * 11);  // five passes (one of them one value, 16 and 32 at a time) at eleven sizes, all checked
}

}  // namespace

TEST_CASE("03_coalescing: the main line's variant is listed first in both APIs", "[ch03]") {
  gauss::test::check_main_line(chapter(), "main");
  CHECK(chapter().find("main", Api::OpenCL)->reference.empty());  // the Gaussian blur, not the recursive filter
}

TEST_CASE("03_coalescing: OpenCL main (words in, words out) against the goldens and the reference", "[ch03][opencl]") {
  check_main(Api::OpenCL);
}

TEST_CASE("03_coalescing: Deriche's coefficients for sigma 5 are the published ones", "[ch03]") {
  // seed-facts: sigma = 5 gives n = (0.079758, -0.136670, 0.086606, -0.018965),
  // d = (-2.694422, 2.805289, -1.336997, 0.246004).
  const chapter03::DericheCoefficients c = chapter03::deriche_coefficients(5.0);
  const double n[4] = {0.079758, -0.136670, 0.086606, -0.018965};
  const double d[4] = {-2.694422, 2.805289, -1.336997, 0.246004};
  for (int k = 0; k < 4; ++k) {
    CHECK(c.n[k] == Approx(n[k]).margin(1e-6));
    CHECK(c.d[k] == Approx(d[k]).margin(1e-6));
  }
  // The causal and anti-causal steady states of a constant add up to it:
  // 0.5399 + 0.4601 for any sigma (seed-facts), exactly 1 together.
  CHECK(c.causal_edge + c.anticausal_edge == Approx(1.0).epsilon(1e-12));
  CHECK(c.causal_edge == Approx(0.5399).margin(1e-4));
}

TEST_CASE("03_coalescing: the impulse response is close to a sampled Gaussian for sigma 2, 5, 10", "[ch03]") {
  // An impulse in the middle of a line of zeros, far (20 sigma) from its ends.
  for (const double sigma : {2.0, 5.0, 10.0}) {
    const int half = static_cast<int>(20 * sigma);
    std::vector<double> impulse(static_cast<std::size_t>(2 * half + 1), 0.0);
    impulse[static_cast<std::size_t>(half)] = 1.0;
    const std::vector<double> response = chapter03::deriche_line(impulse, chapter03::deriche_coefficients(sigma));
    double sum = 0;
    double gauss_sum = 0;
    for (int k = -half; k <= half; ++k) {
      sum += response[static_cast<std::size_t>(k + half)];
      gauss_sum += std::exp(-k * k / (2 * sigma * sigma));
    }
    double max_error = 0;
    double squares = 0;
    double peak = 0;
    for (int k = -half; k <= half; ++k) {
      const double gaussian = std::exp(-k * k / (2 * sigma * sigma)) / gauss_sum;
      const double error = response[static_cast<std::size_t>(k + half)] - gaussian;
      max_error = std::max(max_error, std::fabs(error));
      squares += error * error;
      peak = std::max(peak, gaussian);
    }
    const double rms = std::sqrt(squares / static_cast<double>(response.size()));
    // Printed so that the README's numbers can be checked: the errors as a
    // percentage of the Gaussian's peak.
    std::cout << "03_coalescing: impulse response, sigma " << sigma << ": max error " << 100 * max_error / peak
              << "% of peak, RMS " << 100 * rms / peak << "% of peak, sum " << sum << "\n";
    CHECK(sum == Approx(1.0).epsilon(1e-9));
    CHECK(max_error / peak < 1e-3);  // under 0.1% of the peak
    CHECK(rms / peak < 2e-4);
    // Symmetric, like a Gaussian: the two passes mirror each other.
    for (int k = 1; k <= half; ++k)
      CHECK(response[static_cast<std::size_t>(half + k)] ==
            Approx(response[static_cast<std::size_t>(half - k)]).margin(1e-12));
  }
}

TEST_CASE("03_coalescing: the CPU reference keeps a constant image constant, borders included", "[ch03]") {
  for (const double sigma : {1.0, 5.0, 30.0}) {
    const std::vector<double> line(57, 200.0);
    for (const double v : chapter03::deriche_line(line, chapter03::deriche_coefficients(sigma)))
      CHECK(v == Approx(200.0).epsilon(1e-9));
    const gauss::Image flat = gauss::Image::make(33, 7, gauss::PixelFormat::Gray, 123);
    CHECK(chapter03::recursive_reference(flat, sigma, Passes::Both).pixels == flat.pixels);
  }
}

TEST_CASE("03_coalescing: the reference filters rows, columns, and both (which commute)", "[ch03]") {
  const gauss::Image input = gauss::test::random_image(45, 31, gauss::PixelFormat::Gray);
  const gauss::Image rows = chapter03::recursive_reference(input, 3.0, Passes::Rows);
  const gauss::Image columns = chapter03::recursive_reference(input, 3.0, Passes::Columns);
  CHECK(rows.pixels != columns.pixels);
  // A transposed image's rows are the columns: the transpose of the row
  // filter is the column filter of the transpose.
  gauss::Image transposed = gauss::Image::make(input.height, input.width, gauss::PixelFormat::Gray);
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x) transposed.at(y, x) = input.at(x, y);
  const gauss::Image transposed_rows = chapter03::recursive_reference(transposed, 3.0, Passes::Rows);
  for (int y = 0; y < input.height; ++y)
    for (int x = 0; x < input.width; ++x) CHECK(transposed_rows.at(y, x) == columns.at(x, y));
}

TEST_CASE("03_coalescing: the float passes stay within 0.05 level of the double reference", "[ch03][opencl]") {
  // The stated float tolerance, before rounding: one column pass in float
  // (8-bit in, float out, 4099 rows) against the same filter in double. The
  // difference grows with sigma (about 5e-5 levels at sigma 1, 5e-4 at 5,
  // 0.02 at 10): the feedback taps rounded to float move the filter's poles,
  // which lie closer to 1 the larger sigma is.
  gauss::OpenClSession& cl = gauss::test::opencl_session();
  for (const double sigma : {1.0, 5.0, 10.0}) {
    const int width = 67;
    const int height = 4099;
    const gauss::Image input = gauss::test::random_image(width, height, gauss::PixelFormat::Gray);
    chapter03::RecursivePassCl pass(cl, Line::Columns, Element::U8, Element::F32);
    cl::Buffer in(cl.context, CL_MEM_READ_ONLY, input.bytes());
    cl.queue.enqueueWriteBuffer(in, CL_TRUE, 0, input.bytes(), input.pixels.data());
    const cl::Buffer forward = chapter03::float_image(cl, width, height);
    const cl::Buffer out = chapter03::float_image(cl, width, height);
    pass.enqueue(in, width, forward, width, out, width, width, height, chapter03::deriche_taps(sigma));
    std::vector<float> got(static_cast<std::size_t>(width) * height);
    cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(float), got.data());
    const chapter03::DericheCoefficients c = chapter03::deriche_coefficients(sigma);
    double worst = 0;
    for (int x = 0; x < width; ++x) {
      std::vector<double> column(static_cast<std::size_t>(height));
      for (int y = 0; y < height; ++y) column[static_cast<std::size_t>(y)] = input.at(x, y);
      const std::vector<double> expected = chapter03::deriche_line(column, c);
      for (int y = 0; y < height; ++y)
        worst = std::max(
            worst, std::fabs(got[static_cast<std::size_t>(y) * width + x] - expected[static_cast<std::size_t>(y)]));
    }
    std::cout << "03_coalescing: float column pass against double, sigma " << sigma << ": max difference " << worst
              << " levels\n";
    CHECK(worst < 0.05);
  }
}

TEST_CASE("03_coalescing: OpenCL recursive passes against the CPU reference on awkward sizes", "[ch03][opencl]") {
  check_recursive_variants(Api::OpenCL);
}

TEST_CASE("03_coalescing: OpenCL recursive passes keep a constant image constant", "[ch03][opencl]") {
  check_constant_image(Api::OpenCL);
}

TEST_CASE("03_coalescing: OpenCL FIR passes against the goldens and the CPU reference", "[ch03][opencl]") {
  check_fir_variants(Api::OpenCL);
}

TEST_CASE("03_coalescing: OpenCL batched passes on lines around one and two batches", "[ch03][opencl]") {
  check_batch_edges(Api::OpenCL);
}

TEST_CASE("03_coalescing: the batched passes compute what the one-at-a-time passes compute", "[ch03][opencl]") {
  // Same expressions in the same order: the float results of a pass (8-bit in,
  // float out, before any rounding) must agree with filter_line()'s to float
  // rounding at most, on a line that is no multiple of 16 or 32 (4099 values),
  // down columns and along rows.
  gauss::OpenClSession& cl = gauss::test::opencl_session();
  for (const Line line : {Line::Columns, Line::Rows}) {
    const int width = line == Line::Columns ? 67 : 4099;
    const int height = line == Line::Columns ? 4099 : 67;
    const std::size_t count = static_cast<std::size_t>(width) * height;
    const gauss::Image input = gauss::test::random_image(width, height, gauss::PixelFormat::Gray);
    cl::Buffer in(cl.context, CL_MEM_READ_ONLY, input.bytes());
    cl.queue.enqueueWriteBuffer(in, CL_TRUE, 0, input.bytes(), input.pixels.data());
    const cl::Buffer forward = chapter03::float_image(cl, width, height);
    const chapter03::DericheTaps taps = chapter03::deriche_taps(5.0);
    auto run = [&](int batch) {
      chapter03::RecursivePassCl pass(cl, line, Element::U8, Element::F32, chapter03::kLineGroup, batch);
      const cl::Buffer out = chapter03::float_image(cl, width, height);
      const std::vector<float> poison(count, -1e30f);
      cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, count * sizeof(float), poison.data());
      pass.enqueue(in, width, forward, width, out, width, width, height, taps);
      std::vector<float> got(count);
      cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, count * sizeof(float), got.data());
      return got;
    };
    const std::vector<float> one = run(chapter03::kOneAtATime);
    for (const int batch : {16, 32}) {
      const std::vector<float> batched = run(batch);
      double worst = 0;
      std::size_t differing = 0;
      for (std::size_t i = 0; i < count; ++i) {
        const double d = std::fabs(static_cast<double>(batched[i]) - one[i]);
        worst = std::max(worst, d);
        differing += d > 0 ? 1 : 0;
      }
      std::cout << "03_coalescing: batch " << batch << " against one at a time, "
                << (line == Line::Rows ? "rows" : "columns") << ": " << differing << " of " << count
                << " floats differ, by at most " << worst << " levels\n";
      CHECK(worst < 1e-3);
    }
  }
}

TEST_CASE("03_coalescing: the width sweep runs, checks every point and writes its CSV", "[ch03][opencl]") {
  check_sweep_csv("width_sweep");
}

TEST_CASE("03_coalescing: the height sweep runs, checks every point and writes its CSV", "[ch03][opencl]") {
  check_sweep_csv("height_sweep");
}

// --- CUDA (run where there is a device, reported as skipped elsewhere) -------------

TEST_CASE("03_coalescing: CUDA main (words in, words out) against the goldens and the reference", "[ch03][.][cuda]") {
  check_main(Api::Cuda);
}

TEST_CASE("03_coalescing: CUDA recursive passes against the CPU reference on awkward sizes", "[ch03][.][cuda]") {
  check_recursive_variants(Api::Cuda);
}

TEST_CASE("03_coalescing: CUDA recursive passes keep a constant image constant", "[ch03][.][cuda]") {
  check_constant_image(Api::Cuda);
}

TEST_CASE("03_coalescing: CUDA batched passes on lines around one and two batches", "[ch03][.][cuda]") {
  check_batch_edges(Api::Cuda);
}

TEST_CASE("03_coalescing: CUDA FIR passes against the goldens and the CPU reference", "[ch03][.][cuda]") {
  check_fir_variants(Api::Cuda);
}

TEST_CASE("03_coalescing: the CUDA width and height sweeps check every point", "[ch03][.][cuda]") {
  for (const char* sweep : {"width_sweep", "height_sweep"}) {
    std::string printed;
    const int status = gauss::test::run_captured(chapter(), sweep_command("cuda", "", sweep), printed);
    INFO(printed);
    CHECK(status == gauss::kExitOk);
  }
}
