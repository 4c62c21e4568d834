// Chapter 02: the main line's kernel (8 rows per item) and chapter 01's blur
// in every work-group shape, against the goldens and the CPU reference on
// awkward sizes (which are not multiples of any shape: the rounding and the
// bounds guard are what is tested); the add
// kernel and the compute-bound loop of the sections; and the limits that
// refuse shapes a device cannot run.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "chapter_checks.hpp"
#include "experiments.hpp"  // chapters/02_work_size
#include "gauss/chapter.hpp"
#include "gauss/error.hpp"
#include "gauss/reference.hpp"
#include "gauss/section_tools.hpp"
#include "support.hpp"
#include "work_size_cl.hpp"  // the embedded work_size.cl

namespace chapter02 {
gauss::Chapter make_chapter();  // chapters/02_work_size/main.cpp
}

namespace {

using gauss::Api;
using gauss::BlurSpec;

const gauss::Chapter& chapter() {
  static const gauss::Chapter instance = chapter02::make_chapter();
  return instance;
}

// Every shape variant of the chapter, by name.
std::vector<std::string> shape_variants(Api api) {
  std::vector<std::string> names;
  for (const gauss::Variant& v : chapter().variants())
    if (v.api == api && v.name.rfind("naive_", 0) == 0) names.push_back(v.name);
  return names;
}

// One run, no warm-up: the tests are about what the kernels write.
const gauss::RunSettings kOnce{0, 1, 0.0};

// Runs the chapter program with @p args (OpenCL only, one run) and returns
// its exit status; @p printed receives its standard output.
int run_program(std::vector<std::string> args, std::string& printed) {
  std::vector<std::string> words{"02_work_size", "--api", "opencl", "--repeat", "1", "--warmup", "0"};
  words.insert(words.end(), args.begin(), args.end());
  return gauss::test::run_captured(chapter(), words, printed);
}

// Work-items in the group of the variant called naive_WxH (0 for naive_auto).
int items_of(const std::string& name) {
  const std::size_t under = name.find('_');
  const std::size_t x = name.find('x', under);
  if (under == std::string::npos || x == std::string::npos) return 0;
  return std::stoi(name.substr(under + 1, x - under - 1)) * std::stoi(name.substr(x + 1));
}

// Every shape on three sizes that are multiples of no shape (a few pixels, a
// single row, a photo-sized odd image), against the CPU reference. The
// awkward-size list proper runs on three shapes below: the rounding code is
// the same for all of them, the numbers are what differ.
void check_every_shape(Api api) {
  const BlurSpec blur{1.0, 2};
  for (const std::string& name : shape_variants(api)) {
    for (const gauss::ImageSize size : {gauss::ImageSize{17, 15}, {37, 1}, {451, 300}}) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
      const gauss::VariantResult result =
          gauss::test::run_once(chapter(), name, api, input, blur, gauss::blur_reference(input, blur));
      INFO(name << " at " << gauss::to_string(size) << ", random image seed " << gauss::test::kSeed << ": "
                << (!result.skipped.empty() ? result.skipped
                    : result.error.empty()  ? result.comparison.summary()
                                            : result.error));
      CHECK(result.error.empty());
      if (!result.skipped.empty()) {
        // A device may refuse groups beyond its limit for this kernel (NVIDIA's
        // OpenCL allows this blur 256 items): only a refusal with the reason,
        // and only for groups of more than 256 items, is acceptable.
        CHECK_THAT(result.skipped, Catch::Contains("cannot run on this device"));
        CHECK(items_of(name) > 256);
        continue;
      }
      CHECK(result.comparison.matches());
    }
  }
}

// The main line's kernel (blur_rows): every golden (R = 2 through the window
// of rows, R = 9 through the loop without it), the awkward sizes (heights of
// 1, 15, 31 ... are no multiple of the 8 rows an item computes) at R = 2 and
// at R = 5 and 16 without the window, and every radius 1..16 on two sizes.
void check_main(Api api) {
  gauss::test::check_on_goldens(chapter(), "main", api);
  gauss::test::check_on_awkward_sizes(chapter(), "main", api, {{1.0, 2}, {2.0, 5}, {5.0, 16}});
  for (int radius = 1; radius <= gauss::kMaxRadius; ++radius) {
    const BlurSpec blur{radius / 3.0 + 0.5, radius};
    for (const gauss::ImageSize size : {gauss::ImageSize{45, 70}, {3, 9}}) {
      const gauss::Image input = gauss::test::random_image(size.width, size.height, gauss::PixelFormat::Gray);
      const gauss::VariantResult result =
          gauss::test::run_once(chapter(), "main", api, input, blur, gauss::blur_reference(input, blur));
      INFO("main at " << gauss::to_string(size) << ", " << gauss::describe(blur) << ", random image seed "
                      << gauss::test::kSeed << ": "
                      << (result.error.empty() ? result.comparison.summary() : result.error));
      CHECK(result.error.empty());
      CHECK(result.skipped.empty());
      CHECK(result.comparison.matches());
    }
  }
}

}  // namespace

TEST_CASE("02_work_size: the main line's variant is listed first in both APIs", "[ch02]") {
  gauss::test::check_main_line(chapter(), "main");
}

TEST_CASE("02_work_size: OpenCL main (8 rows per item) against the goldens and the reference", "[ch02][opencl]") {
  check_main(Api::OpenCL);
}

TEST_CASE("02_work_size: every shape is a variant in both APIs", "[ch02]") {
  const std::vector<std::string> opencl = shape_variants(Api::OpenCL);
  CHECK(opencl.size() == 18);  // 17 shapes and the runtime's choice
  for (const char* name : {"naive_1x1", "naive_32x1", "naive_16x16", "naive_32x32", "naive_1024x1", "naive_auto"}) {
    CHECK(chapter().find(name, Api::OpenCL) != nullptr);
  }
#ifdef GAUSS_HAVE_CUDA
  CHECK(shape_variants(Api::Cuda) == opencl);
#endif
}

TEST_CASE("02_work_size: OpenCL shapes match the goldens", "[ch02][opencl]") {
  for (const char* name : {"naive_1x32", "naive_32x8", "naive_auto"})
    gauss::test::check_on_goldens(chapter(), name, Api::OpenCL, {{1.0, 2}});
  gauss::test::check_on_goldens(chapter(), "naive_64x4", Api::OpenCL, {{3.0, 9}});
}

TEST_CASE("02_work_size: OpenCL shapes on awkward sizes", "[ch02][opencl]") {
  check_every_shape(Api::OpenCL);
  for (const char* name : {"naive_1x1", "naive_32x8", "naive_auto"})
    gauss::test::check_on_awkward_sizes(chapter(), name, Api::OpenCL, {{1.0, 2}});
  gauss::test::check_on_awkward_sizes(chapter(), "naive_auto", Api::OpenCL, {{5.0, 16}});
}

TEST_CASE("02_work_size: shapes beyond a limit are refused with the limit named", "[ch02]") {
  chapter02::GroupLimits limits;
  limits.device_max = 1024;
  limits.kernel_max = 480;
  limits.max_x = 1024;
  limits.max_y = 1024;
  limits.registers = 130;
  CHECK(chapter02::why_not_runnable({256, 1}, limits).empty());
  CHECK(chapter02::why_not_runnable({16, 30}, limits).empty());
  CHECK_THAT(chapter02::why_not_runnable({512, 1}, limits), Catch::Contains("this kernel's maximum of 480"));
  CHECK_THAT(chapter02::why_not_runnable({512, 1}, limits), Catch::Contains("130 registers"));
  CHECK_THAT(chapter02::why_not_runnable({2048, 1}, limits), Catch::Contains("in x exceed the device's 1024"));
  CHECK_THAT(chapter02::why_not_runnable({32, 64}, limits), Catch::Contains("device's maximum work-group of 1024"));
  limits.max_y = 64;
  CHECK_THAT(chapter02::why_not_runnable({1, 128}, limits), Catch::Contains("in y exceed"));
  CHECK_THROWS_AS(chapter02::require_runnable({512, 1}, limits, "CUDA"), gauss::Unsupported);
}

TEST_CASE("02_work_size: a shape the OpenCL device cannot run is an error that names the reason", "[ch02][opencl]") {
  const gauss::OpenClDeviceInfo& device = gauss::test::opencl_session().info;
  const std::size_t too_many = device.max_work_group * 2;
  const cl::Kernel kernel = gauss::test::opencl_session().kernel(gauss::embedded::work_size_cl, "add_ints");
  const chapter02::GroupLimits limits = chapter02::opencl_kernel_limits(gauss::test::opencl_session(), kernel);
  CHECK(limits.kernel_max >= 1);
  CHECK(limits.kernel_max <= limits.device_max);
  CHECK_FALSE(chapter02::why_not_runnable({static_cast<int>(too_many), 1}, limits).empty());
}

TEST_CASE("02_work_size: the add kernel is exact in every shape, on sizes that are not multiples of 32",
          "[ch02][opencl]") {
  for (const gauss::ImageSize size : {gauss::ImageSize{1, 1}, {37, 23}, {2047, 3}, {33, 65}}) {
    for (const chapter02::Shape shape : {chapter02::Shape{1, 1}, {32, 1}, {0, 0}, {16, 16}}) {
      const chapter02::AddRun run =
          chapter02::run_add_opencl(gauss::test::opencl_session(), size.width, size.height, shape, kOnce);
      INFO(gauss::to_string(size) << " in " << chapter02::shape_text(shape) << " groups");
      CHECK(run.wrong == 0);
      CHECK(run.clocks.runs == 1);
      CHECK(run.clocks.device_ms > 0);
    }
  }
}

TEST_CASE("02_work_size: the loop writes every item, the same for every group size", "[ch02][opencl]") {
  chapter02::LoopSpec spec;
  spec.items = 1000;  // not a multiple of any group: the guard is exercised
  spec.iterations = 8;
  std::vector<std::uint32_t> first;
  for (const int group : {1, 7, 32, 256}) {
    spec.group = group;
    for (const std::size_t reserved : {std::size_t{0}, std::size_t{1024}}) {
      spec.reserved_bytes = reserved;
      const chapter02::LoopRun run = chapter02::run_loop_opencl(gauss::test::opencl_session(), spec, kOnce);
      INFO("group " << group << ", " << reserved << " bytes reserved");
      REQUIRE(run.output.size() == spec.items);
      CHECK(chapter02::implausible_outputs(run.output) == 0);
      if (first.empty()) first = run.output;
      CHECK(run.output == first);
      CHECK(run.first_launch_host_ms > 0);  // toropippi's clock: the build, the first launch, the readback
    }
  }
}

TEST_CASE("02_work_size: the compute sweep has toropippi's host-clock column, positive wherever a size ran",
          "[ch02][opencl]") {
  const std::string csv = gauss::test::scratch_dir() + "/02_toropippi.csv";
  const std::string section_csv = gauss::test::scratch_dir() + "/02_toropippi.compute_sweep.csv";
  std::remove(section_csv.c_str());
  setenv("GAUSS_LOOP_ITEMS", "256", 1);
  setenv("GAUSS_LOOP_ITERATIONS", "4", 1);
  std::string printed;
  const int status = run_program({"--variant", "compute_sweep", "--csv", csv}, printed);
  unsetenv("GAUSS_LOOP_ITEMS");
  unsetenv("GAUSS_LOOP_ITERATIONS");
  INFO(printed);
  CHECK(status == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("first launch host ms"));
  CHECK_THAT(printed, Catch::Contains("OpenCL: with the build of the kernel for that size"));
  std::ifstream file(section_csv);
  REQUIRE(file.good());
  std::string header;
  std::getline(file, header);
  // The last column, so that a device name with a comma cannot shift it.
  REQUIRE(header.size() >= std::string(",first_launch_host_ms").size());
  CHECK(header.substr(header.rfind(',') + 1) == "first_launch_host_ms");
  int ran = 0;
  for (std::string line; std::getline(file, line);) {
    INFO(line);
    const std::string last = line.substr(line.rfind(',') + 1);
    if (line.find(",skipped,") != std::string::npos) {
      CHECK(last.empty());
      continue;
    }
    CHECK(std::stod(last) > 0);
    ++ran;
  }
  CHECK(ran >= 8);  // groups of 1 to 128 at least run everywhere
}

TEST_CASE("02_work_size: the loop's range check catches unwritten and wrong outputs", "[ch02]") {
  std::vector<std::uint32_t> output{100000000u, 100000001u + 500000000u, 790000002u};
  CHECK(chapter02::implausible_outputs(output) == 0);
  output[1] = 0xFFFFFFFFu;  // the poison
  CHECK(chapter02::implausible_outputs(output) == 1);
  output[2] = 5;  // x = id, as if the loop never ran
  CHECK(chapter02::implausible_outputs(output) == 2);
}

TEST_CASE("02_work_size: the sections run, print their tables and write their CSV files", "[ch02][opencl]") {
  const std::string csv = gauss::test::scratch_dir() + "/02_sections.csv";
  for (const char* section : {"rigaya_add", "compute_sweep_reserved"})
    std::remove((gauss::test::scratch_dir() + "/02_sections." + section + ".csv").c_str());
  setenv("GAUSS_LOOP_ITEMS", "256", 1);
  setenv("GAUSS_LOOP_ITERATIONS", "4", 1);
  std::string printed;
  const int status = run_program({"--size", "45x30", "--variant", "group_limits", "--variant", "rigaya_add",
                                  "--variant", "compute_sweep_reserved", "--csv", csv},
                                 printed);
  unsetenv("GAUSS_LOOP_ITEMS");
  unsetenv("GAUSS_LOOP_ITERATIONS");
  INFO(printed);
  CHECK(status == gauss::kExitOk);
  CHECK_THAT(printed, Catch::Contains("c = a + b over 45 x 30 ints"));
  CHECK_THAT(printed, Catch::Contains("{1,1} against {32,1}"));
  CHECK_THAT(printed, Catch::Contains("33.11 / 1.64 ms"));
  CHECK_THAT(printed, Catch::Contains("256 items x 4 steps"));
  CHECK_THAT(printed, Catch::Contains("CL_KERNEL_WORK_GROUP_SIZE"));
  for (const char* section : {"rigaya_add", "compute_sweep_reserved"}) {
    std::ifstream file(gauss::test::scratch_dir() + "/02_sections." + section + ".csv");
    CHECK(file.good());
  }
}

TEST_CASE("02_work_size: the sections' CSV files sit next to --csv", "[ch02]") {
  gauss::Options options;
  CHECK(gauss::sections::csv_path(options, "sweep").empty());
  options.csv = "logs/run1.csv";
  CHECK(gauss::sections::csv_path(options, "sweep") == "logs/run1.sweep.csv");
  options.csv = "logs.d/results";
  CHECK(gauss::sections::csv_path(options, "sweep") == "logs.d/results.sweep.csv");
}

TEST_CASE("02_work_size: a bad GAUSS_LOOP_ITERATIONS is bad input", "[ch02]") {
  setenv("GAUSS_LOOP_ITERATIONS", "12x", 1);
  CHECK_THROWS_AS(chapter02::loop_spec_from_environment(), gauss::InputError);
  unsetenv("GAUSS_LOOP_ITERATIONS");
  CHECK(chapter02::loop_spec_from_environment().iterations == 2048);
  CHECK(chapter02::loop_spec_from_environment().items == 262144);
}

// --- CUDA (run where there is a device, reported as skipped elsewhere) -------------

TEST_CASE("02_work_size: CUDA main (8 rows per thread) against the goldens and the reference", "[ch02][.][cuda]") {
  check_main(Api::Cuda);
}

TEST_CASE("02_work_size: CUDA shapes match the goldens", "[ch02][.][cuda]") {
  for (const char* name : {"naive_1x32", "naive_32x8", "naive_auto"})
    gauss::test::check_on_goldens(chapter(), name, Api::Cuda, {{1.0, 2}});
  gauss::test::check_on_goldens(chapter(), "naive_64x4", Api::Cuda, {{3.0, 9}});
}

TEST_CASE("02_work_size: CUDA shapes on awkward sizes", "[ch02][.][cuda]") {
  check_every_shape(Api::Cuda);
  for (const char* name : {"naive_1x1", "naive_32x8", "naive_auto"})
    gauss::test::check_on_awkward_sizes(chapter(), name, Api::Cuda, {{1.0, 2}});
  gauss::test::check_on_awkward_sizes(chapter(), "naive_auto", Api::Cuda, {{5.0, 16}});
}

#ifdef GAUSS_HAVE_CUDA
TEST_CASE("02_work_size: CUDA refuses shapes beyond the kernel's register limit, with the reason", "[ch02][.][cuda]") {
  // At radius 16 the fully unrolled blur needs ~255 registers per thread:
  // 1024 threads would need 4 times the SM's 64K registers.
  const chapter02::GroupLimits limits = chapter02::cuda_blur_limits(16);
  CHECK(limits.kernel_max < 1024);
  CHECK_THAT(chapter02::why_not_runnable({32, 32}, limits), Catch::Contains("registers per thread"));
  const gauss::Image input = gauss::test::random_image(40, 30, gauss::PixelFormat::Gray);
  const BlurSpec blur{5.0, 16};
  const gauss::VariantResult result =
      gauss::test::run_once(chapter(), "naive_32x32", Api::Cuda, input, blur, gauss::blur_reference(input, blur));
  CHECK(result.error.empty());
  CHECK_THAT(result.skipped, Catch::Contains("cannot run on this device"));
}

TEST_CASE("02_work_size: CUDA add kernel and loop", "[ch02][.][cuda]") {
  for (const chapter02::Shape shape : {chapter02::Shape{1, 1}, {32, 1}, {0, 0}}) {
    const chapter02::AddRun run = chapter02::run_add_cuda(2047, 3, shape, kOnce);
    CHECK(run.wrong == 0);
  }
  chapter02::LoopSpec spec;
  spec.items = 1000;
  spec.iterations = 8;
  std::vector<std::uint32_t> first;
  for (const int group : {1, 7, 32, 1024}) {
    spec.group = group;
    spec.reserved_bytes = group == 7 ? chapter02::kReservedBytes : 0;
    const chapter02::LoopRun run = chapter02::run_loop_cuda(spec, kOnce);
    CHECK(chapter02::implausible_outputs(run.output) == 0);
    CHECK(run.first_launch_host_ms > 0);
    if (first.empty()) first = run.output;
    CHECK(run.output == first);
  }
}
#endif
