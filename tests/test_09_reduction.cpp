// Chapter 09: every sum exact, on every run, at sizes that break reductions
// (1, one below, at and above a group of 256, 2^20 + 3), on random and on
// all-255 bytes; the racy kernel never above the truth; the CPU references;
// the seeds' 256-value example; the brightness bookkeeping.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "chapter_checks.hpp"
#include "gauss/chapter.hpp"
#include "gauss/oclgrind.hpp"
#include "gauss/reference.hpp"
#include "reduction.hpp"  // chapters/09_reduction
#include "support.hpp"
#include "support.hpp"  // run_captured

namespace chapter09 {
gauss::Chapter make_chapter();  // chapters/09_reduction/main.cpp
}

namespace {

using chapter09::SumMethod;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter09::make_chapter();
  return instance;
}

// The sizes of the issue: one element, one below, at and one above a group,
// and a large odd size (multi-pass, a tail that is not a multiple of 16).
const std::vector<std::size_t> kSizes{1, 255, 256, 257, (std::size_t{1} << 20) + 3};

// Every run repeated: a race that loses an update one time in twenty shows.
constexpr int kRepeats = 20;

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint32_t seed = gauss::test::kSeed) {
  std::vector<std::uint8_t> bytes(n);
  std::mt19937 rng(seed ^ static_cast<std::uint32_t>(n));
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::uint8_t& b : bytes) b = static_cast<std::uint8_t>(byte(rng));
  return bytes;
}

// Sums @p bytes with every method @p summer runs, kRepeats times each,
// requiring the exact sum from every correct method on every run and, from
// the racy one, never more than the exact sum (it can only lose additions).
template <class Summer, class Upload>
void check_all_methods(Summer& summer, const std::string& api, const std::vector<std::uint8_t>& bytes,
                       Upload&& upload) {
  const auto data = upload(bytes);
  const std::uint64_t exact = chapter09::sum_exact(bytes.data(), bytes.size());
  const gauss::RunSettings settings{0, kRepeats, 0.0};
  int checked = 0;
  for (const chapter09::SumMethodInfo& info : chapter09::sum_methods()) {
    const chapter09::SumStats stats =
        chapter09::measure_sum(summer, info, api, data.handle(), bytes.size(), exact, settings);
    INFO(info.name << " (" << api << ") on " << bytes.size() << " bytes, seed " << gauss::test::kSeed << ": error '"
                   << stats.error << "', skipped '" << stats.skipped << "', " << stats.wrong() << " of "
                   << stats.totals.size() << " runs wrong, exact " << exact);
    REQUIRE(stats.error.empty());
    if (!stats.skipped.empty()) continue;
    REQUIRE(static_cast<int>(stats.totals.size()) == kRepeats);
    if (info.correct) {
      CHECK(stats.wrong() == 0);
    } else {
      for (std::uint64_t total : stats.totals) CHECK(total <= exact);
    }
    ++checked;
  }
  CHECK(checked >= 5);  // at least the five correct methods both APIs have
}

// Image shapes for the row and column walks (width x height bytes): one
// pixel, one row, one column, odd sizes that are not multiples of a group of
// 64 or 256, more lines than a group of 256 (the tree pass on the line sums
// then has several groups), and a short last row (n not a multiple of the
// width).
struct WalkShape {
  std::size_t width;
  std::size_t n;
};
const std::vector<WalkShape> kWalkShapes{{1, 1},
                                         {37, 37},
                                         {1, 37},
                                         {37, 37 * 23},
                                         {257, 257 * 3},
                                         {3, 3 * 257},
                                         {255, 255 * 300 + 11},
                                         {4099, 4099 * 65 + 1}};

// The interleaved tree and the two walks, on the shapes above, kRepeats
// times each: every total exact.
template <class Summer, class Upload>
void check_webinar_methods(Summer& summer, const std::string& api, Upload&& upload) {
  const gauss::RunSettings settings{0, kRepeats, 0.0};
  for (const WalkShape& shape : kWalkShapes) {
    const std::vector<std::uint8_t> bytes = random_bytes(shape.n);
    const auto data = upload(bytes);
    const std::uint64_t exact = chapter09::sum_exact(bytes.data(), bytes.size());
    for (const chapter09::SumMethodInfo& info : chapter09::sum_methods()) {
      if (info.method != SumMethod::Interleaved && info.method != SumMethod::RowsFirst &&
          info.method != SumMethod::ColumnsFirst)
        continue;
      const chapter09::SumStats stats =
          chapter09::measure_sum(summer, info, api, data.handle(), bytes.size(), exact, settings, shape.width);
      INFO(info.name << " (" << api << ") on " << shape.n << " bytes in rows of " << shape.width << ": error '"
                     << stats.error << "', skipped '" << stats.skipped << "', " << stats.wrong() << " of "
                     << stats.totals.size() << " runs wrong, exact " << exact);
      REQUIRE(stats.error.empty());
      if (!stats.skipped.empty()) continue;
      REQUIRE(static_cast<int>(stats.totals.size()) == kRepeats);
      CHECK(stats.wrong() == 0);
    }
  }
}

// A device buffer holding the bytes, for OpenCL.
struct OpenClData {
  cl::Buffer buffer;
  const cl::Buffer& handle() const { return buffer; }
};

OpenClData upload_opencl(const std::vector<std::uint8_t>& bytes) {
  OpenClData data{cl::Buffer(gauss::test::opencl_session().context, CL_MEM_READ_ONLY, bytes.size())};
  gauss::test::opencl_session().queue.enqueueWriteBuffer(data.buffer, CL_TRUE, 0, bytes.size(), bytes.data());
  return data;
}

}  // namespace

TEST_CASE("09_reduction: OpenCL naive (chapter 01's kernel) matches the goldens", "[ch09][opencl]") {
  gauss::test::check_on_goldens(chapter(), "naive", gauss::Api::OpenCL, {{1.0, 2}});
}

TEST_CASE("09_reduction: the CPU references", "[ch09][cpu]") {
  SECTION("exact on known sums") {
    std::vector<std::uint8_t> ramp(256);
    std::iota(ramp.begin(), ramp.end(), 0);
    CHECK(chapter09::sum_exact(ramp.data(), ramp.size()) == 32640);
    CHECK(chapter09::sum_double(ramp.data(), ramp.size()) == 32640.0);
    const std::vector<std::uint8_t> bright((std::size_t{1} << 24) + 5, 255);  // 4.28e9: past 32 bits
    CHECK(chapter09::sum_exact(bright.data(), bright.size()) == 255ull * bright.size());
  }
  SECTION("a float running sum stalls; Kahan and pairwise do not") {
    // 2^25 ones: once the float sum reaches 2^24, adding 1 rounds back to it.
    const std::vector<std::uint8_t> ones(std::size_t{1} << 25, 1);
    CHECK(chapter09::sum_float(ones.data(), ones.size()) == 16777216.0f);
    CHECK(chapter09::sum_kahan(ones.data(), ones.size()) == 33554432.0f);
    CHECK(chapter09::sum_pairwise(ones.data(), ones.size()) == 33554432.0f);
  }
  SECTION("Kahan's float sum is the float nearest the exact one") {
    const std::vector<std::uint8_t> bytes = random_bytes(3'000'001);
    const double exact = static_cast<double>(chapter09::sum_exact(bytes.data(), bytes.size()));
    const float kahan = chapter09::sum_kahan(bytes.data(), bytes.size());
    const double ulp = static_cast<double>(std::nextafter(kahan, 1e30f)) - static_cast<double>(kahan);
    CHECK(std::fabs(static_cast<double>(kahan) - exact) <= ulp);
    CHECK(std::fabs(static_cast<double>(chapter09::sum_float(bytes.data(), bytes.size())) - exact) >
          std::fabs(static_cast<double>(kahan) - exact));
  }
}

TEST_CASE("09_reduction: the unrounded blur's sum, without blurring", "[ch09][cpu]") {
  const gauss::BlurSpec blur{3.0, 9};
  SECTION("a constant image keeps its sum exactly") {
    const gauss::Image flat = gauss::Image::make(37, 23, gauss::PixelFormat::Gray, 200);
    CHECK(chapter09::blur_sum_unrounded(flat, blur) == Approx(200.0 * 37 * 23).epsilon(1e-12));
  }
  SECTION("it equals the sum of the blur computed tap by tap in double") {
    const gauss::Image image = gauss::test::random_image(17, 15, gauss::PixelFormat::Gray);
    const std::vector<double> w = gauss::gaussian_weights(blur);
    double direct = 0;
    for (int y = 0; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x)
        for (int i = -blur.radius; i <= blur.radius; ++i)
          for (int j = -blur.radius; j <= blur.radius; ++j)
            direct += w[static_cast<std::size_t>(i + blur.radius)] * w[static_cast<std::size_t>(j + blur.radius)] *
                      image.at(std::clamp(x + j, 0, image.width - 1), std::clamp(y + i, 0, image.height - 1));
    CHECK(chapter09::blur_sum_unrounded(image, blur) == Approx(direct).epsilon(1e-12));
  }
}

TEST_CASE("09_reduction: every OpenCL sum is exact on every run", "[ch09][opencl]") {
  chapter09::OpenClSummer summer(gauss::test::opencl_session());
  for (std::size_t n : kSizes) check_all_methods(summer, "OpenCL", random_bytes(n), upload_opencl);
}

TEST_CASE("09_reduction: OpenCL sums past 2^32 (all bytes 255)", "[ch09][opencl]") {
  chapter09::OpenClSummer summer(gauss::test::opencl_session());
  const std::vector<std::uint8_t> bright((std::size_t{1} << 24) + (std::size_t{1} << 20) + 7, 255);
  const OpenClData data = upload_opencl(bright);
  for (SumMethod method :
       {SumMethod::Atomic, SumMethod::AtomicGroup, SumMethod::Interleaved, SumMethod::Tree, SumMethod::MultiPass,
        SumMethod::ManyPerItem, SumMethod::RowsFirst, SumMethod::ColumnsFirst}) {
    if (!summer.runs(method)) continue;
    summer.poison();
    CHECK(summer.sum(method, data.buffer, bright.size()).total == 255ull * bright.size());
  }
}

TEST_CASE("09_reduction: the interleaved tree and the row and column walks are exact on awkward shapes (OpenCL)",
          "[ch09][opencl]") {
  chapter09::OpenClSummer summer(gauss::test::opencl_session());
  check_webinar_methods(summer, "OpenCL", upload_opencl);
}

TEST_CASE("09_reduction: the walks' shape: the pitch when given, else a square", "[ch09][unit]") {
  using chapter09::walk_lines;
  using chapter09::walk_width;
  CHECK(walk_width(6720 * 4480, 6720) == 6720);
  CHECK(walk_lines(SumMethod::RowsFirst, 6720 * 4480, 6720) == 4480);
  CHECK(walk_lines(SumMethod::ColumnsFirst, 6720 * 4480, 6720) == 6720);
  CHECK(walk_width(1, 0) == 1);
  CHECK(walk_width(256, 0) == 16);
  CHECK(walk_width(257, 0) == 17);                           // ceil(sqrt(257)): 16 rows of 17, the last 2 bytes
  CHECK(walk_lines(SumMethod::RowsFirst, 257, 0) == 16);     // 15 full rows and a short one
  CHECK(walk_lines(SumMethod::ColumnsFirst, 257, 0) == 17);  // columns 2..16 one byte shorter
  CHECK(walk_width(37, 1000) == 37);                         // a row longer than the data: one short row
  CHECK(walk_lines(SumMethod::RowsFirst, 37, 1000) == 1);
  CHECK(walk_lines(SumMethod::ColumnsFirst, 37, 1000) == 37);
}

TEST_CASE("09_reduction: the seeds' example, 0 + 1 + ... + 255 = 32640, in OpenCL", "[ch09][opencl]") {
  chapter09::OpenClSummer summer(gauss::test::opencl_session());
  std::vector<std::uint32_t> values(256);
  std::iota(values.begin(), values.end(), 0u);
  CHECK(summer.sum_256(values) == 32640);
  std::mt19937 rng(gauss::test::kSeed);
  for (std::uint32_t& v : values) v = rng() % 100000;
  CHECK(summer.sum_256(values) == std::accumulate(values.begin(), values.end(), 0u));
  // The barrier-in-if kernel refuses to run anywhere but on Oclgrind.
  if (!gauss::is_oclgrind(gauss::test::opencl_session())) CHECK_THROWS(summer.sum_256_barrier_in_if(values));
}

TEST_CASE("09_reduction: the checks: a wrong correct method fails, a wrong racy one does not", "[ch09][unit]") {
  chapter09::SumStats stats;
  stats.expected = 100;
  stats.totals = {100, 100, 99};
  CHECK_FALSE(stats.ok());
  CHECK(stats.status() == "WRONG");
  stats.correct = false;
  CHECK(stats.ok());
  CHECK(stats.status() == "wrong, as expected");
  stats.totals = {100};
  CHECK(stats.status() == "right by luck");
  stats.error = "a failed call";
  CHECK_FALSE(stats.ok());
}

TEST_CASE("09_reduction: the sums rotate through enough copies of the input to miss the L2", "[ch09][unit]") {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  constexpr std::size_t kPhoto = 6720 * 4480;  // 30.1 MB
  // The H200's 60 MiB L2: 5 other copies (150 MB) between two reads of one.
  CHECK(chapter09::input_copies(kPhoto, 60 * kMiB, 141 * 1024 * kMiB) == 6);
  const int copies = chapter09::input_copies(kPhoto, 60 * kMiB, 141 * 1024 * kMiB);
  CHECK((copies - 1) * kPhoto >= 2 * 60 * kMiB);
  // Larger than twice the L2: two copies are enough.
  CHECK(chapter09::input_copies(256 * kMiB, 60 * kMiB, 141 * 1024 * kMiB) == 2);
  // Small inputs: at most kMaxInputCopies; never more than a quarter of the memory; at least one.
  CHECK(chapter09::input_copies(1000, chapter09::kAssumedL2, 141 * 1024 * kMiB) == chapter09::kMaxInputCopies);
  CHECK(chapter09::input_copies(kPhoto, 60 * kMiB, 8 * kPhoto) == 2);
  CHECK(chapter09::input_copies(kPhoto, 60 * kMiB, kPhoto) == 1);
  CHECK(chapter09::input_copies(1, 0, 1) == 1);
}

TEST_CASE("09_reduction: run r sums copy r mod copies, every total checked", "[ch09][opencl]") {
  // Three "copies", the middle one different: the runs that read it, and
  // only those, must come out wrong, so every copy is read, in turn.
  gauss::OpenClSession& cl = gauss::test::opencl_session();
  chapter09::OpenClSummer summer(cl);
  const std::vector<std::uint8_t> bytes = random_bytes(4099);
  const std::vector<std::uint8_t> zeros(bytes.size(), 0);
  std::vector<cl::Buffer> inputs;
  for (const std::vector<std::uint8_t>* copy : {&bytes, &zeros, &bytes}) {
    inputs.emplace_back(cl.context, CL_MEM_READ_ONLY, copy->size());
    cl.queue.enqueueWriteBuffer(inputs.back(), CL_TRUE, 0, copy->size(), copy->data());
  }
  const std::uint64_t exact = chapter09::sum_exact(bytes.data(), bytes.size());
  const gauss::RunSettings settings{1, 9, 0.0};  // runs 1..9 timed: 3 of them read the zeros
  for (const chapter09::SumMethodInfo& info : chapter09::sum_methods()) {
    if (!info.correct) continue;
    const chapter09::SumStats stats =
        chapter09::measure_sum_rotating(summer, info, "OpenCL", inputs, bytes.size(), exact, settings);
    INFO(info.name << ": error '" << stats.error << "', skipped '" << stats.skipped << "'");
    REQUIRE(stats.error.empty());
    if (!stats.skipped.empty()) continue;
    REQUIRE(stats.totals.size() == 9);
    for (std::size_t run = 0; run < stats.totals.size(); ++run)
      CHECK(stats.totals[run] == ((run + 1) % 3 == 1 ? 0 : exact));
    CHECK(stats.wrong() == 3);
    CHECK_FALSE(stats.ok());
  }
}

TEST_CASE("09_reduction: the chapter's sections run clean", "[ch09][opencl]") {
  const char* argv[] = {"09_reduction", "--api", "opencl", "--size", "64x48", "--repeat", "3", "--warmup", "1"};
  CHECK(chapter().run(static_cast<int>(std::size(argv)), argv) == 0);
}

TEST_CASE("09_reduction: the ladder says how many copies of the input it rotates through", "[ch09][opencl]") {
  std::string printed;
  const int status = gauss::test::run_captured(chapter(),
                                               {"09_reduction", "--api", "opencl", "--size", "64x48", "--repeat", "2",
                                                "--warmup", "1", "--variant", "reduction"},
                                               printed);
  INFO(printed);
  CHECK(status == 0);
  CHECK_THAT(printed, Catch::Contains("OpenCL: the timed sums rotate through 32 copies of the input"));
  // The webinar's rungs are in the ladder, and right.
  for (const char* method : {"interleaved ", "rows_first ", "columns_first "}) {
    INFO(method);
    CHECK_THAT(printed, Catch::Contains(method));
  }
  CHECK_THAT(printed, !Catch::Contains("WRONG"));
}

#ifdef GAUSS_HAVE_CUDA
namespace {

struct CudaData {
  gauss::CudaBuffer buffer;
  const std::uint8_t* handle() const { return buffer.data(); }
};

CudaData upload_cuda(const std::vector<std::uint8_t>& bytes) {
  CudaData data{gauss::CudaBuffer(bytes.size())};
  data.buffer.upload(bytes.data(), bytes.size());
  return data;
}

}  // namespace

TEST_CASE("09_reduction: every CUDA sum is exact on every run", "[ch09][.][cuda]") {
  chapter09::CudaSummer summer(gauss::select_cuda_device(-1));
  for (std::size_t n : kSizes) check_all_methods(summer, "CUDA", random_bytes(n), upload_cuda);
}

TEST_CASE("09_reduction: CUDA sums past 2^32 (all bytes 255)", "[ch09][.][cuda]") {
  chapter09::CudaSummer summer(gauss::select_cuda_device(-1));
  const std::vector<std::uint8_t> bright((std::size_t{1} << 24) + (std::size_t{1} << 20) + 7, 255);
  const CudaData data = upload_cuda(bright);
  for (SumMethod method :
       {SumMethod::Atomic, SumMethod::AtomicGroup, SumMethod::Interleaved, SumMethod::Tree, SumMethod::MultiPass,
        SumMethod::ManyPerItem, SumMethod::Shuffle, SumMethod::RowsFirst, SumMethod::ColumnsFirst}) {
    summer.poison();
    CHECK(summer.sum(method, data.handle(), bright.size()).total == 255ull * bright.size());
  }
}

TEST_CASE("09_reduction: the interleaved tree and the row and column walks are exact on awkward shapes (CUDA)",
          "[ch09][.][cuda]") {
  chapter09::CudaSummer summer(gauss::select_cuda_device(-1));
  check_webinar_methods(summer, "CUDA", upload_cuda);
}

TEST_CASE("09_reduction: the seeds' example in CUDA", "[ch09][.][cuda]") {
  chapter09::CudaSummer summer(gauss::select_cuda_device(-1));
  std::vector<std::uint32_t> values(256);
  std::iota(values.begin(), values.end(), 0u);
  CHECK(summer.sum_256(values) == 32640);
}

TEST_CASE("09_reduction: the chapter's sections run clean on CUDA", "[ch09][.][cuda]") {
  const char* argv[] = {"09_reduction", "--api", "cuda", "--size", "451x300", "--repeat", "3", "--warmup", "1"};
  CHECK(chapter().run(static_cast<int>(std::size(argv)), argv) == 0);
}

TEST_CASE("09_reduction: CUDA naive (chapter 01's kernel) matches the goldens", "[ch09][.][cuda]") {
  gauss::test::check_on_goldens(chapter(), "naive", gauss::Api::Cuda, {{1.0, 2}});
}
#endif
