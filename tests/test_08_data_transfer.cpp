// Chapter 08: every way of doing the whole job (host image in, host image out)
// on awkward sizes, from poisoned output memory; the strip plan of the
// overlap; and the measuring itself, fed a job that drops a row.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/reference.hpp"
#include "gauss/row_strips.hpp"
#include "gauss/transfer_job.hpp"
#include "naive_blur.hpp"
#include "support.hpp"
#include "transfers.hpp"  // chapters/08_data_transfer

namespace chapter08 {
gauss::Chapter make_chapter();  // chapters/08_data_transfer/main.cpp
}

namespace {

namespace transfer = gauss::transfer;  // the measuring (common/), which the chapter's methods plug into
using gauss::Api;
using gauss::BlurSpec;
using gauss::Image;
using gauss::test::opencl_session;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter08::make_chapter();
  return instance;
}

// Two runs, no warm-up: the second run starts from poisoned memory again, so
// a job that only delivers on its first run fails.
const gauss::RunSettings kTwice{0, 2, 0.0};

// The default blur on every awkward size; a wide one on the smaller sizes,
// where its halo is more rows than a 16-row strip.
struct Case {
  gauss::ImageSize size;
  BlurSpec blur;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (const gauss::ImageSize size : gauss::test::awkward_sizes()) {
    all.push_back({size, {1.0, 2}});
    if (size.width * size.height <= 451 * 300) all.push_back({size, {3.0, 9}});
  }
  all.push_back({{61, 100}, {5.0, 16}});  // a halo of 16 rows: strips wait for two earlier uploads
  return all;
}

void check_method(const transfer::TransferMethod& method, const char* api, const Image& input, const Image& reference,
                  const BlurSpec& blur) {
  const transfer::JobStats stats = transfer::measure_job(method, api, input, reference, kTwice);
  INFO(method.name << " (" << api << ") at " << input.width << "x" << input.height << ", " << gauss::describe(blur)
                   << ", random image seed " << gauss::test::kSeed << ": error '" << stats.error << "', skipped '"
                   << stats.skipped << "', " << stats.comparison.summary());
  CHECK(stats.error.empty());
  if (!stats.skipped.empty()) return;
  CHECK(stats.comparison.matches());
  CHECK(stats.end_to_end.runs() == 2);
}

template <class Methods>
void check_on_cases(Methods&& methods_for, const char* api) {
  for (const Case& c : cases()) {
    const Image input = gauss::test::random_image(c.size.width, c.size.height, gauss::PixelFormat::Gray);
    const Image reference = gauss::blur_reference(input, c.blur);
    const gauss::Problem problem = gauss::make_problem(input.geometry(), c.blur);
    for (const transfer::TransferMethod& method : methods_for(problem, c.blur)) {
      check_method(method, api, input, reference, c.blur);
    }
  }
}

}  // namespace

TEST_CASE("08_data_transfer: OpenCL naive (chapter 01's kernel) matches the goldens", "[ch08][opencl]") {
  gauss::test::check_on_goldens(chapter(), "naive", Api::OpenCL, {{1.0, 2}});
}

TEST_CASE("08_data_transfer: the strips cover every row once and upload every input row once", "[ch08][unit]") {
  for (int height : {1, 2, 15, 16, 17, 23, 100, 4480}) {
    for (int count : {1, 2, 3, 4, 7, 16, 1000}) {
      for (int radius : {1, 2, 9, 16}) {
        const std::vector<transfer::Strip> strips = transfer::plan_strips(height, count, 16, radius);
        INFO("height " << height << ", " << count << " strips asked, radius " << radius);
        REQUIRE(!strips.empty());
        CHECK(static_cast<int>(strips.size()) <= count);
        int next_row = 0;
        int next_upload = 0;
        for (std::size_t k = 0; k < strips.size(); ++k) {
          const transfer::Strip& s = strips[k];
          CHECK(s.row0 == next_row);  // output rows: consecutive, no gap, no overlap
          CHECK(s.rows > 0);
          if (k + 1 < strips.size()) CHECK(s.rows % 16 == 0);  // whole groups but the last
          next_row += s.rows;
          CHECK(s.upload0 == next_upload);  // input rows: each uploaded once, in order
          next_upload += s.upload_rows;
          // Everything the strip reads has been uploaded by it or by a strip it waits for.
          const int need_end = std::min(height, s.row0 + s.rows + radius);
          const int need_begin = std::max(0, s.row0 - radius);
          CHECK(s.upload0 + s.upload_rows >= need_end);
          const std::vector<int> waits = transfer::strips_needed_by(strips, static_cast<int>(k), radius);
          int covered = need_begin;
          for (int j : waits) {
            const transfer::Strip& u = strips[static_cast<std::size_t>(j)];
            if (u.upload0 <= covered) covered = std::max(covered, u.upload0 + u.upload_rows);
          }
          CHECK(covered >= need_end);
        }
        CHECK(next_row == height);
        CHECK(next_upload == height);
      }
    }
  }
}

// The measuring itself: a job that never delivers the image's last row must
// be caught, on its second run too (the poison is written before every run).
TEST_CASE("08_data_transfer: measure_job catches a job that drops the last row", "[ch08][unit]") {
  class DropsLastRow final : public transfer::TransferJob {
   public:
    DropsLastRow(Image& out, const Image& reference) : out_(out), reference_(reference) {}
    void poison(const Image&) override {}
    transfer::JobParts run() override {
      // Delivers the right answer for every row but the last, which keeps the poison.
      std::memcpy(out_.pixels.data(), reference_.pixels.data(),
                  reference_.bytes() - static_cast<std::size_t>(reference_.pitch));
      return {};
    }

   private:
    Image& out_;
    const Image& reference_;
  };
  const Image input = gauss::test::random_image(37, 23, gauss::PixelFormat::Gray);
  const Image reference = gauss::blur_reference(input, {1.0, 2});
  const transfer::TransferMethod broken{"drops_last_row", "test", [&](const Image&, Image& out) {
                                          return std::make_unique<DropsLastRow>(out, reference);
                                        }};
  const transfer::JobStats stats = transfer::measure_job(broken, "test", input, reference, kTwice);
  CHECK(stats.error.empty());
  CHECK_FALSE(stats.comparison.matches());
  CHECK(stats.comparison.over_tolerance == 37);
  CHECK_FALSE(stats.ok());
}

TEST_CASE("08_data_transfer: every OpenCL method on awkward sizes", "[ch08][opencl]") {
  check_on_cases(
      [](const gauss::Problem& problem, const BlurSpec& blur) {
        return chapter08::opencl_methods(opencl_session(), gauss::naive::build_naive_blur(opencl_session(), blur),
                                         problem);
      },
      "OpenCL");
}

TEST_CASE("08_data_transfer: the OpenCL overlap on awkward sizes", "[ch08][opencl]") {
  check_on_cases(
      [](const gauss::Problem& problem, const BlurSpec& blur) {
        const cl::Kernel kernel = chapter08::build_blur_strip(opencl_session(), blur);  // blur_strip.cl
        std::vector<transfer::TransferMethod> methods;
        for (int strips : {1, 2, 3, 5, 16})
          methods.push_back(chapter08::opencl_overlap(opencl_session(), kernel, problem, strips));
        return methods;
      },
      "OpenCL");
}

TEST_CASE("08_data_transfer: the chapter's sections run clean", "[ch08][opencl]") {
  const char* argv[] = {"08_data_transfer", "--api", "opencl", "--size", "37x23", "--repeat", "2", "--warmup", "0"};
  CHECK(chapter().run(static_cast<int>(std::size(argv)), argv) == 0);
}

#ifdef GAUSS_HAVE_CUDA
TEST_CASE("08_data_transfer: CUDA naive (chapter 01's kernel) matches the goldens", "[ch08][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "naive", Api::Cuda, {{1.0, 2}});
}

TEST_CASE("08_data_transfer: every CUDA method on awkward sizes", "[ch08][.][cuda]") {
  static const gauss::CudaDeviceInfo device = gauss::select_cuda_device(-1);
  check_on_cases(
      [](const gauss::Problem& problem, const BlurSpec&) { return chapter08::cuda_methods(device, problem); }, "CUDA");
}

TEST_CASE("08_data_transfer: the CUDA overlap on awkward sizes", "[ch08][.][cuda]") {
  gauss::select_cuda_device(-1);
  check_on_cases(
      [](const gauss::Problem& problem, const BlurSpec&) {
        std::vector<transfer::TransferMethod> methods;
        for (int strips : {1, 2, 3, 5, 16}) methods.push_back(chapter08::cuda_overlap(problem, strips));
        return methods;
      },
      "CUDA");
}

TEST_CASE("08_data_transfer: the chapter's sections run clean on CUDA", "[ch08][.][cuda]") {
  const char* argv[] = {"08_data_transfer", "--api", "cuda", "--size", "451x300", "--repeat", "2", "--warmup", "1"};
  CHECK(chapter().run(static_cast<int>(std::size(argv)), argv) == 0);
}
#endif
