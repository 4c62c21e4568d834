// Chapter 04: every transpose exact on awkward sizes (none a multiple of the
// tiles), on 8-bit images through the variants and on float images through
// the kernels directly; the V+T+V+T pipeline against the recursive reference;
// Apple's estimate arithmetic; the sections.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "chapter_checks.hpp"
#include "deriche_names.hpp"
#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "passes.hpp"  // chapters/03_coalescing
#include "support.hpp"
#include "transposes.hpp"  // chapters/04_transpose

namespace chapter04 {
gauss::Chapter make_chapter();  // chapters/04_transpose/main.cpp
}

namespace {

using chapter03::Element;
using chapter04::TransposeKind;
using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter04::make_chapter();
  return instance;
}

// The awkward sizes, and a larger one that is a multiple of neither 16 nor 32.
std::vector<gauss::ImageSize> transpose_sizes() {
  std::vector<gauss::ImageSize> sizes = gauss::test::awkward_sizes();
  sizes.push_back({1001, 777});
  return sizes;
}

void check_transposes(Api api) {
  for (const TransposeKind kind : chapter04::all_transposes()) {
    const std::string name = chapter04::variant_name(kind);
    for (const gauss::ImageSize size : transpose_sizes()) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
      const gauss::Image expected = chapter04::transpose_reference(input);
      const gauss::VariantResult result = gauss::test::run_once(chapter(), name, api, input, {1.0, 2}, expected);
      INFO(name << " (" << gauss::name_of(api) << ") at " << gauss::to_string(size) << ", random image seed "
                << gauss::test::kSeed << ": " << (result.error.empty() ? result.comparison.summary() : result.error));
      CHECK(result.error.empty());
      CHECK(result.comparison.max_abs_diff == 0);  // a transpose is exact
      CHECK(result.output.width == size.height);
      CHECK(result.output.height == size.width);
    }
  }
}

void check_blurs(Api api) {
  for (const double sigma : {1.0, 3.0, 10.0}) {
    for (const gauss::ImageSize size : gauss::test::awkward_sizes()) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
      const gauss::Image expected = chapter03::recursive_reference(input, sigma, chapter03::Passes::Both);
      for (const char* name : {"rgv_rgh", "rgv_t_rgv_t", "rgv_rgh_b32", "rgv_t_rgv_t_b32"}) {
        const gauss::VariantResult result = gauss::test::run_once(chapter(), name, api, input, {sigma, 3}, expected);
        INFO(name << " (" << gauss::name_of(api) << ") at " << gauss::to_string(size) << ", sigma " << sigma
                  << ", random image seed " << gauss::test::kSeed << ": "
                  << (result.error.empty() ? result.comparison.summary() : result.error));
        CHECK(result.error.empty());
        CHECK(result.comparison.matches());
      }
    }
  }
  gauss::test::check_on_goldens(chapter(), "fir_separable", api, {{1.0, 2}});
  // The main line: chapter 03's kernel, carried forward and tested there;
  // here through this chapter's registration.
  gauss::test::check_on_goldens(chapter(), "main", api, {{1.0, 2}});
  gauss::test::check_on_awkward_sizes(chapter(), "main", api, {{1.0, 2}});
}

}  // namespace

TEST_CASE("04_transpose: the CPU transpose", "[ch04]") {
  gauss::Image input = gauss::Image::make(3, 2, gauss::PixelFormat::Gray);
  for (int i = 0; i < 6; ++i) input.pixels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
  const gauss::Image output = chapter04::transpose_reference(input);
  REQUIRE(output.width == 2);
  REQUIRE(output.height == 3);
  CHECK(output.pixels == std::vector<std::uint8_t>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("04_transpose: OpenCL transposes are exact on awkward sizes", "[ch04][opencl]") {
  check_transposes(Api::OpenCL);
}

TEST_CASE("04_transpose: OpenCL float transposes are exact, and round to bytes where asked", "[ch04][opencl]") {
  gauss::OpenClSession& cl = gauss::test::opencl_session();
  for (const TransposeKind kind : chapter04::all_transposes()) {
    for (const gauss::ImageSize size : {gauss::ImageSize{1, 1}, {37, 1}, {1, 37}, {33, 17}, {100, 65}}) {
      const std::size_t count = static_cast<std::size_t>(size.width) * size.height;
      std::vector<float> values(count);
      for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i) * 0.37f - 20.0f;
      cl::Buffer in(cl.context, CL_MEM_READ_ONLY, count * sizeof(float));
      cl.queue.enqueueWriteBuffer(in, CL_TRUE, 0, count * sizeof(float), values.data());
      // float to float: exact.
      cl::Buffer out(cl.context, CL_MEM_READ_WRITE, count * sizeof(float));
      const std::vector<float> poison(count, -12345.0f);
      cl.queue.enqueueWriteBuffer(out, CL_TRUE, 0, count * sizeof(float), poison.data());
      chapter04::TransposeCl(cl, kind, Element::F32, Element::F32)
          .enqueue(in, size.width, out, size.height, size.width, size.height);
      std::vector<float> got(count);
      cl.queue.enqueueReadBuffer(out, CL_TRUE, 0, count * sizeof(float), got.data());
      // float to 8 bits: rounded half up and saturated, as the pipeline's last step.
      cl::Buffer bytes(cl.context, CL_MEM_READ_WRITE, count);
      const std::vector<std::uint8_t> byte_poison(count, 0xAB);
      cl.queue.enqueueWriteBuffer(bytes, CL_TRUE, 0, count, byte_poison.data());
      chapter04::TransposeCl(cl, kind, Element::F32, Element::U8)
          .enqueue(in, size.width, bytes, size.height, size.width, size.height);
      std::vector<std::uint8_t> got_bytes(count);
      cl.queue.enqueueReadBuffer(bytes, CL_TRUE, 0, count, got_bytes.data());
      int wrong = 0;
      for (int y = 0; y < size.height; ++y) {
        for (int x = 0; x < size.width; ++x) {
          const float v = values[static_cast<std::size_t>(y) * size.width + x];
          const std::size_t t = static_cast<std::size_t>(x) * size.height + y;
          const double rounded = std::min(255.0, std::max(0.0, std::floor(static_cast<double>(v) + 0.5)));
          wrong += got[t] != v ? 1 : 0;
          wrong += got_bytes[t] != static_cast<std::uint8_t>(rounded) ? 1 : 0;
        }
      }
      INFO(chapter04::variant_name(kind) << " at " << gauss::to_string(size));
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("04_transpose: OpenCL V+T+V+T computes the same blur as rgV + rgH", "[ch04][opencl]") {
  check_blurs(Api::OpenCL);
}

TEST_CASE("04_transpose: Apple's estimate table from Apple's copy rate", "[ch04]") {
  // Radius 15 (31 taps, sigma 5) gives Apple's counts: 962, 64, 10, 14
  // floats per pixel, and its estimates 30, 443, 2840, 2030 MP/s.
  const std::vector<chapter04::Estimate> rows = chapter04::estimates(15, 113.6);  // 14,200 MP/s x 8 bytes
  REQUIRE(rows.size() == 7);  // and the two recursive blurs again, 32 values in flight: the same counts
  CHECK(rows[5].apple_floats == rows[3].apple_floats);
  CHECK(rows[6].apple_floats == rows[4].apple_floats);
  CHECK(rows[6].bytes == rows[4].bytes);
  CHECK(rows[0].apple_floats == 2);
  CHECK(rows[1].apple_floats == 962);
  CHECK(rows[2].apple_floats == 64);
  CHECK(rows[3].apple_floats == 10);
  CHECK(rows[4].apple_floats == 14);
  CHECK(rows[1].apple_estimate == Approx(29.5).margin(0.1));
  CHECK(rows[2].apple_estimate == Approx(443.75));
  CHECK(rows[3].apple_estimate == Approx(2840));
  CHECK(rows[4].apple_estimate == Approx(2028.6).margin(0.1));
  // With Apple's copy bandwidth, this run's estimate is Apple's.
  for (const chapter04::Estimate& row : rows) CHECK(row.estimate == Approx(row.apple_estimate));
}

TEST_CASE("04_transpose: the sections print their tables and write their CSV files", "[ch04][opencl]") {
  const std::string csv = gauss::test::scratch_dir() + "/04_sections.csv";
  for (const char* section : {"transpose_float", "estimates"})
    std::remove((gauss::test::scratch_dir() + "/04_sections." + section + ".csv").c_str());
  std::string printed;
  const int status = gauss::test::run_captured(
      chapter(),
      {"04_transpose", "--api",     "opencl",          "--size",    "45x31",           "--repeat",    "1",
       "--warmup",     "0",         "--variant",       "rgv_rgh",   "--variant",       "rgv_t_rgv_t", "--variant",
       "rgv_rgh_b32",  "--variant", "rgv_t_rgv_t_b32", "--variant", "transpose_float", "--variant",   "estimates",
       "--csv",        csv},
      printed);
  INFO(printed);
  CHECK(status == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("transpose_32x8_float"));
  CHECK_THAT(printed, Catch::Contains("V+T+V+T (rgv_t_rgv_t)"));
  CHECK_THAT(printed, Catch::Contains("V+T+V+T, 32 in flight (rgv_t_rgv_t_b32)"));
  for (const char* section : {"transpose_float", "estimates"}) {
    std::ifstream file(gauss::test::scratch_dir() + "/04_sections." + section + ".csv");
    CHECK(file.good());
  }
}

// --- CUDA (run where there is a device, reported as skipped elsewhere) -------------

TEST_CASE("04_transpose: CUDA transposes are exact on awkward sizes", "[ch04][.][cuda]") {
  check_transposes(Api::Cuda);
}

TEST_CASE("04_transpose: CUDA V+T+V+T computes the same blur as rgV + rgH", "[ch04][.][cuda]") {
  check_blurs(Api::Cuda);
}

TEST_CASE("04_transpose: CUDA float transposes are exact (the section checks them)", "[ch04][.][cuda]") {
  std::string printed;
  const int status = gauss::test::run_captured(chapter(),
                                               {"04_transpose", "--api", "cuda", "--size", "45x31", "--repeat", "1",
                                                "--warmup", "0", "--variant", "transpose_float"},
                                               printed);
  INFO(printed);
  CHECK(status == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("exact"));
}

TEST_CASE("04_transpose: the main line's step is marked and listed first", "[ch04]") {
  gauss::test::check_main_line(chapter(), "main");
}
